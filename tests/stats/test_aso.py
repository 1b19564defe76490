"""Almost Stochastic Order: ε_min against deepsig 1.2.8 (its ``aso`` run in the test, within its Monte-Carlo error),
the violation ratio against deepsig's exactly, and cases counted by hand."""

from __future__ import annotations

import math
import os
import time
import warnings

import numpy as np
import pytest
from scipy.stats import norm

from accord.errors import OptionError, StatisticsWarning
from accord.stats._aso import almost_stochastic_order, violation_ratio

FULL = os.environ.get("ACCORD_FULL") == "1"

_RNG = np.random.default_rng(34)
CASES = {
    # name: (scores_a, scores_b, num_comparisons)
    "equal": ([79.96, 78.74, 82.57, 80.48, 80.64, 79.79, 80.06, 80.34],
              [80.2, 79.39, 80.61, 80.49, 79.88, 79.28, 79.12, 78.99], 1),
    "shifted": ([81.28, 80.65, 81.87, 80.11, 81.73, 81.03, 80.43, 82.04, 81.15, 81.79],
                [81.09, 80.49, 79.51, 80.19, 81.0, 79.38, 80.55, 79.8, 79.52, 79.44], 1),
    "overlapping": ([80.47, 80.83, 81.22, 80.16, 80.6, 80.27], [80.25, 77.63, 78.84, 79.61, 81.8, 82.29, 77.35], 2),
    "three_runs": ([79.92, 80.38, 80.93], [79.65, 79.93, 80.07, 80.04], 1),
    "five_runs": ([80.72, 82.01, 78.87, 79.99, 81.11], [79.62, 80.79, 80.14, 78.3, 77.4], 1),
    "many_runs": (np.round(_RNG.normal(80.2, 1, 40), 2).tolist(), np.round(_RNG.normal(80, 1, 30), 2).tolist(), 1),
}
CI_CASES = ("three_runs", "overlapping", "many_runs")


def _deepsig():
    return pytest.importorskip("deepsig.aso", reason="deepsig is not installed (pip install deepsig==1.2.8, in the "
                                                     "test extra)")


@pytest.mark.parametrize("name", list(CASES))
def test_violation_ratio_is_deepsigs(name):
    ds = _deepsig()
    a, b, _ = CASES[name]
    for dt in (0.005, 0.01, 0.0333):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = ds.compute_violation_ratio(np.array(a), np.array(b), dt=dt)
            reverse = ds.compute_violation_ratio(np.array(b), np.array(a), dt=dt)
        assert violation_ratio(a, b, dt=dt) == pytest.approx(expected, abs=1e-12)
        assert violation_ratio(b, a, dt=dt) == pytest.approx(reverse, abs=1e-12)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(CASES))
def test_eps_min_equals_deepsig_within_its_monte_carlo_error(name):
    """deepsig's ``aso`` with several seeds (spaced so that its per-resample seeds ``seed + i`` never overlap) against
    ours over 200 seeds at the same number of resamples: the two means differ by less than 4 standard errors, the
    standard deviation of one run taken from deepsig's seeds (at least ours: a few seeds estimate a spread poorly)."""
    if not FULL and name not in CI_CASES:
        pytest.skip("ACCORD_FULL=1 runs every case (deepsig takes ~1 s per 200 resamples)")
    ds = _deepsig()
    a, b, k = CASES[name]
    n_seeds, samples = (5, 1000) if FULL else (2, 150)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = np.array([ds.aso(a, b, num_comparisons=k, num_bootstrap_iterations=samples, show_progress=False,
                                  seed=100_000 * (s + 1)) for s in range(n_seeds)])
    ours = np.array([almost_stochastic_order(a, b, num_comparisons=k, samples=samples, seed=s) for s in range(200)])
    spread_ours = ours.std(ddof=1)
    spread_theirs = max(theirs.std(ddof=1), spread_ours)
    tolerance = 4 * math.sqrt(spread_theirs ** 2 / n_seeds + spread_ours ** 2 / len(ours)) + 1e-9
    assert abs(theirs.mean() - ours.mean()) <= tolerance, (theirs, ours.mean(), spread_ours)
    if FULL:   # five seeds: their spread below 3 times ours unless it differs (chi-square, 4 df: P < 1e-4)
        assert theirs.std(ddof=1) <= 3 * spread_ours + 1e-9


def test_the_bounds_are_deepsigs_on_complete_dominance_and_ties():
    ds = _deepsig()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert ds.aso([3.0, 4.0, 5.0], [0.0, 1.0, 2.0], num_bootstrap_iterations=50, show_progress=False, seed=1) == 0.0
        assert ds.aso([1.0, 1.0], [1.0, 1.0], num_bootstrap_iterations=50, show_progress=False, seed=1) == 0.5
        assert ds.aso([0.0, 0.0, 0.0], [1.0, 1.0], num_bootstrap_iterations=50, show_progress=False, seed=1) == pytest.approx(198 / 199)
    # every resample of A lies above every resample of B: no violation anywhere
    assert almost_stochastic_order([3.0, 4.0, 5.0], [0.0, 1.0, 2.0], seed=1) == 0.0
    # the same constant: no distance, 0.5 by convention (said), and every resample alike
    with pytest.warns(StatisticsWarning, match="same quantile function"):
        assert almost_stochastic_order([1.0, 1.0], [1.0, 1.0], seed=1) == 0.5
    # A below B at every grid point t = 0.005 k, k = 1..199, by the same distance; the first point counts in the
    # distance but not in the violation (deepsig's sums): 198 / 199, the same in every resample
    assert almost_stochastic_order([0.0, 0.0, 0.0], [1.0, 1.0], seed=1) == pytest.approx(198 / 199, abs=1e-12)


def test_violation_ratio_counted_by_hand():
    # dt = 0.25: t = 0.25, 0.5, 0.75; Q_A = x_(⌈2t⌉) = 0, 0, 2 and Q_B = 1, 1, 1: distances 1, 1, 1, A below B at
    # the first two points, the first left out of the violation: 1 / 3
    assert violation_ratio([2.0, 0.0], [1.0, 1.0], dt=0.25) == pytest.approx(1 / 3, abs=1e-15)
    # B below A at the first two, the last (A below) counts: 1 / 3 too
    assert violation_ratio([1.0, 1.0], [2.0, 0.0], dt=0.25) == pytest.approx(1 / 3, abs=1e-15)
    assert violation_ratio([5.0, 6.0], [1.0, 2.0]) == 0.0


def test_extreme_magnitudes_neither_overflow_nor_vanish():
    # Q_A = 0 everywhere, Q_B = 0 up to t = 0.5 and 2e153 above: A lies below B wherever they differ, ratio 1
    # (100 squared distances of 4e306 summed to inf: ratio NaN before)
    assert violation_ratio([0.0, 0.0], [0.0, 2e153]) == 1.0
    assert almost_stochastic_order([0.0, 0.0], [0.0, 2e153], seed=0) == 1.0
    # distances of 1e-200 square to zero: the lists looked identical (0.5 by convention) before
    assert violation_ratio([0.0, 0.0], [0.0, 1e-200]) == 1.0
    assert violation_ratio([0.0, 1e-200], [0.0, 0.0]) == 0.0
    assert violation_ratio([-1e300, 1e300], [0.0, 1.0]) == pytest.approx(violation_ratio([-1.0, 1.0], [0.0, 1e-300]))


def test_bonferroni_divides_the_level():
    a, b, _ = CASES["five_runs"]
    base = violation_ratio(a, b)
    one = almost_stochastic_order(a, b, seed=3)
    three = almost_stochastic_order(a, b, num_comparisons=3, seed=3)
    # the same resamples: ε_min - ε_W2 = Φ⁻¹(1 - α / k) · sd*, so the excess grows by Φ⁻¹(1 - 0.05/3) / Φ⁻¹(0.95)
    assert (three - base) / (one - base) == pytest.approx(norm.ppf(1 - 0.05 / 3) / norm.ppf(0.95), rel=1e-9)
    assert three == pytest.approx(almost_stochastic_order(a, b, confidence=1 - 0.05 / 3, seed=3), abs=1e-15)


def test_seeded_runs_repeat_and_stay_in_range():
    a, b, _ = CASES["equal"]
    assert almost_stochastic_order(a, b, seed=9) == almost_stochastic_order(a, b, seed=9)
    assert almost_stochastic_order(np.array(a), tuple(b), seed=9) == almost_stochastic_order(a, b, seed=9)
    for s in range(5):
        assert 0.0 <= almost_stochastic_order(b, a, samples=50, seed=s) <= 1.0


@pytest.mark.timing
def test_thousand_resamples_take_well_under_a_second():
    rng = np.random.default_rng(0)
    a, b = rng.normal(0.8, 0.01, 20), rng.normal(0.79, 0.01, 20)
    almost_stochastic_order(a, b, seed=0)
    start = time.perf_counter()
    almost_stochastic_order(a, b, samples=1000, seed=1)
    assert time.perf_counter() - start < 0.25


@pytest.mark.parametrize("a, b, kwargs, message", [
    ([1.0], [1.0, 2.0], {}, "scores_a holds 1 score"),
    ([1.0, 2.0], [], {}, "scores_b holds 0 score"),
    ([1.0, float("nan")], [1.0, 2.0], {}, r"scores_a\[1\] is nan"),
    ([1.0, 2.0], [1.0, float("inf")], {}, r"scores_b\[1\] is inf"),
    ([[1.0, 2.0]], [1.0, 2.0], {}, "flat sequence"),
    (["x", "y"], [1.0, 2.0], {}, "sequence of numbers"),
    ([1.0, 2.0], [1.0, 2.0], {"confidence": 1.0}, "confidence must lie strictly between 0 and 1"),
    ([1.0, 2.0], [1.0, 2.0], {"confidence": 0}, "confidence"),
    ([1.0, 2.0], [1.0, 2.0], {"confidence": True}, "confidence"),
    ([1.0, 2.0], [1.0, 2.0], {"num_comparisons": 0}, "num_comparisons"),
    ([1.0, 2.0], [1.0, 2.0], {"num_comparisons": 2.0}, "num_comparisons"),
    ([1.0, 2.0], [1.0, 2.0], {"samples": 1}, "samples must be a whole number from 2"),
    ([1.0, 2.0], [1.0, 2.0], {"samples": 10**9}, "samples"),
    ([1.0, 2.0], [1.0, 2.0], {"seed": -1}, "seed"),
    ([1.0, 2.0], [1.0, 2.0], {"dt": 0.6}, "fewer than 2 integration points"),
    ([1.0, 2.0], [1.0, 2.0], {"dt": 0.0}, "dt must be"),
    ([1.0, 2.0], [1.0, 2.0], {"dt": 1e-9}, "integration points"),
])
def test_refusals_are_option_errors(a, b, kwargs, message):
    with pytest.raises(OptionError, match=message):
        almost_stochastic_order(a, b, **kwargs)
