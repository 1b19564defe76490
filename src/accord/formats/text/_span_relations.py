"""What the writers of span formats accept, checked once: span-and-relation exports (Label Studio, doccano) and
span-only formats (CoNLL-U tags, spaCy)."""

from __future__ import annotations

from typing import Any

from ...errors import FormatError
from ...model import Annotation, Document

__all__ = ["check_spans_and_relations", "relation_ends", "check_spans_only"]

_ENDS = (("from", "to"), ("arg1", "arg2"))


def relation_ends(a: Annotation) -> list[Any]:
    """The two annotations a relation points to: ``from``/``to``, else ``arg1``/``arg2``."""
    first, second = _ENDS[0] if a.get("from") is not None else _ENDS[1]
    return [a.get(first), a.get(second)]


def check_spans_and_relations(doc: Document, path: Any, tool: str) -> dict[int, int]:
    """Refuse a document the tool cannot hold (no text; span attributes; a spanless annotation that is not a
    relation between two spans); return each span's number (by ``id`` of the annotation)."""
    if doc.text is None:
        raise FormatError(f"document {doc.id!r} has no text; {tool} documents hold text", path=path)
    numbers = {id(a): k for k, a in enumerate(doc.annotations) if a.start is not None}
    for a in doc.annotations:
        kept = {name for pair in _ENDS for name in pair} if a.start is None else set()
        extra = [k for k in a.attributes if k not in kept]
        if extra:
            raise FormatError(f"document {doc.id!r}: {a.label!r} has attributes {tool} cannot hold "
                              f"({', '.join(extra)})", path=path)
        if a.start is None and not all(id(e) in numbers for e in relation_ends(a)):
            raise FormatError(f"document {doc.id!r}: {a.label!r} is not a relation between two spans (from/to "
                              "or arg1/arg2)", path=path)
    return numbers


def check_spans_only(doc: Document, path: Any, tool: str, kept: tuple[str, ...] = ()) -> None:
    """Refuse what a span-only format cannot hold: a spanless annotation, or an attribute other than ``kept``."""
    for a in doc.annotations:
        if a.start is None:
            raise FormatError(f"document {doc.id!r}: {a.label!r} has no span; {tool} holds spans only", path=path)
        extra = [k for k in a.attributes if k not in kept]
        if extra:
            raise FormatError(f"document {doc.id!r}: {a.label!r} has attributes {tool} cannot hold "
                              f"({', '.join(extra)}{'; ' + ', '.join(kept) + ' it can' if kept else ''})", path=path)
