"""The leaderboard of a comparison (issue 34, part 3): ranking, ties, undefined figures, the systems each one beats
on the headline question, several runs (mean ± sd), and its JSON and CSV rows. The expected figures are counted by
hand from the synthetic count tables and comparisons written here."""

from __future__ import annotations

import csv
import io
import math
import warnings

import numpy as np
import pytest

from accord.result import ALL, CountTable, Measure, PairsKind, Result
from accord.stats import Comparison, ComparisonResult, compare
from accord.stats._leaderboard import key_of, leaderboard
from tests.result.contract import checked

N_DOCS = 30


def _result(match: int, missing: int, spurious: int, n: int = N_DOCS) -> Result:
    """``n`` documents, each with these counts: F1 = 2 match / (2 match + missing + spurious)."""
    documents = tuple(f"d{k}" for k in range(n))
    values = np.tile([match, 0, 0, missing, spurious], (n, 1)).reshape(n, 1, 5)
    table = CountTable(PairsKind.fields, documents, (ALL,), values)
    return Result("score", "pairs", {"pairs": Measure(PairsKind(), table)}, nested=False)


OPTIONS = {"test": "permutation", "samples": 1000, "seed": 1, "rates": ["f1"], "alpha": 0.05, "correction": "holm",
           "families": "separate", "resample": "documents", "resampled_units": N_DOCS}


def _head(value, runs=1, sd=None, interval=None):
    return {"measure": "pairs", "rate": "f1", "value": value, "runs": runs, "run_values": [value] * runs, "sd": sd,
            "interval": interval, "resample": "documents", "resampled_units": N_DOCS}


def _cmp(a, b, diff, significant, label=None, rate="f1", measure="pairs", p=0.001):
    return Comparison(a, b, measure, label, rate, 0.5, 0.5 + diff, diff, p, p if significant else 0.5, "permutation",
                      significant, family="pairs/f1/ALL", family_size=3, standard_error=0.01, detectable=0.028)


def hand_built(headline, comparisons) -> ComparisonResult:
    """A comparison whose headline figures and tests are given (the systems' results are placeholders)."""
    systems = {name: _result(8, 2, 2) for name in headline}
    out = ComparisonResult(systems, comparisons, dict(OPTIONS), {name: {"sources": [name], "documents": N_DOCS}
                                                                  for name in headline})
    out.headline = headline
    return out


def test_ranking_and_beats_from_the_totals_of_the_headline_measure_and_rate():
    headline = {"C": _head(0.70), "A": _head(0.90), "B": _head(0.80), "D": _head(None)}
    comparisons = [
        _cmp("C", "A", +0.20, True),                  # A beats C
        _cmp("C", "B", +0.10, False),                 # not significant: nobody beats anybody
        _cmp("A", "B", -0.10, True),                  # b - a < 0: A beats B
        _cmp("A", "B", +0.05, True, label="LOC"),     # a label's comparison: not the headline question
        _cmp("A", "C", +0.05, True, rate="precision"),   # another rate
        _cmp("A", "C", +0.05, True, measure="other"),    # another measure
        _cmp("B", "D", +0.30, True),                  # D's figure is undefined, but the test is B's defeat
    ]
    board = hand_built(headline, comparisons).leaderboard()
    assert (board.measure, board.rate) == ("pairs", "f1")
    assert [s.system for s in board] == ["A", "B", "C", "D"]
    assert [s.rank for s in board] == [1, 2, 3, None]
    assert [s.key for s in board] == ["a", "b", "c", "d"]
    assert [s.beats for s in board] == [("B", "C"), (), (), ("B",)]
    assert [s.marks for s in board] == ["bc", "", "", "b"]
    assert board.standings[3].value is None


def test_ties_share_a_rank_and_keep_the_input_order():
    headline = {"A": _head(0.8), "B": _head(0.9), "C": _head(0.8), "D": _head(0.7), "E": _head(float("nan"))}
    board = hand_built(headline, []).leaderboard()
    assert [(s.system, s.rank) for s in board] == [("B", 1), ("A", 2), ("C", 2), ("D", 4), ("E", None)]
    assert board.standings[-1].value is None and all(s.beats == () for s in board)


def test_keys_after_z():
    assert [key_of(k) for k in (0, 1, 25, 26, 27, 51, 52, 701, 702)] == \
        ["a", "b", "z", "aa", "ab", "az", "ba", "zz", "aaa"]
    board = leaderboard({f"s{k}": _head(1 - k / 100) for k in range(28)}, [_cmp("s27", "s0", +0.27, True),
                                                                              _cmp("s26", "s0", +0.26, True)])
    assert board.standings[0].beats_keys == ("aa", "ab") and board.standings[0].marks == "aa,ab"


def test_several_runs_value_sd_and_beats_through_compare():
    # A: two runs, F1 0.8 (8 matches, 2 missing, 2 spurious per document) and 0.9 (9, 1, 1); B: F1 0.5 (5, 5, 5);
    # C: F1 2*6/(12+4+4) = 0.6. Every document alike: every resample keeps the difference, every test is significant.
    a1, a2, b, c = _result(8, 2, 2), _result(9, 1, 1), _result(5, 5, 5), _result(6, 4, 4)
    out = compare({"B": b, "A": [a1, a2], "C": c}, test="bootstrap", samples=200, seed=3, labels=False)
    board = out.leaderboard()
    assert [s.system for s in board] == ["A", "C", "B"]
    first = board.standings[0]
    assert first.runs == 2 and first.value == pytest.approx(0.85)
    assert first.sd == pytest.approx(math.sqrt(2 * 0.05 ** 2))     # ddof = 1 over 0.8 and 0.9
    assert first.beats == ("C", "B") and board.standings[1].beats == ("B",) and board.standings[2].beats == ()
    assert board.standings[1].value == pytest.approx(0.6) and board.standings[1].sd is None
    out.bootstrap(200, seed=3)
    board = out.leaderboard()
    # A's interval holds the variation between runs: the resampled mean of runs drawn from {0.8, 0.9}
    lo, hi = board.standings[0].interval
    assert lo == pytest.approx(0.8) and hi == pytest.approx(0.9)
    assert board.standings[1].interval == pytest.approx((0.6, 0.6))   # every document alike: no spread


def test_json_holds_the_leaderboard_and_passes_the_contract():
    out = compare({"A": _result(8, 2, 2), "B": _result(5, 5, 5)}, samples=200, seed=1, labels=False)
    data = checked(out.to_json())
    assert data["leaderboard"] == {"measure": "pairs", "rate": "f1", "standings": [
        {"rank": 1, "key": "a", "system": "A", "value": pytest.approx(0.8), "interval": None, "runs": 1, "sd": None,
         "beats": ["B"], "beats_keys": ["b"]},
        {"rank": 2, "key": "b", "system": "B", "value": pytest.approx(0.5), "interval": None, "runs": 1, "sd": None,
         "beats": [], "beats_keys": []}]}
    out.bootstrap(100, seed=1)
    data = checked(out.to_json())
    assert data["leaderboard"]["standings"][0]["interval"] == pytest.approx([0.8, 0.8])


def test_csv_has_one_row_per_system_then_one_per_comparison():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = compare({"A": _result(8, 2, 2), "B": _result(5, 5, 5), "C": _result(6, 4, 4)}, samples=200, seed=1)
    rows = list(csv.DictReader(io.StringIO(out.to_csv())))
    assert [r["row"] for r in rows] == ["system"] * 3 + ["comparison"] * len(out.comparisons)
    assert len(out.comparisons) == 3            # the totals of three pairs (the documents have no label rows)
    systems = rows[:3]
    assert [(r["rank"], r["key"], r["system"], r["beats"], r["runs"]) for r in systems] == [
        ("1", "a", "A", "b c", "1"), ("2", "b", "C", "c", "1"), ("3", "c", "B", "", "1")]
    assert [float(r["value"]) for r in systems] == pytest.approx([0.8, 0.6, 0.5])
    assert all(r["measure"] == "pairs" and r["rate"] == "f1" and r["a"] == "" for r in systems)
    first = rows[3]
    assert (first["a"], first["b"], first["system"]) == ("A", "B", "")
    assert float(first["difference"]) == pytest.approx(-0.3)


def test_a_formula_in_a_system_name_is_not_a_formula_in_the_csv():
    out = compare({"=cmd|' /C calc'!A0": _result(8, 2, 2), "B": _result(5, 5, 5)}, samples=100, seed=1)
    rows = list(csv.DictReader(io.StringIO(out.to_csv())))
    assert rows[0]["system"] == "'=cmd|' /C calc'!A0" and rows[2]["a"] == "'=cmd|' /C calc'!A0"
