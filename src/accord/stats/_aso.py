"""Almost Stochastic Order (ASO): how far the scores of one system are from dominating another's.

For the scores of several runs of two systems (one score per run: different seeds, say), with empirical
quantile functions ``F⁻¹`` (system A) and ``G⁻¹`` (system B), the *violation ratio* (del Barrio, Cuesta-Albertos
& Matrán 2018; Dror, Shlomov & Reichart 2019, eq. 4-5) is the share of the squared Wasserstein distance spent
where A's quantile lies below B's::

    ε_W2(F, G) = ∫_{V} (F⁻¹(t) - G⁻¹(t))² dt / ∫_0^1 (F⁻¹(t) - G⁻¹(t))² dt,    V = {t : F⁻¹(t) < G⁻¹(t)}.

ε_W2 = 0 means A's quantile function is nowhere below B's (A stochastically dominates B); ε_W2 = 1 the reverse.
The reported statistic is the upper confidence bound of Dror et al. (2019), eq. 6::

    ε_min = ε_W2(F_n, G_m) - sqrt((n + m) / (n m)) · σ̂ · Φ⁻¹(α),    α = 1 - confidence,

with ``σ̂`` the standard deviation of ``sqrt(n m / (n + m)) (ε_W2(F*_n, G*_m) - ε_W2(F_n, G_m))`` over bootstrap
resamples (``n`` of A's scores and ``m`` of B's drawn with replacement, independently), clipped to [0, 1].
The computation follows ``deepsig.aso`` (Ulmer, Hardmeier & Frellsen 2022, ``deepsig`` 1.2.8):

- the empirical quantile function of ``x_(1) ≤ … ≤ x_(n)`` is ``Q(t) = x_(max(1, min(n, ⌈n t⌉)))``;
- the integrals are Riemann sums over ``t = dt, 2 dt, …`` below 1 (``numpy.arange(dt, 1, dt)``); as in deepsig the
  first point ``t = dt`` enters the denominator but not the numerator;
- when the two quantile functions are equal on the grid (no distance), ε_W2 is 0.5 by convention (deepsig's);
- unlike deepsig, both lists are first mapped onto [0, 1] by one increasing affine map (ε_W2 does not change), so
  that squared distances neither overflow (deepsig: NaN for scores beyond 1e154) nor underflow (differences of 1e-200:
  deepsig's 0.5 for lists it sees as equal);
- ``num_comparisons`` = k applies Bonferroni's correction, α ↦ α / k. Here deepsig 1.2.8 differs: it raises the
  confidence level to ``confidence + (1 - confidence) / k``, which equals ``1 - α / k`` for k = 2 only (for k = 3 at
  95 % it gives 0.9667 where Bonferroni's level is 0.9833), so for k ≥ 3 our ε_min is the larger (more cautious);
- the resamples come from :func:`numpy.random.default_rng` (deepsig reseeds numpy's legacy generator with
  ``seed + i`` for the i-th resample), so the two agree within Monte-Carlo error, not draw for draw.

Reading: ε_min < 0.5 is deepsig's threshold for "A is almost stochastically larger (better) than B"; Dror et al.
(2019) suggest a stricter ε_min ≤ 0.2; ε_min = 0 is complete dominance.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from statistics import NormalDist

import numpy as np

from .._support.arrays import Bools, Floats, Int64s
from .._support.limits import MAX_DRAWS
from ..errors import OptionError, StatisticsWarning
from ._bootstrap import check_seed

__all__ = ["almost_stochastic_order", "violation_ratio"]

_BLOCK = 1 << 21
"""Elements of one block of resamples (resampled scores plus grid points): bounds the memory whatever the sizes."""

MAX_GRID = 100_000
"""The most integration points (``dt`` down to 1e-5)."""


def _scores(name: str, scores: Sequence[float] | Floats) -> Floats:
    try:
        x = np.asarray(scores, dtype=np.float64)
    except (TypeError, ValueError):
        raise OptionError(f"ASO: {name} must be a sequence of numbers; got {type(scores).__name__}") from None
    if x.ndim != 1:
        raise OptionError(f"ASO: {name} must be a flat sequence of numbers (one score per run); got shape {x.shape}")
    if len(x) < 2:
        raise OptionError(f"ASO: {name} holds {len(x)} score(s); Almost Stochastic Order needs at least 2 runs per "
                          "system (the bootstrap of one score has no spread)")
    bad = np.flatnonzero(~np.isfinite(x))
    if len(bad):
        raise OptionError(f"ASO: {name}[{int(bad[0])}] is {float(x[bad[0]])!r}; every score must be a finite number")
    return np.sort(x)


def _standardized(a: Floats, b: Floats) -> tuple[Floats, Floats]:
    """Both sorted lists under one increasing affine map onto [0, 1], which leaves the violation ratio unchanged:
    squared distances then neither overflow (scores near 1e154) nor underflow to zero."""
    top = max(abs(a[0]), abs(a[-1]), abs(b[0]), abs(b[-1]))
    if top > 0:
        a, b = a / top, b / top
    low = min(a[0], b[0])
    span = max(a[-1], b[-1]) - low
    if span > 0:
        a, b = (a - low) / span, (b - low) / span
    return a, b


def _grid(dt: float) -> Floats:
    if isinstance(dt, bool) or not isinstance(dt, (int, float, np.number)) or not 0 < dt < 1 \
            or not math.isfinite(dt):
        raise OptionError(f"ASO: dt must be a number strictly between 0 and 1; got {dt!r}")
    if 1 / dt > MAX_GRID:
        raise OptionError(f"ASO: dt = {dt!r} asks for more than {MAX_GRID:,} integration points; use dt >= "
                          f"{1 / MAX_GRID:g}")
    t = np.arange(dt, 1, dt)
    if len(t) < 2:
        raise OptionError(f"ASO: dt = {dt!r} leaves fewer than 2 integration points below 1; use dt < 0.5")
    return t


def _positions(n: int, t: Floats) -> Int64s:
    """0-based rank of ``Q(t)`` among ``n`` sorted scores: ``clip(⌈n t⌉ - 1, 0, n - 1)``."""
    positions: Int64s = np.clip(np.ceil(n * t).astype(np.int64) - 1, 0, n - 1)
    return positions


def _ratios(f: Floats, g: Floats) -> tuple[Floats, Bools]:
    """Violation ratios of quantile values ``f`` (A), ``g`` (B) on the grid (last axis), and where the distance is
    zero (ratio 0.5 there)."""
    d2 = (g - f) ** 2
    total = d2.sum(axis=-1)
    violated = np.where(f < g, d2, 0.0)[..., 1:].sum(axis=-1)
    empty = total == 0
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = np.where(empty, 0.5, violated / np.where(empty, 1.0, total))
    return ratio, empty


def violation_ratio(scores_a: Sequence[float] | Floats, scores_b: Sequence[float] | Floats, *,
                    dt: float = 0.005) -> float:
    """``ε_W2(F_n, G_m)``: the share of the squared Wasserstein distance where A's quantile lies below B's.

    Parameters
    ----------
    scores_a, scores_b : sequence of float
        One score per run of each system (at least 2 each, finite).
    dt : float
        Step of the Riemann sums over ``t ∈ (0, 1)``.

    Returns
    -------
    float
        In [0, 1]; 0.5 when the two quantile functions coincide on the grid.
    """
    a, b = _standardized(_scores("scores_a", scores_a), _scores("scores_b", scores_b))
    t = _grid(dt)
    ratio, _ = _ratios(a[_positions(len(a), t)], b[_positions(len(b), t)])
    return float(ratio)


def _check_options(confidence: float, num_comparisons: int, samples: int) -> None:
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float, np.number)) \
            or not 0 < confidence < 1:
        raise OptionError(f"ASO: confidence must lie strictly between 0 and 1; got {confidence!r}")
    if isinstance(num_comparisons, bool) or not isinstance(num_comparisons, (int, np.integer)) \
            or not 1 <= num_comparisons <= MAX_DRAWS:
        raise OptionError(f"ASO: num_comparisons must be a whole number from 1 to {MAX_DRAWS:,}; "
                          f"got {num_comparisons!r}")
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or not 2 <= samples <= MAX_DRAWS:
        raise OptionError(f"ASO: samples must be a whole number from 2 to {MAX_DRAWS:,}; got {samples!r}")


def almost_stochastic_order(scores_a: Sequence[float] | Floats, scores_b: Sequence[float] | Floats, *,
                            confidence: float = 0.95, num_comparisons: int = 1, samples: int = 1000,
                            seed: int | None = None, dt: float = 0.005) -> float:
    """ε_min of Almost Stochastic Order (Dror, Shlomov & Reichart 2019), as ``deepsig.aso`` computes it.

    The null hypothesis is that A (``scores_a``, higher = better) is *not* stochastically larger than B.
    ``ε_min`` is an upper bound, at the given confidence, of the violation ratio ``ε_W2`` (the share of the
    Wasserstein distance between the two score distributions where A's quantile lies below B's)::

        ε_min = clip(ε_W2(F_n, G_m) + Φ⁻¹(1 - α / k) · sd*(ε_W2(F*_n, G*_m)), 0, 1),   α = 1 - confidence,

    with ``sd*`` the standard deviation (ddof 0) over ``samples`` bootstrap resamples of both score lists and ``k``
    = ``num_comparisons`` (Bonferroni; see the module notes for where deepsig 1.2.8 differs when k ≥ 3).
    This is eq. 6 of Dror et al. with ``σ̂ = sqrt(n m / (n + m)) · sd*``.

    Convention (deepsig's): if ε_min < 0.5, the null hypothesis is rejected and A is deemed *almost* stochastically
    larger (better) than B; the smaller ε_min, the more nearly A dominates (ε_min = 0: A's quantile function is
    nowhere below B's, complete dominance). ε_min ≥ 0.5 does not show that B is better: swap the arguments to test
    that (ε_W2(B, A) is about 1 - ε_W2(A, B)).

    Parameters
    ----------
    scores_a, scores_b : sequence of float
        One score per run (seed) of each system; the lists may differ in length; at least 2 each, all finite.
    confidence : float
        Confidence level of the bound, strictly between 0 and 1 (deepsig's ``confidence_level``).
    num_comparisons : int
        Number of comparisons the bound is used in: Bonferroni's level ``α / k``.
    samples : int
        Bootstrap resamples (deepsig's ``num_bootstrap_iterations``).
    seed : int or None
        Seed of :func:`numpy.random.default_rng`.
    dt : float
        Step of the Riemann sums over ``t ∈ (0, 1)`` (``numpy.arange(dt, 1, dt)``).

    Returns
    -------
    float
        ε_min in [0, 1].

    Raises
    ------
    OptionError
        Fewer than 2 scores on a side, a score that is not a finite number, a confidence outside (0, 1), a
        ``num_comparisons`` or ``samples`` that is not a whole number in range, a ``dt`` outside (0, 0.5).

    Warns
    -----
    StatisticsWarning
        When the two score lists have the same quantile function (no distance between them): ε_W2 is 0.5 by
        convention.

    References
    ----------
    del Barrio, Cuesta-Albertos & Matrán (2018), "An optimal transportation approach for assessing almost stochastic
    order", in *The Mathematics of the Uncertain*, Springer. Dror, Shlomov & Reichart (2019), "Deep Dominance - How to
    Properly Compare Deep Neural Models", ACL. Ulmer, Hardmeier & Frellsen (2022), "deep-significance: Easy and
    Meaningful Significance Testing in the Age of Neural Networks", arXiv:2204.06815.
    """
    a, b = _standardized(_scores("scores_a", scores_a), _scores("scores_b", scores_b))
    _check_options(confidence, num_comparisons, samples)
    check_seed(seed)
    t = _grid(dt)
    n, m = len(a), len(b)
    pos_a, pos_b = _positions(n, t), _positions(m, t)
    observed, empty = _ratios(a[pos_a], b[pos_b])
    if empty:
        warnings.warn(StatisticsWarning("ASO: the two score lists have the same quantile function (no distance "
                                        "between them); their violation ratio is 0.5 by convention"), stacklevel=2)
    rng = np.random.default_rng(seed)
    resampled = np.empty(samples)
    block = max(1, _BLOCK // (n + m + 2 * len(t)))
    for start in range(0, samples, block):
        k = min(block, samples - start)
        # resampling ranks of sorted scores and sorting the ranks sorts the resampled scores
        ranks_a = np.sort(rng.integers(0, n, (k, n)), axis=1)
        ranks_b = np.sort(rng.integers(0, m, (k, m)), axis=1)
        resampled[start:start + k] = _ratios(a[ranks_a[:, pos_a]], b[ranks_b[:, pos_b]])[0]
    alpha = (1 - float(confidence)) / int(num_comparisons)
    spread = float(np.std(resampled))
    return float(np.clip(float(observed) - NormalDist().inv_cdf(alpha) * spread, 0.0, 1.0))   # z_{1-α} = -z_α
