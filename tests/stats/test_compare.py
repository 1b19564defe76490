"""Paired significance tests between systems: checked against scipy.stats.permutation_test, Holm's method as
statsmodels computes it, and the cases whose answer is known."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

import accord
from accord.cli import main
from accord.errors import OptionError
from accord.result import ALL, CountTable, Measure, PairsKind, Result
from accord.stats import compare, holm
from tests.result.contract import checked

from ..result.commands import CONLL_GOLD, CONLL_PRED, worse_copy


def _result(values: np.ndarray) -> Result:
    documents = tuple(f"d{k}" for k in range(len(values)))
    table = CountTable(PairsKind.fields, documents, (ALL,), values.reshape(len(values), 1, 5))
    return Result("score", "pairs", {"pairs": Measure(PairsKind(), table)}, nested=False)


def _system(rng: np.random.Generator, gold: np.ndarray, rate: float) -> np.ndarray:
    found = rng.binomial(gold, rate)
    spurious = rng.binomial(gold, 1 - rate)
    return np.stack([found, np.zeros_like(gold), np.zeros_like(gold), gold - found, spurious], axis=1)


def test_permutation_p_value_agrees_with_scipy():
    rng = np.random.default_rng(5)
    gold = rng.integers(3, 12, 12)
    a, b = _system(rng, gold, 0.75), _system(rng, gold, 0.6)
    ours = compare({"a": _result(a), "b": _result(b)}, samples=20_000, seed=1, rates=("f1",))
    p_ours = ours.comparisons[0].p_value
    stacked = np.concatenate([a, b])
    kind = PairsKind()

    def f1_difference(x, y, axis=-1):
        return kind.rates(stacked[np.asarray(y)].sum(axis=-2))["f1"] - kind.rates(stacked[np.asarray(x)].sum(axis=-2))["f1"]
    n = len(gold)
    # 12 documents: scipy enumerates all 4096 swaps exactly
    exact = stats.permutation_test((np.arange(n), np.arange(n) + n), f1_difference, permutation_type="samples",
                                   vectorized=True, n_resamples=np.inf, alternative="two-sided")
    assert p_ours == pytest.approx(exact.pvalue, abs=0.015)
    assert ours.comparisons[0].difference == pytest.approx(exact.statistic, abs=1e-15)


def test_a_system_against_itself_differs_by_nothing(capsys, recwarn):
    for test in ("permutation", "bootstrap"):
        assert main(["compare", CONLL_GOLD, CONLL_PRED, CONLL_PRED, "--test", test, "--samples", "300", "--seed", "2",
                     "--output", "json"]) == 2   # the same file twice is the same system
        assert "given twice" in capsys.readouterr().err
    r = accord.score(CONLL_GOLD, CONLL_PRED)
    for test in ("permutation", "bootstrap"):
        out = compare({"a": r, "b": r}, test=test, samples=300, seed=2)
        assert all(c.difference == 0 and c.p_value == 1 and not c.significant for c in out.comparisons)


def test_holm_equals_statsmodels():
    from statsmodels.stats.multitest import multipletests

    ps = [0.01, 0.04, 0.03, 0.005, 0.5, 0.2]
    assert holm(ps) == pytest.approx(list(multipletests(ps, method="holm")[1]))
    assert holm([0.2, None, 0.01]) == pytest.approx([0.2, None, 0.02])


@pytest.mark.parametrize("test", ["permutation", "bootstrap"])
def test_a_perturbed_system_is_significantly_worse(tmp_path, capsys, recwarn, test):
    worse = worse_copy(tmp_path)
    args = ["compare", CONLL_GOLD, CONLL_PRED, worse, "--test", test, "--samples", "1000", "--seed", "4"]
    assert main([*args, "--output", "json"]) == 0
    text = capsys.readouterr().out
    out = checked(text)
    total = next(c for c in out["comparisons"] if c["label"] is None)
    assert total["difference"] < 0 and total["p_value"] < 0.01 and total["significant"]
    assert set(out["systems"]) == {"xlm_flert", "worse"}
    # same seed, same bytes (so the second output is valid too: checked once); the table marks the significant rows
    assert main([*args, "--output", "json"]) == 0
    assert capsys.readouterr().out == text
    assert main(args) == 0
    assert "**" in capsys.readouterr().out


def test_systems_must_cover_the_same_documents():
    gold = accord.read(CONLL_GOLD)
    r1 = accord.score(gold, gold)
    r2 = accord.score(accord.Corpus(gold.documents[:5]), accord.Corpus(gold.documents[:5]))
    with pytest.raises(OptionError, match="same documents"):
        compare({"a": r1, "b": r2})
    with pytest.raises(OptionError, match="not scored like"):
        compare({"a": r1, "b": accord.score(gold, gold, profile="lenient")})


def test_a_label_only_one_system_predicts_is_compared_too():
    # found by the fuzzer: system b predicts a label that a never does; a's row for it counts nothing
    ca = CountTable(PairsKind.fields, ("d0", "d1"), (ALL,), np.zeros((2, 1, 5), dtype=np.int64))
    cb = CountTable(PairsKind.fields, ("d0", "d1"), (ALL, ("label", "PER")),
                    np.array([[[0, 0, 0, 0, 1], [0, 0, 0, 0, 1]], [[0, 0, 0, 0, 0], [0, 0, 0, 0, 0]]]))
    a = Result("score", "pairs", {"pairs": Measure(PairsKind(), ca)}, nested=False)
    b = Result("score", "pairs", {"pairs": Measure(PairsKind(), cb)}, nested=False)
    out = compare({"a": a, "b": b}, samples=20, seed=1)
    assert [(c.label, c.a_value, c.b_value) for c in out.comparisons] == [(None, 0.0, 0.0), ("PER", 0.0, 0.0)]


def test_the_gold_file_is_read_once_for_every_system(tmp_path, capsys, monkeypatch):
    """compare reads GOLD once: its repair warning is shown once, and every system's result still reports it."""
    import accord.pipeline._read as scoring  # the reading stage

    worse = worse_copy(tmp_path)           # 214 invalid IOB2 transitions: as gold, it warns
    reads = []
    real_read = scoring.read
    monkeypatch.setattr(scoring, "read", lambda path, **kw: reads.append(str(path)) or real_read(path, **kw))
    assert main(["compare", worse, CONLL_PRED, CONLL_GOLD, "--samples", "50", "--seed", "1", "--output", "json"]) == 0
    captured = capsys.readouterr()
    out = checked(captured.out)
    assert reads.count(worse) == 1 and len(reads) == 3
    assert captured.err.count(f"{worse}: 214 invalid IOB2 transition(s)") == 1
    for system in out["systems"].values():
        assert any(r["file"] == worse and r["count"] == 214 for r in system["repairs"]), system["repairs"]
