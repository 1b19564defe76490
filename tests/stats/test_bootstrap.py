"""Bootstrap confidence intervals: equal to scipy.stats.bootstrap on the same resamples, reproducible, and
covering the true value as often as they claim."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
from scipy import stats

import accord
from accord.cli import main
from accord.errors import MergeError, OptionError
from accord.result import ALL, CountTable, Measure, PairsKind, Result
from accord.stats import CHUNK, BootstrapOptions
from tests.result.contract import checked

from ..result.commands import CONLL_GOLD, CONLL_PRED


@pytest.fixture(scope="module")
def report():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return accord.score(CONLL_GOLD, CONLL_PRED)


def _scipy_interval(values: np.ndarray, rate: str, n: int, seed: int, method: str, confidence: float = 0.95):
    """scipy.stats.bootstrap over the documents, the statistic computed from the drawn documents' counts."""
    kind = PairsKind()

    def statistic(index, axis=-1):
        return kind.rates(values[np.asarray(index)].sum(axis=-2))[rate]
    res = stats.bootstrap((np.arange(len(values)),), statistic, n_resamples=n, batch=CHUNK, vectorized=True,
                          random_state=np.random.default_rng(seed), method=method, confidence_level=confidence)
    return res.confidence_interval.low, res.confidence_interval.high, res.bootstrap_distribution


@pytest.mark.parametrize("method", ["percentile", "bca"])
@pytest.mark.parametrize("rate", ["precision", "recall", "f1"])
def test_intervals_equal_scipy_bootstrap_on_the_same_resamples(report, method, rate):
    values = report.main.table.values[:, report.main.table.rows.index(ALL)]   # documents x counts
    n, seed = 1000, 7
    lo, hi, distribution = _scipy_interval(values, rate, n, seed, method, confidence=0.9)
    ours = accord.score(CONLL_GOLD, CONLL_PRED).bootstrap(n, seed=seed, confidence=0.9, method=method,
                                                             summary=True)
    ci = ours.to_dict()["totals"]["ci"][rate]
    assert ci == pytest.approx([lo, hi], abs=1e-12)
    moments = ours.to_dict()["totals"]["resampled"][rate]
    assert moments["mean"] == pytest.approx(distribution.mean(), abs=1e-12)
    assert moments["std"] == pytest.approx(distribution.std(ddof=1), abs=1e-12)


def test_label_rows_and_macro_match_scipy(report):
    table = report.main.table
    per = table.rows.index(("label", "PER"))
    lo, hi, _ = _scipy_interval(table.values[:, per], "f1", 500, 3, "percentile")
    ours = accord.score(CONLL_GOLD, CONLL_PRED).bootstrap(500, seed=3).to_dict()
    assert ours["by_label"]["PER"]["ci"]["f1"] == pytest.approx([lo, hi], abs=1e-12)
    labels = [k for k, row in enumerate(table.rows) if row[0] == "label"]
    kind = PairsKind()

    def macro(index, axis=-1):
        sums = table.values[np.asarray(index)][..., labels, :].sum(axis=-3)
        return kind.rates(sums)["f1"].mean(axis=-1)
    res = stats.bootstrap((np.arange(len(table.documents)),), macro, n_resamples=500, batch=CHUNK, vectorized=True,
                          random_state=np.random.default_rng(3), method="percentile")
    assert ours["macro"]["ci"]["f1"] == pytest.approx([res.confidence_interval.low, res.confidence_interval.high],
                                                     abs=1e-12)


def test_same_seed_same_bytes_and_the_estimate_inside(tmp_path, capsys, recwarn):
    argv = ["score", CONLL_GOLD, CONLL_PRED, "--bootstrap", "300", "--seed", "11", "--output", "json"]
    assert main(argv) == 0
    first = capsys.readouterr().out
    assert main(argv) == 0
    assert capsys.readouterr().out == first
    assert main(argv[:-4] + ["--bootstrap", "300", "--seed", "12", "--output", "json"]) == 0
    assert capsys.readouterr().out != first
    out = checked(first)
    assert out["options"]["bootstrap"] == 300 and out["options"]["seed"] == 11
    for block in [out["totals"], *out["by_label"].values()]:
        for rate in ("precision", "recall", "f1"):
            lo, hi = block["ci"][rate]
            assert lo <= block[rate] <= hi
    assert "ci" not in next(iter(out["by_document"].values()))   # documents are the units resampled


@pytest.mark.parametrize("argv", [
    ["score", CONLL_GOLD, CONLL_PRED, "--match", "clueval"],
    ["score", CONLL_GOLD, CONLL_PRED, "--match", "semeval", "--ci-method", "bca"],
])
def test_every_measure_gets_intervals(argv, capsys, recwarn):
    assert main([*argv, "--bootstrap", "50", "--seed", "1", "--output", "json"]) == 0
    out = checked(capsys.readouterr().out)
    assert all("ci" in m["totals"] and "ci" in m["macro"] for m in out["measures"].values())


def test_options_without_bootstrap_are_refused(capsys):
    assert main(["score", CONLL_GOLD, CONLL_GOLD, "--seed", "3"]) == 2
    assert "apply with --bootstrap" in capsys.readouterr().err
    with pytest.raises(OptionError, match="--bootstrap"):
        BootstrapOptions(1)
    with pytest.raises(OptionError, match="--confidence"):
        BootstrapOptions(100, confidence=1.5)


def test_merging_refuses_intervals(report):
    gold, pred = accord.read(CONLL_GOLD), accord.read(CONLL_PRED)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = accord.score(accord.Corpus(gold.documents[:10]), accord.Corpus(pred.documents[:10])).bootstrap(20)
        b = accord.score(accord.Corpus(gold.documents[10:]), accord.Corpus(pred.documents[10:]))
    with pytest.raises(MergeError, match="confidence intervals"):
        a + b


def _synthetic(rng: np.random.Generator, documents: int, rate: float) -> Result:
    """Documents of 5 to 30 gold items, each found with probability ``rate`` (no spurious items): the true
    recall is ``rate``."""
    gold = rng.integers(5, 31, documents)
    found = rng.binomial(gold, rate)
    values = np.zeros((documents, 1, 5), dtype=np.int64)
    values[:, 0, 0] = found
    values[:, 0, 3] = gold - found
    table = CountTable(PairsKind.fields, tuple(f"d{k}" for k in range(documents)), (ALL,), values)
    return Result("score", "pairs", {"pairs": Measure(PairsKind(), table)}, nested=False)


def test_coverage_of_the_true_rate():
    rng = np.random.default_rng(2024)
    covered = 0
    for k in range(400):
        result = _synthetic(rng, 60, 0.7).bootstrap(400, seed=k)
        lo, hi = result.to_dict()["totals"]["ci"]["recall"]
        covered += lo <= 0.7 <= hi
    assert 0.93 <= covered / 400 <= 0.97, covered


def test_undefined_rates_give_null_intervals(tmp_path, capsys):
    g = tmp_path / "g.jsonl"   # two documents with nothing to count: every rate is NaN under --zero-division nan
    g.write_text("".join(json.dumps({"id": d, "tokens": ["a"], "annotations": []}) + "\n" for d in "de"),
                 encoding="utf-8")
    assert main(["score", str(g), str(g), "--zero-division", "nan", "--bootstrap", "20", "--output", "json"]) == 0
    out = checked(capsys.readouterr().out)
    assert out["totals"]["ci"]["f1"] == [None, None]


def test_agreement_intervals_resample_items(tmp_path, capsys, recwarn):
    # 40 items rated by two raters who agree on 30: the observed agreement 0.75 lies in its interval, which
    # equals the percentile interval of the same statistic over the same item resamples
    rows = ["r1,r2"] + [f"{'ab'[k % 2]},{'ab'[k % 2]}" for k in range(30)] + ["a,b" for _ in range(10)]
    (tmp_path / "r.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    assert main(["agree", str(tmp_path / "r.csv"), "--bootstrap", "400", "--seed", "5", "--output", "json"]) == 0
    out = checked(capsys.readouterr().out)
    lo, hi = out["totals"]["ci"]["observed_agreement"]
    assert lo < 0.75 < hi and out["options"]["bootstrap"] == 400
    agree = np.array([1.0] * 30 + [0.0] * 10)
    rng = np.random.default_rng(5)
    means = [agree[rng.integers(0, 40, 40)].mean() for _ in range(400)]
    assert [lo, hi] == pytest.approx(list(np.percentile(means, [2.5, 97.5])), abs=1e-12)


@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_agreement_intervals_equal_scipy_bootstrap(tmp_path, capsys, recwarn, method):
    """Cohen's kappa of two raters over 60 items: accord's interval equals scipy.stats.bootstrap's on the same item
    resamples (BCa with its jackknife over the items), the statistic written here from the kappa formula."""
    rng = np.random.default_rng(11)
    r1 = rng.choice(list("abc"), 60, p=[0.5, 0.3, 0.2])
    r2 = np.where(rng.random(60) < 0.7, r1, rng.choice(list("abc"), 60))
    (tmp_path / "r.csv").write_text("r1,r2\n" + "".join(f"{x},{y}\n" for x, y in zip(r1, r2)), encoding="utf-8")
    assert main(["agree", str(tmp_path / "r.csv"), "--bootstrap", "300", "--seed", "8", "--ci-method", method,
                 "--output", "json"]) == 0
    out = checked(capsys.readouterr().out)

    def kappa(index):
        a, b = r1[index], r2[index]
        observed = np.mean(a == b)
        expected = sum(np.mean(a == c) * np.mean(b == c) for c in "abc")
        return (observed - expected) / (1 - expected)
    res = stats.bootstrap((np.arange(60),), kappa, vectorized=False, n_resamples=300, batch=1,
                          method="BCa" if method == "bca" else "percentile", random_state=np.random.default_rng(8))
    assert out["totals"]["coefficients"]["cohen_kappa"] == pytest.approx(kappa(np.arange(60)), abs=1e-12)
    assert out["totals"]["ci"]["cohen_kappa"] == pytest.approx(
        [res.confidence_interval.low, res.confidence_interval.high], abs=1e-12)
    assert out["options"]["ci_method"] == method


# ---------------------------------------------------------------------------- exact ties (issue 33.8)
def _pairs_result(docs: list[tuple[int, int, int, int, int]]) -> tuple[Result, np.ndarray]:
    values = np.array(docs, dtype=np.int64)[:, None, :]
    table = CountTable(PairsKind.fields, tuple(f"d{k}" for k in range(len(docs))), (ALL,), values)
    return Result("score", "pairs", {"pairs": Measure(PairsKind(), table)}, nested=False), values[:, 0, :]


def _f1_of_counts(values: np.ndarray):
    """F1 as the definition writes it over the drawn documents' summed counts: 2 match / (gold + pred)."""
    def statistic(index, axis=-1):
        t = values[np.asarray(index)].sum(axis=-2)
        m, gold, pred = t[..., 0], t[..., 0] + t[..., 1] + t[..., 3], t[..., 0] + t[..., 2] + t[..., 4]
        return 2 * m / (gold + pred)
    return statistic


# Document kinds (match, gold_clash, pred_clash, missing, spurious): A = 1 match of 3 gold, 1 pred (F1 2/4);
# B = 1 match, 2 gold, 2 pred (F1 2/4); C = 2 match, 3 gold, 3 pred (F1 4/6). A resample of a A's, b B's and c C's
# (a + b + c = 65) has F1 = 2(65 + c) / (260 + 2c): it depends on c only, so every resample drawing c = 5 C's ties
# exactly with the observed 140/270 (about 18% of them), and without C's every resample is exactly 1/2.
_A, _B, _C = (1, 0, 0, 2, 0), (1, 0, 0, 1, 1), (2, 0, 0, 1, 1)


@pytest.mark.parametrize("seed", range(4))
def test_bca_with_exact_ties_equals_scipy(seed):
    """F1 computed as 2PR / (P + R) put some of the tying resamples one unit in the last place off the observed F1,
    so the bias correction (the share below the estimate, ties counted half) and the bounds drifted from
    scipy.stats.bootstrap with the F1 of the counts; F1 is now one division of the counts, 2m / (g + p)."""
    result, values = _pairs_result([_A] * 30 + [_B] * 30 + [_C] * 5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")      # the macro mean (no label) is undefined
        out = result.bootstrap(1000, seed=seed, method="bca").to_dict()["totals"]
    assert out["f1"] == 140 / 270
    res = stats.bootstrap((np.arange(65),), _f1_of_counts(values), n_resamples=1000, batch=CHUNK, vectorized=True,
                          random_state=np.random.default_rng(seed), method="BCa")
    assert out["ci"]["f1"] == [res.confidence_interval.low, res.confidence_interval.high]
    lo, hi = out["ci"]["f1"]
    assert lo <= out["f1"] <= hi


def test_f1_constant_over_every_resample_is_degenerate_as_in_scipy():
    """Documents A and B only: every resample's F1 is exactly 1/2, a degenerate bootstrap distribution (scipy: NaN
    bounds and a DegenerateDataWarning; accord: null and a StatisticsWarning). 2PR / (P + R) scattered the resamples
    over 1/2 and its neighbouring floats, and BCa gave a spurious interval."""
    from accord.errors import StatisticsWarning

    result, values = _pairs_result([_A] * 20 + [_B] * 20)
    with pytest.warns(StatisticsWarning, match="degenerate"):
        out = result.bootstrap(500, seed=1, method="bca").to_dict()["totals"]
    assert out["f1"] == 0.5 and out["ci"]["f1"] == [None, None]
    with pytest.warns(stats.DegenerateDataWarning):
        res = stats.bootstrap((np.arange(40),), _f1_of_counts(values), n_resamples=500, batch=CHUNK, vectorized=True,
                              random_state=np.random.default_rng(1), method="BCa")
    assert np.isnan(res.confidence_interval.low) and np.isnan(res.confidence_interval.high)
