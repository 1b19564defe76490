"""Classes of whole documents (text classification, intents) as annotations.

A document's classes are annotations spanning its whole text (``[0, len(text))``), one per class, labelled by the
class; the document's metadata holds :data:`DOCUMENT_LABELS` (``True``). ``accord score`` then counts them as any
spans (exact: a class given to the document by both sides is a match), which is the per-label precision, recall and
F1 of (multi-label) document classification; ``accord agree`` makes one item per document of them
(:mod:`accord.agreement._document_labels`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..model import Annotation, Attributes, Corpus, Document, make_annotation

__all__ = ["DOCUMENT_LABELS", "class_annotations", "labelled_metadata", "is_document_labelled", "document_classes"]

DOCUMENT_LABELS = "document_labels"
"""The metadata key that marks a document whose annotations are its classes."""


def class_annotations(classes: Iterable[str], text: str) -> tuple[Annotation, ...]:
    """One annotation over the whole ``text`` per class (in the order given; the caller refuses repeats)."""
    return tuple(make_annotation(c, 0, len(text)) for c in classes)


def labelled_metadata(metadata: Mapping[str, Any] | None = None) -> Attributes:
    """``metadata`` with the mark of a document of classes."""
    return Attributes({**(metadata or {}), DOCUMENT_LABELS: True})


def is_document_labelled(corpus: Corpus) -> bool:
    """Whether every document of a non-empty corpus holds classes of whole documents."""
    docs = corpus.documents
    return bool(docs) and all(bool((d.metadata or {}).get(DOCUMENT_LABELS)) for d in docs)


def document_classes(doc: Document) -> tuple[str, ...]:
    """The classes of a document of classes, in their order."""
    return tuple(a.label for a in doc.annotations)
