"""doccano's JSON-lines export of sequence-labelling, relation, text-classification and intent projects.

One document per line, its id the line's ``id`` (else the line number), its text ``text``. Spans come from
``label`` (or ``labels``), a list of ``[start, end, label]`` (sequence labelling), or from ``entities``,
objects with ``id``, ``start_offset``, ``end_offset`` and ``label`` (relation projects) or ``[start, end,
label]`` lists (intent detection), whose ``relations`` (``from_id``, ``to_id``, ``type``) become spanless
annotations named by their type with the attributes ``from`` and ``to`` pointing to the spans. Offsets are code
points into the text. A file of pretty-printed objects (one object over several lines) is read as well.

Classes of whole texts are read as such (:mod:`accord.formats._document_labels`: one annotation over the whole
text per class, for ``score`` per label and ``agree`` one item per document): a ``label`` list of plain strings (a
text-classification export; ``label: []`` a document without class), and intent detection's ``cats`` when the
file holds no span, or when the annotation set ``cats`` is asked for (``--gold-set cats``,
``annotation_set="cats"``); otherwise the ``cats`` of a file of spans are left out with a warning that counts them.
A file mixing classes and spans in ``label`` is an error naming the line.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

from ...errors import AccordWarning, FormatError, OptionError, quoted
from ...model import Attributes, Corpus, Document
from .._document_labels import class_annotations, is_document_labelled, labelled_metadata
from .._refs import RawAnnotation, Ref, build_annotations
from .._registry import Format, file_head, option_hint, register
from ._span_relations import check_spans_and_relations, relation_ends
from .jsonl import json_lines

__all__ = ["read_doccano", "write_doccano"]


def _int(value: Any, what: str, where: str, p: Path, line: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise FormatError(f"{where}: {what} {quoted(value)} is not an offset (an integer >= 0)", path=p, line=line)
    return value


def _text(obj: Any, p: Path, line: int) -> tuple[str, str, str]:
    """The document id, its name in messages and its text."""
    if not isinstance(obj, dict):
        raise FormatError("expected an object with 'text' and 'label' or 'entities'", path=p, line=line)
    doc_id = str(obj.get("id", line))
    where = f"document {quoted(doc_id)}"
    text = obj.get("text")
    if not isinstance(text, str):
        fields = ", ".join(quoted(k, 30) for k in list(obj)[:8]) or "none"
        raise FormatError(f"{where}: no 'text' string (its fields: {fields}; a doccano export names the text "
                          "'text')", path=p, line=line)
    return doc_id, where, text


def _classes_document(obj: Any, key: str, p: Path, line: int) -> Document:
    """A document of classes: ``key`` (``label`` or ``cats``) a list of class names (absent: none)."""
    doc_id, where, text = _text(obj, p, line)
    classes = obj.get(key, obj.get("labels") if key == "label" else None)
    if classes is None:
        classes = []
    if not isinstance(classes, list):
        raise FormatError(f"{where}: {key!r} is not a list of classes", path=p, line=line)
    for c in classes:
        if not isinstance(c, str) or not c:
            what = "a span: this file mixes spans and classes of whole texts" if isinstance(c, list) else "not a name"
            raise FormatError(f"{where}: {key!r} holds {quoted(c)}, {what}", path=p, line=line)
    if len(set(classes)) != len(classes):
        twice = next(c for c in classes if classes.count(c) > 1)
        raise FormatError(f"{where}: class {quoted(twice)} is given twice", path=p, line=line)
    return Document(doc_id, class_annotations(classes, text), text, None, None,
                    labelled_metadata({"source": str(p)}))


def _document(obj: Any, p: Path, line: int) -> Document:
    doc_id, where, text = _text(obj, p, line)
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
                raise FormatError(f"{where}: 'label' holds the class {quoted(item)} among spans: this file mixes "
                                  "spans and classes of whole texts", path=p, line=line)
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


_SETS = ("spans", "cats")
"""The annotation sets of a doccano file: its spans (and relations), or intent detection's classes."""


def _has_classes(obj: Any) -> bool:
    labels = obj.get("label", obj.get("labels")) if isinstance(obj, dict) else None
    return isinstance(labels, list) and any(isinstance(x, str) for x in labels)


def _has_spans(obj: Any) -> bool:
    if not isinstance(obj, dict):
        return False
    labels = obj.get("label", obj.get("labels"))
    return bool(obj.get("entities")) or bool(obj.get("spans")) or bool(obj.get("relations")) or (
        isinstance(labels, list) and any(not isinstance(x, str) for x in labels))


def read_doccano(path: str | Path, *, encoding: str | None = None, annotation_set: str | None = None,
                 **_ignored: Any) -> Corpus:
    """Read a doccano JSON-lines export (see the module docstring); ``annotation_set`` ``"cats"`` reads intent
    detection's classes, ``"spans"`` (or none) the spans."""
    p = Path(path)
    if annotation_set is not None and annotation_set not in _SETS:
        raise OptionError(f"a doccano file's annotation sets are spans and cats (intent detection's classes); got "
                          f"{annotation_set!r}")
    values = list(json_lines(p, encoding=encoding, spread=True))
    if not values:
        raise FormatError("no document in this file", path=p)
    with_cats = [obj for _, obj in values if isinstance(obj, dict) and isinstance(obj.get("cats"), list)]
    if annotation_set == "cats" or (annotation_set is None and with_cats
                                    and not any(_has_spans(obj) for _, obj in values)):
        docs = [_classes_document(obj, "cats", p, line) for line, obj in values]
    elif annotation_set is None and any(_has_classes(obj) for _, obj in values):
        docs = [_classes_document(obj, "label", p, line) for line, obj in values]
    else:
        docs = [_document(obj, p, line) for line, obj in values]
        classes = sum(len(obj["cats"]) for obj in with_cats)
        if classes:
            warnings.warn(AccordWarning(f"{p}: {classes} class(es) of whole texts ('cats') left out: the spans are "
                                        f"read (the annotation set 'cats' reads the classes: "
                                        f"{option_hint('set')} cats)"), stacklevel=2)
    try:
        return Corpus(docs, name=str(p))
    except ValueError as exc:
        raise FormatError(str(exc), path=p) from None


def write_doccano(corpus: Corpus, path: str | Path, **_ignored: Any) -> None:
    """One line per document: ``entities`` and ``relations`` (relation projects' layout), or, for classes of whole
    texts, ``label``, the list of classes (text classification's). Documents need their text; a spanless
    annotation must point to two spans through ``from``/``to`` (or ``arg1``/``arg2``)."""
    lines = []
    if is_document_labelled(corpus):      # classes of whole texts: a text-classification export
        for doc in corpus.documents:
            lines.append(json.dumps({"id": doc.id, "text": doc.text, "label": [a.label for a in doc.annotations]},
                                    ensure_ascii=False))
        Path(path).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        return
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
        '"label"' in first or '"entities"' in first or '"labels"' in first or '"spans"' in first
        or '"cats"' in first) and '"annotations"' not in first and not _generated_records(p) and not _prodigy(head)


def _prodigy(head: str) -> bool:
    """Whether the first line carries the keys Prodigy adds to a task (its own format, :mod:`.prodigy`)."""
    from .prodigy import prodigy_keys

    return prodigy_keys(head.lstrip().split("\n", 1)[0])


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
                "doccano JSON-lines export: sequence labelling ([start, end, label]), relation projects, classes of "
                "whole texts (text classification, intents)"))
