"""Krippendorff's unitizing alphas, from additive per-document statistics.

Two generations of definitions, both over continua of integer positions (characters, tokens,
milliseconds), where each annotator's units and the *gaps* between them partition the continuum.
Several documents are laid end to end; a gap ends at its document's end.

**uα per category** (Krippendorff 1995, "On the reliability of unitizing contiguous data";
2004, *Content Analysis*, 2nd ed., section 12.4; the definition of DKPro Agreement's
``KrippendorffAlphaUnitizingAgreement``). For category ``c``, each annotator's units of ``c``
and the gaps between them are compared pairwise over the ``m`` annotators; two overlapping units
``g``, ``h`` differ by :math:`(s_g - s_h)^2 + (e_g - e_h)^2`, a unit lying inside a gap of the
other annotator by its squared length, anything else by 0:

.. math::

    D_o^c = \\frac{2}{m(m-1)L^2} \\sum_{i<j} \\sum_{g \\cap h \\ne \\varnothing} \\delta(g, h), \\qquad
    D_e^c = \\frac{\\frac{2}{L} \\sum_{u \\in c} \\left[ \\frac{(N_c - 1)(2l_u^3 - 3l_u^2 + l_u)}{3}
            + l_u^2 \\sum_{\\text{gaps } G \\ge l_u} (G - l_u + 1) \\right]}
            {mL(mL - 1) - \\sum_{u \\in c} l_u(l_u - 1)},

:math:`{}_u\\alpha^c = 1 - D_o^c / D_e^c` and over all categories
:math:`{}_u\\alpha = 1 - \\overline{D_o} / \\overline{D_e}` (means over categories), 0 when the two
disagreements are equal (as DKPro Agreement). Units of one category by one annotator must not
overlap. A unit of length 0 (a point) is taken as DKPro Agreement takes it: it has no length (it
adds nothing to a sum of lengths), splits the gap it stands in, counts in :math:`N_c`, and differs
from the other annotator's unit it stands strictly inside by the squared distances of their
boundaries.

**The 2016 family** (Krippendorff, Mathet, Bouvry & Widlöcher, "On the reliability of unitizing
textual continua: further developments", *Quality & Quantity* 50, 2016). Gaps take the value 0;
units of one annotator must not overlap. The observed coincidence of values ``c`` and ``k`` is
the length where an annotator marked ``c`` and another ``k``, and the expected one corrects for
units being indivisible (a gap counts as unit-length pieces):

.. math::

    l_{ck} = \\frac{1}{m-1} \\sum_{i \\ne j} \\sum_{g \\in i, h \\in j} |g_c \\cap h_k|, \\qquad
    e_{ck} = l_{\\cdot\\cdot} \\frac{l_{c\\cdot} l_{\\cdot k} - [c = k] \\sum_{g \\in c} w_g}
                               {l_{\\cdot\\cdot}^2 - \\sum_g w_g},

:math:`w_g = l_g^2` for a unit and :math:`l_g` for a gap. Then
:math:`{}_u\\alpha = 1 - (l_{\\cdot\\cdot} - \\sum_c l_{cc}) / (l_{\\cdot\\cdot} - \\sum_c e_{cc})`
(all values, nominal), :math:`{}_{|u}\\alpha = 1 - (l_{0\\cdot} - l_{00}) / (e_{0\\cdot} - e_{00})`
(relevant matter against gaps), and on the intersections of units only (``c, k ≠ 0``, margins
:math:`l'_c = l_{c\\cdot} - l_{c0}`, total ``l'``; :math:`x_g` the squared lengths of each unit's
intersection with each other annotator's units):

.. math::

    e'_{ck} = \\frac{l'_c l'_k - [c = k] \\sum_{g \\in c} x_g / (m-1)}{l' - \\sum_g x_g / (l'(m-1))},
    \\qquad {}_{cu}\\alpha = 1 - \\frac{l' - \\sum_c l_{cc}}{l' - \\sum_c e'_{cc}}, \\qquad
    {}_{(k)cu}\\alpha = 1 - \\frac{e'_k}{l'_k} \\cdot \\frac{l'_k - l_{kk}}{e'_k - e'_{kk}}.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import MergeError, RatingsError
from ._continua import Continua

__all__ = ["UnitizingAlphaTables", "unitizing_alpha_tables"]


def _check_integer(units: Continua) -> None:
    bad = np.flatnonzero((units.start != np.round(units.start)) | (units.end != np.round(units.end)))
    if len(bad):
        i = int(bad[0])
        raise RatingsError(f"document {units.documents[units.document[i]]!r}: {units.annotators[units.annotator[i]]} "
                           f"has a unit at [{units.start[i]:g}, {units.end[i]:g}): Krippendorff's uα counts integer "
                           "positions (give times in milliseconds, say)")
    if len(units) and units.start.min() < 0:
        i = int(np.argmin(units.start))
        raise RatingsError(f"document {units.documents[units.document[i]]!r}: a unit starts at {units.start[i]:g}; "
                           "the continuum begins at 0")


def _check_overlaps(units: Continua, same_category: bool) -> None:
    keys = (units.document, units.annotator) + ((units.category,) if same_category else ())
    order = np.lexsort((units.end, units.start) + keys[::-1])      # a unit of length 0 before one that starts there
    d, a, s, e = units.document[order], units.annotator[order], units.start[order], units.end[order]
    same = (d[1:] == d[:-1]) & (a[1:] == a[:-1])
    if same_category:
        same &= units.category[order][1:] == units.category[order][:-1]
    clash = np.flatnonzero(same & (s[1:] < e[:-1]))
    if len(clash):
        i, j = order[clash[0]], order[clash[0] + 1]
        what = "of one category " if same_category else ""
        raise RatingsError(f"document {units.documents[units.document[i]]!r}: {units.annotators[units.annotator[i]]} "
                           f"has overlapping units {what}[{units.start[i]:g}, {units.end[i]:g}) and "
                           f"[{units.start[j]:g}, {units.end[j]:g}); Krippendorff's uα needs units {what}that do not "
                           "overlap within an annotator (pick --types, or use --unitizing gamma)")


@dataclass(frozen=True)
class UnitizingAlphaTables:
    """Additive statistics of Krippendorff's unitizing alphas over documents."""

    categories: tuple[str, ...]
    n_annotators: int
    length: float                                           # Σ continuum lengths
    observed_1995: np.ndarray                               # (K,): Σ_{i<j} Σ δ(g, h)
    unit_lengths: list[np.ndarray] = field(default_factory=list)    # per category: every unit's length
    gap_lengths: list[np.ndarray] = field(default_factory=list)     # per category: every gap's length
    coincidences: np.ndarray = field(default_factory=lambda: np.zeros((1, 1)))   # (K+1, K+1), value 0 = gap
    weights: np.ndarray = field(default_factory=lambda: np.zeros(1))             # (K+1,): Σ w_g per value
    intersection_squares: np.ndarray = field(default_factory=lambda: np.zeros(1))  # (K+1,): Σ x_g per value
    not_2016: str = ""
    """Why the 2016 family is not computed (units of one annotator overlap), or empty."""

    def __add__(self, other: UnitizingAlphaTables) -> UnitizingAlphaTables:
        if self.categories != other.categories or self.n_annotators != other.n_annotators:
            raise MergeError("cannot merge uα statistics of different categories or annotators")
        return UnitizingAlphaTables(
            self.categories, self.n_annotators, self.length + other.length, self.observed_1995 + other.observed_1995,
            [np.concatenate([a, b]) for a, b in zip(self.unit_lengths, other.unit_lengths)],
            [np.concatenate([a, b]) for a, b in zip(self.gap_lengths, other.gap_lengths)],
            self.coincidences + other.coincidences, self.weights + other.weights,
            self.intersection_squares + other.intersection_squares, self.not_2016 or other.not_2016)

    # -- 1995/2004 ---------------------------------------------------------------------------------
    def disagreements_1995(self) -> tuple[np.ndarray, np.ndarray]:
        """``(D_o, D_e)`` per category."""
        m, length = self.n_annotators, self.length
        observed = 2.0 * self.observed_1995 / (m * (m - 1) * length * length) if length else \
            np.full(len(self.categories), np.nan)
        expected = np.zeros(len(self.categories))
        for k in range(len(self.categories)):
            lengths = self.unit_lengths[k].astype(np.float64)
            gaps = np.sort(self.gap_lengths[k].astype(np.float64))
            n_c = len(lengths)
            # Σ_{gaps G >= l} (G - l + 1) = (Σ_{G >= l} G) - (count)(l - 1)
            suffix = np.r_[np.cumsum(gaps[::-1])[::-1], 0.0]
            at = np.searchsorted(gaps, lengths, side="left")
            over = (suffix[at] - (len(gaps) - at) * (lengths - 1)) if len(gaps) else np.zeros(n_c)
            total = np.sum((n_c - 1) * (2 * lengths ** 3 - 3 * lengths ** 2 + lengths) / 3 + lengths ** 2 * over)
            denominator = m * length * (m * length - 1) - np.sum(lengths * (lengths - 1))
            expected[k] = total * 2.0 / length / denominator if length and denominator else np.nan
        return observed, expected

    def _values_1995(self, d_o: np.ndarray, d_e: np.ndarray) -> dict[str, Any]:
        overall = _one_minus(float(np.mean(d_o)), float(np.mean(d_e))) if len(self.categories) else None
        return {"overall": overall,
                "by_category": {n: _one_minus(o, e) for n, o, e in zip(self.categories, d_o, d_e)},
                "observed_disagreement": {n: _finite(v) for n, v in zip(self.categories, d_o)},
                "expected_disagreement": {n: _finite(v) for n, v in zip(self.categories, d_e)}}

    # -- 2016 ----------------------------------------------------------------------------------------
    def expected_coincidences(self) -> np.ndarray:
        o = self.coincidences
        total = o.sum()
        margins = o.sum(axis=1)
        denominator = total * total - self.weights.sum()
        e = total * (np.outer(margins, margins) - np.diag(self.weights)) / denominator if denominator else \
            np.full(o.shape, np.nan)
        return e

    def values(self) -> dict[str, Any]:
        """Every coefficient: the 1995/2004 uα overall and per category, and the 2016 family."""
        with np.errstate(invalid="ignore", divide="ignore"):
            d_o, d_e = self.disagreements_1995()
            if self.not_2016:
                return {"u_alpha_1995": self._values_1995(d_o, d_e), "u_alpha": None, "binary_u_alpha": None,
                        "cu_alpha": None, "cu_alpha_by_category": {}, "continuum_length": float(self.length)}
            o = self.coincidences
            e = self.expected_coincidences()
            total = o.sum()
            u_alpha = _one_minus_2016(total - np.trace(o), total - np.trace(e)) if total else None
            bar = _one_minus_2016(o[0].sum() - o[0, 0], e[0].sum() - e[0, 0]) if o[0].sum() else None
            m = self.n_annotators
            inner = o[1:, 1:]
            margins = inner.sum(axis=1)
            l_prime = margins.sum()
            cu: float | None = None
            per_k: dict[str, float | None] = {}
            if l_prime > 0:
                x = self.intersection_squares[1:]
                denominator = l_prime - x.sum() / (l_prime * (m - 1))
                e_inner = (np.outer(margins, margins) - np.diag(x / (m - 1))) / denominator
                cu = _one_minus_2016(l_prime - np.trace(inner), l_prime - np.trace(e_inner))
                e_margins = e_inner.sum(axis=1)
                for k, name in enumerate(self.categories):
                    if margins[k] == 0:
                        per_k[name] = None
                        continue
                    spread = e_margins[k] - e_inner[k, k]
                    value = 1 - (e_margins[k] / margins[k]) * (margins[k] - inner[k, k]) / spread if spread else np.nan
                    per_k[name] = None if not np.isfinite(value) else float(value)
        return {
            "u_alpha_1995": self._values_1995(d_o, d_e), "u_alpha": u_alpha, "binary_u_alpha": bar, "cu_alpha": cu,
            "cu_alpha_by_category": per_k,
            "continuum_length": float(self.length),
        }


def _finite(value: float) -> float | None:
    return float(value) if np.isfinite(value) else None


def _one_minus_2016(observed: float, expected: float) -> float | None:
    """1 - D_o / D_e; None when D_e is 0 (nothing could disagree: one value only)."""
    if not (np.isfinite(observed) and np.isfinite(expected)) or expected <= 1e-12 * max(1.0, abs(observed)):
        return None
    return float(1.0 - observed / expected)


def _one_minus(observed: float, expected: float) -> float | None:
    if not (np.isfinite(observed) and np.isfinite(expected)):
        return None
    if observed == expected:
        return 0.0
    if expected == 0:
        return None
    return float(1.0 - observed / expected)


def unitizing_alpha_tables(units: Continua) -> UnitizingAlphaTables:
    """The statistics of every unitizing alpha over the documents of ``units``.

    A document's continuum runs from 0 to its length (the text's, else the last end).
    """
    _check_integer(units)
    _check_overlaps(units, same_category=True)
    m = units.n_annotators
    cats = units.categories
    n_cat = len(cats)
    lengths = units.lengths if len(units.lengths) else np.zeros(len(units.documents))
    observed = np.zeros(n_cat)
    unit_lengths: list[list[np.ndarray]] = [[] for _ in cats]
    gap_lengths: list[list[np.ndarray]] = [[] for _ in cats]
    coincidences = np.zeros((n_cat + 1, n_cat + 1))
    weights = np.zeros(n_cat + 1)
    squares = np.zeros(n_cat + 1)
    exclusive = True
    total_length = 0.0
    try:
        _check_overlaps(units, same_category=False)
    except RatingsError as error:
        exclusive = False
        exclusive_error = error
    for d, rows in enumerate(units.document_slices()):
        length = float(lengths[d])
        s, e = units.start[rows], units.end[rows]
        a, c = units.annotator[rows], units.category[rows]
        if len(s):
            length = max(length, float(e.max()))
        if length <= 0:
            continue
        total_length += length
        for k in range(n_cat):
            mine = c == k
            segs = [_segments(s[mine & (a == r)], e[mine & (a == r)], length) for r in range(m)]
            for r in range(m):
                units_r = segs[r][2]
                unit_lengths[k].append(segs[r][1][units_r] - segs[r][0][units_r])
                gap_lengths[k].append(segs[r][1][~units_r] - segs[r][0][~units_r])
            for i in range(m):
                for j in range(i + 1, m):
                    observed[k] += _pair_distance(segs[i], segs[j])
        if exclusive:
            _coincide(s, e, a, c, length, m, n_cat, coincidences, weights, squares)
        else:
            coincidences[:] = np.nan
    return UnitizingAlphaTables(cats, m, total_length, observed,
                                [np.concatenate(x) if x else np.zeros(0) for x in unit_lengths],
                                [np.concatenate(x) if x else np.zeros(0) for x in gap_lengths],
                                coincidences, weights, squares,
                                "" if exclusive else f"the 2016 uα family is not computed: {exclusive_error}")


def _segments(start: np.ndarray, end: np.ndarray, length: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """An annotator's partition of ``[0, length)`` into its (sorted, disjoint) units and the gaps between them:
    ``(starts, ends, is_unit)``; empty gaps are left out."""
    order = np.lexsort((end, start))
    start, end = start[order], end[order]
    bounds_s = np.concatenate([[0.0], end])
    bounds_e = np.concatenate([start, [length]])
    gap = bounds_e > bounds_s
    starts = np.concatenate([bounds_s[gap], start])
    ends = np.concatenate([bounds_e[gap], end])
    is_unit = np.concatenate([np.zeros(int(gap.sum()), dtype=bool), np.ones(len(start), dtype=bool)])
    order = np.lexsort((ends, starts))     # a unit of length 0 before the gap or unit that starts where it is
    return starts[order], ends[order], is_unit[order]


def _pair_distance(one: tuple[np.ndarray, np.ndarray, np.ndarray], two: tuple[np.ndarray, np.ndarray, np.ndarray]
                   ) -> float:
    """Σ δ(g, h) over the overlapping segments of two partitions (Krippendorff 1995's distance)."""
    s1, e1, u1 = one
    s2, e2, u2 = two
    # overlapping pairs: for each segment of one, the segments of two it meets
    lo = np.searchsorted(e2, s1, side="right")
    hi = np.searchsorted(s2, e1, side="left")
    counts = np.maximum(hi - lo, 0)
    i = np.repeat(np.arange(len(s1)), counts)
    j = np.repeat(lo, counts) + (np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts))
    both = u1[i] & u2[j]
    inside_1 = u1[i] & ~u2[j] & (s1[i] >= s2[j]) & (e1[i] <= e2[j])
    inside_2 = ~u1[i] & u2[j] & (s2[j] >= s1[i]) & (e2[j] <= e1[i])
    d = np.where(both, (s1[i] - s2[j]) ** 2 + (e1[i] - e2[j]) ** 2, 0.0)
    d = d + np.where(inside_1, (e1[i] - s1[i]) ** 2, 0.0) + np.where(inside_2, (e2[j] - s2[j]) ** 2, 0.0)
    return float(d.sum())


def _coincide(s: np.ndarray, e: np.ndarray, a: np.ndarray, c: np.ndarray, length: float, m: int, n_cat: int,
              coincidences: np.ndarray, weights: np.ndarray, squares: np.ndarray) -> None:
    """Add one document's 2016 statistics (values: 0 for a gap, category + 1 for a unit)."""
    bounds = np.unique(np.concatenate([[0.0, length], s, e]))
    widths = np.diff(bounds)
    value = np.zeros((m, len(widths)), dtype=np.int64)
    for r in range(m):             # an annotator's units do not overlap: a difference array paints them
        mine = a == r
        steps = np.zeros(len(widths) + 1, dtype=np.int64)
        np.add.at(steps, np.searchsorted(bounds, s[mine]), c[mine] + 1)
        np.add.at(steps, np.searchsorted(bounds, e[mine]), -(c[mine] + 1))
        value[r] = np.cumsum(steps)[:-1]
    counts = np.zeros((len(widths), n_cat + 1))
    for r in range(m):
        counts[np.arange(len(widths)), value[r]] += 1
    weighted = counts * widths[:, None]
    coincidences += (weighted.T @ counts - np.diag(weighted.sum(axis=0))) / (m - 1)
    relevant = np.concatenate([np.zeros((m, 1)), np.cumsum(widths[None, :] * (value != 0), axis=1)], axis=1)
    for r in range(m):
        seg_s, seg_e, is_unit = _segments(s[a == r], e[a == r], length)
        cats = np.zeros(len(seg_s), dtype=np.int64)
        order = np.lexsort((e[a == r], s[a == r]))         # the order of the units in _segments
        cats[is_unit] = c[a == r][order] + 1
        sizes = seg_e - seg_s
        np.add.at(weights, cats, np.where(is_unit, sizes * sizes, sizes))
        first = np.searchsorted(bounds, seg_s[is_unit])
        last = np.searchsorted(bounds, seg_e[is_unit])
        for other in range(m):
            if other == r:
                continue
            x = relevant[other, last] - relevant[other, first]
            np.add.at(squares, cats[is_unit], x * x)
