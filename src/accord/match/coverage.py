"""Coverage classes: how the spans of one sequence cover each span of another (CLUEval).

For every *reference* span ``r = [s0, e0)`` the spans of the *other* sequence that
overlap it (``s < e0`` and ``e > s0``) decide its class:

==========  ==========================================================================
exact       one other span with the same extent
superset    one other span that contains ``r`` and is longer
tiling      two or more other spans, each touching the next, whose union is exactly ``r``
overlap     two or more other spans, each touching the next, whose union contains ``r``
            and is longer
partial     any other overlap (a gap between the spans, or ``r`` not fully covered)
none        no other span overlaps ``r``
==========  ==========================================================================

(``partial`` and ``none`` are both a false negative in CLUEval's evaluation; they are
told apart because the error tables show them differently.)

Recall classifies the gold spans against the predicted ones; precision classifies the
predicted spans against the gold ones, with the same function.

Both sequences must be free of overlaps and nesting, as the CLUEval algorithm assumes:
then, sorted by start, their ends are sorted too, and the overlapping spans of every
reference span form one run ``[lo, hi)`` of the other sequence, found for all reference
spans at once by two binary searches (:func:`numpy.searchsorted`). Cost: O((n + m) log m),
never a query per span and never a comparison of all pairs. The number of
(reference, other) overlaps is at most ``n + m - 1``, so the label vote below is linear
too.

Labels of a joined span: the label with most tokens inside ``r``, summed over the
overlapping spans; a tie goes to the label of the leftmost of the tied spans. An exact or
superset span keeps its own label.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from .._support.arrays import Bools, Index, Int64s, Ints
from ..errors import AccordError

__all__ = ["EXACT", "SUPERSET", "TILING", "OVERLAP", "PARTIAL", "NONE", "CLASS_NAMES", "Coverage",
           "coverage_classes", "check_disjoint", "group_majority", "OverlappingSpansError"]

EXACT, SUPERSET, TILING, OVERLAP, PARTIAL, NONE = range(6)
CLASS_NAMES = ("exact", "superset", "tiling", "overlap", "partial", "none")


class OverlappingSpansError(AccordError):
    """Spans of one sequence overlap or nest, which the coverage classes do not allow."""


class Coverage(NamedTuple):
    """Classes of the reference spans.

    ``klass[i]`` is one of the codes above; ``label[i]`` the label code of the joined
    other span (-1 when nothing overlaps); ``lo[i]:hi[i]`` the run of other spans (in the
    other sequence's sorted order) that overlap reference span ``i``.
    """

    klass: npt.NDArray[np.int8]
    label: Int64s
    lo: Index
    hi: Index


def check_disjoint(start: Ints, end: Ints) -> int:
    """The index (in the given order, which must be sorted by start) of the first span that
    overlaps its predecessor or is empty, or -1 when there is none."""
    if len(start) == 0:
        return -1
    bad = np.flatnonzero(end <= start)
    clash = np.flatnonzero(start[1:] < end[:-1]) + 1
    found = np.concatenate([bad, clash])
    return int(found.min()) if len(found) else -1


def coverage_classes(ref_start: Ints, ref_end: Ints, other_start: Ints, other_end: Ints,
                     other_label: Ints | None = None, joined: Bools | None = None) -> Coverage:
    """Classify reference spans by how the other spans cover them.

    Parameters
    ----------
    ref_start, ref_end : numpy.ndarray of int
        Half-open reference spans, any order.
    other_start, other_end : numpy.ndarray of int
        Half-open other spans, sorted by start, disjoint (see :func:`check_disjoint`).
    other_label : numpy.ndarray of int, optional
        Label codes (>= 0) of the other spans, for the joined label; without them
        ``label`` is all -1.
    joined : numpy.ndarray of bool, optional
        For each pair of consecutive other spans (``m - 1`` values), whether they touch across a gap: spans
        in characters whose gap is only whitespace touch, as the same spans in tokens do (CLUEval's tiling
        is defined on tokens). Without it, spans touch where one ends at the other's start.

    Returns
    -------
    Coverage
    """
    rs = np.asarray(ref_start, dtype=np.int64)
    re_ = np.asarray(ref_end, dtype=np.int64)
    os_ = np.asarray(other_start, dtype=np.int64)
    oe = np.asarray(other_end, dtype=np.int64)
    n, m = len(rs), len(os_)
    lo = np.searchsorted(oe, rs, side="right")   # first other span ending after s0
    hi = np.searchsorted(os_, re_, side="left")  # first other span starting at or after e0
    hi = np.maximum(hi, lo)
    count = hi - lo
    klass = np.full(n, NONE, dtype=np.int8)
    label = np.full(n, -1, dtype=np.int64)
    if m == 0 or n == 0:
        return Coverage(klass, label, lo, hi)
    first = np.minimum(lo, m - 1)
    last = np.clip(hi - 1, 0, m - 1)
    js, je = os_[first], oe[last]
    # breaks[k]: number of gaps between consecutive other spans up to span k
    breaks = np.zeros(m, dtype=np.int64)
    gaps = os_[1:] != oe[:-1]
    if joined is not None:
        gaps &= ~np.asarray(joined, dtype=bool)
    breaks[1:] = np.cumsum(gaps)
    adjacent = breaks[last] == breaks[first]
    one = count == 1
    many = count >= 2
    covers = (js <= rs) & (je >= re_)
    same = (js == rs) & (je == re_)
    klass[count >= 1] = PARTIAL
    klass[many & adjacent & covers] = OVERLAP
    klass[many & adjacent & same] = TILING
    klass[one & covers] = SUPERSET
    klass[one & same] = EXACT
    if other_label is not None:
        lab = np.asarray(other_label, dtype=np.int64)
        label[one] = lab[first[one]]
        multi = np.flatnonzero(many)
        if len(multi):
            label[multi] = _majority(multi, lo[multi], count[multi], rs, re_, os_, oe, lab)
    return Coverage(klass, label, lo, hi)


def group_majority(group: Int64s, label: Int64s, weight: Int64s, position: Int64s
                   ) -> tuple[Int64s, Int64s]:
    """Per group, the label with the largest summed weight; a tie goes to the label whose first item
    (smallest ``position``) comes first.

    One sort and three reductions, whatever the number of groups.

    Returns
    -------
    groups, labels : numpy.ndarray
        Each group that has items, in increasing order, and its label.
    """
    if len(group) == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    order = np.lexsort((position, label, group))
    g, lb, w, pos = group[order], label[order], weight[order], position[order]
    head = np.ones(len(g), dtype=bool)
    head[1:] = (g[1:] != g[:-1]) | (lb[1:] != lb[:-1])
    starts = np.flatnonzero(head)
    g_group, g_label, g_first = g[starts], lb[starts], pos[starts]
    g_weight = np.add.reduceat(w, starts)
    best = np.lexsort((g_first, -g_weight, g_group))
    keep = np.ones(len(best), dtype=bool)
    keep[1:] = g_group[best][1:] != g_group[best][:-1]
    chosen = best[keep]
    return g_group[chosen], g_label[chosen]


def _majority(refs: Index, lo: Index, count: Index, rs: Int64s, re_: Int64s, os_: Int64s, oe: Int64s, lab: Int64s
              ) -> Int64s:
    """Per reference span, the label with most tokens inside it (ties: the leftmost span's label)."""
    total = int(count.sum())
    pair_ref = np.repeat(np.arange(len(refs)), count)
    offsets = np.arange(total) - np.repeat(np.cumsum(count) - count, count)
    other = np.repeat(lo, count) + offsets
    r = refs[pair_ref]
    tokens = np.minimum(oe[other], re_[r]) - np.maximum(os_[other], rs[r])
    groups, labels = group_majority(pair_ref, lab[other], tokens, other)
    out = np.empty(len(refs), dtype=np.int64)
    out[groups] = labels
    return out
