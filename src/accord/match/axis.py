"""Spans of several layers of a corpus as sorted arrays on one position axis.

Each document's spans are shifted by a document base so that all documents share one axis
(for VRT: its corpus positions, plus one empty position between documents so that spans of
two documents never touch or overlap). Then one vectorized pass (coverage classes, overlap
blocks, the merge) serves a whole corpus, with no loop over documents.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import cast

import numpy as np

from .._support.arrays import Index, Int64s
from ..model import Annotation, Document
from .coverage import OverlappingSpansError, check_disjoint
from .fragments import has_fragments

__all__ = ["SpanTable", "layered_tables"]


@dataclass(frozen=True)
class SpanTable:
    """One side's spans, sorted by position: ``start``/``end`` on the shared axis, a label
    code, the index of the document and the annotation itself (``source[order[i]]``)."""

    start: Int64s
    end: Int64s
    label: Int64s
    doc: Int64s
    source: list[Annotation]
    order: Index

    def __len__(self) -> int:
        return len(self.start)

    @cached_property
    def annotations(self) -> tuple[Annotation, ...]:
        """The annotations in the table's order (built on first use: counting never needs them)."""
        return tuple(map(self.source.__getitem__, self.order.tolist()))


def _length(doc: Document) -> int:
    return len(doc.tokens) if doc.tokens is not None else (len(doc.text) if doc.text is not None else 0)


def layered_tables(documents: Sequence[Sequence[Document | None]], layer_names: Sequence[str], *,
                   disjoint: bool = True, where: Callable[[str, str], str] | None = None,
                   doc_ids: Sequence[str] | None = None, hint: str = "",
                   ) -> tuple[list[SpanTable], list[str], Int64s]:
    """The span tables of several layers of the same documents, on one axis.

    Parameters
    ----------
    documents : sequence of sequences
        ``documents[d][k]``: document ``d`` on layer ``k`` (``None`` where a layer lacks it).
    layer_names : sequence of str
        Names of the layers, for messages.
    disjoint : bool
        Check that no two spans of a layer in a document overlap or nest, that no span is
        empty and none discontinuous (CLUEval's classes and the merge need it; the SemEval
        schemas do not).
    where : callable, optional
        ``where(document id, layer name)`` words the place in a message (default
        ``"document 'd', gold side"``).
    doc_ids : sequence of str, optional
        The documents' ids (default: each row's first document's id).
    hint : str
        Appended to the message about overlapping spans (how to avoid them).

    Returns
    -------
    tables : list of SpanTable
        One per layer, sorted by position; label codes index ``labels``.
    labels : list of str
        Every label, sorted.
    bases : numpy.ndarray
        Each document's first position on the axis.

    Raises
    ------
    OverlappingSpansError
        A spanless annotation, or (with ``disjoint``) two overlapping spans or an empty span of one layer;
        the message names the document, the layer and the spans.
    """
    n_docs = len(documents)
    if doc_ids is None:
        doc_ids = [next(doc.id for doc in row if doc is not None) for row in documents]
    where = where or (lambda doc_id, layer: f"document {doc_id!r}, {layer} side")
    columns: list[tuple[list[int], list[int], list[str], list[Annotation]]] = [([], [], [], []) for _ in layer_names]
    sizes = [[0] * n_docs for _ in layer_names]
    extents = [0] * n_docs
    for d, row in enumerate(documents):
        for k, doc in enumerate(row):
            if doc is None:
                continue
            anns = doc.annotations
            maybe_starts = [a.start for a in anns]
            maybe_ends = [a.end for a in anns]
            if None in maybe_starts or None in maybe_ends:
                raise OverlappingSpansError(f"{where(doc_ids[d], layer_names[k])}: spanless annotations have no span "
                                            "to compare")
            starts = cast("list[int]", maybe_starts)
            ends = cast("list[int]", maybe_ends)
            col = columns[k]
            col[0].extend(starts)
            col[1].extend(ends)
            col[2].extend([a.label for a in anns])
            col[3].extend(anns)
            sizes[k][d] = len(anns)
            extents[d] = max(extents[d], max(ends, default=0), _length(doc))
    bases = np.concatenate([[0], np.cumsum(np.asarray(extents, dtype=np.int64) + 1)[:-1]]).astype(np.int64)
    labels = sorted({lbl for col in columns for lbl in col[2]})
    code = {lbl: i for i, lbl in enumerate(labels)}
    tables = []
    for k, (layer_starts, layer_ends, names, layer_anns) in enumerate(columns):
        doc_of = np.repeat(np.arange(n_docs, dtype=np.int64), sizes[k])
        start = np.asarray(layer_starts, dtype=np.int64) + bases[doc_of]
        end = np.asarray(layer_ends, dtype=np.int64) + bases[doc_of]
        label = np.fromiter(map(code.__getitem__, names), dtype=np.int64, count=len(names))
        order = np.lexsort((end, start))
        table = SpanTable(start[order], end[order], label[order], doc_of[order], layer_anns, order)
        if disjoint:
            _check(table, doc_ids, layer_names[k], where, hint)
        tables.append(table)
    return tables, labels, bases


def _check(table: SpanTable, doc_ids: Sequence[str], layer: str, where: Callable[[str, str], str],
           hint: str) -> None:
    frag = np.flatnonzero(has_fragments(table.source)[table.order])
    if len(frag):
        a = table.annotations[int(frag[0])]
        pieces = ";".join(f"{x} {y}" for x, y in a.pieces)
        raise OverlappingSpansError(
            f"{where(doc_ids[int(table.doc[frag[0]])], layer)}: {a.label} [{pieces}] is discontinuous, and these "
            "classes are defined on contiguous spans; read brat with --discontinuous merge to use its covering "
            "extent (accord score --match pairs or semeval compare the pieces)")
    bad = check_disjoint(table.start, table.end)
    if bad < 0:
        return
    a = table.annotations[bad]
    place = where(doc_ids[int(table.doc[bad])], layer)
    assert a.start is not None and a.end is not None  # layered_tables refuses spanless annotations
    if a.end <= a.start:
        raise OverlappingSpansError(f"{place}: the span {a.label} [{a.start}, {a.end}) is empty; spans need at "
                                    "least one token")
    b = table.annotations[bad - 1]
    raise OverlappingSpansError(f"{place}: {b.label} [{b.start}, {b.end}) and {a.label} [{a.start}, {a.end}) "
                                f"overlap; each sequence must be free of overlapping and nested spans{hint}")
