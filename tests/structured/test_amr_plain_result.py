"""``accord smatch``'s plain-Python result (structured/_amr_plain_result.py): its JSON, CSV and table are those of the
numpy result (:class:`accord.result.Result`, the one model every other command uses) byte for byte, on real AMR
files and on counts written by hand; the rates are the hand-computed ones."""

from __future__ import annotations

import io
import pickle
from pathlib import Path

import pytest

from accord.structured._amr_plain_result import PlainSmatchResult, smatch_block
from accord.structured._commands import smatch as smatch_numpy
from accord.structured._commands import smatch_plain
from accord.structured.amr import SmatchScore

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpora"
AMR = SHARED / "amr"
OUTSIDE = SHARED / "outside" / "smatch"


def _table(result) -> str:
    from accord.cli._output import caption
    from accord.report.result_table import render_result
    from accord.report.table import TableConsole

    buf = io.StringIO()
    render_result(result, TableConsole(file=buf, width=120, caption=caption(result)))
    return buf.getvalue()


def _same_outputs(plain, full) -> None:
    assert plain.to_json() == full.to_json()
    assert plain.to_json(indent=None) == full.to_json(indent=None)
    assert plain.to_csv() == full.to_csv()
    assert _table(plain) == _table(full)
    assert plain.documents == full.documents


def test_the_rates_are_the_hand_counted_ones():
    # 1 of 2 test triples and of 3 gold triples: P 1/2, R 1/3, F1 2*1/(2+3)
    assert smatch_block(1, 3, 2) == {"match": 1, "gold": 3, "pred": 2, "precision": 0.5, "recall": 1 / 3,
                                     "f1": 0.4}
    # smatch's convention: every rate 0 when either side has no triple
    assert smatch_block(0, 0, 4) == {"match": 0, "gold": 0, "pred": 4, "precision": 0.0, "recall": 0.0, "f1": 0.0}
    assert smatch_block(0, 5, 0)["f1"] == 0.0


@pytest.mark.parametrize("pairs", [
    [(1, 2, 3)],
    [(0, 0, 3), (2, 2, 2), (0, 4, 0)],            # empty sides among full ones
    [(7, 9, 11), (1, 1, 1), (3, 10, 4), (0, 6, 6)],
    [(k % 5, k % 7 + 5, k % 3 + 5) for k in range(40)],
])
@pytest.mark.parametrize("documents", [None, "ids"])
def test_hand_made_counts_give_the_numpy_results_outputs(pairs, documents):
    by_pair = tuple(SmatchScore(m, t, g) for m, t, g in pairs)
    total = SmatchScore(sum(m for m, _, _ in pairs), sum(t for _, t, _ in pairs), sum(g for _, _, g in pairs),
                        by_pair=by_pair)
    docs = [f"doc{k}" for k in range(len(pairs))] if documents else None
    inputs = {"gold": {"sources": ["g.txt"], "documents": len(pairs)},
              "pred": {"sources": ["p.txt"], "documents": len(pairs)}}
    plain = PlainSmatchResult(total, documents=docs, inputs=inputs)
    _same_outputs(plain, plain.to_result())
    # the totals by hand: match / pred, match / gold
    m, t, g = total.match, total.test_triples, total.gold_triples
    assert plain.main.totals()["precision"] == (m / t if t and g else 0.0)
    assert plain.main.totals()["recall"] == (m / g if t and g else 0.0)


def test_the_optimality_gap_is_the_numpy_results():
    by_pair = (SmatchScore(3, 4, 4), SmatchScore(2, 5, 6, bound=4), SmatchScore(1, 2, 2))
    total = SmatchScore(6, 11, 12, by_pair=by_pair, bound=8)
    plain = PlainSmatchResult(total, options={"time_limit": 1.0})
    full = plain.to_result()
    # by hand: match 6, bound 6 + (4 - 2) = 8, F1 2*6/23 and 2*8/23, the second pair stopped
    assert plain.optimality_gap() == full.optimality_gap() == {
        "pairs_stopped": ["2"], "match": 6, "match_bound": 8, "f1": 12 / 23, "f1_bound": 16 / 23}
    _same_outputs(plain, full)


def _real_pairs():
    pairs = [(AMR / "qald_test.txt", AMR / "qald_test.txt"), (OUTSIDE / "lp_test.txt", OUTSIDE / "jamr.txt"),
             (OUTSIDE / "lp_test.txt", OUTSIDE / "wang.txt"),
             (OUTSIDE / "test_input1.txt", OUTSIDE / "test_input2.txt")]
    return [pytest.param(g, p, id=f"{g.stem}-{p.stem}") for g, p in pairs]


@pytest.mark.parametrize(("gold", "pred"), _real_pairs())
def test_real_amr_files_give_the_numpy_results_outputs(gold, pred):
    if not gold.exists() or not pred.exists():
        pytest.skip(f"{gold} or {pred} is not here (../shared/corpora)")
    plain = smatch_plain(str(gold), str(pred))
    full = smatch_numpy(str(gold), str(pred))
    _same_outputs(plain, full)
    assert plain.source == full.source


def test_a_smatch_score_is_immutable_compared_by_its_counts_and_pickled_whole():
    a = SmatchScore(1, 2, 3, {"a": "b"}, bound=4)
    assert a == SmatchScore(1, 2, 3) and hash(a) == hash(SmatchScore(1, 2, 3)) and a != SmatchScore(1, 2, 4)
    assert repr(a) == "SmatchScore(match=1, test_triples=2, gold_triples=3, mapping={'a': 'b'}, bound=4)"
    with pytest.raises(AttributeError):
        a.match = 2
    back = pickle.loads(pickle.dumps(a))
    assert (back, back.mapping, back.bound, back.gap) == (a, {"a": "b"}, 4, 3)
    assert SmatchScore(1, 2, 3).mapping == {} and SmatchScore(1, 2, 3).mapping is not SmatchScore(1, 2, 3).mapping
