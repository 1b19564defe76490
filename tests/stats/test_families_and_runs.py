"""Families of tests (the answer about the totals does not depend on the labels compared), the corrections
checked against statsmodels, and systems of several runs (mean ± sd, the two-level bootstrap, ASO)."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

import accord
from accord.cli import main
from accord.stats import compare
from accord.stats._aso import almost_stochastic_order
from tests.result.contract import checked

from ..result.commands import CONLL_GOLD, CONLL_PRED


def _worse(src: str, path: Path, drop: float, seed: int) -> str:
    rnd = np.random.default_rng(seed)
    out = []
    for line in Path(src).read_text(encoding="utf-8").split("\n"):
        cols = line.split()
        if len(cols) >= 2 and cols[-1] != "O" and rnd.random() < drop:
            line = " ".join(cols[:-1] + ["O"])
        out.append(line)
    path.write_text("\n".join(out), encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def five(tmp_path_factory):
    """Five systems on CoNLL-2003's 231 documents: the XLM system and four copies worse by 1 to 4 % of tags."""
    d = tmp_path_factory.mktemp("five")
    paths = {"A": CONLL_PRED}
    for k, drop in enumerate((0.01, 0.02, 0.03, 0.04)):
        paths["BCDE"[k]] = _worse(CONLL_PRED, d / f"{'BCDE'[k]}.conll", drop, seed=k)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {name: accord.score(CONLL_GOLD, path) for name, path in paths.items()}


def _totals(result):
    return {(c.a, c.b): c for c in result.comparisons if c.label is None}


def test_the_answer_about_the_totals_does_not_change_when_labels_are_added(five):
    with_labels = compare(five, samples=2000, seed=3)
    without = compare(five, samples=2000, seed=3, labels=False)
    a, b = _totals(with_labels), _totals(without)
    assert a.keys() == b.keys() and len(a) == 10
    for pair in a:
        assert (a[pair].p_value, a[pair].p_adjusted, a[pair].significant) == \
            (b[pair].p_value, b[pair].p_adjusted, b[pair].significant)
        assert (a[pair].family, a[pair].family_size) == ("pairs/f1/ALL", 10)
    # one family of everything (the former rule): the labels' 40 tests weigh on the totals
    mixed = _totals(compare(five, samples=2000, seed=3, families="all"))
    assert all(c.family_size == 50 for c in mixed.values())
    assert any(mixed[p].p_adjusted > a[p].p_adjusted for p in a)


def test_families_and_corrections_equal_statsmodels(five):
    from statsmodels.stats.multitest import multipletests

    for correction, method in (("holm", "holm"), ("bonferroni", "bonferroni")):
        for families in ("separate", "overall", "all"):
            result = compare(five, samples=100, seed=1, correction=correction, families=families)
            groups: dict[str, list] = {}
            for c in result.comparisons:
                groups.setdefault(c.family, []).append(c)
            expected_names = {"separate": {"pairs/f1/ALL"} | {f"pairs/f1/label:{lab}" for lab in
                                                               ("LOC", "MISC", "ORG", "PER")},
                              "overall": {"pairs/f1/ALL", "pairs/f1/labels"}, "all": {"all"}}[families]
            assert set(groups) == expected_names
            for members in groups.values():
                raw = [c.p_value for c in members]
                adjusted = multipletests(raw, method=method)[1]
                assert [c.p_adjusted for c in members] == pytest.approx(list(adjusted), abs=1e-12)
                assert all(c.family_size == len(members) for c in members)
    plain = compare(five, samples=100, seed=1, correction="none")
    assert all(c.p_adjusted == c.p_value for c in plain.comparisons)


def test_a_not_significant_difference_says_what_could_be_detected(five):
    result = compare({"A": five["A"], "B": five["B"]}, samples=2000, seed=5, labels=False)
    c = result.comparisons[0]
    # the minimum detectable difference is (z_0.975 + z_0.8) times the spread of the null differences
    assert c.detectable == pytest.approx((1.959964 + 0.841621) * c.standard_error, rel=1e-5)
    assert 0 < c.detectable < 0.05


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    d = tmp_path_factory.mktemp("runs")
    a = [_worse(CONLL_PRED, d / f"a_seed{k}.conll", 0.02, seed=10 + k) for k in range(3)]
    b = [_worse(CONLL_PRED, d / f"b_seed{k}.conll", 0.06, seed=20 + k) for k in range(4)]
    return a, b


def test_several_runs_give_the_mean_the_sd_and_aso(runs):
    a_paths, b_paths = runs
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = [accord.score(CONLL_GOLD, p) for p in a_paths]
        b = [accord.score(CONLL_GOLD, p) for p in b_paths]
    f_a = np.array([r.totals["f1"] for r in a])
    f_b = np.array([r.totals["f1"] for r in b])
    result = compare({"a": a, "b": b}, samples=1000, seed=2, labels=False).bootstrap(500, seed=2)
    head = result.headline
    assert head["a"]["value"] == pytest.approx(f_a.mean(), abs=1e-12)
    assert head["a"]["sd"] == pytest.approx(f_a.std(ddof=1), abs=1e-12)
    assert head["b"]["run_values"] == pytest.approx(list(f_b), abs=1e-12) and head["b"]["runs"] == 4
    lo, hi = head["a"]["interval"]
    assert lo < f_a.mean() < hi
    c = result.comparisons[0]
    assert c.runs == (3, 4) and c.test == "bootstrap"
    assert c.difference == pytest.approx(f_b.mean() - f_a.mean(), abs=1e-12)
    assert c.p_value < 0.01            # 6 % of tags dropped against 2 %
    # b is never above a: ASO of b over a is near 1 (deepsig's aso(b, a) gives 1.0 on these scores)
    assert c.aso_epsilon == pytest.approx(almost_stochastic_order(f_b, f_a, seed=0), abs=0.05)
    assert c.aso_epsilon > 0.9


def test_identical_runs_are_the_single_run_bootstrap(runs):
    a_paths, b_paths = runs
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a, b = accord.score(CONLL_GOLD, a_paths[0]), accord.score(CONLL_GOLD, b_paths[0])
    single = compare({"a": a, "b": b}, test="bootstrap", samples=800, seed=4).bootstrap(300, seed=9)
    copies = compare({"a": [a, a, a], "b": [b, b]}, samples=800, seed=4).bootstrap(300, seed=9)
    assert [c.p_value for c in single.comparisons] == [c.p_value for c in copies.comparisons]
    assert copies.headline["a"]["interval"] == pytest.approx(single.headline["a"]["interval"], abs=1e-12)
    assert copies.headline["a"]["sd"] == 0.0


def test_runs_on_the_command_line(runs, capsys, tmp_path):
    a_paths, b_paths = runs
    pattern = str(Path(a_paths[0]).parent / "a_seed*.conll")
    assert main(["compare", CONLL_GOLD, pattern, ",".join(b_paths), "--runs", "--samples", "300", "--seed", "1",
                 "--no-labels", "--output", "json"]) == 0
    out = checked(capsys.readouterr().out)
    assert set(out["headline"]) == {"a_seed", "b_seed"}
    assert out["headline"]["a_seed"]["runs"] == 3 and out["inputs"]["b_seed"]["runs"] == 4
    assert main(["compare", CONLL_GOLD, str(tmp_path / "none*.conll"), CONLL_PRED, "--runs"]) == 2
    assert "no file matches" in capsys.readouterr().err
    # without --runs a glob is one corpus of its files, as in every command (its documents named by file), so it
    # does not pair with the gold file's documents: an error, as accord score gives, never runs
    assert main(["compare", CONLL_GOLD, pattern, ",".join(b_paths), "--samples", "30", "--output", "json"]) == 2
    assert "document(s) only in the predicted side" in capsys.readouterr().err


def test_what_could_be_detected_is_at_the_level_the_family_leaves(five):
    from statistics import NormalDist

    z = NormalDist().inv_cdf
    result = compare(five, samples=2000, seed=5)
    for c in result.comparisons:
        m = c.family_size       # 10 pairs of systems for the totals and for each label
        assert m == 10
        assert c.detectable == pytest.approx((-z(0.05 / m / 2) + z(0.8)) * c.standard_error, rel=1e-12)
    # 30 samples: no p-value can fall below 1/31, above the level 0.05/10 a test of the family needs
    few = compare(five, samples=30, seed=5, labels=False)
    assert all(c.detectable is None and not c.significant for c in few.comparisons)
    # a system against itself: no spread, nothing to state
    same = compare({"a": five["A"], "b": five["A"]}, samples=200, seed=5, labels=False)
    assert same.comparisons[0].detectable is None
