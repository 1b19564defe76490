"""Power of a paired comparison: the smallest true difference of a rate that the paired test would detect.

For two systems scored on the same resampling units (documents or sentences) with per-unit counts ``A_u`` and
``B_u``, the compared statistic is ``δ = rate(Σ_u B_u) - rate(Σ_u A_u)`` (as in :mod:`accord.stats._compare`).
Its standard error is estimated by the paired bootstrap over units (Efron & Tibshirani 1993, ch. 6; Koehn 2004):
``SE = sd(δ*)`` with ``δ*`` the statistic on resamples that draw the same units for both systems. The paired test
at two-sided level α (permutation or bootstrap, whose null spread is ``SE`` to first order for a small difference)
rejects when ``|δ̂| > z_{1-α/2} · SE``; if the true difference is Δ, ``δ̂ ≈ N(Δ, SE²)`` and the test rejects with
probability ``Φ(Δ / SE - z_{1-α/2})`` (the opposite tail neglected). The *minimum detectable difference* at power
``1 - β`` is the Δ where that probability reaches ``1 - β`` (Bloom 1995, eq. 1; Cohen 1988, ch. 2)::

    MDD = (z_{1-α/2} + z_{1-β}) · SE,        e.g. α = 0.05, 1 - β = 0.8:  MDD = (1.960 + 0.842) · SE = 2.80 · SE.

``method="resampled"`` reads both quantiles off the resamples instead of the normal law (for a skewed ``δ*``):
with ``e = δ* - mean(δ*)``, ``c = q_{1-α}(|e|)`` (the test's critical distance), the MDD is the larger of the two
directions ``c - q_β(e)`` and ``c + q_{1-β}(e)``; for a normal ``e`` it equals the formula above.

Both are approximations from one corpus's per-unit variability; tests/stats/test_power.py checks on synthetic
corpora with a known true difference equal to the MDD that accord's paired tests reject in about ``1 - β`` of them
(Card et al. 2020 argue for such simulation-checked power figures in NLP).

References
----------
Bloom (1995), "Minimum Detectable Effects: A Simple Way to Report the Statistical Power of Experimental Designs",
*Evaluation Review* 19(5). Cohen (1988), *Statistical Power Analysis for the Behavioral Sciences*, 2nd ed.
Card, Henderson, Khandelwal, Jia, Mahowald & Jurafsky (2020), "With Little Power Comes Great Responsibility", EMNLP.
Koehn (2004), "Statistical Significance Tests for Machine Translation Evaluation", EMNLP.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from statistics import NormalDist

import numpy as np
import numpy.typing as npt

from .._support.arrays import Floats
from .._support.limits import MAX_DRAWS
from ..errors import OptionError
from ._bootstrap import resampled_sums

__all__ = ["METHODS", "detectable_text", "minimum_detectable_difference", "paired_bootstrap_differences"]

METHODS = ("normal", "resampled")


def _level(name: str, value: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.number)) or not 0 < value < 1:
        raise OptionError(f"{name} must be a number strictly between 0 and 1; got {value!r}")
    return float(value)


def minimum_detectable_difference(delta_resampled: npt.ArrayLike, alpha: float, power: float = 0.8, *,
                                  method: str = "normal") -> float | Floats:
    """The smallest true difference the paired test detects at two-sided level ``alpha`` with the given power.

    .. math:: MDD = (z_{1-\\alpha/2} + z_{power}) \\cdot sd(\\delta^*)   \\quad (\\text{method} = \\text{"normal"})

    Parameters
    ----------
    delta_resampled : array of shape (samples,) or (samples, ...)
        The compared difference ``δ*`` on paired bootstrap resamples of the units (axis 0), as
        :func:`paired_bootstrap_differences` returns it; further axes are separate statistics (rows, rates). The
        permutation test's null differences (each unit's two outputs swapped) serve as well: their spread estimates
        the same standard error when the difference is small (tests/stats/test_power.py: within 5 %).
    alpha : float
        The test's two-sided level, strictly between 0 and 1.
    power : float
        The wanted probability of rejecting, strictly between ``alpha / 2`` and 1 (default 80 %).
    method : {"normal", "resampled"}
        ``normal``: the formula above (Bloom 1995); ``resampled``: the quantiles of the centred resamples instead of
        the normal law's, the larger of the two directions (see the module notes).

    Returns
    -------
    float or array
        In the rate's units (a fraction: 0.007 is 0.7 points); a float for one statistic, else an array of shape
        ``delta_resampled.shape[1:]``. NaN where a resample leaves the difference undefined.
    """
    alpha, power = _level("alpha", alpha), _level("power", power)
    if power <= alpha / 2:
        raise OptionError(f"power must exceed alpha / 2 = {alpha / 2:g} (the chance of rejecting with no difference, "
                          f"one side); got {power!r}")
    if method not in METHODS:
        raise OptionError(f"the minimum detectable difference's method must be one of {', '.join(METHODS)}; "
                          f"got {method!r}")
    d = np.asarray(delta_resampled, dtype=np.float64)
    if d.ndim == 0 or len(d) < 2:
        raise OptionError("a minimum detectable difference needs at least 2 resampled differences; got "
                          f"{0 if d.ndim == 0 else len(d)}")
    undefined = np.isnan(d).any(axis=0)
    d = np.where(undefined, 0.0, d)
    if method == "normal":
        normal = NormalDist()
        # z_{1-α/2} as -z_{α/2}: 1 - α/2 rounds to 1.0 for a tiny α (--alpha 1e-147), α/2 itself does not
        out = (-normal.inv_cdf(alpha / 2) + normal.inv_cdf(power)) * d.std(axis=0, ddof=1)
    else:
        e = d - d.mean(axis=0)
        critical = np.quantile(np.abs(e), 1 - alpha, axis=0)
        low, high = np.quantile(e, [1 - power, power], axis=0)
        out = np.maximum(critical - low, critical + high)
    out = np.where(undefined, np.nan, out)
    return float(out) if out.ndim == 0 else out


def paired_bootstrap_differences(counts_a: npt.ArrayLike, counts_b: npt.ArrayLike,
                                 rate: Callable[[Floats], npt.ArrayLike], *, samples: int = 1000,
                                 rng: np.random.Generator | None = None) -> Floats:
    """``δ* = rate(Σ_u w_u B_u) - rate(Σ_u w_u A_u)`` over paired bootstrap resamples of the units.

    Each resample draws ``n`` of the ``n`` units with replacement (``w_u``: how often unit ``u`` was drawn), the same
    units for both systems, as :func:`accord.stats.resampled_sums` draws them.

    Parameters
    ----------
    counts_a, counts_b : array of shape (units, ...)
        Each unit's additive counts for system A and B (the same shape; e.g. ``(units, fields)`` or ``(units, rows,
        fields)``).
    rate : callable
        Turns summed counts of shape ``(samples, ...)`` (the trailing shape of the counts) into the rate, an array
        whose first axis is the samples: e.g. ``lambda v: kind.rates(v)["f1"]`` for a result's
        :class:`~accord.result.Kind`.
    samples : int
        Resamples (from 2 to :data:`~accord._support.limits.MAX_DRAWS`).
    rng : numpy.random.Generator
        The generator (a fresh unseeded one if omitted).

    Returns
    -------
    array of shape (samples, ...)
        The resampled differences ``δ*`` (B minus A).
    """
    a, b = np.asarray(counts_a, dtype=np.float64), np.asarray(counts_b, dtype=np.float64)
    if a.shape != b.shape or a.ndim < 1:
        raise OptionError(f"the two systems' per-unit counts must have one shape; got {a.shape} and {b.shape}")
    if len(a) < 2:
        raise OptionError(f"a minimum detectable difference needs at least 2 resampling units; got {len(a)} (one "
                          "unit has no variability to resample)")
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or not 2 <= samples <= MAX_DRAWS:
        raise OptionError(f"samples must be a whole number from 2 to {MAX_DRAWS:,}; got {samples!r}")
    bad = ~np.isfinite(a).all(axis=tuple(range(1, a.ndim))) | ~np.isfinite(b).all(axis=tuple(range(1, b.ndim)))
    if bad.any():
        raise OptionError(f"unit {int(np.flatnonzero(bad)[0])} has a count that is not a finite number")
    rng = np.random.default_rng() if rng is None else rng
    n, trailing = len(a), a.shape[1:]
    width = int(np.prod(trailing, dtype=np.int64))
    sums = resampled_sums(np.concatenate([a.reshape(n, width), b.reshape(n, width)], axis=1), samples, rng)
    sums_a = sums[:, :width].reshape((samples, *trailing))
    sums_b = sums[:, width:].reshape((samples, *trailing))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray(rate(sums_b), dtype=np.float64) - np.asarray(rate(sums_a), dtype=np.float64)


def detectable_text(n_units: int, unit_name: str, mdd: float, rate_name: str, *, scale: float = 100.0,
                    points: str = "points") -> str:
    """One line for a table: ``"with 231 documents, differences below 0.7 F1 points are not detectable"``.

    Parameters
    ----------
    n_units : int
        The number of resampling units.
    unit_name : str
        The unit, singular (``"document"``, ``"sentence"``); an ``s`` is added for a number other than 1.
    mdd : float
        The minimum detectable difference in the rate's units (a fraction), as
        :func:`minimum_detectable_difference` returns it; NaN: undefined.
    rate_name : str
        The rate as shown (``"F1"``).
    scale, points : float, str
        The difference is shown times ``scale`` in ``points`` (percentage points by default).
    """
    units = f"{n_units:,} {unit_name}{'' if n_units == 1 else 's'}"
    if mdd is None or not math.isfinite(mdd):
        return f"with {units}, the smallest detectable difference of {rate_name} is undefined"
    x = abs(mdd) * scale
    shown = f"{x:.1f}" if x >= 1 else f"{x:.2g}"
    return f"with {units}, differences below {shown} {rate_name} {points} are not detectable"
