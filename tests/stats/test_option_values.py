"""accord.compare and the bootstrap refuse the values the command's options refuse (issue 33, item 9): a level
alpha outside (0, 1) or NaN (with alpha 2 every difference was marked significant), no rate, a negative seed, a
number of draws that is not a whole number from 1 (2 for intervals) to a million."""

from __future__ import annotations

import math

import numpy as np
import pytest

from accord.errors import AccordError
from accord.result import ALL, CountTable, Measure, PairsKind, Result
from accord.stats import compare
from accord.stats._bootstrap import BootstrapOptions


def _systems() -> dict[str, Result]:
    rng = np.random.default_rng(0)
    gold = rng.integers(1, 20, size=30)
    out = {}
    for name, rate in (("a", 0.9), ("b", 0.5)):
        found = rng.binomial(gold, rate)
        values = np.stack([found, 0 * gold, 0 * gold, gold - found, gold - found], axis=1)
        table = CountTable(PairsKind.fields, tuple(f"d{k}" for k in range(30)), (ALL,), values.reshape(30, 1, 5))
        out[name] = Result("score", "pairs", {"pairs": Measure(PairsKind(), table)}, nested=False)
    return out


@pytest.mark.parametrize("alpha", [math.nan, 2, -0.5, 0, 1, math.inf, "0.05", True])
def test_compare_refuses_a_meaningless_alpha(alpha):
    with pytest.raises(AccordError, match="--alpha"):
        compare(_systems(), samples=50, seed=1, alpha=alpha)


def test_alpha_two_no_longer_marks_everything_significant_but_a_valid_alpha_works():
    result = compare(_systems(), samples=200, seed=1, alpha=0.05)
    # 30 documents at recall 0.9 against 0.5: the difference is real, p is the smallest a permutation gives
    assert result.comparisons[0].significant and result.comparisons[0].p_value < 0.05


@pytest.mark.parametrize("rates", [[], (), "", "f1"])
def test_compare_refuses_no_rate(rates):
    with pytest.raises(AccordError, match="--rates"):
        compare(_systems(), samples=50, seed=1, rates=rates)


@pytest.mark.parametrize("samples", [0, -5, 2.5, math.nan, 10**12, True])
def test_compare_refuses_a_meaningless_number_of_samples(samples):
    with pytest.raises(AccordError, match="--samples"):
        compare(_systems(), samples=samples, seed=1)


@pytest.mark.parametrize("seed", [-1, 1.5, "x"])
def test_compare_and_the_bootstrap_refuse_a_bad_seed(seed):
    with pytest.raises(AccordError, match="--seed"):
        compare(_systems(), samples=50, seed=seed)
    with pytest.raises(AccordError, match="--seed"):
        BootstrapOptions(100, seed=seed)


@pytest.mark.parametrize("n, confidence", [(1, 0.95), (10**9, 0.95), (100, math.nan), (100, 1.0), (100, 0),
                                           (100, True)])
def test_the_bootstrap_refuses_meaningless_options(n, confidence):
    with pytest.raises(AccordError, match="--bootstrap|--confidence"):
        BootstrapOptions(n, seed=0, confidence=confidence)


@pytest.mark.parametrize("beta", [math.nan, -1, 1e7, math.inf, 3e153])
def test_an_f_beta_weight_beyond_a_million_is_refused(beta):
    """beta = 3e153 overflowed the counts' arithmetic (numpy's overflow warnings; F-beta equals recall to twelve
    digits from beta = 1e6 on)."""
    from accord.result import GateKind

    with pytest.raises(AccordError, match="^beta must"):
        PairsKind(beta)
    with pytest.raises(AccordError, match="^beta must"):
        GateKind("strict", beta)
