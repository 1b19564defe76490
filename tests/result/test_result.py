"""The Result object: views, tidy frame, short repr, count tables."""

from __future__ import annotations

import numpy as np
import pytest

import accord
from accord.errors import MergeError, TallyError
from accord.model import Corpus, Document
from accord.model import make_annotation as A
from accord.result import ALL, CountTable, PairsKind, label_table


def corpora():
    g = Corpus([Document("a", (A("PER", 0, 2), A("LOC", 3, 4)), "x" * 10),
                Document("b", (A("PER", 0, 2),), "x" * 10)])
    p = Corpus([Document("a", (A("PER", 0, 2), A("ORG", 3, 4)), "x" * 10),
                Document("b", (), "x" * 10)])
    return g, p


def test_views_blocks_and_hand_counts():
    r = accord.score(*corpora())
    # a: PER matched, LOC missing, ORG spurious; b: PER missing -> 1 match of 3 gold and 2 predicted
    assert (r.totals.match, r.totals.gold, r.totals.pred) == (1, 3, 2) and r.totals["f1"] == pytest.approx(0.4)
    assert r.by_label["PER"].recall == 0.5 and r.by_label["ORG"].spurious == 1
    assert r.by_document["b"].missing == 1 and r.by_document_label["b"] == {"PER": r.by_document_label["b"]["PER"]}
    assert set(r.by_document_label["a"]) == {"PER", "LOC", "ORG"}
    assert r.main.table.values.shape == (2, 4, 5)     # documents x (total + 3 labels) x counts
    assert r.macro()["precision"] == pytest.approx((1.0 + 0.0 + 0.0) / 3)


def test_tidy_frame_and_short_repr():
    pytest.importorskip("pandas")
    for result in (accord.score(*corpora()), accord.score(*corpora(), match="clueval"),
                   accord.score(*corpora(), match="semeval")):
        frame = result.to_frame()
        tables = [m.table for m in result.measures.values()]
        assert len(frame) == sum((len(t.documents) + 1) * len(t.rows) for t in tables)
        assert {"measure", "document", "group", "row", "precision", "recall", "f1"} <= set(frame.columns)
        text = repr(result)
        assert len(text) < 200 and result.mode in text and "array" not in text
    assert "array" not in repr(accord.score(*corpora(), match="clueval").source)


def test_count_tables_add_and_refuse_overlaps():
    t1 = label_table(PairsKind.fields, ["a"], ["X"], [(np.array([0]), np.array([0]), None)] + [
        (np.zeros(0, int), np.zeros(0, int), None)] * 4)
    t2 = label_table(PairsKind.fields, ["b"], ["Y"], [(np.array([0, 0]), np.array([0, 0]), None)] + [
        (np.zeros(0, int), np.zeros(0, int), None)] * 4)
    both = t1 + t2
    assert both.rows == (ALL, ("label", "X"), ("label", "Y"))
    assert both.values[:, 0, 0].tolist() == [1, 2] and both.values[0, 2].sum() == 0
    with pytest.raises(MergeError, match="both hold document 'a'"):
        t1 + t1
    with pytest.raises(TallyError, match="shape"):
        CountTable(("match",), ("a",), (ALL,), np.zeros((2, 1, 1)))


def test_agreement_result_frame_and_repr(tmp_path):
    pytest.importorskip("pandas")
    (tmp_path / "r.csv").write_text("r1,r2\na,a\nb,b\na,b\n", encoding="utf-8")
    result = accord.agree(tmp_path / "r.csv")
    frame = result.to_frame()
    kappa = frame[(frame.coefficient == "cohen_kappa") & (frame.scope == "<all>")]["value"].item()
    # observed 2/3; expected (2/3)(1/3) + (1/3)(2/3) = 4/9 -> (2/3 - 4/9) / (1 - 4/9) = 0.4
    assert kappa == pytest.approx(0.4)
    assert "ratings" in repr(result) and len(repr(result)) < 200


@pytest.mark.parametrize("match", ["pairs", "clueval", "semeval"])
def test_every_score_mode_reports_the_repairs(match, recwarn):
    from .commands import CONLL_GOLD, CONLL_PRED

    result = accord.score(CONLL_GOLD, CONLL_PRED, match=match)
    # seqscore lists 23 invalid transitions in this file (tests/data/conll03/xlm_flert.seqscore.txt)
    assert [r["count"] for r in result.to_dict()["repairs"]] == [23]
    assert any("23 invalid IOB2" in str(w.message) for w in recwarn)
