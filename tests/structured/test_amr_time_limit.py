"""``accord smatch --time-limit``: the integer program stopped early reports the best mapping found and a bound,
and the optimum (solved without the limit) lies between them."""

from __future__ import annotations

import random

import pytest

import accord
from accord.errors import AccordWarning, OptionError
from accord.structured import smatch, smatch_corpus

from ..result.contract import checked
from .test_amr import _random_amr


def _hard_pair(seed: int = 11, n: int = 26) -> tuple[str, str]:
    """Two random graphs over eight concepts: many equal concepts, so no greedy mapping is proved optimal."""
    rng = random.Random(seed)
    return _random_amr(rng, n), _random_amr(rng, n)


def test_stopped_pair_brackets_the_optimum():
    test, gold = _hard_pair()
    full = smatch(test, gold)
    assert full.bound is None and full.gap == 0
    stopped = smatch(test, gold, time_limit=1e-4)
    assert stopped.bound is not None
    assert stopped.match <= full.match <= stopped.bound
    assert stopped.gap == stopped.bound - stopped.match
    assert (stopped.test_triples, stopped.gold_triples) == (full.test_triples, full.gold_triples)


def test_corpus_bound_sums_the_pairs():
    pairs = [_hard_pair(seed) for seed in (11, 12)]
    full = smatch_corpus([t for t, _ in pairs], [g for _, g in pairs])
    stopped = smatch_corpus([t for t, _ in pairs], [g for _, g in pairs], time_limit=1e-4)
    assert stopped.bound == sum(p.match if p.bound is None else p.bound for p in stopped.by_pair)
    assert stopped.match <= full.match <= stopped.bound


def test_result_field_and_warning():
    test, gold = _hard_pair()
    optimum = smatch(test, gold).match
    with pytest.warns(AccordWarning, match=r"stopped at the time limit \(0.0001 s\) on 1 pair\(s\) \(1\)"):
        r = accord.smatch([gold], [test], time_limit=1e-4)
    gap = checked(r.to_json())["optimality_gap"]
    assert gap["pairs_stopped"] == ["1"]
    assert gap["match"] == r.totals["match"] <= optimum <= gap["match_bound"]
    assert gap["f1_bound"] == pytest.approx(2 * gap["match_bound"] / (r.totals["gold"] + r.totals["pred"]))
    assert r.options["time_limit"] == 1e-4


def test_no_gap_without_a_limit_or_when_solved():
    test, gold = _hard_pair()
    assert "optimality_gap" not in accord.smatch([gold], [test]).to_dict()
    r = accord.smatch(["(a / x)"], ["(a / x)"], time_limit=60)
    assert r.to_dict()["optimality_gap"]["pairs_stopped"] == []


@pytest.mark.parametrize("bad", [0, -1.0, float("nan"), True, "5"])
def test_a_time_limit_must_be_positive_seconds(bad):
    with pytest.raises(OptionError, match="positive number of seconds"):
        smatch_corpus(["(a / x)"], ["(a / x)"], time_limit=bad)


@pytest.mark.parametrize("bad", ["0", "-3", "inf", "soon"])
def test_cli_refuses_a_bad_time_limit(bad, tmp_path, capsys):
    from accord.cli import main

    f = tmp_path / "g.amr"
    f.write_text("(a / x)\n", encoding="utf-8")
    with pytest.raises(SystemExit) as exc:
        main(["smatch", str(f), str(f), "--time-limit", bad])
    assert exc.value.code == 2
    assert "--time-limit" in capsys.readouterr().err


def test_merged_results_keep_their_bounds():
    import penman

    results = []
    for name, seed in (("a", 11), ("b", 12)):
        test, gold = _hard_pair(seed)
        g, t = penman.parse(f"# ::id {name}\n{gold}"), penman.parse(f"# ::id {name}\n{test}")
        with pytest.warns(AccordWarning):
            results.append(accord.smatch([g], [t], time_limit=1e-4))
    merged = results[0] + results[1]
    gaps = [r.optimality_gap() for r in results]
    gap = merged.optimality_gap()
    assert gap is not None and all(x is not None for x in gaps)
    assert gap["pairs_stopped"] == ["a", "b"]
    assert gap["match"] == sum(x["match"] for x in gaps)
    assert gap["match_bound"] == sum(x["match_bound"] for x in gaps)
