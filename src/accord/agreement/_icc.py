"""Intraclass correlations of numeric ratings (Shrout & Fleiss 1979; McGraw & Wong 1996): the six forms of a
two-way table of items (targets) by raters, from the ANOVA mean squares.

An item enters when every rater rated it (the ANOVA needs a complete table); the items left out are counted in a
warning. The sums of squares are computed from per-item contributions (:mod:`._measures`) on values centred on
their mean, so the bootstrap over items reuses them and large values keep their precision.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np

from ..errors import RatingsError
from ._ratings import MISSING

__all__ = ["ICC_NAMES", "numeric_values", "icc_contributions", "icc_evaluate"]

ICC_NAMES = ("icc1", "icc2", "icc3", "icc1k", "icc2k", "icc3k")
"""pingouin's ICC1, ICC2, ICC3, ICC1k, ICC2k, ICC3k, in that order."""


def numeric_values(categories: Sequence[Hashable], what: str) -> np.ndarray:
    """The categories as numbers, or a :class:`~accord.errors.RatingsError` naming the first that is not one."""
    out = []
    for c in categories:
        try:
            v = float(c)  # type: ignore[arg-type]  # a TypeError or ValueError when not numeric
        except (TypeError, ValueError):
            v = float("nan")
        if isinstance(c, bool) or not np.isfinite(v):
            raise RatingsError(f"{what} needs numeric ratings, got {c!r}")
        out.append(v)
    return np.array(out, dtype=np.float64)


def icc_contributions(pat: np.ndarray, values: np.ndarray, centre: float) -> np.ndarray:
    """Per pattern rated by every rater: ``[1, x_j (m), (Σ_j x_j)², Σ_j x_j²]``, ``x`` the values minus ``centre``."""
    u, m = pat.shape
    full = (pat != MISSING).all(axis=1) & (values.size > 0)
    x = np.where(full[:, None], values[np.where(full[:, None], pat, 0)] - centre, 0.0) if values.size \
        else np.zeros((u, m))
    out = np.zeros((u, m + 3))
    out[:, 0] = full
    out[:, 1:1 + m] = x
    out[:, 1 + m] = x.sum(axis=1) ** 2
    out[:, 2 + m] = (x ** 2).sum(axis=1)
    return out


def icc_evaluate(sums: np.ndarray, m: int) -> np.ndarray:
    """``(b, 6)``: the six ICCs of :data:`ICC_NAMES` from the summed contributions (NaN with fewer than two items or
    one rater, or a zero denominator)."""
    n = sums[:, 0]
    cols = sums[:, 1:1 + m]
    rows2, squares = sums[:, 1 + m], sums[:, 2 + m]
    with np.errstate(invalid="ignore", divide="ignore"):
        safe = np.where(n > 0, n, 1)
        correction = cols.sum(axis=1) ** 2 / (safe * m)         # N m (grand mean)²
        ss_total = squares - correction
        ss_rows = rows2 / m - correction
        ss_cols = (cols ** 2).sum(axis=1) / safe - correction
        ss_error = ss_total - ss_rows - ss_cols
        # sums of squares within rounding of 0 are 0 (a resample's or jackknife's sums are differences of sums):
        # a table without variation gives NaN, not the ratio of two rounding errors
        tol = 1e-9 * (np.abs(squares) + np.abs(correction))
        ss_total, ss_rows, ss_cols, ss_error = (np.where(np.abs(x) <= tol, 0.0, x)
                                                for x in (ss_total, ss_rows, ss_cols, ss_error))
        msr = ss_rows / (n - 1)
        msc = ss_cols / (m - 1)
        mse = ss_error / ((n - 1) * (m - 1))
        msw = (ss_total - ss_rows) / (n * (m - 1))
        size = np.abs(msr) + np.abs(msc) + np.abs(mse) + np.abs(msw)

        def ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
            """``num / den``, NaN where ``den`` is 0 within rounding (of differences of sums)."""
            return np.where(np.abs(den) <= 1e-9 * size, np.nan, num / np.where(den == 0, 1, den))

        out = np.stack([
            ratio(msr - msw, msr + (m - 1) * msw),
            ratio(msr - mse, msr + (m - 1) * mse + m * (msc - mse) / n),
            ratio(msr - mse, msr + (m - 1) * mse),
            ratio(msr - msw, msr),
            ratio(msr - mse, msr + (msc - mse) / n),
            ratio(msr - mse, msr),
        ], axis=1)
    out[~np.isfinite(out)] = np.nan
    if m < 2:
        out[:] = np.nan
    out[n < 2] = np.nan
    return out
