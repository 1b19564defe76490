"""Weighted agreement on ordered categories: Cohen's weighted kappa (two raters, each pair of more), Gwet's AC2 and
Fleiss' kappa with the same weights (any number of raters, missing ratings allowed).

Both are computed from per-item contributions (:mod:`._measures`), so the same code gives the value of the table
and of every bootstrap resample of its items.

Weighted kappa weighs a disagreement by the distance of the two categories' **positions** in the category order
(the order of ``categories``, else the sorted values), as scikit-learn's ``cohen_kappa_score(weights=...)`` does.
Gwet's AC2 weighs agreement by irrCAC's weight matrices over the categories' **values** when every category is a
number (numeric text such as ``"3"`` included), else over their positions ``1..q``, as irrCAC does.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

from ..errors import OptionError, RatingsError
from ._ratings import MISSING

__all__ = ["KAPPA_WEIGHTS", "AC2_WEIGHTS", "category_values", "positions", "disagreement_weights", "agreement_weights",
           "kappa_contributions", "kappa_evaluate", "ac2_contributions", "ac2_evaluate", "weighted_fleiss_evaluate"]

KAPPA_WEIGHTS = ("linear", "quadratic")
"""The disagreement weights of :func:`weighted_kappa`."""
AC2_WEIGHTS = ("linear", "quadratic", "ordinal", "radical", "ratio", "circular", "bipolar")
"""The agreement weights of :func:`gwet_ac2` (Gwet 2014, chapter 3; irrCAC's names)."""


def category_values(categories: Sequence[Hashable]) -> np.ndarray:
    """The categories as numbers when every one is a number or numeric text, else their positions ``1..q``."""
    maybe: Sequence[Any] = categories
    try:
        values = np.array([float(c) for c in maybe], dtype=np.float64)
    except (TypeError, ValueError):
        return np.arange(1, len(categories) + 1, dtype=np.float64)
    if any(isinstance(c, bool) for c in categories) or not np.isfinite(values).all():
        return np.arange(1, len(categories) + 1, dtype=np.float64)
    return values


def positions(categories: Sequence[Hashable]) -> np.ndarray:
    """Each category's position ``0..k-1``: its rank by value when every category is a number or numeric text
    (``"10"`` after ``"9"``), else its place in the category order."""
    maybe: Sequence[Any] = categories
    try:
        values = np.array([float(c) for c in maybe], dtype=np.float64)
    except (TypeError, ValueError):
        return np.arange(len(categories), dtype=np.float64)
    rank = np.empty(len(values), dtype=np.float64)
    rank[np.argsort(values, kind="stable")] = np.arange(len(values))
    return rank


def disagreement_weights(categories: Sequence[Hashable], weights: str) -> np.ndarray:
    """``k x k`` disagreement weights of the categories' :func:`positions`: ``|i - j|`` (linear) or ``(i - j)²``
    (quadratic)."""
    if weights not in KAPPA_WEIGHTS:
        raise OptionError(f"weighted kappa: unknown weights {weights!r}; expected one of {', '.join(KAPPA_WEIGHTS)}")
    pos = positions(categories)
    diff = np.abs(pos[:, None] - pos[None, :])
    return diff if weights == "linear" else diff ** 2


def agreement_weights(categories: Sequence[Hashable], weights: str) -> np.ndarray:
    """irrCAC's ``q x q`` agreement weights ``w_kl`` (1 on the diagonal) over :func:`category_values` ``x``.

    With ``x_min``, ``x_max`` the extreme values: linear ``1 - |x_k - x_l| / (x_max - x_min)``; quadratic
    ``1 - (x_k - x_l)² / (x_max - x_min)²``; ordinal ``1 - M_kl / max M`` with ``M_kl = n(n - 1)/2``,
    ``n = |k - l| + 1`` over positions; radical ``1 - sqrt|x_k - x_l| / sqrt(x_max - x_min)``; ratio
    ``1 - ((x_k - x_l)/(x_k + x_l))² / ((x_max - x_min)/(x_max + x_min))²``; circular
    ``1 - sin²(π (x_k - x_l) / U) / max`` with ``U = x_max - x_min + 1``; bipolar
    ``1 - B_kl / max B``, ``B_kl = (x_k - x_l)² / ((x_k + x_l - 2 x_min)(2 x_max - x_k - x_l))`` off the diagonal.
    """
    if weights == "identity":
        return np.eye(len(categories))
    if weights not in AC2_WEIGHTS:
        raise OptionError(f"Gwet's AC2: unknown weights {weights!r}; expected one of {', '.join(AC2_WEIGHTS)}")
    q = len(categories)
    x = category_values(categories)
    if q < 2:
        return np.ones((q, q))
    if weights == "ordinal":
        pos = positions(categories)
        n = np.abs(pos[:, None] - pos[None, :]) + 1
        m = n * (n - 1) / 2
        return 1 - m / m.max()
    lo, hi = float(x.min()), float(x.max())
    diff = x[:, None] - x[None, :]
    total = x[:, None] + x[None, :]
    with np.errstate(invalid="ignore", divide="ignore"):
        if weights == "linear":
            return 1 - np.abs(diff) / (hi - lo)
        if weights == "quadratic":
            return 1 - (diff / (hi - lo)) ** 2
        if weights == "radical":
            return 1 - np.sqrt(np.abs(diff)) / np.sqrt(hi - lo)
        if weights == "ratio":
            if (x == 0).any():
                raise RatingsError("Gwet's AC2 with ratio weights: a category is 0 (the weights divide by the sum "
                                   "of two values)")
            return 1 - (diff / total) ** 2 / ((hi - lo) / (hi + lo)) ** 2
        if weights == "circular":
            s = np.sin(np.pi * diff / (hi - lo + 1)) ** 2
            return 1 - s / s.max()
        b = np.where(np.eye(q, dtype=bool), 0.0, diff ** 2 / ((total - 2 * lo) * (2 * hi - total)))
        return 1 - b / b.max()


# ---------------------------------------------------------------------------------- per-item contributions
def kappa_contributions(pat: np.ndarray, d: np.ndarray) -> np.ndarray:
    """Per pattern and rater pair ``(a, b)``: ``[both rated, d(a, b), a's category (k), b's category (k)]``."""
    k = d.shape[0]
    u, m = pat.shape
    pairs = [(a, b) for a in range(m) for b in range(a + 1, m)]
    out = np.zeros((u, len(pairs), 2 + 2 * k))
    if not k:                   # no rating at all: no item rated by both
        return out.reshape(u, -1)
    rows = np.arange(u)
    for p, (a, b) in enumerate(pairs):
        both = (pat[:, a] != MISSING) & (pat[:, b] != MISSING)
        ca, cb = np.where(both, pat[:, a], 0), np.where(both, pat[:, b], 0)
        out[:, p, 0] = both
        out[:, p, 1] = np.where(both, d[ca, cb], 0.0)
        out[rows[both], p, 2 + ca[both]] = 1.0
        out[rows[both], p, 2 + k + cb[both]] = 1.0
    return out.reshape(u, -1)


def kappa_evaluate(sums: np.ndarray, d: np.ndarray, m: int) -> np.ndarray:
    """``(b, pairs)``: each pair's weighted kappa, ``1 - n D / (rows' d cols)`` (NaN without items, 1.0 when the
    expected disagreement is 0)."""
    k = d.shape[0]
    npairs = m * (m - 1) // 2
    s = sums.reshape(len(sums), npairs, 2 + 2 * k)
    n, obs = s[:, :, 0], s[:, :, 1]
    rows, cols = s[:, :, 2:2 + k], s[:, :, 2 + k:]
    expected = np.einsum("bpi,ij,bpj->bp", rows, d, cols)
    with np.errstate(invalid="ignore", divide="ignore"):
        value = 1 - n * obs / np.where(expected > 0, expected, 1)
    return np.where(n > 0, np.where(expected > 0, value, 1.0), np.nan)


def ac2_contributions(pat: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Per pattern: ``[Σ_c n_c (n*_c - 1) / (r (r - 1)), r >= 2, n_c / r (q), r >= 1]`` with ``n*_c = Σ_l w_cl n_l``."""
    q = w.shape[0]
    u, m = pat.shape
    counts = np.zeros((u, q))
    for j in range(m):
        rated = pat[:, j] != MISSING
        np.add.at(counts, (np.flatnonzero(rated), pat[rated, j]), 1.0)
    r = counts.sum(axis=1)
    star = counts @ w.T
    two, one = r >= 2, r >= 1
    out = np.zeros((u, q + 3))
    with np.errstate(invalid="ignore", divide="ignore"):
        out[:, 0] = np.where(two, (counts * (star - 1)).sum(axis=1) / np.where(two, r * (r - 1), 1), 0.0)
        out[:, 2:2 + q] = np.where(one[:, None], counts / np.where(one, r, 1)[:, None], 0.0)
    out[:, 1], out[:, -1] = two, one
    return out


def ac2_evaluate(sums: np.ndarray, w: np.ndarray) -> np.ndarray:
    """``(b, 1)``: AC2 ``(P_a - P_e) / (1 - P_e)``, ``P_e = Σ w / (q (q - 1)) Σ_c π_c (1 - π_c)`` (NaN without an
    item rated twice, 1.0 when ``P_e`` is 1)."""
    q = w.shape[0]
    n2, n1 = sums[:, 1], sums[:, -1]
    with np.errstate(invalid="ignore", divide="ignore"):
        pa = sums[:, 0] / np.where(n2 > 0, n2, 1)
        pi = sums[:, 2:2 + q] / np.where(n1 > 0, n1, 1)[:, None]
        pe = w.sum() / (q * (q - 1)) * (pi * (1 - pi)).sum(axis=1) if q > 1 else np.ones(len(sums))
        value = (pa - pe) / (1 - pe)
    value = np.where(pe >= 1, 1.0, value)
    return np.where(n2 > 0, value, np.nan)[:, None]


def weighted_fleiss_evaluate(sums: np.ndarray, w: np.ndarray) -> np.ndarray:
    """``(b, 1)``: Fleiss' kappa with partial agreement (Gwet 2014), ``P_a`` as AC2's (the same contributions,
    :func:`ac2_contributions`) and ``P_e = Σ_{k,l} w_kl π_k π_l`` (NaN without an item rated twice, 1.0 when ``P_e``
    is 1)."""
    q = w.shape[0]
    n2, n1 = sums[:, 1], sums[:, -1]
    with np.errstate(invalid="ignore", divide="ignore"):
        pa = sums[:, 0] / np.where(n2 > 0, n2, 1)
        pi = sums[:, 2:2 + q] / np.where(n1 > 0, n1, 1)[:, None]
        pe = np.einsum("bk,kl,bl->b", pi, w, pi)
        value = (pa - pe) / (1 - pe)
    value = np.where(pe >= 1, 1.0, value)
    return np.where(n2 > 0, value, np.nan)[:, None]
