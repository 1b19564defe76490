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
spanless), an optional ``id`` and ``attributes``: strings, numbers and booleans as
themselves, ``{"ref": ID}`` for a pointer to another annotation of the same document,
``{"set": [...]}`` for a set and a JSON array for a list.
"""

from __future__ import annotations

import json
from pathlib import Path
from collections.abc import Iterator
from typing import Any

from ..errors import FormatError
from ..model import Annotation, Attributes, Corpus, Document
from ._refs import RawAnnotation, Ref, build_annotations, ref_id, writer_ids
from ._registry import Format, register

__all__ = ["read_jsonl", "write_jsonl", "document_from_json", "document_to_json", "json_lines"]


def _value_in(v: Any, where: str, path: object, line: int) -> Any:
    if isinstance(v, dict):
        if set(v) == {"ref"} and isinstance(v["ref"], str):
            return Ref(v["ref"])
        if set(v) == {"set"} and isinstance(v["set"], list):
            return frozenset(_value_in(x, where, path, line) for x in v["set"])
        raise FormatError(f"{where}: an attribute object must be {{\"ref\": ID}} or {{\"set\": [...]}}; got {v!r}",
                          path=path, line=line)
    if isinstance(v, list):
        return tuple(_value_in(x, where, path, line) for x in v)
    return v


def document_from_json(obj: Any, *, path: object = None, line: int | None = None) -> Document:
    """Build a document from one parsed JSON object of the format above."""
    if not isinstance(obj, dict) or not isinstance(obj.get("id"), str):
        raise FormatError("expected an object with a string \"id\"", path=path, line=line)
    doc_id = obj["id"]
    raw = []
    anns = obj.get("annotations", [])
    if not isinstance(anns, list):
        raise FormatError(f"document {doc_id!r}: \"annotations\" must be a list", path=path, line=line)
    for k, a in enumerate(anns):
        where = f"document {doc_id!r}, annotation {k}"
        if not isinstance(a, dict) or not isinstance(a.get("label"), str):
            raise FormatError(f"{where}: expected an object with a string \"label\"", path=path, line=line)
        start, end = a.get("start"), a.get("end")
        for v in (start, end):
            if v is not None and (not isinstance(v, int) or isinstance(v, bool)):
                raise FormatError(f"{where}: start and end must be integers", path=path, line=line)
        attrs = a.get("attributes") or {}
        if not isinstance(attrs, dict):
            raise FormatError(f"{where}: \"attributes\" must be an object", path=path, line=line)
        raw.append(RawAnnotation(a["label"], start, end, {n: _value_in(v, where, path, line) for n, v in attrs.items()},
                                 None if a.get("id") is None else str(a["id"]), line))
    annotations = build_annotations(raw, path=path, doc_id=doc_id)
    text = obj.get("text")
    tokens = obj.get("tokens")
    limit = len(text) if text is not None else (len(tokens) if tokens is not None else None)
    if limit is not None:
        for ann in annotations:
            if ann.end is not None and ann.end > limit:
                raise FormatError(f"document {doc_id!r}: {ann!r} ends at {ann.end}, past the end of the document "
                                  f"({limit} {'characters' if text is not None else 'tokens'})", path=path, line=line)
    sentences = obj.get("sentences")
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


def json_lines(path: str | Path, *, encoding: str = "utf-8") -> Iterator[tuple[int, Any]]:
    """``(line number, value)`` for each non-blank line of a JSON-lines file; bad JSON names the line."""
    p = Path(path)
    with p.open(encoding=encoding) as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                yield lineno, json.loads(line)
            except json.JSONDecodeError as exc:
                raise FormatError(f"not valid JSON ({exc.msg} at column {exc.colno})", path=p, line=lineno) from None


def read_jsonl(path: str | Path, *, encoding: str = "utf-8", **_ignored: Any) -> Corpus:
    """Read a JSON lines file, one document per non-blank line."""
    p = Path(path)
    docs = [document_from_json(obj, path=p, line=lineno) for lineno, obj in json_lines(p, encoding=encoding)]
    try:
        return Corpus(docs, name=str(p))
    except ValueError as exc:
        raise FormatError(str(exc), path=p) from None


def write_jsonl(corpus: Corpus, path: str | Path, **_ignored: Any) -> None:
    """Write one document per line."""
    with Path(path).open("w", encoding="utf-8") as fh:
        for doc in corpus.values():
            fh.write(json.dumps(document_to_json(doc), ensure_ascii=False) + "\n")


register(Format("jsonl", read_jsonl, write_jsonl, (".jsonl",), None,
                "accord's JSON lines: one document per line"))
