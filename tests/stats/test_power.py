"""Minimum detectable difference: the formula by hand, the resampled differences against scipy.stats.bootstrap, and
the power itself checked by simulation on synthetic corpora whose true difference is known."""

from __future__ import annotations

import os

import numpy as np
import pytest
from scipy import stats

from accord.errors import OptionError
from accord.result import ALL, CountTable, Measure, PairsKind, Result
from accord.stats import compare
from accord.stats._bootstrap import CHUNK
from accord.stats._power import (
    detectable_text,
    minimum_detectable_difference,
    paired_bootstrap_differences,
)

FULL = os.environ.get("ACCORD_FULL") == "1"
KIND = PairsKind()


def recall(v: np.ndarray) -> np.ndarray:
    return KIND.rates(v)["recall"]


def f1(v: np.ndarray) -> np.ndarray:
    return KIND.rates(v)["f1"]


class Corpus:
    """``units`` documents with 5 to 39 gold items each and a per-document difficulty ``p_d`` in [0.5, 0.85]: system A
    finds each item with probability ``p_d``, system B with ``p_d + difference``; both add ~10 % spurious items.
    Recall's denominators are the gold counts, the same for both systems, so the true difference of recall (micro
    averaged) is exactly ``difference``."""

    def __init__(self, units: int, seed: int):
        rng = np.random.default_rng(seed)
        self.gold = rng.integers(5, 40, units)
        self.p = rng.uniform(0.5, 0.85, units)

    def system(self, rng: np.random.Generator, difference: float) -> np.ndarray:
        match = rng.binomial(self.gold, self.p + difference)
        spurious = rng.binomial(self.gold, 0.1)
        zero = np.zeros_like(match)
        return np.stack([match, zero, zero, self.gold - match, spurious], axis=1).astype(np.float64)


def _result(values: np.ndarray) -> Result:
    documents = tuple(f"d{k}" for k in range(len(values)))
    table = CountTable(PairsKind.fields, documents, (ALL,), values.reshape(len(values), 1, 5))
    return Result("score", "pairs", {"pairs": Measure(PairsKind(), table)}, nested=False)


def _mdd(a: np.ndarray, b: np.ndarray, seed: int, method: str = "normal", rate=recall) -> float:
    delta = paired_bootstrap_differences(a, b, rate, samples=1000, rng=np.random.default_rng(seed))
    return minimum_detectable_difference(delta, 0.05, 0.8, method=method)


def test_the_normal_formula_by_hand():
    # sd 0.01 (ddof 1) exactly: z_0.975 + z_0.8 = 1.959964 + 0.841621 = 2.801585
    delta = np.array([-0.01, 0.01]) / np.sqrt(2)
    assert minimum_detectable_difference(delta, 0.05) == pytest.approx(2.801585 * 0.01, rel=1e-6)
    assert minimum_detectable_difference(delta, 0.01, 0.9) == pytest.approx((2.575829 + 1.281552) * 0.01, rel=1e-6)
    # one column undefined, the other's as above
    both = np.stack([delta, [np.nan, 0.0]], axis=1)
    out = minimum_detectable_difference(both, 0.05)
    assert out.shape == (2,) and out[0] == pytest.approx(0.02801585) and np.isnan(out[1])


def test_the_resampled_quantiles_agree_with_the_normal_law_on_normal_resamples():
    delta = np.random.default_rng(1).normal(0.02, 0.01, 200_000)
    assert minimum_detectable_difference(delta, 0.05, method="resampled") == pytest.approx(0.02801585, rel=0.02)
    # right-skewed resamples: a rise Δ > 0 is detected with 80 % when Δ + e > c in 80 % (Δ = c - q_0.2(e)), a drop
    # when Δ - e < -c (|Δ| = c + q_0.8(e)); the short left tail makes the rise the harder one to detect
    skewed = np.random.default_rng(2).exponential(0.01, 200_000)
    e = skewed - skewed.mean()
    c = np.quantile(np.abs(e), 0.95)
    rise, drop = c - np.quantile(e, 0.2), c + np.quantile(e, 0.8)
    assert rise > drop
    expected = rise
    assert minimum_detectable_difference(skewed, 0.05, method="resampled") == pytest.approx(expected, rel=1e-12)


def test_the_resampled_differences_are_scipys_paired_bootstrap():
    corpus = Corpus(40, 3)
    rng = np.random.default_rng(4)
    a, b = corpus.system(rng, 0.0), corpus.system(rng, 0.05)
    ours = paired_bootstrap_differences(a, b, f1, samples=2000, rng=np.random.default_rng(7))

    def statistic(x, y, axis=-1):
        return f1(b[np.asarray(y)].sum(axis=-2)) - f1(a[np.asarray(x)].sum(axis=-2))

    idx = np.arange(len(a))
    res = stats.bootstrap((idx, idx), statistic, paired=True, vectorized=True, n_resamples=2000, batch=CHUNK,
                          method="percentile", random_state=np.random.default_rng(7))
    assert ours.std(ddof=1) == pytest.approx(res.standard_error, rel=1e-12)
    assert np.sort(ours)[[50, 1949]] == pytest.approx(np.sort(res.bootstrap_distribution)[[50, 1949]], rel=1e-12)


def test_the_permutation_tests_null_spread_gives_the_same_mdd():
    """With no difference, the spread of the permutation test's null differences (scipy's, swapping each document's
    two outputs) estimates the same standard error as the paired bootstrap: the MDDs agree within 5 %."""
    corpus = Corpus(150, 5)
    rng = np.random.default_rng(6)
    a, b = corpus.system(rng, 0.0), corpus.system(rng, 0.0)
    stacked = np.concatenate([a, b])

    def statistic(x, y, axis=-1):
        return f1(stacked[np.asarray(y)].sum(axis=-2)) - f1(stacked[np.asarray(x)].sum(axis=-2))

    n = len(a)
    null = stats.permutation_test((np.arange(n), np.arange(n) + n), statistic, permutation_type="samples",
                                  vectorized=True, n_resamples=4000, random_state=np.random.default_rng(8))
    from_swaps = minimum_detectable_difference(null.null_distribution, 0.05)
    from_bootstrap = minimum_detectable_difference(
        paired_bootstrap_differences(a, b, f1, samples=4000, rng=np.random.default_rng(9)), 0.05)
    assert from_swaps == pytest.approx(from_bootstrap, rel=0.05)


def _rejections(corpus: Corpus, difference: float, runs: int, seed: int, test: str) -> float:
    rng = np.random.default_rng(seed)
    hits = 0
    for k in range(runs):
        a, b = _result(corpus.system(rng, 0.0)), _result(corpus.system(rng, difference))
        c = compare({"a": a, "b": b}, test=test, samples=999, seed=k, rates=("recall",), labels=False).comparisons[0]
        hits += c.p_value < 0.05
    return hits / runs


@pytest.mark.slow
@pytest.mark.parametrize("test", ["permutation", "bootstrap"])
@pytest.mark.parametrize("method", ["normal", "resampled"])
def test_a_true_difference_equal_to_the_mdd_is_detected_in_80_percent_of_corpora(test, method):
    """The MDD estimated from 20 corpora without a difference (their mean), then corpora whose true difference is
    that MDD: accord's paired test rejects at α = 0.05 in 80 % of them, within 3 binomial standard errors plus 0.03
    for the estimated MDD and the normal approximation; with no difference, in about 5 %."""
    runs = 400 if FULL else 200
    corpus = Corpus(120, 11)
    rng = np.random.default_rng(12)
    pilots = [_mdd(corpus.system(rng, 0.0), corpus.system(rng, 0.0), seed, method) for seed in range(20)]
    mdd = float(np.mean(pilots))
    assert 0.01 < mdd < 0.05            # ~0.035 recall for these 120 documents (2,675 gold items)
    power = _rejections(corpus, mdd, runs, 13, test)
    assert abs(power - 0.8) <= 3 * np.sqrt(0.8 * 0.2 / runs) + 0.03, (mdd, power)
    if FULL:
        size = _rejections(corpus, 0.0, runs, 14, test)
        assert abs(size - 0.05) <= 3 * np.sqrt(0.05 * 0.95 / runs), size
        # half the MDD: well below 80 % (Φ(1.4 - 1.96) = 29 %)
        assert _rejections(corpus, mdd / 2, runs, 15, test) < 0.45


def test_the_mdd_shrinks_as_one_over_the_square_root_of_the_units():
    rng = np.random.default_rng(21)
    means = {}
    for units in (50, 200, 800):
        corpus = Corpus(units, 22)
        means[units] = np.mean([_mdd(corpus.system(rng, 0.0), corpus.system(rng, 0.03), s, rate=f1)
                                for s in range(5)])
    assert means[50] / means[200] == pytest.approx(2.0, rel=0.15)
    assert means[200] / means[800] == pytest.approx(2.0, rel=0.15)


def test_a_sentence_of_text():
    assert detectable_text(231, "document", 0.0071, "F1") == \
        "with 231 documents, differences below 0.71 F1 points are not detectable"
    assert detectable_text(3453, "sentence", 0.0234, "F1") == \
        "with 3,453 sentences, differences below 2.3 F1 points are not detectable"
    assert detectable_text(1, "document", 0.5, "recall") == \
        "with 1 document, differences below 50.0 recall points are not detectable"
    assert detectable_text(40, "document", float("nan"), "F1") == \
        "with 40 documents, the smallest detectable difference of F1 is undefined"


@pytest.mark.parametrize("call, message", [
    (lambda: minimum_detectable_difference(np.zeros(10), 0.0), "alpha must be a number strictly between 0 and 1"),
    (lambda: minimum_detectable_difference(np.zeros(10), 0.05, 1.0), "power must be"),
    (lambda: minimum_detectable_difference(np.zeros(10), 0.05, 0.02), "power must exceed alpha / 2"),
    (lambda: minimum_detectable_difference(np.zeros(10), 0.05, method="exact"), "method must be one of"),
    (lambda: minimum_detectable_difference(np.zeros(1), 0.05), "at least 2 resampled differences"),
    (lambda: minimum_detectable_difference(np.float64(0.1), 0.05), "at least 2 resampled differences"),
    (lambda: paired_bootstrap_differences(np.ones((1, 5)), np.ones((1, 5)), f1), "at least 2 resampling units"),
    (lambda: paired_bootstrap_differences(np.ones((3, 5)), np.ones((4, 5)), f1), "one shape"),
    (lambda: paired_bootstrap_differences(np.ones((3, 5)), np.ones((3, 5)), f1, samples=1), "samples"),
    (lambda: paired_bootstrap_differences(np.ones((3, 5)), np.full((3, 5), np.nan), f1), "unit 0"),
])
def test_refusals_are_option_errors(call, message):
    with pytest.raises(OptionError, match=message):
        call()
