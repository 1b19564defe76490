"""Generated output without offsets (``records``): what a language model extracts, strings and labels per document.

One document a line::

    {"id": "doc1", "entities": [{"text": "New York", "label": "LOC", "attributes": {"kind": "city"}}],
     "relations": [{"head": "Ann", "tail": "New York", "label": "lives_in"}]}

``entities`` and ``relations`` are optional lists (a document without them predicts nothing); an entity has a
``text`` (a non-empty string) and a ``label``, optionally ``attributes`` (strings, numbers, booleans); a relation has
``head``, ``tail`` (strings: the texts of two entities) and a ``label``; an event (``events``) has a ``trigger``
(a string), a ``label`` (its type) and optionally ``arguments``, a list of ``{"role": ..., "text": ...}``. The strings
have no offsets: before scoring, :mod:`accord.pipeline._align` places each on an occurrence in the gold document's
text. Until then a document holds spanless annotations: an entity's string under :data:`TEXT`, a relation's ends under
:data:`HEAD` and :data:`TAIL`, an event's trigger under :data:`TRIGGER` and its ``(role, string)`` arguments under
:data:`ARGUMENTS`, and its metadata marks it as records (:data:`RECORDS`).

The same records are read from a JSON file holding an array of such objects or ``{"documents": [...]}``, from CSV
and TSV, and in Python from lists of dicts, lists of ``(id, text, label)`` tuples and pandas DataFrames
(:mod:`accord.formats.records.generated_forms`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ...errors import FormatError, quoted
from ...model import Annotation, Attributes, Corpus, Document, make_annotation
from .._registry import Format, register

__all__ = ["ARGUMENTS", "HEAD", "KIND", "RECORDS", "TAIL", "TEXT", "TRIGGER", "is_records", "looks_like_record",
           "read_generated", "records_corpus", "records_document", "write_generated"]

RECORDS = "accord_records"
"""The metadata key that marks a document of generated records (strings, not yet placed on a text)."""
TEXT = "_text"
"""The attribute holding an entity's string until it is aligned."""
HEAD, TAIL = "_head", "_tail"
"""The attributes holding a relation's two strings until they are aligned."""
TRIGGER, ARGUMENTS = "_trigger", "_arguments"
"""The attributes holding an event's trigger string and its ``((role, string), ...)`` until they are aligned."""
KIND = "_kind"
"""``entity``, ``relation`` or ``event``."""

_SCALARS = (str, int, float, bool)


def _string(value: Any, where: str, what: str, path: object, line: int | None) -> str:
    if not isinstance(value, str) or not value.strip():
        raise FormatError(f"{where}: {what} must be a non-empty string; got {quoted(value)}", path=path, line=line)
    return value


def records_document(obj: Any, *, path: object = None, line: int | None = None) -> Document:
    """One document of records from a parsed JSON object (see the module docstring); malformed input is a
    :class:`~accord.errors.FormatError` naming the line and the field."""
    if not isinstance(obj, dict):
        raise FormatError(f"expected an object {{\"id\": ..., \"entities\": [...]}}; got {quoted(obj)}",
                          path=path, line=line)
    doc_id = obj.get("id")
    if isinstance(doc_id, int) and not isinstance(doc_id, bool):
        doc_id = str(doc_id)
    if not isinstance(doc_id, str) or not doc_id:
        raise FormatError(f"$.id: expected the document id (a string); got {quoted(doc_id)}", path=path, line=line)
    unknown = [k for k in obj if k not in ("id", "entities", "relations", "events", "text", "metadata")]
    if unknown:
        raise FormatError(f"document {quoted(doc_id)}: unknown field {quoted(unknown[0])} (a record holds id, "
                          "entities, relations and events)", path=path, line=line)
    anns: list[Annotation] = []
    for kind in ("entities", "relations", "events"):
        items = obj.get(kind)
        if items is None:
            continue
        if not isinstance(items, list):
            raise FormatError(f"$.{kind}: expected a list; got {quoted(items)}", path=path, line=line)
        for k, item in enumerate(items):
            where = f"$.{kind}[{k}]"
            if not isinstance(item, dict):
                raise FormatError(f"{where}: expected an object; got {quoted(item)}", path=path, line=line)
            label = _string(item.get("label"), where, "label", path, line)
            if kind == "entities":
                extra = [f for f in item if f not in ("text", "label", "attributes")]
                if extra:
                    raise FormatError(f"{where}: unknown field {quoted(extra[0])} (an entity holds text, label and "
                                      "attributes)", path=path, line=line)
                text = _string(item.get("text"), where, "text", path, line)
                attrs = item.get("attributes") or {}
                if not isinstance(attrs, dict) or any(not isinstance(v, _SCALARS) for v in attrs.values()) \
                        or any(n.startswith("_") for n in attrs):
                    raise FormatError(f"{where}.attributes: expected an object of strings, numbers and booleans "
                                      f"(names not beginning with _); got {quoted(attrs)}", path=path, line=line)
                anns.append(make_annotation(label, None, None, {**attrs, TEXT: text, KIND: "entity"}))
            elif kind == "events":
                anns.append(_event(item, label, where, path, line))
            else:
                extra = [f for f in item if f not in ("head", "tail", "label")]
                if extra:
                    raise FormatError(f"{where}: unknown field {quoted(extra[0])} (a relation holds head, tail and "
                                      "label)", path=path, line=line)
                head = _string(item.get("head"), where, "head", path, line)
                tail = _string(item.get("tail"), where, "tail", path, line)
                anns.append(make_annotation(label, None, None, {HEAD: head, TAIL: tail, KIND: "relation"}))
    return Document(doc_id, tuple(anns), None, None, None, Attributes({RECORDS: True}))


def _event(item: dict[str, Any], label: str, where: str, path: object, line: int | None) -> Annotation:
    extra = [f for f in item if f not in ("trigger", "label", "arguments")]
    if extra:
        raise FormatError(f"{where}: unknown field {quoted(extra[0])} (an event holds trigger, label and arguments)",
                          path=path, line=line)
    trigger = _string(item.get("trigger"), where, "trigger", path, line)
    arguments = item.get("arguments")
    if arguments is None:
        arguments = []
    if not isinstance(arguments, list):
        raise FormatError(f"{where}.arguments: expected a list; got {quoted(arguments)}", path=path, line=line)
    args = []
    for j, arg in enumerate(arguments):
        at = f"{where}.arguments[{j}]"
        if not isinstance(arg, dict):
            raise FormatError(f"{at}: expected an object {{\"role\": ..., \"text\": ...}}; got {quoted(arg)}",
                              path=path, line=line)
        extra = [f for f in arg if f not in ("role", "text")]
        if extra:
            raise FormatError(f"{at}: unknown field {quoted(extra[0])} (an argument holds role and text)",
                              path=path, line=line)
        role = _string(arg.get("role"), at, "role", path, line)
        if role == "trigger" or any(c.isspace() for c in role):
            raise FormatError(f"{at}: role must be one word other than 'trigger'; got {quoted(role)}",
                              path=path, line=line)
        args.append((role, _string(arg.get("text"), at, "text", path, line)))
    return make_annotation(label, None, None, {TRIGGER: trigger, ARGUMENTS: tuple(args), KIND: "event"})


def records_corpus(items: Iterable[Any], name: str | None = None) -> Corpus:
    """A corpus of records from Python dicts (one a document, as a line of the file)."""
    docs = [records_document(obj, path=name or "<list>", line=k) for k, obj in enumerate(items, 1)]
    try:
        return Corpus(docs, name=name)
    except ValueError as exc:
        raise FormatError(str(exc), path=name) from None


def is_records(corpus: Any) -> bool:
    """Whether a corpus holds generated records (strings to align) rather than spans."""
    if not isinstance(corpus, Corpus) or not len(corpus):
        return False
    return all(bool((d.metadata or {}).get(RECORDS)) for d in corpus.values())


def read_generated(path: str | Path, *, encoding: str | None = None, **_ignored: Any) -> Corpus:
    """Read a file of records: JSON lines (one document a non-blank line), a JSON array of documents or
    ``{"documents": [...]}``, or CSV/TSV (:mod:`accord.formats.records.generated_forms`), told apart by content."""
    from .generated_forms import read_records_file

    return read_records_file(path, encoding)


def write_generated(corpus: Corpus, path: str | Path, **_ignored: Any) -> None:
    """Write a corpus as records: each spanned annotation as its string (the text it covers) and label."""
    with Path(path).open("w", encoding="utf-8") as fh:
        for doc in corpus.values():
            entities = []
            for a in doc.annotations:
                if a.get(KIND) == "entity":
                    entities.append({"text": a.get(TEXT), "label": a.label})
                elif a.start is not None:
                    if doc.text is None and doc.tokens is None:
                        raise FormatError(f"document {doc.id!r}: {a.label} [{a.start}, {a.end}) has no text to write "
                                          "as a string", path=path)
                    entities.append({"text": doc.surface(a.start, a.end), "label": a.label})
            fh.write(json.dumps({"id": doc.id, "entities": entities}, ensure_ascii=False) + "\n")


def looks_like_record(obj: Any) -> bool:
    """Whether a parsed JSON value looks like one document of records (for sniffing): an object with ``id`` and
    ``entities``, ``relations`` or ``events``, no ``text`` or ``annotations``, items without offsets."""
    if not isinstance(obj, dict) or "id" not in obj or not any(k in obj for k in ("entities", "relations", "events")) \
            or "text" in obj or "annotations" in obj:
        return False
    lists = [obj.get(k) or [] for k in ("entities", "relations", "events")]
    if not all(isinstance(x, list) for x in lists):
        return False
    entities, relations, events = lists
    return all(isinstance(i, dict) and "text" in i and "start_offset" not in i for i in entities) \
        and all(isinstance(i, dict) and "head" in i for i in relations) \
        and all(isinstance(i, dict) and isinstance(i.get("trigger"), str) for i in events)


def _sniff(p: Path) -> bool:
    from .generated_forms import sniff_records

    return sniff_records(p)


register(Format("records", read_generated, write_generated, (".jsonl", ".json", ".csv", ".tsv"), _sniff,
                "generated output without offsets: strings and labels per document, aligned to the gold text"))
