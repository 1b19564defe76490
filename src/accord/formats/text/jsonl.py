"""accord's JSON lines format: one document per line.

Each line is an object::

    {"id": "doc1", "text": "John visited Guam.", "tokens": null, "metadata": {"genre": "news"},
     "annotations": [
       {"id": "T1", "label": "PER", "start": 0, "end": 4, "attributes": {"nomtype": "NAM"}},
       {"id": "T2", "label": "LOC", "start": 13, "end": 17},
       {"label": "VISIT", "attributes": {"agent": {"ref": "T1"}, "place": {"ref": "T2"},
                                         "tags": {"set": ["a", "b"]}, "path": [1, 2]}}]}

``id`` is required and unique. ``text`` (spans are character offsets) or ``tokens``
(spans are token offsets) are optional, as are ``sentences`` (pairs of offsets) and
``metadata``. An annotation has a ``label``, ``start`` and ``end`` (both or neither:
spanless), optionally ``fragments`` (the pieces ``[[start, end], ...]`` of a discontinuous
span; ``start`` and ``end`` are then their extent), an optional ``id`` and ``attributes``:
strings, numbers and booleans as
themselves, ``{"ref": ID}`` for a pointer to another annotation of the same document,
``{"set": [...]}`` for a set and a JSON array for a list.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..._support.io import read_text
from ...errors import FormatError, quoted
from ...model import Annotation, Attributes, Corpus, Document
from .._json import INTEGER, NULL, SCALAR, STRING, ListOf, Nullable, Object, OneOf, check, parse_json
from .._refs import RawAnnotation, Ref, build_annotations, ref_id, writer_ids
from .._registry import Format, option_hint, register

__all__ = ["read_jsonl", "write_jsonl", "document_from_json", "document_to_json", "json_lines"]


_REF = Object({"ref": STRING}, required=("ref",), closed=True, name='{"ref": ID}')
_ITEM = OneOf((SCALAR, _REF), name='a string, number, boolean or {"ref": ID}')
_SET = Object({"set": ListOf(_ITEM)}, required=("set",), closed=True, name='{"set": [...]}')
_VALUE = OneOf((SCALAR, NULL, _REF, _SET, ListOf(_ITEM)),
               name='a string, number, boolean, null, {"ref": ID}, {"set": [...]} or an array of values')
_ANNOTATION = Object({"id": OneOf((STRING, INTEGER, NULL), name="a string, integer or null"), "label": STRING,
                      "start": Nullable(INTEGER), "end": Nullable(INTEGER),
                      "fragments": Nullable(ListOf(ListOf(INTEGER, 2, 2))),
                      "attributes": Nullable(Object({}, extra=_VALUE))},
                     required=("label",), name="an annotation object")
DOCUMENT = Object({"id": STRING, "text": Nullable(STRING), "tokens": Nullable(ListOf(STRING)),
                   "sentences": Nullable(ListOf(ListOf(INTEGER, 2, 2))), "metadata": Nullable(Object({})),
                   "annotations": ListOf(_ANNOTATION)}, required=("id",), name="a document object")
"""The shape of one line of accord's JSON lines (see the module docstring)."""


def _value_in(v: Any) -> Any:
    """An attribute value of a checked document: refs and sets become their model values."""
    if isinstance(v, dict):
        if "ref" in v:
            return Ref(v["ref"])
        return frozenset(Ref(x["ref"]) if isinstance(x, dict) else x for x in v["set"])
    if isinstance(v, list):
        return tuple(Ref(x["ref"]) if isinstance(x, dict) else x for x in v)
    return v


def document_from_json(obj: Any, *, path: object = None, line: int | None = None) -> Document:
    """Build a document from one parsed JSON object of the format above (its shape checked first)."""
    if isinstance(obj, dict) and "id" not in obj and "annotations" not in obj:
        fields = ", ".join(quoted(k, 30) for k in list(obj)[:8]) or "none"
        raise FormatError(f"$: not a document of accord's JSON lines (no \"id\" nor \"annotations\"; its fields: "
                          f"{fields}); a doccano export has \"text\" and \"label\" or \"entities\" "
                          f"({option_hint('format')} doccano)", path=path, line=line)
    check(obj, DOCUMENT, path=path, line=line)
    doc_id = obj["id"]
    raw = []
    for k, a in enumerate(obj.get("annotations") or ()):
        start, end = a.get("start"), a.get("end")
        if (start is None) != (end is None) or (start is not None and not 0 <= start <= end):
            raise FormatError(f"$.annotations[{k}]: expected both start and end (0 <= start <= end) or neither; "
                              f"got [{quoted(start)}, {quoted(end)})", path=path, line=line)
        frags = a.get("fragments")
        if frags is not None:
            pieces = tuple(sorted((x, y) for x, y in frags))
            if start is None or not pieces or any(not 0 <= x <= y for x, y in pieces) \
                    or any(pieces[i][1] > pieces[i + 1][0] for i in range(len(pieces) - 1)) \
                    or (pieces[0][0], pieces[-1][1]) != (start, end):
                raise FormatError(f"$.annotations[{k}]: fragments must be disjoint pieces [start, end) whose extent is "
                                  f"the annotation's [{start!r}, {end!r}); got {quoted(frags)}", path=path, line=line)
            frags = pieces if len(pieces) > 1 else None
        attrs = a.get("attributes") or {}
        raw.append(RawAnnotation(a["label"], start, end, {n: _value_in(v) for n, v in attrs.items() if v is not None},
                                 None if a.get("id") is None else str(a["id"]), line, frags))
    annotations = build_annotations(raw, path=path, doc_id=doc_id)
    text = obj.get("text")
    tokens = obj.get("tokens")
    limit = len(text) if text is not None else (len(tokens) if tokens is not None else None)
    if limit is not None:
        for k, ann in enumerate(annotations):
            if ann.end is not None and ann.end > limit:
                raise FormatError(f"$.annotations[{k}]: document {quoted(doc_id)}: {quoted(ann)} ends at {ann.end}, "
                                  "past the end "
                                  f"of the document ({limit} {'characters' if text is not None else 'tokens'})",
                                  path=path, line=line)
    sentences = obj.get("sentences")
    if sentences is not None:
        bound = limit if limit is not None else float("inf")
        for k, (a, b) in enumerate(sentences):
            if not 0 <= a <= b <= bound:
                raise FormatError(f"$.sentences[{k}]: sentence [{a}, {b}) does not lie in the document",
                                  path=path, line=line)
    return Document(doc_id, annotations, text, None if tokens is None else tuple(tokens),
                    None if sentences is None else tuple(tuple(s) for s in sentences),
                    Attributes(obj.get("metadata") or {}))


def _value_out(v: Any, ids: dict[int, str]) -> Any:
    if isinstance(v, Annotation):
        return {"ref": ref_id(v, ids)}
    if isinstance(v, frozenset):
        return {"set": sorted((_value_out(x, ids) for x in v), key=lambda x: json.dumps(x, sort_keys=True))}
    if isinstance(v, tuple):
        return [_value_out(x, ids) for x in v]
    return v


def document_to_json(doc: Document) -> dict[str, Any]:
    """The JSON object of a document (annotations that others point to get ids)."""
    ids = writer_ids(doc.annotations)
    anns = []
    for a in doc.annotations:
        item: dict[str, Any] = {}
        aid = ids.get(id(a), a.id)
        if aid is not None:
            item["id"] = aid
        item["label"] = a.label
        if a.start is not None:
            item["start"], item["end"] = a.start, a.end
        if a.fragments is not None:
            item["fragments"] = [list(f) for f in a.fragments]
        if a.attributes:
            item["attributes"] = {k: _value_out(v, ids) for k, v in a.attributes.items()}
        anns.append(item)
    out: dict[str, Any] = {"id": doc.id}
    if doc.text is not None:
        out["text"] = doc.text
    if doc.tokens is not None:
        out["tokens"] = list(doc.tokens)
    if doc.sentences is not None:
        out["sentences"] = [list(s) for s in doc.sentences]
    meta = {k: v for k, v in (doc.metadata or {}).items() if isinstance(v, (str, int, float, bool)) or v is None}
    if meta:
        out["metadata"] = meta
    out["annotations"] = anns
    return out


def json_lines(path: str | Path, *, encoding: str | None = None,
               spread: bool = False) -> Iterator[tuple[int, Any]]:
    """``(line number, value)`` for each non-blank line of a JSON-lines file; bad JSON names the line.

    With ``spread``, a file whose first line is not JSON is read as JSON values one after another, each of any
    number of lines (a pretty-printed export), numbered by the line each begins on; if it is not that either, the
    error is the first line's."""
    p = Path(path)
    text = read_text(p, encoding)
    first = True
    for lineno, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        try:
            value = parse_json(line, path=p, line=lineno)
        except FormatError:
            if not (spread and first):
                raise
            values = _spread_values(text)
            if values is None:
                raise
            yield from values
            return
        first = False
        yield lineno, value


def _spread_values(text: str) -> list[tuple[int, Any]] | None:
    """JSON values one after another, with the line each begins on; ``None`` if the text is not that."""
    import json

    from .._json import MAX_DEPTH, _nesting_depth, _refuse_constant

    if _nesting_depth(text) > MAX_DEPTH:
        return None
    decoder = json.JSONDecoder(parse_constant=_refuse_constant)
    out: list[tuple[int, Any]] = []
    at, line, counted = 0, 1, 0
    while True:
        while at < len(text) and text[at] in " \t\r\n":
            at += 1
        if at == len(text):
            return out
        line += text.count("\n", counted, at)
        counted = at
        try:
            value, at = decoder.raw_decode(text, at)
        except (ValueError, RecursionError):
            return None
        out.append((line, value))


def corpus_of_lines(path: str | Path, document: Any, encoding: str | None = None) -> Corpus:
    """A corpus of a JSON-lines file: ``document(obj, path=, line=)`` makes each non-blank line's document; a
    document id twice is a FormatError naming the file (accord's JSON lines, generated records)."""
    p = Path(path)
    docs = [document(obj, path=p, line=lineno) for lineno, obj in json_lines(p, encoding=encoding)]
    try:
        return Corpus(docs, name=str(p))
    except ValueError as exc:
        raise FormatError(str(exc), path=p) from None


def read_jsonl(path: str | Path, *, encoding: str | None = None, **_ignored: Any) -> Corpus:
    """Read a JSON lines file, one document per non-blank line."""
    return corpus_of_lines(path, document_from_json, encoding)


def write_jsonl(corpus: Corpus, path: str | Path, **_ignored: Any) -> None:
    """Write one document per line."""
    with Path(path).open("w", encoding="utf-8") as fh:
        for doc in corpus.values():
            fh.write(json.dumps(document_to_json(doc), ensure_ascii=False) + "\n")


register(Format("jsonl", read_jsonl, write_jsonl, (".jsonl",), None,
                "accord's JSON lines: one document per line", discontinuous=True))
