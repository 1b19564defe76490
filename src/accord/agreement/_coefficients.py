"""Agreement coefficients over the sufficient statistics of :mod:`._stats`.

Conventions shared by every function:

* ``ratings`` is anything :func:`to_ratings` reads, or :class:`AgreementStats` (so
  per-document statistics can be added first); missing values are left out, never a
  category;
* a degenerate case returns a defined value with an :class:`AgreementWarning`: no item
  rated by two raters gives NaN; a chance agreement of 1 (every rating in one category)
  gives 1.0, as GATE's ``ClassificationMeasures`` does;
* the two-rater coefficients (observed and specific agreement, Cohen's kappa, Scott's pi)
  return a float for two raters and a :class:`Pairwise` (each pair's value and their mean)
  for more.
"""

from __future__ import annotations

import warnings
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import AgreementWarning, OptionError, RatingsError
from ._ratings import to_ratings
from ._stats import AgreementStats, agreement_stats

__all__ = ["Pairwise", "observed_agreement", "specific_agreement", "cohen_kappa", "scott_pi", "fleiss_kappa",
           "davies_fleiss_kappa", "krippendorff_alpha", "bennett_s", "gwet_ac1", "confusion_matrix", "stats_of"]


@dataclass(frozen=True)
class Pairwise:
    """A two-rater measure over more than two raters: each pair's value and their mean.

    ``float(result)`` is the mean (the pairs where the value is NaN left out; NaN if all are).
    """

    pairs: dict[tuple[Hashable, Hashable], Any]
    mean: Any

    def __float__(self) -> float:
        return float(self.mean)

    def to_dict(self) -> dict[str, Any]:
        return {"mean": self.mean, "pairs": [{"raters": [a, b], "value": v} for (a, b), v in self.pairs.items()]}


def stats_of(ratings: Any, categories: Sequence[Hashable] | None = None) -> AgreementStats:
    """The :class:`AgreementStats` of ``ratings`` (returned as is if it already is one)."""
    if isinstance(ratings, AgreementStats):
        if categories is not None:
            missing = [c for c in ratings.categories if c not in set(categories)]
            if missing:
                raise RatingsError(f"the statistics hold category {missing[0]!r}, not among the categories given")
            return ratings._reindexed(tuple(categories))
        return ratings
    return agreement_stats(to_ratings(ratings, categories=categories))


def _warn(message: str) -> None:
    warnings.warn(message, AgreementWarning, stacklevel=3)


def _kappa(po: float, pe: float, name: str) -> float:
    if np.isnan(po):
        return float("nan")
    if pe >= 1.0:
        _warn(f"{name}: chance agreement is 1 (every rating in one category); the value is 1.0 by convention")
        return 1.0
    return (po - pe) / (1.0 - pe)


def _per_pair(s: AgreementStats, fn: Any) -> Any:
    if len(s.raters) < 2:
        raise RatingsError(f"agreement needs at least two raters, got {len(s.raters)}")
    if len(s.raters) == 2:
        return fn(s.pairs[(0, 1)])
    values = {(s.raters[a], s.raters[b]): fn(t) for (a, b), t in s.pairs.items()}
    return Pairwise(values, _mean(list(values.values())))


def _mean(values: list[Any]) -> Any:
    if values and isinstance(values[0], dict):
        return {k: _mean([v[k] for v in values]) for k in values[0]}
    ok = [v for v in values if not np.isnan(v)]
    return float(np.mean(ok)) if ok else float("nan")


def _po(t: np.ndarray) -> float:
    n = t.sum()
    if not n:
        _warn("no item was rated by both raters; the agreement is NaN")
        return float("nan")
    return float(np.trace(t) / n)


def observed_agreement(ratings: Any, *, categories: Sequence[Hashable] | None = None) -> float | Pairwise:
    """The share of items on which two raters agree (formula 10.1).

    .. math:: A_o = \\frac{\\sum_c n_{cc}}{N}

    over the ``N`` items both raters rated. More than two raters: each pair and the mean of
    the pairs (Fleiss 1975), as GATE reports it.
    """
    return _per_pair(stats_of(ratings, categories), _po)


def specific_agreement(ratings: Any, *, negative: bool = False,
                       categories: Sequence[Hashable] | None = None) -> dict[Hashable, float] | Pairwise:
    """Agreement on each category separately (formula 10.2).

    Positive: :math:`2 n_{cc} / (n_{c\\cdot} + n_{\\cdot c})`; negative (``negative=True``):
    :math:`2 (N - n_{c\\cdot} - n_{\\cdot c} + n_{cc}) / (2N - n_{c\\cdot} - n_{\\cdot c})`; a ratio
    with a zero denominator is 0 (GATE's IAA plugin). Returns ``{category: value}``, or a
    :class:`Pairwise` of such dicts for more than two raters.
    """
    s = stats_of(ratings, categories)

    def fn(t: np.ndarray) -> dict[Hashable, float]:
        n, rows, cols, diag = t.sum(), t.sum(axis=1), t.sum(axis=0), np.diag(t)
        if negative:
            num, den = 2 * (n - rows - cols + diag), 2 * n - rows - cols
        else:
            num, den = 2 * diag, rows + cols
        with np.errstate(invalid="ignore", divide="ignore"):
            v = np.where(den > 0, num / np.where(den > 0, den, 1), 0.0)
        return {c: float(x) for c, x in zip(s.categories, v)}

    return _per_pair(s, fn)


def cohen_kappa(ratings: Any, *, categories: Sequence[Hashable] | None = None) -> float | Pairwise:
    """Cohen's kappa: chance from each rater's own distribution (formula 10.3, table 10.3).

    .. math:: \\kappa = \\frac{A_o - A_e}{1 - A_e},\\quad A_e = \\sum_c \\frac{n_{c\\cdot}}{N}\\frac{n_{\\cdot c}}{N}
    """
    def fn(t: np.ndarray) -> float:
        po = _po(t)
        n = t.sum()
        pe = float((t.sum(axis=1) * t.sum(axis=0)).sum() / (n * n)) if n else float("nan")
        return _kappa(po, pe, "Cohen's kappa")

    return _per_pair(stats_of(ratings, categories), fn)


def scott_pi(ratings: Any, *, categories: Sequence[Hashable] | None = None) -> float | Pairwise:
    """Scott's pi (Siegel & Castellan's kappa for two raters): chance from the pooled distribution (table 10.4).

    .. math:: A_e = \\sum_c \\left(\\frac{n_{c\\cdot} + n_{\\cdot c}}{2N}\\right)^2
    """
    def fn(t: np.ndarray) -> float:
        po = _po(t)
        n = t.sum()
        pe = float((((t.sum(axis=1) + t.sum(axis=0)) / (2 * n)) ** 2).sum()) if n else float("nan")
        return _kappa(po, pe, "Scott's pi")

    return _per_pair(stats_of(ratings, categories), fn)


def _multi_po(s: AgreementStats, name: str) -> float:
    if len(s.raters) < 2:
        raise RatingsError(f"agreement needs at least two raters, got {len(s.raters)}")
    if not s.n_pairable:
        _warn(f"{name}: no item was rated by two raters; the value is NaN")
        return float("nan")
    return s.pa_sum / s.n_pairable


def _shares(s: AgreementStats) -> np.ndarray:
    return s.pi_sum / s.n_rated if s.n_rated else np.zeros(len(s.categories))


def fleiss_kappa(ratings: Any, *, categories: Sequence[Hashable] | None = None) -> float:
    """Fleiss' kappa for any number of raters, missing ratings allowed (Fleiss 1971; Gwet 2014).

    .. math:: P_o = \\frac{1}{n'} \\sum_{i: r_i \\ge 2} \\sum_c \\frac{n_{ic}(n_{ic} - 1)}{r_i (r_i - 1)},\\quad
              \\pi_c = \\frac{1}{n} \\sum_{i: r_i \\ge 1} \\frac{n_{ic}}{r_i},\\quad P_e = \\sum_c \\pi_c^2

    With every item rated by every rater this is Fleiss' original kappa (and statsmodels').

    The value is at most 1. With complete data it is at least ``-1/(m - 1)`` for ``m``
    raters; with missing ratings it has no lower bound: ``P_e`` counts every rated item,
    ``P_o`` only the items rated at least twice, so items rated once that all fall in one
    category push ``P_e`` towards 1 while ``P_o`` may be 0. (Gwet's irrCAC gives the same
    values: one item rated A and B and nine items rated A once give -9.53.) A warning says
    how many items were rated once when the value falls below -1.
    """
    s = stats_of(ratings, categories)
    value = _kappa(_multi_po(s, "Fleiss' kappa"), float((_shares(s) ** 2).sum()), "Fleiss' kappa")
    if value < -1:
        _warn(f"Fleiss' kappa is {value:.3f}, below -1: {s.n_rated - s.n_pairable} of {s.n_rated} item(s) were rated "
              "by one rater only; they weigh in the chance agreement but not in the observed agreement (Gwet's "
              "formula for missing ratings)")
    return value


def bennett_s(ratings: Any, *, categories: Sequence[Hashable] | None = None) -> float:
    """Bennett, Alpert & Goldstein's S (Brennan & Prediger; Randolph's free-marginal kappa for many raters).

    .. math:: \\kappa = \\frac{P_o - 1/q}{1 - 1/q}

    ``P_o`` as in :func:`fleiss_kappa` (the plain observed agreement for two raters); ``q``
    is the number of categories: those given, else those that occur in the ratings.
    """
    s = stats_of(ratings, categories)
    q = len(s.categories)
    return _kappa(_multi_po(s, "Bennett's S"), 1.0 / q if q else 1.0, "Bennett's S")


def gwet_ac1(ratings: Any, *, categories: Sequence[Hashable] | None = None) -> float:
    """Gwet's AC1, robust to skewed category prevalence (Gwet 2008, any number of raters).

    .. math:: P_e = \\frac{1}{q - 1} \\sum_c \\pi_c (1 - \\pi_c)

    ``P_o`` and ``π_c`` as in :func:`fleiss_kappa`, ``q`` as in :func:`bennett_s`.
    """
    s = stats_of(ratings, categories)
    q = len(s.categories)
    pi = _shares(s)
    pe = float((pi * (1 - pi)).sum() / (q - 1)) if q > 1 else 1.0
    return _kappa(_multi_po(s, "Gwet's AC1"), pe, "Gwet's AC1")


def davies_fleiss_kappa(ratings: Any, *, categories: Sequence[Hashable] | None = None) -> float:
    """Davies & Fleiss' kappa for ``J`` raters (formula 10.4; Conger's kappa, NLTK's ``multi_kappa``).

    .. math:: \\kappa = 1 - \\frac{I J^2 - \\sum_i \\sum_c Y_{ic}^2}
              {I \\left[J (J - 1) \\sum_c p_c (1 - p_c) + \\sum_c \\sum_j (p_{cj} - p_c)^2\\right]}

    over the ``I`` items every rater rated (items with a missing rating are left out, with a
    warning); ``p_cj`` is rater ``j``'s share of category ``c``, ``p_c`` its mean over raters.
    """
    s = stats_of(ratings, categories)
    j = len(s.raters)
    if j < 2:
        raise RatingsError(f"agreement needs at least two raters, got {j}")
    i = s.complete
    if s.n_rated > i:
        _warn(f"Davies & Fleiss' kappa: {s.n_rated - i} item(s) not rated by every rater are left out")
    if not i:
        _warn("Davies & Fleiss' kappa: no item was rated by every rater; the value is NaN")
        return float("nan")
    pcj = s.rater_counts / i                     # raters x categories
    pc = pcj.mean(axis=0)
    den = i * (j * (j - 1) * (pc * (1 - pc)).sum() + ((pcj - pc) ** 2).sum())
    if den <= 0:
        _warn("Davies & Fleiss' kappa: every rating is in one category; the value is 1.0 by convention")
        return 1.0
    return float(1 - (i * j * j - s.y2) / den)


LEVELS = ("nominal", "ordinal", "interval", "ratio")


def krippendorff_alpha(ratings: Any, *, level: str = "nominal",
                       categories: Sequence[Hashable] | None = None) -> float:
    """Krippendorff's alpha over the coincidence matrix, any number of raters, missing values allowed.

    .. math:: \\alpha = 1 - (n - 1) \\frac{\\sum_{c,k} o_{ck}\\, \\delta^2_{ck}}{\\sum_{c,k} n_c n_k\\, \\delta^2_{ck}}

    with ``o`` the coincidence matrix (items rated by at least two raters), ``n_c`` its
    margins and ``n`` their total. ``level`` picks ``δ²``: ``nominal`` ``[c ≠ k]``;
    ``ordinal`` ``(Σ_{g=c..k} n_g - (n_c + n_k)/2)²`` in the category order;
    ``interval`` ``(c - k)²``; ``ratio`` ``((c - k)/(c + k))²``. Interval and ratio need
    numeric categories; ordinal uses their natural order, or the order of ``categories``.
    No pairable value gives NaN, and no variation at all (one value) NaN too, each with a
    warning: the data then hold no information about reliability (Krippendorff 2011).
    """
    if level not in LEVELS:
        raise OptionError(f"unknown level {level!r}; expected one of {', '.join(LEVELS)}")
    s = stats_of(ratings, categories)
    o = s.coincidence
    nc = o.sum(axis=1)
    n = nc.sum()
    if n <= 1:
        _warn("Krippendorff's alpha: no item was rated by two raters; the value is NaN")
        return float("nan")
    k = len(s.categories)
    if level == "nominal":
        d2 = 1.0 - np.eye(k)
    elif level == "ordinal":
        cum = np.concatenate([[0.0], np.cumsum(nc)])
        a, b = np.meshgrid(np.arange(k), np.arange(k), indexing="ij")
        lo, hi = np.minimum(a, b), np.maximum(a, b)
        d2 = (cum[hi + 1] - cum[lo] - (nc[a] + nc[b]) / 2) ** 2
    else:
        maybe_numbers: Sequence[Any] = s.categories   # float() of each: a TypeError or ValueError when not numeric
        try:
            v = np.array([float(c) for c in maybe_numbers])
        except (TypeError, ValueError):
            raise RatingsError(f"Krippendorff's alpha at the {level} level needs numeric categories, got "
                               f"{', '.join(map(repr, s.categories))}") from None
        diff = v[:, None] - v[None, :]
        if level == "interval":
            d2 = diff ** 2
        else:
            total = v[:, None] + v[None, :]
            with np.errstate(invalid="ignore", divide="ignore"):
                d2 = np.where(total != 0, (diff / np.where(total != 0, total, 1)) ** 2, 0.0)
    expected = float((np.outer(nc, nc) * d2).sum())
    if expected <= 0:
        _warn("Krippendorff's alpha: the ratings do not vary (one value only); the value is NaN")
        return float("nan")
    return float(1 - (n - 1) * float((o * d2).sum()) / expected)


def confusion_matrix(ratings: Any, a: int = 0, b: int = 1, *,
                     categories: Sequence[Hashable] | None = None) -> tuple[tuple[Hashable, ...], np.ndarray]:
    """The contingency table of raters ``a`` (rows) and ``b`` (columns), given by position:
    ``(categories, counts)`` over the items both rated."""
    s = stats_of(ratings, categories)
    m = len(s.raters)
    if not (0 <= a < m and 0 <= b < m) or a == b:
        raise OptionError(f"raters {a} and {b}: expected two different positions in 0..{m - 1}")
    t = s.pairs[(min(a, b), max(a, b))]
    return s.categories, (t if a < b else t.T).copy()

