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

from ..errors import OptionError

__all__ = ["ZERO_DIVISION", "safe_ratio", "f_beta", "precision_recall_f", "json_rate"]

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
    raise OptionError(f"unknown zero_division {zero_division!r}; expected one of {', '.join(ZERO_DIVISION)}")


def f_beta(precision: float, recall: float, beta: float = 1.0) -> float:
    """The weighted harmonic mean of precision and recall."""
    if beta < 0:
        raise OptionError(f"--beta must be a number >= 0; got {beta}")
    if math.isnan(precision) or math.isnan(recall):
        return math.nan
    b2 = beta * beta
    den = b2 * precision + recall
    return 0.0 if den == 0 else (1 + b2) * precision * recall / den


def precision_recall_f(match: int, gold: int, pred: int, *, beta: float = 1.0,
                       zero_division: str = "zero") -> tuple[float, float, float]:
    """Precision, recall and F-beta from the number of matches, gold items and predicted items."""
    p = safe_ratio(match, pred, zero_division)
    r = safe_ratio(match, gold, zero_division)
    return p, r, f_beta(p, r, beta)


def json_rate(x: float) -> float | None:
    """A rate for JSON: NaN (an undefined rate) becomes ``None`` (``null``)."""
    return None if x != x else x
