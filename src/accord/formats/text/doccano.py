"""doccano's JSON-lines export of sequence-labelling and relation projects.

One document per line, its id the line's ``id`` (else the line number), its text ``text``. Spans come from
``label`` (or ``labels``), a list of ``[start, end, label]`` (sequence labelling), or from ``entities``,
objects with ``id``, ``start_offset``, ``end_offset`` and ``label`` (relation projects) or ``[start, end,
label]`` lists (intent detection, whose ``cats``, classes of the whole text, are left out with a warning), whose
``relations`` (``from_id``, ``to_id``, ``type``) become spanless annotations named by their type with the
attributes ``from`` and ``to`` pointing to the spans. Offsets are code points into the text. A ``label`` list of
plain strings is a text-classification export: not spans, an error that says so. A file of pretty-printed objects
(one object over several lines) is read as well.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

from ...errors import AccordWarning, FormatError, quoted
from ...model import Attributes, Corpus, Document
from .._refs import RawAnnotation, Ref, build_annotations
from .._registry import Format, file_head, register
from ._span_relations import check_spans_and_relations, relation_ends
from .jsonl import json_lines

__all__ = ["read_doccano", "write_doccano"]


def _int(value: Any, what: str, where: str, p: Path, line: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise FormatError(f"{where}: {what} {quoted(value)} is not an offset (an integer >= 0)", path=p, line=line)
    return value


def _document(obj: Any, p: Path, line: int) -> Document:
    if not isinstance(obj, dict):
        raise FormatError("expected an object with 'text' and 'label' or 'entities'", path=p, line=line)
    doc_id = str(obj.get("id", line))
    where = f"document {quoted(doc_id)}"
    text = obj.get("text")
    if not isinstance(text, str):
        fields = ", ".join(quoted(k, 30) for k in list(obj)[:8]) or "none"
        raise FormatError(f"{where}: no 'text' string (its fields: {fields}; a doccano export names the text "
                          "'text')", path=p, line=line)
    raw: list[RawAnnotation] = []

    def span(start: Any, end: Any, label: Any, ident: str | None) -> None:
        a, b = _int(start, "start", where, p, line), _int(end, "end", where, p, line)
        if not a <= b <= len(text):
            raise FormatError(f"{where}: span [{a}, {b}) does not fit the text ({len(text)} characters)",
                              path=p, line=line)
        if not isinstance(label, str) or not label:
            raise FormatError(f"{where}: label {quoted(label)} is not a name", path=p, line=line)
        raw.append(RawAnnotation(label, a, b, {}, ident))

    labels = obj.get("label", obj.get("labels"))
    if labels is not None:
        if not isinstance(labels, list):
            raise FormatError(f"{where}: 'label' is not a list", path=p, line=line)
        for item in labels:
            if isinstance(item, str):
                raise FormatError(f"{where}: 'label' holds the class {quoted(item)}: a text-classification export, not "
                                  "spans", path=p, line=line)
            if not (isinstance(item, list) and len(item) == 3):
                raise FormatError(f"{where}: expected [start, end, label], got {quoted(item)}", path=p, line=line)
            span(item[0], item[1], item[2], None)
    entities = obj.get("entities") or []
    if not isinstance(entities, list):
        raise FormatError(f"{where}: 'entities' is not a list", path=p, line=line)
    for e in entities:
        if isinstance(e, list) and len(e) == 3:     # intent detection: [start, end, label]
            span(e[0], e[1], e[2], None)
            continue
        if not isinstance(e, dict):
            raise FormatError(f"{where}: an entity is neither an object nor [start, end, label]: {quoted(e)}",
                              path=p, line=line)
        span(e.get("start_offset"), e.get("end_offset"), e.get("label"),
             None if e.get("id") is None else str(e["id"]))
    spans = obj.get("spans")
    if spans is not None:       # Prodigy's (and spaCy's) JSONL: "spans": [{"start", "end", "label", ...}]
        if not isinstance(spans, list):
            raise FormatError(f"{where}: 'spans' is not a list", path=p, line=line)
        for e in spans:
            if not isinstance(e, dict):
                raise FormatError(f"{where}: a span is not an object: {quoted(e)}", path=p, line=line)
            span(e.get("start"), e.get("end"), e.get("label"), None)
    if labels is None and "entities" not in obj and spans is None:
        # a document without spans is valid (doccano's intent exports), but spans under a key neither tool writes
        # ("ents", "annotation") would be read as none at all: refused, naming the key
        for key, value in obj.items():
            if isinstance(value, list) and value and all(
                    isinstance(v, dict) and ("start" in v or "start_offset" in v) for v in value):
                raise FormatError(f"{where}: spans under {quoted(key, 30)}, which is read neither by doccano's "
                                  "reader ('label', 'labels', 'entities') nor by Prodigy's ('spans')",
                                  path=p, line=line)
    relations = obj.get("relations") or []
    if not isinstance(relations, list):
        raise FormatError(f"{where}: 'relations' is not a list", path=p, line=line)
    for r in relations:
        if not isinstance(r, dict) or r.get("from_id") is None or r.get("to_id") is None:
            raise FormatError(f"{where}: a relation needs from_id and to_id", path=p, line=line)
        kind = r.get("type")
        if not isinstance(kind, str) or not kind:
            raise FormatError(f"{where}: relation type {quoted(kind)} is not a name", path=p, line=line)
        raw.append(RawAnnotation(kind, None, None, {"from": Ref(str(r["from_id"])), "to": Ref(str(r["to_id"]))},
                                 None))
    anns = build_annotations(raw, path=p, doc_id=doc_id)
    return Document(doc_id, anns, text, None, None, Attributes(source=str(p)))


def read_doccano(path: str | Path, *, encoding: str | None = None, **_ignored: Any) -> Corpus:
    """Read a doccano JSON-lines export (see the module docstring)."""
    p = Path(path)
    values = list(json_lines(p, encoding=encoding, spread=True))
    docs = [_document(obj, p, line) for line, obj in values]
    if not docs:
        raise FormatError("no document in this file", path=p)
    classes = sum(len(obj["cats"]) for _, obj in values if isinstance(obj.get("cats"), list))
    if classes:
        warnings.warn(AccordWarning(f"{p}: {classes} class(es) of whole texts ('cats') left out: accord scores the "
                                    "spans"), stacklevel=2)
    try:
        return Corpus(docs, name=str(p))
    except ValueError as exc:
        raise FormatError(str(exc), path=p) from None


def write_doccano(corpus: Corpus, path: str | Path, **_ignored: Any) -> None:
    """One line per document: ``entities`` and ``relations`` (relation projects' layout). Documents need their
    text; a spanless annotation must point to two spans through ``from``/``to`` (or ``arg1``/``arg2``)."""
    lines = []
    for doc in corpus.documents:
        ids = check_spans_and_relations(doc, path, "doccano")
        entities = [{"id": ids[id(a)], "start_offset": a.start, "end_offset": a.end, "label": a.label}
                    for a in doc.annotations if a.start is not None]
        relations = []
        for a in doc.annotations:
            if a.start is None:
                ends = relation_ends(a)
                relations.append({"from_id": ids[id(ends[0])], "to_id": ids[id(ends[1])], "type": a.label})
        lines.append(json.dumps({"id": doc.id, "text": doc.text, "entities": entities, "relations": relations},
                                ensure_ascii=False))
    Path(path).write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def _sniff(p: Path) -> bool:
    head = file_head(p, 4096)
    if head is None:
        return False
    first = head.lstrip()
    return first.startswith("{") and '"text"' in first and (
        '"label"' in first or '"entities"' in first or '"labels"' in first or '"spans"' in first) \
        and '"annotations"' not in first and not _generated_records(p)


def _generated_records(p: Path) -> bool:
    """Whether the first line is an object without a "text" of its own (generated records, ``records``: the
    entities' "text" without offsets), not doccano's."""
    head = file_head(p, 1 << 16) or ""
    try:
        obj = json.loads(head.lstrip().split("\n", 1)[0])
    except (ValueError, RecursionError):     # not JSON, or nested past the parser's depth
        return False
    return isinstance(obj, dict) and "text" not in obj


register(Format("doccano", read_doccano, write_doccano, (".jsonl",), _sniff,
                "doccano JSON-lines export: sequence labelling ([start, end, label]) and relation projects"))
