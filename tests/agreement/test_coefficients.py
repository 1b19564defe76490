"""Agreement coefficients against the seed's tables, GATE's asserted numbers, and peer tools run in the test
(scikit-learn, statsmodels, krippendorff, NLTK, irrCAC)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accord import agreement as A
from accord.errors import AgreementWarning, OptionError, RatingsError

DATA = Path(__file__).parents[1] / "data"


def _from_matrix(matrix, labels):
    """Rows of (rater A, rater B) ratings reproducing a contingency table."""
    return [[labels[i], labels[j]] for i, row in enumerate(matrix) for j, n in enumerate(row) for _ in range(n)]


# ----------------------------------------------------------------------------- the seed's worked example
TABLE_10_2 = _from_matrix([[1, 2], [3, 4]], ["cat1", "cat2"])


def test_seed_tables_10_2_to_10_4():
    # Ao = 5/10; Cohen's Ae = 0.3*0.4 + 0.7*0.6 = 0.54; Scott's Ae = 0.35² + 0.65² = 0.545
    assert A.observed_agreement(TABLE_10_2) == 0.5
    assert A.cohen_kappa(TABLE_10_2) == pytest.approx((0.5 - 0.54) / (1 - 0.54))
    assert A.scott_pi(TABLE_10_2) == pytest.approx((0.5 - 0.545) / (1 - 0.545))
    # formula 10.2: 2a / (2a + b + c) and 2d / (b + c + 2d)
    assert A.specific_agreement(TABLE_10_2) == pytest.approx({"cat1": 2 / 7, "cat2": 8 / 13})
    cats, m = A.confusion_matrix(TABLE_10_2)
    assert cats == ("cat1", "cat2") and m.tolist() == [[1, 2], [3, 4]]


# ----------------------------------------------------------------------------- GATE's own asserted numbers
GATE = [c for c in json.loads((DATA / "gate" / "classification_cases.json").read_text())["cases"]
        if c["id"].startswith("classification_measures")]


@pytest.mark.parametrize("case", GATE, ids=[c["id"] for c in GATE])
def test_gate_classification_measures(case):
    """gate-core's TestClassificationMeasures (Java float values, hence the 1e-6 tolerance)."""
    d = case["derived"]
    rows = _from_matrix(d["matrix_rows_A_cols_B"], d["labels"])
    exp = case["expected"]
    assert A.observed_agreement(rows) == pytest.approx(exp["observed_agreement"], abs=1e-6)
    assert A.cohen_kappa(rows) == pytest.approx(exp["cohen_kappa"], abs=1e-6)
    assert A.scott_pi(rows) == pytest.approx(exp["scott_pi"], abs=1e-6)


def test_gate_pooled_case_is_the_sum_of_the_document_statistics():
    docs = {c["id"]: c["derived"] for c in GATE}
    s1 = A.agreement_stats(_from_matrix(docs["classification_measures_doc1"]["matrix_rows_A_cols_B"],
                                        docs["classification_measures_doc1"]["labels"]))
    s2 = A.agreement_stats(_from_matrix(docs["classification_measures_doc2"]["matrix_rows_A_cols_B"],
                                        docs["classification_measures_doc2"]["labels"]))
    exp = next(c for c in GATE if c["id"] == "classification_measures_pooled")["expected"]
    assert A.cohen_kappa(s1 + s2) == pytest.approx(exp["cohen_kappa"], abs=1e-6)
    assert A.scott_pi(s1 + s2) == pytest.approx(exp["scott_pi"], abs=1e-6)


# ----------------------------------------------------------------------------- peers
def _table(seed, items=40, raters=3, k=4, missing=0.0, agree=0.5):
    """Items x raters codes 0..k-1 (float, NaN where missing), correlated so coefficients are not ~0."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, size=items)
    t = np.where(rng.random((items, raters)) < agree, truth[:, None], rng.integers(0, k, size=(items, raters)))
    t = t.astype(float)
    t[rng.random((items, raters)) < missing] = np.nan
    return t


@pytest.mark.parametrize("seed", range(6))
def test_cohen_kappa_equals_scikit_learn_pairwise(seed):
    from sklearn.metrics import cohen_kappa_score

    t = _table(seed, missing=0.15)
    res = A.cohen_kappa(t)
    assert isinstance(res, A.Pairwise) and len(res.pairs) == 3
    for (a, b), v in res.pairs.items():
        both = ~np.isnan(t[:, a]) & ~np.isnan(t[:, b])
        assert v == pytest.approx(cohen_kappa_score(t[both, a], t[both, b]))
    assert float(res) == pytest.approx(np.mean(list(res.pairs.values())))
    two = A.cohen_kappa(t[:, :2])
    assert isinstance(two, float) and two == pytest.approx(res.pairs[(0, 1)])


@pytest.mark.parametrize("seed", range(6))
def test_fleiss_and_randolph_equal_statsmodels_on_complete_data(seed):
    from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

    t = _table(seed, raters=4).astype(int)
    counts, _ = aggregate_raters(t)
    assert A.fleiss_kappa(t) == pytest.approx(fleiss_kappa(counts, method="fleiss"))
    assert A.bennett_s(t) == pytest.approx(fleiss_kappa(counts, method="randolph"))


@pytest.mark.parametrize("level", A.LEVELS)
@pytest.mark.parametrize("seed", range(4))
def test_krippendorff_alpha_equals_the_krippendorff_package(seed, level):
    import krippendorff

    t = _table(seed, raters=4, k=5, missing=0.25) + 1  # values 1..5 (ratio needs positive values)
    expected = krippendorff.alpha(reliability_data=t.T, level_of_measurement=level,
                                  value_domain=[1.0, 2.0, 3.0, 4.0, 5.0])
    assert A.krippendorff_alpha(t, level=level) == pytest.approx(expected)


@pytest.mark.parametrize("seed", range(5))
def test_equal_to_nltk_on_complete_data(seed):
    from nltk.metrics.agreement import AnnotationTask

    t = _table(seed, raters=3).astype(int)
    task = AnnotationTask([(str(j), str(i), int(t[i, j])) for i in range(t.shape[0]) for j in range(t.shape[1])])
    assert A.davies_fleiss_kappa(t) == pytest.approx(task.multi_kappa())
    assert float(A.cohen_kappa(t)) == pytest.approx(task.kappa())
    assert float(A.observed_agreement(t)) == pytest.approx(task.avg_Ao())
    assert A.fleiss_kappa(t) == pytest.approx(task.pi())
    assert A.krippendorff_alpha(t) == pytest.approx(task.alpha())
    assert A.bennett_s(t) == pytest.approx(task.S())


def irrcac():
    """irrCAC's CAC class. irrCAC pins scipy==1.12 (and so numpy < 2) in its metadata though it runs on the newest
    numpy and scipy; it is not in the test extra, so that the suite runs on what users install, and .ci/run adds it
    with --no-deps (``pip install --no-deps irrCAC``)."""
    module = pytest.importorskip("irrCAC.raw", reason="irrCAC: pip install --no-deps irrCAC (see .ci/run)")
    return module.CAC


@pytest.mark.parametrize("seed", range(5))
def test_equal_to_irrcac_with_missing_values(seed):
    import pandas as pd
    CAC = irrcac()

    t = _table(seed, raters=4, k=3, missing=0.2)
    t = t[(~np.isnan(t)).sum(axis=1) >= 1]  # irrCAC drops items nobody rated; so does the definition
    cac = CAC(pd.DataFrame(t), digits=12, categories=[0.0, 1.0, 2.0])

    def val(res):
        return res["est"]["coefficient_value"]

    assert A.gwet_ac1(t, categories=[0.0, 1.0, 2.0]) == pytest.approx(val(cac.gwet()), abs=1e-9)
    assert A.fleiss_kappa(t) == pytest.approx(val(cac.fleiss()), abs=1e-9)
    assert A.bennett_s(t, categories=[0.0, 1.0, 2.0]) == pytest.approx(val(cac.bp()), abs=1e-9)
    assert A.krippendorff_alpha(t) == pytest.approx(val(cac.krippendorff()), abs=1e-9)


def test_gwet_ac1_by_hand():
    # two raters, 10 items: 8 agree on "a", 1 on "b", 1 disagrees (a, b)
    rows = [["a", "a"]] * 8 + [["b", "b"], ["a", "b"]]
    po = 0.9
    pi_a = (8 + 0.5) / 10  # each item contributes its share of "a" ratings
    pe = 2 * pi_a * (1 - pi_a) / (2 - 1)
    assert A.gwet_ac1(rows) == pytest.approx((po - pe) / (1 - pe))


# ----------------------------------------------------------------------------- inputs and degenerate cases
def test_every_input_shape_gives_the_same_value():
    import pandas as pd

    rows = [["x", "y"], ["x", "x"], [None, "y"], ["y", "y"], ["y", float("nan")]]
    cols = {"ann1": [r[0] for r in rows], "ann2": [r[1] for r in rows]}
    expected = A.cohen_kappa(rows)
    assert A.cohen_kappa(cols) == expected
    assert A.cohen_kappa(np.array(rows, dtype=object)) == expected
    assert A.cohen_kappa(pd.DataFrame(cols)) == expected
    long = [{"item": i, "who": r, "label": v} for r, c in cols.items() for i, v in enumerate(c) if v in ("x", "y")]
    assert A.cohen_kappa(A.ratings_from_long(long, item="item", rater="who", label="label")) == expected
    assert A.to_ratings(cols).raters == ("ann1", "ann2")


def test_degenerate_cases_have_defined_values_and_warn():
    with pytest.warns(AgreementWarning, match="one category"):
        assert A.cohen_kappa([["a", "a"], ["a", "a"]]) == 1.0
    with pytest.warns(AgreementWarning, match="no item was rated by both"):
        assert np.isnan(A.cohen_kappa([["a", None], [None, "b"]]))
    with pytest.warns(AgreementWarning, match="do not vary"):
        assert np.isnan(A.krippendorff_alpha([["a", "a"], ["a", "a"]]))
    with pytest.warns(AgreementWarning, match="left out"):
        A.davies_fleiss_kappa([["a", "b", "a"], ["a", None, "a"], ["b", "b", "b"]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        A.cohen_kappa(TABLE_10_2)  # an ordinary table warns nothing


def test_bad_inputs_are_clear_errors():
    with pytest.raises(RatingsError, match="row 1 has 1 ratings, row 0 has 2"):
        A.cohen_kappa([["a", "b"], ["a"]])
    with pytest.raises(RatingsError, match="rater 'b' has 1 ratings"):
        A.cohen_kappa({"a": ["x", "y"], "b": ["x"]})
    with pytest.raises(RatingsError, match="at least two raters"):
        A.fleiss_kappa([["a"], ["b"]])
    with pytest.raises(RatingsError, match="'z' is not one of the categories"):
        A.cohen_kappa([["a", "z"]], categories=["a", "b"])
    with pytest.raises(RatingsError, match="numeric categories"):
        A.krippendorff_alpha([["a", "b"], ["b", "b"]], level="interval")
    with pytest.raises(OptionError, match="unknown level"):
        A.krippendorff_alpha([["a", "b"]], level="nominl")
    with pytest.raises(RatingsError, match="rated item 1 twice"):
        A.ratings_from_long([{"i": 1, "r": "x", "l": "a"}, {"i": 1, "r": "x", "l": "b"}], item="i", rater="r",
                            label="l")
    with pytest.raises(RatingsError, match="raters must be the same"):
        A.agreement_stats({"a": ["x"], "b": ["x"]}) + A.agreement_stats({"a": ["x"], "c": ["x"]})


# ----------------------------------------------------------------------------- invariances
MULTI = ("fleiss_kappa", "davies_fleiss_kappa", "krippendorff_alpha", "bennett_s", "gwet_ac1")
_tables = st.integers(3, 12).flatmap(lambda n: st.lists(
    st.lists(st.one_of(st.none(), st.sampled_from("abc")), min_size=3, max_size=3), min_size=n, max_size=n))


def _all(table):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AgreementWarning)
        out = {name: getattr(A, name)(table) for name in MULTI}
        for name in ("cohen_kappa", "scott_pi", "observed_agreement"):
            out[name] = float(getattr(A, name)(table))
    return out


def _same(x, y):
    assert x.keys() == y.keys()
    for k in x:
        assert (np.isnan(x[k]) and np.isnan(y[k])) or x[k] == pytest.approx(y[k]), k


@settings(max_examples=60, deadline=None)
@given(_tables, st.randoms(use_true_random=False))
def test_invariant_to_rater_order_item_order_and_relabelling(table, rnd):
    base = _all(table)
    perm = [2, 0, 1]
    _same(base, _all([[row[j] for j in perm] for row in table]))
    shuffled = list(table)
    rnd.shuffle(shuffled)
    _same(base, _all(shuffled))
    rename = {"a": "q", "b": "a", "c": "zz", None: None}
    _same(base, _all([[rename[v] for v in row] for row in table]))


@settings(max_examples=60, deadline=None)
@given(_tables, _tables)
def test_statistics_add_up_over_documents(t1, t2):
    both = A.agreement_stats(t1) + A.agreement_stats(t2)
    _same(_all(both), _all(t1 + t2))


def test_fleiss_kappa_below_minus_one_with_missing_ratings_is_irrcacs_value_and_warns():
    # one item rated A and B by two raters, nine items rated once (A): the single ratings shift the
    # category proportions (pi_A = 9.5/10) but no pair on them, so P_o = 0 and P_e = 0.905:
    # kappa = (0 - 0.905) / (1 - 0.905) = -9.526..., the value irrCAC computes (the formula allows it
    # once items rated by one rater enter the proportions; with complete data it is at least -1/(m-1))
    import pandas as pd
    CAC = irrcac()

    t = np.full((10, 2), np.nan)
    t[0] = [0.0, 1.0]
    t[1:, 0] = 0.0
    pe = 0.95 ** 2 + 0.05 ** 2
    with pytest.warns(AgreementWarning, match="below -1: 9 of 10 item"):
        value = A.fleiss_kappa(t)
    assert value == pytest.approx((0 - pe) / (1 - pe))
    expected = CAC(pd.DataFrame(t), digits=12).fleiss()["est"]["coefficient_value"]
    assert value == pytest.approx(expected, abs=1e-9)
