"""Agreement on classes of whole documents (doccano's text classification and intents, read by
:mod:`accord.formats._document_labels`): one item per document.

An annotator's category for a document is its class; a document an annotator gave no class (or does not hold) is a
missing rating. When some annotator gives some document several classes (a multi-label project), every category is
the set of the document's classes, a :class:`LabelSet` (a ``frozenset`` of the class names, written ``a|b``), so
that nominal coefficients compare whole sets and set distances (MASI, Jaccard) apply.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import RatingsError
from ..formats._document_labels import document_classes, is_document_labelled
from ..model import Corpus
from ._ratings import Ratings, to_ratings

__all__ = ["LabelSet", "document_label_tables", "all_document_labelled"]


class LabelSet(frozenset[str]):
    """A set of class names as one category: equal to the ``frozenset`` of the same names; written ``a|b`` (names
    sorted) in tables and JSON, whatever the order of hashing."""

    __slots__ = ()

    def __str__(self) -> str:
        return "|".join(sorted(str(x) for x in self))

    def __repr__(self) -> str:
        return str(self)


def all_document_labelled(corpora: Sequence[Corpus], names: Sequence[str]) -> bool:
    """Whether the annotation sets hold classes of whole documents (all of them); some sets of classes and some
    of spans are an error naming one of each."""
    marks = [is_document_labelled(c) for c in corpora]
    if all(marks):
        return True
    if any(marks):
        classes = names[marks.index(True)]
        spans = names[marks.index(False)]
        raise RatingsError(f"{classes} holds classes of whole documents and {spans} spans; agreement compares "
                           "annotation sets of one kind")
    return False


def _sort_key(category: Any) -> tuple[int, tuple[str, ...]]:
    names = tuple(sorted(category)) if isinstance(category, frozenset) else (str(category),)
    return (len(names), names)


def document_label_tables(corpora: Sequence[Corpus], names: Sequence[str]) -> dict[str, Ratings]:
    """One ratings table per document, of one item (the document), a rater per annotator.

    A document held by some annotators only is a missing rating for the others (so is a document without class).
    The tables share one category order (classes, or sets of classes by size then names).
    """
    documents: dict[str, None] = {}
    for c in corpora:
        documents.update(dict.fromkeys(c))
    given = [{d: document_classes(c[d]) for d in c} for c in corpora]
    several = any(len(v) > 1 for g in given for v in g.values())

    def category(classes: tuple[str, ...] | None) -> Any:
        if not classes:
            return None
        return LabelSet(classes) if several else classes[0]

    rows = {d: [category(g.get(d)) for g in given] for d in documents}
    found = {v for row in rows.values() for v in row if v is not None}
    if not found:
        raise RatingsError("no annotator gives any document a class")
    order = sorted(found, key=_sort_key)
    return {d: to_ratings({n: [v] for n, v in zip(names, row)}, categories=order, where=f"document {d!r}")
            for d, row in rows.items()}
