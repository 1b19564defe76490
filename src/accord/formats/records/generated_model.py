"""Generated records (:mod:`accord.formats.records.generated`) as the annotation model holds them until they are
aligned: the attribute names of their strings, a document of records from a parsed object, and the tests that tell
records from other inputs. The readers of the file forms (:mod:`~accord.formats.records.generated`,
:mod:`~accord.formats.records.generated_forms`) build on it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...errors import FormatError, quoted
from ...model import Annotation, Attributes, Corpus, Document, make_annotation

__all__ = ["ARGUMENTS", "HEAD", "KIND", "RECORDS", "TAIL", "TEXT", "TRIGGER", "is_records", "looks_like_record",
           "records_corpus", "records_document"]

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
