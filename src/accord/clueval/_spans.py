"""The gold and predicted span tables of a paired corpus (:mod:`accord.match.axis`) and its documents."""

from __future__ import annotations

from dataclasses import dataclass

from ..match.axis import SpanTable, layered_tables
from ..model import Document

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
        doc = self.gold if self.gold is not None else self.pred
        assert doc is not None  # a pair has at least one side
        return doc


def span_tables(pairs: list[tuple[str, Document | None, Document | None]],
                ) -> tuple[SpanTable, SpanTable, list[str], list[DocumentPair]]:
    """Both sides' span tables of paired documents, the shared labels and the document pairs.

    Raises
    ------
    OverlappingSpansError
        Two spans of one side overlap or nest, or a span is empty; the message names the
        document, the side and both spans, and says how CLUEval input avoids it.
    """
    ids = [doc_id for doc_id, _, _ in pairs]
    (g, p), labels, bases = layered_tables(
        [(g, p) for _, g, p in pairs], ("gold", "predicted"), doc_ids=ids,
        hint=", as CLUEval's classes assume (score one BIO column at a time, or merge the layers with "
             "'accord merge')")
    docs = [DocumentPair(doc_id, gd, pd, int(b)) for (doc_id, gd, pd), b in zip(pairs, bases.tolist())]
    return g, p, labels, docs
