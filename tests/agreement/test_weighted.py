"""Weighted kappa against scikit-learn and Gwet's AC2 against irrCAC: their own examples, then random tables."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accord import agreement as A
from accord.agreement._weighted import AC2_WEIGHTS, agreement_weights, positions
from accord.errors import AgreementWarning, OptionError, RatingsError


def irrcac():
    """irrCAC's CAC class (not in the test extra: its metadata pins scipy==1.12; .ci/run installs it with
    --no-deps, see tests/agreement/test_coefficients.py)."""
    module = pytest.importorskip("irrCAC.raw", reason="irrCAC: pip install --no-deps irrCAC (see .ci/run)")
    return module.CAC


# ----------------------------------------------------------------------------- weighted kappa = scikit-learn
def test_weighted_kappa_on_scikit_learns_own_example():
    # sklearn/metrics/tests/test_classification.py::test_cohen_kappa: 0.9412 (linear), 0.9541 (quadratic)
    y1 = [0] * 46 + [1] * 44 + [2] * 10
    y2 = [0] * 50 + [1] * 40 + [2] * 10
    rows = list(zip(y1, y2))
    assert A.weighted_kappa(rows, weights="linear") == pytest.approx(0.9412, abs=5e-5)
    assert A.weighted_kappa(rows, weights="quadratic") == pytest.approx(0.9541, abs=5e-5)


def test_weighted_kappa_by_hand():
    # two raters, categories 1..3; table o = [[2, 1, 0], [0, 1, 1], [0, 0, 1]], N = 6
    rows = [[1, 1], [1, 1], [1, 2], [2, 2], [2, 3], [3, 3]]
    # linear: observed Σ|i-j| o = 1 + 1 = 2; rows (3, 2, 1), cols (2, 2, 2):
    # Σ|i-j| r_i c_j / N = (3*2*(0+1+2) + 2*2*(1+0+1) + 1*2*(2+1+0)) / 6 = 32 / 6
    assert A.weighted_kappa(rows, weights="linear") == pytest.approx(1 - 2 / (32 / 6))
    # quadratic: observed 2; Σ(i-j)² r_i c_j / N = (3*2*(1+4) + 2*2*(1+1) + 1*2*(4+1)) / 6 = 48 / 6
    assert A.weighted_kappa(rows, weights="quadratic") == pytest.approx(1 - 2 / 8)


@pytest.mark.parametrize("weights", ["linear", "quadratic"])
@pytest.mark.parametrize("seed", range(6))
def test_weighted_kappa_equals_scikit_learn(seed, weights):
    from sklearn.metrics import cohen_kappa_score

    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 7))
    a = rng.integers(0, k, 80)
    b = np.where(rng.random(80) < 0.6, a, rng.integers(0, k, 80))
    labels = list(range(k))
    expected = cohen_kappa_score(a, b, weights=weights, labels=labels)
    assert A.weighted_kappa(np.column_stack([a, b]), weights=weights, categories=labels) == pytest.approx(expected)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 12), st.integers(1, 12)), min_size=2, max_size=60),
       st.sampled_from(["linear", "quadratic"]))
def test_weighted_kappa_equals_scikit_learn_on_any_table(rows, weights):
    from sklearn.metrics import cohen_kappa_score

    y1, y2 = [r[0] for r in rows], [r[1] for r in rows]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = cohen_kappa_score(y1, y2, weights=weights)
        ours = A.weighted_kappa(rows, weights=weights)
    if np.isnan(expected):          # one category only: scikit-learn's 0/0; accord's convention is 1.0
        assert ours == 1.0
    else:
        assert ours == pytest.approx(expected, abs=1e-9)


def test_weighted_kappa_of_numeric_text_orders_by_value():
    # a CSV gives "10" and "9" as text: their positions are by value (9 before 10), not "10" < "9"
    rows = [["9", "9"], ["10", "10"], ["8", "10"], ["9", "8"], ["10", "9"]]
    numbers = [[int(a), int(b)] for a, b in rows]
    assert A.weighted_kappa(rows, weights="quadratic") == pytest.approx(A.weighted_kappa(numbers,
                                                                                         weights="quadratic"))
    assert positions(("10", "8", "9")).tolist() == [2.0, 0.0, 1.0]


def test_weighted_kappa_of_three_raters_is_each_pair_and_their_mean():
    from sklearn.metrics import cohen_kappa_score

    rng = np.random.default_rng(3)
    t = rng.integers(0, 4, (50, 3))
    res = A.weighted_kappa(t, weights="linear", categories=[0, 1, 2, 3])
    for (a, b), v in res.pairs.items():
        assert v == pytest.approx(cohen_kappa_score(t[:, a], t[:, b], weights="linear", labels=[0, 1, 2, 3]))
    assert float(res) == pytest.approx(np.mean(list(res.pairs.values())))


def test_weighted_kappa_missing_ratings_leave_the_item_out_of_the_pair():
    from sklearn.metrics import cohen_kappa_score

    rows = [[1, 2], [2, 2], [None, 3], [3, 3], [1, None], [3, 1], [2, 1]]
    both = [r for r in rows if None not in r]
    assert A.weighted_kappa(rows, weights="linear") == pytest.approx(
        cohen_kappa_score([r[0] for r in both], [r[1] for r in both], weights="linear", labels=[1, 2, 3]))


def test_weighted_kappa_refusals_and_degenerate_cases():
    with pytest.raises(OptionError, match="unknown weights 'cubic'"):
        A.weighted_kappa([[1, 2], [2, 2]], weights="cubic")
    with pytest.raises(RatingsError, match="at least two raters"):
        A.weighted_kappa([[1], [2]])
    with pytest.warns(AgreementWarning, match="NaN"):
        assert np.isnan(A.weighted_kappa([[1, None], [None, 2]]))


# ----------------------------------------------------------------------------- Gwet's AC2 = irrCAC
RAW_4RATERS = [  # Gwet (2014), irrCAC's raw_4raters: 12 units, 4 raters, categories 1..5, missing as None
    [1, 1, None, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3], [2, 2, 2, 2], [1, 2, 3, 4],
    [4, 4, 4, 4], [1, 1, 2, 1], [2, 2, 2, 2], [None, 5, 5, 5], [None, None, 1, 1], [None, None, 3, None]]


def test_ac1_and_ac2_on_irrcacs_own_example():
    # irrCAC's docstring (irrCAC/raw.py): AC1 0.77544, AC2 with bipolar weights 0.90037 (five decimals)
    assert A.gwet_ac1(RAW_4RATERS) == pytest.approx(0.77544, abs=5e-6)
    assert A.gwet_ac2(RAW_4RATERS, weights="bipolar") == pytest.approx(0.90037, abs=5e-6)
    assert agreement_weights((1, 2, 3, 4, 5), "bipolar")[0].tolist() == pytest.approx(
        [1, 0.85714286, 0.66666667, 0.4, 0], abs=1e-8)


@pytest.mark.parametrize("weights", AC2_WEIGHTS)
def test_ac2_equals_irrcac_on_its_example(weights):
    import pandas as pd

    CAC = irrcac()
    data = pd.DataFrame(RAW_4RATERS, dtype=float)
    # the categories given: with pandas 2+ irrCAC counts NaN among the categories it finds itself
    expected = CAC(data, weights=weights, categories=[1.0, 2.0, 3.0, 4.0, 5.0],
                   digits=15).gwet()["est"]["coefficient_value"]
    assert A.gwet_ac2(RAW_4RATERS, weights=weights) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("weights", ("identity", *AC2_WEIGHTS))
@pytest.mark.parametrize("seed", range(4))
def test_ac2_equals_irrcac_with_missing_values(seed, weights):
    import pandas as pd

    CAC = irrcac()
    rng = np.random.default_rng(seed)
    k = int(rng.integers(3, 7))
    cats = [float(c) for c in range(1, k + 1)]
    t = rng.integers(1, k + 1, (40, int(rng.integers(2, 6)))).astype(float)
    t[rng.random(t.shape) < 0.2] = np.nan
    t = t[(~np.isnan(t)).sum(axis=1) >= 1]          # irrCAC drops items nobody rated; so does the definition
    expected = CAC(pd.DataFrame(t), weights=weights, categories=cats, digits=15).gwet()["est"]["coefficient_value"]
    assert A.gwet_ac2(t, weights=weights, categories=cats) == pytest.approx(expected, abs=1e-12)


def test_ac2_with_identity_weights_is_ac1():
    rng = np.random.default_rng(5)
    t = rng.integers(0, 4, (60, 4)).astype(float)
    t[rng.random(t.shape) < 0.15] = np.nan
    assert A.gwet_ac2(t, weights="identity") == pytest.approx(A.gwet_ac1(t), abs=1e-12)


def test_ac2_weights_of_text_categories_are_their_positions():
    # irrCAC weighs labels that are not numbers by their positions 1..q
    rows = [["low", "mid"], ["mid", "mid"], ["high", "mid"], ["low", "low"]]
    cats = ["low", "mid", "high"]
    coded = [[cats.index(a) + 1, cats.index(b) + 1] for a, b in rows]
    assert A.gwet_ac2(rows, weights="linear", categories=cats) == pytest.approx(
        A.gwet_ac2(coded, weights="linear", categories=[1, 2, 3]))


def test_ac2_ratio_weights_refuse_a_zero_category():
    with pytest.raises(RatingsError, match="ratio weights: a category is 0"):
        A.gwet_ac2([[0, 1], [1, 2]], weights="ratio")


# ----------------------------------------------------------------------------- weighted Fleiss' kappa = irrCAC
def test_weighted_fleiss_kappa_on_irrcacs_own_example():
    # irrCAC's docstring: Fleiss' kappa 0.76117 on raw_4raters (identity weights: accord's fleiss_kappa too)
    assert A.weighted_fleiss_kappa(RAW_4RATERS, weights="identity") == pytest.approx(0.76117, abs=5e-6)
    assert A.weighted_fleiss_kappa(RAW_4RATERS, weights="identity") == pytest.approx(A.fleiss_kappa(RAW_4RATERS))


@pytest.mark.parametrize("weights", ("identity", *AC2_WEIGHTS))
@pytest.mark.parametrize("seed", range(4))
def test_weighted_fleiss_kappa_equals_irrcac_with_missing_values(seed, weights):
    import pandas as pd

    CAC = irrcac()
    rng = np.random.default_rng(10 + seed)
    k = int(rng.integers(3, 7))
    cats = [float(c) for c in range(1, k + 1)]
    t = rng.integers(1, k + 1, (40, int(rng.integers(2, 6)))).astype(float)
    t[rng.random(t.shape) < 0.2] = np.nan
    t = t[(~np.isnan(t)).sum(axis=1) >= 1]
    expected = CAC(pd.DataFrame(t), weights=weights, categories=cats, digits=15).fleiss()["est"]["coefficient_value"]
    assert A.weighted_fleiss_kappa(t, weights=weights, categories=cats) == pytest.approx(expected, abs=1e-12)
