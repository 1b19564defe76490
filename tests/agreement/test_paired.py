"""The paired bootstrap of a coefficient between two annotator pairs or two rounds of the same items: equal to
scipy.stats.bootstrap of the difference on the same draws, the p-value counted by hand over its resamples, and a
known difference found (and no difference where there is none, at the stated rate)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from accord.agreement import COEFFICIENTS, compare_coefficients
from accord.errors import OptionError, RatingsError


def _cohen(a: np.ndarray, b: np.ndarray) -> float:
    """Cohen's kappa as Cohen (1960) writes it."""
    cats = np.union1d(a, b)
    po = np.mean(a == b)
    pe = sum(np.mean(a == c) * np.mean(b == c) for c in cats)
    return (po - pe) / (1 - pe)


def _alpha_nominal(table: np.ndarray) -> float:
    """Krippendorff's nominal alpha of complete data from its coincidence matrix (Krippendorff 2011, section B)."""
    m = table.shape[1]
    cats = np.unique(table)
    o = np.zeros((len(cats), len(cats)))
    for row in table:
        counts = np.array([(row == c).sum() for c in cats])
        o += (np.outer(counts, counts) - np.diag(counts)) / (m - 1)
    nc = o.sum(axis=1)
    total = nc.sum()
    return 1 - (total - 1) * (o.sum() - np.trace(o)) / (total ** 2 - (nc ** 2).sum())


def _three(n: int, seed: int, b_agrees: float, c_agrees: float) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    a = rng.choice(list("xyz"), n, p=[0.5, 0.3, 0.2])
    b = np.where(rng.random(n) < b_agrees, a, rng.choice(list("xyz"), n))
    c = np.where(rng.random(n) < c_agrees, a, rng.choice(list("xyz"), n))
    return {"A": a, "B": b, "C": c}


def _p(distribution: np.ndarray, delta: float) -> float:
    return (1 + np.count_nonzero(np.abs(distribution - delta) >= abs(delta))) / (1 + len(distribution))


@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_two_pairs_equal_scipy_bootstrap_of_the_difference(method):
    r = _three(60, 1, 0.85, 0.55)

    def delta(i):
        return _cohen(r["A"][i], r["C"][i]) - _cohen(r["A"][i], r["B"][i])
    res = stats.bootstrap((np.arange(60),), delta, vectorized=False, n_resamples=500, batch=1, confidence_level=0.9,
                          method="BCa" if method == "bca" else "percentile", random_state=np.random.default_rng(7))
    out = compare_coefficients(r, pairs=[("A", "B"), ("A", "C")], n_resamples=500, seed=7, confidence=0.9,
                               method=method)["cohen_kappa"]
    observed = delta(np.arange(60))
    assert (out.first, out.second) == ("A~B", "A~C")
    assert out.first_value == pytest.approx(_cohen(r["A"], r["B"]), abs=1e-12)
    assert out.difference == pytest.approx(observed, abs=1e-12)
    assert list(out.ci) == pytest.approx([res.confidence_interval.low, res.confidence_interval.high], abs=1e-12)
    assert out.p_value == pytest.approx(_p(res.bootstrap_distribution, observed), abs=1e-12)


def test_two_rounds_equal_scipy_bootstrap_of_the_difference():
    """Three annotators, two rounds of the same 50 items; Krippendorff's alpha written from its definition."""
    first = np.column_stack(list(_three(50, 2, 0.6, 0.6).values()))
    second = first.copy()
    redo = np.random.default_rng(3).random(first.shape) < 0.15
    second[redo] = "x"

    def delta(i):
        return _alpha_nominal(second[i]) - _alpha_nominal(first[i])
    res = stats.bootstrap((np.arange(50),), delta, vectorized=False, n_resamples=400, batch=1, method="BCa",
                          random_state=np.random.default_rng(5))
    out = compare_coefficients(first, second, coefficients=["krippendorff_alpha", "fleiss_kappa"], n_resamples=400,
                               seed=5, method="bca")
    alpha = out["krippendorff_alpha"]
    assert (alpha.first, alpha.second) == ("first", "second")
    assert alpha.difference == pytest.approx(delta(np.arange(50)), abs=1e-12)
    assert list(alpha.ci) == pytest.approx([res.confidence_interval.low, res.confidence_interval.high], abs=1e-12)
    assert alpha.p_value == pytest.approx(_p(res.bootstrap_distribution, delta(np.arange(50))), abs=1e-12)
    # Holm over the two coefficients of the call
    ps = sorted(c.p_value for c in out.comparisons)
    assert sorted(c.p_adjusted for c in out.comparisons) == pytest.approx([min(1, 2 * ps[0]), max(min(1, 2 * ps[0]),
                                                                                                  ps[1])])


def test_a_known_difference_is_found():
    """B copies A on 90 % of 3,000 items, C on 40 % (otherwise both draw uniformly from x, y, z): kappa(A, B) is
    about 0.9 and kappa(A, C) about 0.4; the difference is found at p = 1/(1 + B), its interval holding the
    value of the generating model."""
    r = _three(3000, 4, 0.9, 0.4)
    out = compare_coefficients(r, pairs=[("A", "B"), ("A", "C")], n_resamples=2000, seed=1)["cohen_kappa"]
    pa = np.array([0.5, 0.3, 0.2])

    def model(copy):   # P(agree) = copy + (1 - copy) / 3; P(rater = c) = copy pa_c + (1 - copy) / 3
        po = copy + (1 - copy) / 3
        pe = (pa * (copy * pa + (1 - copy) / 3)).sum()
        return (po - pe) / (1 - pe)
    assert out.p_value == 1 / 2001
    assert out.ci[0] < model(0.4) - model(0.9) < out.ci[1]
    assert out.ci[1] < -0.4


@pytest.mark.slow
def test_no_difference_is_rejected_at_about_the_nominal_rate():
    """B and C copy A at the same rate: over 200 independent tables, the 95 % interval of the difference holds 0 in
    93-99 % of them and p < 0.05 in at most 8 %."""
    covered = rejected = 0
    for seed in range(200):
        out = compare_coefficients(_three(150, 100 + seed, 0.7, 0.7), pairs=[("A", "B"), ("A", "C")],
                                   n_resamples=400, seed=seed)["cohen_kappa"]
        covered += out.ci[0] <= 0 <= out.ci[1]
        rejected += out.p_value < 0.05
    assert 186 <= covered <= 198 and rejected <= 16


def test_a_round_against_itself_differs_by_nothing():
    r = _three(40, 6, 0.8, 0.5)
    out = compare_coefficients(r, dict(r), coefficients=list(COEFFICIENTS), n_resamples=100, seed=0)
    assert all(c.difference == 0 and c.p_value == 1 and c.ci == (0, 0) for c in out.comparisons)


def test_refusals():
    r = _three(20, 7, 0.8, 0.5)
    with pytest.raises(RatingsError, match="no rater 'D'"):
        compare_coefficients(r, pairs=[("A", "B"), ("A", "D")], n_resamples=10)
    with pytest.raises(OptionError, match="same annotators"):
        compare_coefficients(r, pairs=[("A", "B"), ("B", "A")], n_resamples=10)
    with pytest.raises(OptionError, match="two pairs"):
        compare_coefficients(r, pairs=[("A", "B")], n_resamples=10)
    with pytest.raises(OptionError, match="one of them"):
        compare_coefficients(r, r, pairs=[("A", "B"), ("A", "C")], n_resamples=10)
    with pytest.raises(RatingsError, match="20 and 19 items"):
        compare_coefficients(r, {k: v[:19] for k, v in r.items()}, n_resamples=10)
    with pytest.raises(OptionError, match="unknown coefficient 'kappa'"):
        compare_coefficients(r, r, coefficients="kappa", n_resamples=10)
    with pytest.raises(OptionError, match="--bootstrap"):
        compare_coefficients(r, r, n_resamples=1)


def test_one_item_is_refused_and_few_items_warned():
    """Issue 34's rule for every resampling unit: one item gives the same resample every time (a zero-width interval,
    p = 1 from nothing): an error; fewer than 20: a warning."""
    from accord.errors import StatisticsError, StatisticsWarning

    one = {"A": ["x"], "B": ["y"], "C": ["x"]}
    with pytest.raises(StatisticsError, match="a paired test needs two or more items"):
        compare_coefficients(one, pairs=[("A", "B"), ("A", "C")], n_resamples=10)
    with pytest.warns(StatisticsWarning, match="only 5 items to resample"):
        compare_coefficients(_three(5, 1, 0.8, 0.5), pairs=[("A", "B"), ("A", "C")], n_resamples=10)
