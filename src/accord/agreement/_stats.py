"""Additive sufficient statistics of a ratings table: every coefficient is a function of these.

Two tables over the same raters add up to the statistics of their concatenation (the
category sets are united), so per-document statistics merge exactly into corpus ones.

With ``n[i, c]`` the number of raters giving item ``i`` category ``c`` and ``r_i = Σ_c n[i, c]``:

* ``pairs[(a, b)]``: the contingency table of raters ``a`` and ``b`` over the items both rated;
* ``pa_sum = Σ_{i: r_i >= 2} Σ_c n[i,c] (n[i,c] - 1) / (r_i (r_i - 1))`` and ``n_pairable``,
  the number of such items (multi-rater observed agreement, Fleiss 1971 and Gwet 2014);
* ``pi_sum[c] = Σ_{i: r_i >= 1} n[i,c] / r_i`` and ``n_rated`` (Gwet's category shares);
* ``coincidence[c, k] = Σ_{i: r_i >= 2} (n[i,c] n[i,k] - [c = k] n[i,c]) / (r_i - 1)``
  (Krippendorff's coincidence matrix);
* over the items every rater rated: ``complete``, ``y2 = Σ_i Σ_c n[i,c]²`` and
  ``rater_counts[j, c]`` (Davies & Fleiss).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

import numpy as np

from ..errors import RatingsError
from ._ratings import MISSING, Ratings

__all__ = ["AgreementStats", "agreement_stats"]


@dataclass(frozen=True)
class AgreementStats:
    """The sufficient statistics of a ratings table (see the module documentation)."""

    categories: tuple[Hashable, ...]
    raters: tuple[Hashable, ...]
    pairs: dict[tuple[int, int], np.ndarray]
    pa_sum: float
    n_pairable: int
    pi_sum: np.ndarray
    n_rated: int
    coincidence: np.ndarray
    complete: int
    y2: float
    rater_counts: np.ndarray

    def _reindexed(self, cats: tuple[Hashable, ...]) -> AgreementStats:
        if cats == self.categories:
            return self
        where = np.array([cats.index(c) for c in self.categories], dtype=np.int64)
        k = len(cats)

        def square(m: np.ndarray) -> np.ndarray:
            out = np.zeros((k, k), dtype=m.dtype)
            out[np.ix_(where, where)] = m
            return out

        def cols(m: np.ndarray) -> np.ndarray:
            out = np.zeros(m.shape[:-1] + (k,), dtype=m.dtype)
            out[..., where] = m
            return out

        return AgreementStats(cats, self.raters, {p: square(m) for p, m in self.pairs.items()}, self.pa_sum,
                              self.n_pairable, cols(self.pi_sum), self.n_rated, square(self.coincidence),
                              self.complete, self.y2, cols(self.rater_counts))

    def __add__(self, other: AgreementStats) -> AgreementStats:
        if not isinstance(other, AgreementStats):
            return NotImplemented
        if other.raters != self.raters:
            raise RatingsError(f"cannot add agreement statistics of raters {list(self.raters)!r} and "
                               f"{list(other.raters)!r}: the raters must be the same, in the same order")
        cats = self.categories + tuple(c for c in other.categories if c not in self.categories)
        a, b = self._reindexed(cats), other._reindexed(cats)
        return AgreementStats(cats, self.raters, {p: a.pairs[p] + b.pairs[p] for p in a.pairs},
                              a.pa_sum + b.pa_sum, a.n_pairable + b.n_pairable, a.pi_sum + b.pi_sum,
                              a.n_rated + b.n_rated, a.coincidence + b.coincidence, a.complete + b.complete,
                              a.y2 + b.y2, a.rater_counts + b.rater_counts)


def agreement_stats(r: Ratings) -> AgreementStats:
    """Compute the statistics of a table, in a few array passes (two raters who rated every item: from their
    contingency table alone, :func:`_two_complete_raters`)."""
    codes = r.codes
    if r.n_raters == 2 and len(codes) and not (codes == MISSING).any():
        return _two_complete_raters(r)
    return _any_raters(r)


def _any_raters(r: Ratings) -> AgreementStats:
    """The statistics of any table: the pair tables, then the item counts ``n`` in a few passes."""
    k, m = len(r.categories), r.n_raters
    codes = r.codes
    n = r.counts().astype(np.float64)
    ri = n.sum(axis=1)
    pairs = {}
    for a in range(m):
        for b in range(a + 1, m):
            both = (codes[:, a] != MISSING) & (codes[:, b] != MISSING)
            pairs[(a, b)] = np.bincount(codes[both, a] * k + codes[both, b], minlength=k * k).reshape(k, k)
    two = ri >= 2
    n2, r2 = (n, ri) if two.all() else (n[two], ri[two])      # no copy in the common complete case
    pa_sum = float(((n2 * (n2 - 1)).sum(axis=1) / (r2 * (r2 - 1))).sum())
    one = ri >= 1
    n1, r1 = (n, ri) if one.all() else (n[one], ri[one])
    pi_sum = (n1 / r1[:, None]).sum(axis=0) if len(r1) else np.zeros(k)
    w = n2 / (r2[:, None] - 1)
    coincidence = n2.T @ w - np.diag(w.sum(axis=0))
    full = (codes != MISSING).all(axis=1)
    rater_counts = np.zeros((m, k), dtype=np.int64)
    for j in range(m):
        rater_counts[j] = np.bincount(codes[full, j], minlength=k)
    return AgreementStats(r.categories, r.raters, pairs, pa_sum, int(two.sum()), pi_sum, int(one.sum()),
                          coincidence, int(full.sum()), float((n[full] ** 2).sum()), rater_counts)


def _two_complete_raters(r: Ratings) -> AgreementStats:
    """The statistics of two raters who rated every item, from one ``bincount`` of the code pairs.

    With ``t`` their contingency table over ``N`` items, every item has ``r_i = 2`` and ``n[i] = e_a + e_b``:
    ``pa_sum = trace(t)`` (an item contributes 1 when both agree), ``pi_sum = (row sums + column sums) / 2``,
    ``coincidence = t + tᵀ`` (an agreeing item adds 2 to its diagonal cell, a disagreeing one 1 to both
    off-diagonal cells), ``y2 = 2N + 2 trace(t)`` (4 or 2 per item) and the raters' counts are the margins.
    """
    k = len(r.categories)
    codes = r.codes
    t = np.bincount(codes[:, 0] * k + codes[:, 1], minlength=k * k).reshape(k, k)
    n_items = len(codes)
    agree = int(np.trace(t))
    rows, cols = t.sum(axis=1), t.sum(axis=0)
    return AgreementStats(r.categories, r.raters, {(0, 1): t}, float(agree), n_items,
                          (rows + cols).astype(np.float64) / 2, n_items, (t + t.T).astype(np.float64), n_items,
                          float(2 * n_items + 2 * agree), np.stack([rows, cols]).astype(np.int64))
