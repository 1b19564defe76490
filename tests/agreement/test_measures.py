"""The added coefficients in accord agree (--coefficients, --reference, --candidate): their intervals equal
scipy.stats.bootstrap over the items with the reference library's statistic, the reference's per-annotator values
equal scikit-learn's, set-valued document classes (doccano) equal NLTK's alpha, and the command line's outputs."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import accord
from accord.agreement._measures import EXTRA_COEFFICIENTS, extra_names
from accord.errors import OptionError
from tests.fuzz.harness import run


def _csv(path, table, names):
    lines = ["id," + ",".join(names)]
    for i, row in enumerate(table):
        lines.append(f"{i}," + ",".join("" if v is None else str(v) for v in row))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _ordinal_table(seed, n=60, m=3, k=5, missing=0.0):
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, k + 1, n)
    t = np.clip(truth[:, None] + rng.integers(-1, 2, (n, m)), 1, k).astype(object)
    t[rng.random(t.shape) < missing] = None
    return t


# ----------------------------------------------------------------------------- intervals over items
@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_weighted_kappa_interval_equals_scipy_bootstrap_with_scikit_learns_statistic(tmp_path, method):
    from sklearn.metrics import cohen_kappa_score

    t = _ordinal_table(1, n=50, m=2)
    path = _csv(tmp_path / "r.csv", t, ["a", "b"])
    res = accord.agree(str(path), items="id", coefficients=["weighted_kappa_quadratic"])
    res.bootstrap(300, seed=5, confidence=0.9, method=method)
    a, b = t[:, 0].astype(int), t[:, 1].astype(int)

    def statistic(i):
        return cohen_kappa_score(a[i], b[i], weights="quadratic", labels=[1, 2, 3, 4, 5])

    ref = stats.bootstrap((np.arange(50),), statistic, vectorized=False, n_resamples=300, confidence_level=0.9,
                          method="BCa" if method == "bca" else "percentile", random_state=np.random.default_rng(5))
    assert res.ci["weighted_kappa_quadratic"] == pytest.approx([ref.confidence_interval.low,
                                                                ref.confidence_interval.high], abs=1e-9)
    assert res.totals["coefficients"]["weighted_kappa_quadratic"] == pytest.approx(statistic(np.arange(50)))


def _icc2(x):
    """ICC(2,1) of a complete table, its two-way ANOVA written out."""
    n, k = x.shape
    grand = x.mean()
    ss_r = k * ((x.mean(axis=1) - grand) ** 2).sum()
    ss_c = n * ((x.mean(axis=0) - grand) ** 2).sum()
    ss_e = ((x - grand) ** 2).sum() - ss_r - ss_c
    msr, msc, mse = ss_r / (n - 1), ss_c / (k - 1), ss_e / ((n - 1) * (k - 1))
    return (msr - mse) / (msr + (k - 1) * mse + k * (msc - mse) / n)


def test_icc_and_ac2_intervals_come_from_the_same_resamples_as_scipy_bootstrap(tmp_path):
    t = _ordinal_table(2, n=40, m=3)
    path = _csv(tmp_path / "r.csv", t, ["a", "b", "c"])
    res = accord.agree(str(path), items="id", coefficients=["icc", "gwet_ac2_linear"]).bootstrap(200, seed=3)
    x = t.astype(float)
    ref = stats.bootstrap((np.arange(40),), lambda i: _icc2(x[i]), vectorized=False, n_resamples=200,
                          method="percentile", random_state=np.random.default_rng(3))
    assert res.ci["icc2"] == pytest.approx([ref.confidence_interval.low, ref.confidence_interval.high], abs=1e-9)
    for name in ("icc1", "icc3", "icc1k", "icc2k", "icc3k", "gwet_ac2_linear", "fleiss_kappa"):
        assert res.ci[name][0] <= res.totals["coefficients"][name] <= res.ci[name][1]
    plain = accord.agree(str(path), items="id").bootstrap(200, seed=3)
    assert plain.ci["fleiss_kappa"] == res.ci["fleiss_kappa"]      # the added coefficients change no other interval


# ----------------------------------------------------------------------------- the reference annotator
def test_reference_gives_each_annotator_against_it(tmp_path):
    from sklearn.metrics import cohen_kappa_score

    t = _ordinal_table(4, n=45, m=4, missing=0.1)
    names = ["ann1", "ann2", "ann3", "model"]
    path = _csv(tmp_path / "r.csv", t, names)
    res = accord.agree(str(path), items="id", reference="model", coefficients=["weighted_kappa_linear"])
    ref = res.to_dict()["reference"]
    assert ref["reference"] == "model" and list(ref["annotators"]) == ["ann1", "ann2", "ann3"]
    for j, a in enumerate(names[:3]):
        both = [i for i in range(45) if t[i, j] is not None and t[i, 3] is not None]
        x, y = [int(t[i, 3]) for i in both], [int(t[i, j]) for i in both]
        got = ref["annotators"][a]
        assert got["items"] == len(both)
        assert got["coefficients"]["cohen_kappa"] == pytest.approx(cohen_kappa_score(x, y))
        assert got["coefficients"]["weighted_kappa_linear"] == pytest.approx(
            cohen_kappa_score(x, y, weights="linear", labels=[1, 2, 3, 4, 5]))
    res.bootstrap(100, seed=2)
    for a in names[:3]:
        ci = res.reference["annotators"][a]["ci"]
        single = accord.agree(str(_csv(tmp_path / f"{a}.csv", t[:, [3, names.index(a)]], ["model", a])),
                              items="id", coefficients=["weighted_kappa_linear"]).bootstrap(100, seed=2)
        assert ci["cohen_kappa"] == single.ci["cohen_kappa"]
        assert ci["weighted_kappa_linear"] == pytest.approx(single.ci["weighted_kappa_linear"])


# ----------------------------------------------------------------------------- set-valued document classes
TEXTS = ["good film", "bad film", "so so", "great", "awful", "fine", "meh", "superb", "dull", "witty"]
SIDES = [[["pos"], ["neg"], ["neu"], ["pos"], ["neg"], ["pos"], ["neu"], ["pos", "fun"], ["neg"], ["fun"]],
         [["pos"], ["neg"], ["pos"], ["pos"], ["neu"], [], ["neg"], ["pos"], ["neg", "neu"], ["fun", "pos"]],
         [["pos", "fun"], ["neg"], ["neu"], ["pos"], ["neg"], ["pos"], ["neu", "neg"], ["fun"], ["neg"], ["fun"]]]


def test_masi_alpha_of_doccano_multi_label_classes_equals_nltk(tmp_path):
    from nltk.metrics.agreement import AnnotationTask
    from nltk.metrics.distance import masi_distance

    paths = []
    for k, side in enumerate(SIDES):
        p = tmp_path / f"ann{k}.jsonl"
        p.write_text("".join(json.dumps({"id": i, "text": t, "label": x}) + "\n"
                             for i, (t, x) in enumerate(zip(TEXTS, side), 1)), encoding="utf-8")
        paths.append(str(p))
    res = accord.agree(paths, coefficients=["krippendorff_alpha_masi"])
    data = [(str(k), str(i), frozenset(x)) for k, side in enumerate(SIDES) for i, x in enumerate(side) if x]
    expected = AnnotationTask(data, distance=masi_distance).alpha()
    assert res.totals["coefficients"]["krippendorff_alpha_masi"] == pytest.approx(expected)


# ----------------------------------------------------------------------------- the command line
def test_command_line_reports_the_added_coefficients_reference_and_alt_test(tmp_path):
    import jsonschema

    from accord.result import contract_schema

    t = _ordinal_table(6, n=60, m=4)
    path = _csv(tmp_path / "r.csv", t, ["ann1", "ann2", "ann3", "model"])
    out = run(["agree", str(path), "--items", "id", "--coefficients", "weighted_kappa_quadratic,icc,gwet_ac2_ordinal",
               "--reference", "model", "--alt-test", "--epsilon", "0.15", "--bootstrap", "50", "--seed", "1",
               "--output", "json"])
    assert out.status == 0, out.stderr
    doc = json.loads(out.stdout)
    jsonschema.Draft202012Validator(contract_schema()).validate(doc)
    coefficients = doc["totals"]["coefficients"]
    assert {"weighted_kappa_quadratic", "icc1", "icc3k", "gwet_ac2_ordinal"} <= set(coefficients)
    assert set(doc["totals"]["ci"]) >= {"weighted_kappa_quadratic", "icc2", "gwet_ac2_ordinal"}
    assert doc["alt_test"]["candidate"] == "model" and doc["alt_test"]["epsilon"] == 0.15
    assert doc["reference"]["annotators"]["ann1"]["ci"]["icc1"][0] is not None
    assert doc["options"]["coefficients"] == ["weighted_kappa_quadratic", "icc", "gwet_ac2_ordinal"]
    table = run(["agree", str(path), "--items", "id", "--coefficients", "icc", "--candidate", "model"])
    assert table.status == 0 and "alternative annotator test of model" in table.stdout
    assert "ICC2" in table.stdout and "winning rate" in table.stdout


@pytest.mark.parametrize("argv, message", [
    (["--coefficients", "cosine"], "unknown coefficient 'cosine'"),
    (["--reference", "nobody"], "--reference nobody: no such annotator"),
    (["--alt-test"], "--alt-test tests the --reference annotator"),
    (["--epsilon", "0.1"], "--epsilon apply to the alternative annotator test"),
    (["--coefficients", "icc", "--compare-pairs", "ann1:ann2,ann1:ann3", "--bootstrap", "20"],
     "icc are reported, not compared"),
    (["--candidate", "model", "--alt-scoring", "neg_rmse", "--alt-min-items", "1000"], "no annotator with 1000"),
])
def test_command_line_refusals_exit_2_with_one_line(tmp_path, argv, message):
    path = _csv(tmp_path / "r.csv", _ordinal_table(7, n=20, m=4), ["ann1", "ann2", "ann3", "model"])
    out = run(["agree", str(path), "--items", "id", *argv])
    assert out.status == 2 and message in out.stderr


def test_set_coefficients_of_text_categories_and_icc_of_labels(tmp_path):
    path = tmp_path / "s.csv"
    path.write_text("id,a,b\n1,x|y,x\n2,y,y\n3,x,x|y\n4,y|z,z\n", encoding="utf-8")
    out = run(["agree", str(path), "--items", "id", "--coefficients", "krippendorff_alpha_jaccard", "--output", "json"])
    assert out.status == 0
    value = json.loads(out.stdout)["totals"]["coefficients"]["krippendorff_alpha_jaccard"]
    assert value is not None and math.isfinite(value)
    bad = run(["agree", str(path), "--items", "id", "--coefficients", "icc"])
    assert bad.status == 2 and "needs numeric ratings" in bad.stderr


def test_names_and_gate_conventions():
    assert extra_names(["icc2", "icc", "weighted_kappa_linear", "cohen_kappa"]) == ["icc", "weighted_kappa_linear"]
    assert "krippendorff_alpha_masi" in EXTRA_COEFFICIENTS
    with pytest.raises(OptionError, match="--reference apply under --convention accord"):
        accord.agree(["a.xml", "b.xml"], convention="iaa", types=["X"], reference="a.xml")


# ----------------------------------------------------------------------------- α at every level = krippendorff
@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.one_of(st.none(), st.integers(1, 6)), min_size=3, max_size=3), min_size=2, max_size=30),
       st.sampled_from(["nominal", "ordinal", "interval", "ratio"]))
def test_alpha_at_every_level_equals_the_krippendorff_package_on_any_table(rows, level):
    import warnings

    import krippendorff

    from accord import agreement as A

    pairable = [r for r in rows if sum(v is not None for v in r) >= 2]
    if len({v for r in pairable for v in r if v is not None}) < 2:
        return                                  # no variation: krippendorff raises, accord says NaN with a warning
    data = np.array([[np.nan if v is None else v for v in r] for r in rows], dtype=float).T
    domain = [float(v) for v in range(1, 7)]
    expected = krippendorff.alpha(reliability_data=data, level_of_measurement=level, value_domain=domain)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = A.krippendorff_alpha(rows, level=level, categories=list(range(1, 7)))
    assert got == pytest.approx(expected, abs=1e-9)
