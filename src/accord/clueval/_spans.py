"""Span tables: the spans of a paired corpus as sorted arrays on one position axis.

Each document's spans are shifted by a document base so that all documents share one axis
(a VRT file's corpus positions, plus one empty position between documents so that spans
of two documents never touch). Then one vectorized pass classifies a whole corpus.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..match.coverage import OverlappingSpansError, check_disjoint
from ..model import Annotation, Document

__all__ = ["SpanTable", "DocumentPair", "span_tables"]


@dataclass(frozen=True)
class DocumentPair:
    """A document of both sides and its base on the shared axis."""

    id: str
    gold: Document | None
    pred: Document | None
    base: int

    @property
    def document(self) -> Document:
        """The side that gives tokens and sentences (gold, else prediction)."""
        return self.gold if self.gold is not None else self.pred  # type: ignore[return-value]


@dataclass(frozen=True)
class SpanTable:
    """One side's spans, sorted by position: ``start``/``end`` on the shared axis, a label
    code, the index of the document and the annotation itself."""

    start: np.ndarray
    end: np.ndarray
    label: np.ndarray
    doc: np.ndarray
    annotations: tuple[Annotation, ...]

    def __len__(self) -> int:
        return len(self.start)


def _extent(doc: Document | None) -> int:
    if doc is None:
        return 0
    n = len(doc.tokens) if doc.tokens is not None else (len(doc.text) if doc.text is not None else 0)
    ends = [a.end for a in doc.annotations if a.end is not None]
    return max([n] + ends)


def span_tables(pairs: list[tuple[str, Document | None, Document | None]],
                side_names: tuple[str, str] = ("gold", "predicted"),
                ) -> tuple[SpanTable, SpanTable, list[str], list[DocumentPair]]:
    """Build both sides' span tables and the shared label list.

    Raises
    ------
    OverlappingSpansError
        Two spans of one side overlap or nest, or a span is empty; the message names the
        document, the side and both spans.
    """
    labels: dict[str, int] = {}
    docs: list[DocumentPair] = []
    base = 0
    sides: list[list] = [[[], [], [], [], []], [[], [], [], [], []]]
    for d, (doc_id, g, p) in enumerate(pairs):
        docs.append(DocumentPair(doc_id, g, p, base))
        for side, doc in zip(sides, (g, p)):
            if doc is None:
                continue
            spanned = [a for a in doc.annotations if a.start is not None]
            if len(spanned) != len(doc.annotations):
                raise OverlappingSpansError(f"document {doc_id!r}: spanless annotations cannot be classified by "
                                            "span coverage")
            spanned.sort(key=lambda a: (a.start, a.end))
            side[0].extend(a.start + base for a in spanned)
            side[1].extend(a.end + base for a in spanned)
            side[2].extend(labels.setdefault(a.label, len(labels)) for a in spanned)
            side[3].extend([d] * len(spanned))
            side[4].extend(spanned)
        base += max(_extent(g), _extent(p)) + 1
    tables = []
    for name, (s, e, lab, dd, anns) in zip(side_names, sides):
        table = SpanTable(np.asarray(s, dtype=np.int64), np.asarray(e, dtype=np.int64),
                          np.asarray(lab, dtype=np.int64), np.asarray(dd, dtype=np.int64), tuple(anns))
        bad = check_disjoint(table.start, table.end)
        if bad >= 0:
            a = table.annotations[bad]
            doc_id = docs[int(table.doc[bad])].id
            if a.end <= a.start:
                raise OverlappingSpansError(f"document {doc_id!r}, {name} side: the span {a.label} [{a.start}, "
                                            f"{a.end}) is empty; coverage classes need spans of at least one token")
            b = table.annotations[bad - 1]
            raise OverlappingSpansError(
                f"document {doc_id!r}, {name} side: {b.label} [{b.start}, {b.end}) and {a.label} [{a.start}, "
                f"{a.end}) overlap; CLUEval's classes need non-overlapping, non-nested spans in each sequence "
                "(score one BIO column at a time, or merge the layers with 'accord merge')")
        tables.append(table)
    return tables[0], tables[1], list(labels), docs
