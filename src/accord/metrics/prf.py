"""Precision, recall and F-beta from counts.

.. math::

    P = \\frac{match}{pred},\\qquad R = \\frac{match}{gold},\\qquad
    F_\\beta = \\frac{(1 + \\beta^2) P R}{\\beta^2 P + R}

where ``pred = match + pred_clash + spurious`` and ``gold = match + gold_clash + missing``.
When a denominator is 0 the rate is undefined and ``zero_division`` decides: ``"zero"``
(0.0, seqeval's and scikit-learn's value), ``"one"`` (1.0, MAT's value: nothing to find
and nothing found is perfect), or ``"nan"`` (NaN, written as ``null`` in JSON). F is 0
when ``P + R = 0`` and NaN when either rate is NaN.
"""

from __future__ import annotations

import math

from .._support.surface import spelled
from ..errors import OptionError

__all__ = ["ZERO_DIVISION", "safe_ratio", "f_beta", "f_from_counts", "precision_recall_f", "json_rate"]

ZERO_DIVISION = ("zero", "one", "nan")


def safe_ratio(num: float, den: float, zero_division: str = "zero") -> float:
    """``num / den``, or the ``zero_division`` value when ``den == 0``."""
    if den:
        return num / den
    if zero_division == "zero":
        return 0.0
    if zero_division == "one":
        return 1.0
    if zero_division == "nan":
        return math.nan
    raise OptionError(f"unknown {spelled('zero_division')} {zero_division!r}; expected one of "
                      f"{', '.join(ZERO_DIVISION)}")


def f_beta(precision: float, recall: float, beta: float = 1.0) -> float:
    """The weighted harmonic mean of precision and recall."""
    if beta < 0:
        raise OptionError(f"{spelled('beta')} must be a number >= 0; got {beta}")
    if math.isnan(precision) or math.isnan(recall):
        return math.nan
    b2 = beta * beta
    den = b2 * precision + recall
    return 0.0 if den == 0 else (1 + b2) * precision * recall / den


def f_from_counts(p_num: float, pred: float, r_num: float, gold: float, beta: float, p: float, r: float) -> float:
    """F-beta of precision ``p = p_num / pred`` and recall ``r = r_num / gold`` as one division of the counts,
    ``(1 + β²) m / (β² gold + pred)`` when both numerators are ``m`` (else ``(1 + β²) p_num r_num / (β² p_num gold
    + r_num pred)``): equal to :func:`f_beta` of the rates, but two count tables of one F value give one float,
    so that a bootstrap resample ties exactly with the observed value. Where ``pred`` or ``gold`` is 0 (or a rate
    undefined), :func:`f_beta` of ``p`` and ``r``, which carry the value chosen for an empty side. The
    vectorised twin is :func:`accord.result._kinds.f_from_counts`, bit for bit."""
    if beta < 0:
        raise OptionError(f"{spelled('beta')} must be a number >= 0; got {beta}")
    if pred == 0 or gold == 0 or math.isnan(p) or math.isnan(r):
        return f_beta(p, r, beta)
    b2 = beta * beta
    if p_num == r_num:
        num, den = (1 + b2) * r_num, b2 * gold + pred
    else:
        num, den = (1 + b2) * p_num * r_num, b2 * p_num * gold + r_num * pred
    return 0.0 if den == 0 else num / den


def precision_recall_f(match: int, gold: int, pred: int, *, beta: float = 1.0,
                       zero_division: str = "zero") -> tuple[float, float, float]:
    """Precision, recall and F-beta from the number of matches, gold items and predicted items."""
    p = safe_ratio(match, pred, zero_division)
    r = safe_ratio(match, gold, zero_division)
    return p, r, f_from_counts(match, pred, match, gold, beta, p, r)


def json_rate(x: float) -> float | None:
    """A rate for JSON: NaN (an undefined rate) becomes ``None`` (``null``)."""
    return None if x != x else x
