"""The span confusion matrix: gold label against predicted label over every overlapping pair of spans.

Cell ``(g, p)`` counts the pairs of a gold span labelled ``g`` and a predicted span labelled ``p`` that share
at least one token (character, for character offsets); the ``none`` row counts predicted spans that overlap
no gold span (spurious), the ``none`` column gold spans that overlap no predicted span (missing). A span
overlapping two spans of the other side is counted in both pairs, so a row sums to the gold spans of its label
only when every span meets at most one other. The diagonal counts overlapping pairs with the same label, be
the extents equal or not; the exact matches are the ``exact`` coverage class.

The pairs come from the coverage runs of the evaluation (each gold span's run of overlapping predicted spans,
:class:`accord.match.coverage.Coverage`): one pass over at most ``n + m - 1`` pairs, never all pairs.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..match.coverage import NONE
from ._evaluate import ClueEvaluation

__all__ = ["SpanConfusion", "span_confusion"]


class SpanConfusion(NamedTuple):
    """``counts[i, j]``: overlapping pairs of gold label ``labels[i]`` and predicted label ``labels[j]``; the last
    row and column are ``none``."""

    labels: tuple[str, ...]
    counts: np.ndarray

    def to_dict(self) -> dict[str, dict[str, int]]:
        """``{gold label: {predicted label: count}}`` with ``none`` last on both sides, zero cells left out."""
        names = self.labels + ("none",)
        return {g: {p: int(n) for p, n in zip(names, row) if n} for g, row in zip(names, self.counts.tolist())}


def span_confusion(ev: ClueEvaluation) -> SpanConfusion:
    """The confusion matrix of an evaluation's overlapping spans (see the module's description)."""
    n_labels = len(ev.labels)
    cover = ev.recall_cover
    runs = (cover.hi - cover.lo).astype(np.int64)
    gold_of_pair = np.repeat(np.arange(len(runs)), runs)
    offsets = np.arange(int(runs.sum())) - np.repeat(np.cumsum(runs) - runs, runs)
    pred_of_pair = np.repeat(cover.lo.astype(np.int64), runs) + offsets
    size = n_labels + 1
    cells = ev.gold.label[gold_of_pair].astype(np.int64) * size + ev.pred.label[pred_of_pair]
    missing = ev.gold.label[cover.klass == NONE].astype(np.int64) * size + n_labels
    spurious = n_labels * size + ev.pred.label[ev.precision_cover.klass == NONE].astype(np.int64)
    counts = np.bincount(np.concatenate([cells, missing, spurious]), minlength=size * size).reshape(size, size)
    return SpanConfusion(tuple(ev.labels), counts)
