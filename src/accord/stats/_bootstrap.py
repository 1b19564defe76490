"""The bootstrap over documents: resampled totals as weighted sums of per-document counts.

A bootstrap resample draws ``n`` documents with replacement from the ``n`` documents of a result
(Efron & Tibshirani 1993, ch. 6); its totals are ``w @ values`` with ``w[d]`` the number of times
document ``d`` was drawn, so every rate of every row is resampled at the cost of one matrix product
per chunk of resamples. The documents are drawn exactly as :func:`scipy.stats.bootstrap` draws them
(``rng.integers(0, n, (batch, n))`` per batch of :data:`CHUNK` resamples), so with the same generator
and ``batch=CHUNK`` both see the same resamples.

Intervals (``confidence`` = 1 - 2α):

- ``percentile``: the α and 1 - α percentiles of the resampled statistic (``numpy.percentile``, linear);
- ``bca``: bias-corrected and accelerated (Efron & Tibshirani 1993, eq. 14.14 and 14.15), as
  :func:`scipy.stats.bootstrap` computes it: ``z0 = Φ⁻¹(p)`` with ``p`` the share of resamples below
  the estimate (ties counted half), acceleration ``a = Σ U³ / (6 (Σ U²)^{3/2})`` from the jackknife
  values ``U_i = (n - 1)(θ̄ - θ_(i))``, then the percentiles ``Φ(z0 + (z0 + z_α) / (1 - a (z0 + z_α)))``.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from .._support.arrays import Floats
from .._support.limits import MAX_DRAWS
from ..errors import OptionError, StatisticsWarning

if TYPE_CHECKING:
    from ._units import UnitMatrix

__all__ = ["CHUNK", "CI_METHODS", "BootstrapOptions", "check_seed", "resampled_sums", "intervals"]

CHUNK = 64
"""Resamples drawn per batch (small batches keep the weight matrix in cache)."""

CI_METHODS = ("percentile", "bca")


def check_seed(seed: object) -> None:
    """A seed of numpy's generators: ``None`` or a whole number >= 0 (an :class:`OptionError` otherwise)."""
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0):
        raise OptionError(f"--seed must be a whole number >= 0; got {seed!r}")


@dataclass(frozen=True)
class BootstrapOptions:
    """How to resample: ``n_resamples`` resamples from ``numpy.random.default_rng(seed)``."""

    n_resamples: int
    seed: int | None = None
    confidence: float = 0.95
    method: str = "percentile"
    resample: str = "auto"
    """``auto``, ``documents`` or ``sentences`` (:mod:`accord.stats._units`)."""

    def __post_init__(self) -> None:
        if isinstance(self.n_resamples, bool) or not isinstance(self.n_resamples, (int, np.integer)) \
                or not 2 <= self.n_resamples <= MAX_DRAWS:
            raise OptionError(f"--bootstrap takes a number of resamples from 2 to {MAX_DRAWS:,}; "
                              f"got {self.n_resamples!r}")
        check_seed(self.seed)
        if isinstance(self.confidence, bool) or not isinstance(self.confidence, (int, float, np.number)) \
                or not 0 < self.confidence < 1:
            raise OptionError(f"--confidence must lie strictly between 0 and 1; got {self.confidence!r}")
        if self.method not in CI_METHODS:
            raise OptionError(f"--ci-method must be one of {', '.join(CI_METHODS)}; got {self.method!r}")
        from ._units import RESAMPLE_CHOICES

        if self.resample not in RESAMPLE_CHOICES:
            raise OptionError(f"--resample must be one of {', '.join(RESAMPLE_CHOICES)}; got {self.resample!r}")

    def to_dict(self) -> dict[str, object]:
        return {"bootstrap": int(self.n_resamples), "seed": self.seed, "confidence": self.confidence,
                "ci_method": self.method}


def resampled_sums(values: UnitMatrix | npt.ArrayLike, n_resamples: int, rng: np.random.Generator) -> Floats:
    """``(n_resamples, k)``: the column sums of ``values`` (``(n, k)``: an array, or a
    :class:`~accord.stats._units.UnitMatrix` of documents or sentences) over each resample of its rows."""
    from ._units import UnitMatrix

    units = values if isinstance(values, UnitMatrix) else \
        UnitMatrix(np.ascontiguousarray(values, dtype=np.float64), "documents")
    n = units.n
    out = np.empty((n_resamples, units.width), dtype=np.float64)
    if n == 0:
        out[:] = 0.0
        return out
    for start in range(0, n_resamples, CHUNK):
        b = min(CHUNK, n_resamples - start)
        draws = rng.integers(0, n, (b, n))
        draws += (np.arange(b) * n)[:, None]
        weights = np.bincount(draws.ravel(), minlength=b * n).reshape(b, n).astype(np.float64)
        out[start:start + b] = units.weighted_sums(weights)
    return out


def intervals(resampled: Floats, estimate: Floats, confidence: float, method: str,
              jackknife: Callable[[], Floats] | None = None) -> tuple[Floats, Floats]:
    """Lower and upper bounds, one per statistic.

    Parameters
    ----------
    resampled : array of shape (s, B)
        Each statistic over the resamples (NaN where a resample leaves it undefined).
    estimate : array of shape (s,)
        Each statistic on the data.
    jackknife : callable returning an array of shape (s, n)
        The statistics with each document left out in turn (``bca`` only).
    """
    alpha = (1 - confidence) / 2
    resampled = np.asarray(resampled, dtype=np.float64)
    s = resampled.shape[0]
    lo, hi = np.full(s, np.nan), np.full(s, np.nan)
    if method == "percentile":
        qs = (np.full(s, 100 * alpha), np.full(s, 100 * (1 - alpha)))
    else:
        qs = _bca_percentiles(resampled, np.asarray(estimate, dtype=np.float64), alpha, jackknife)
    usable = ~(np.isnan(resampled).any(axis=1) | np.isnan(qs[0]) | np.isnan(qs[1]))
    if method == "percentile" and usable.any():   # one pair of percentiles for every statistic
        bounds = np.percentile(resampled[usable], [qs[0][0], qs[1][0]], axis=1)
        lo[usable], hi[usable] = bounds[0], bounds[1]
    else:
        for k in np.flatnonzero(usable):
            lo[k] = np.percentile(resampled[k], qs[0][k])
            hi[k] = np.percentile(resampled[k], qs[1][k])
    return lo, hi


def _bca_percentiles(resampled: Floats, estimate: Floats, alpha: float,
                     jackknife: Callable[[], Floats] | None) -> tuple[Floats, Floats]:
    from scipy.special import ndtr, ndtri

    if jackknife is None:
        raise OptionError("the BCa interval needs the jackknife statistics")
    b = resampled.shape[1]
    share = ((resampled < estimate[:, None]).sum(axis=1) + (resampled <= estimate[:, None]).sum(axis=1)) / (2 * b)
    z0 = ndtri(share)
    theta_i = np.asarray(jackknife(), dtype=np.float64)
    n = theta_i.shape[1]
    with np.errstate(invalid="ignore", divide="ignore"):
        # no unit (an empty input): the mean is NaN, the interval undefined, said once below
        mean = theta_i.sum(axis=1, keepdims=True) / n if n else np.full((len(theta_i), 1), np.nan)
        u = (n - 1) * (mean - theta_i)
        a_hat = (1 / 6) * ((u ** 3).sum(axis=1) / n ** 3) / ((u ** 2).sum(axis=1) / n ** 2) ** 1.5
        z_alpha = ndtri(alpha)
        num1, num2 = z0 + z_alpha, z0 - z_alpha
        alpha_1 = ndtr(z0 + num1 / (1 - a_hat * num1))
        alpha_2 = ndtr(z0 + num2 / (1 - a_hat * num2))
    degenerate = np.isnan(alpha_1) | np.isnan(alpha_2)
    if degenerate.any():
        warnings.warn(StatisticsWarning(f"the BCa interval is undefined for {int(degenerate.sum())} statistic(s) whose "
                                        "bootstrap distribution is degenerate (every resample gives one value, or the "
                                        "jackknife values do not vary); written as null"), stacklevel=3)
    return 100 * alpha_1, 100 * alpha_2
