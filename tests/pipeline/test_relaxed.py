"""Relaxed matching of generated strings without alignment (accord.pipeline._relaxed, ``--relaxed``): each similarity
by hand, the optimal one-to-one pairing where a greedy one is worse, and hand-counted documents scored strict and
relaxed side by side (the similarity of each pair written out)."""

from __future__ import annotations

import numpy as np
import pytest

import accord
from accord.errors import OptionError
from accord.formats.records.generated import records_corpus
from accord.model import Corpus, Document, make_annotation
from accord.pipeline._relaxed import SIMILARITIES, best_pairs, containment, token_f1


def test_token_f1_by_hand():
    # "new york city" vs "new york": 2 common tokens; P = 2/2, R = 2/3, F1 = 2 * 1 * 2/3 / (1 + 2/3) = 0.8
    assert token_f1("new york city", "new york") == pytest.approx(0.8)
    # a repeated token counts as often as both have it: "a a b" vs "a c": 1 common; P = 1/2, R = 1/3, F1 = 0.4
    assert token_f1("a a b", "a c") == pytest.approx(0.4)
    assert token_f1("Oslo", "Bergen") == 0.0
    assert token_f1("", "") == 1.0 and token_f1("", "x") == 0.0     # SQuAD: empty against empty is 1


def test_containment_by_hand():
    assert containment("Aurora Air", "Aurora Air Lines") == 1.0      # gold's tokens among the prediction's
    assert containment("Aurora Air Lines", "Air") == 1.0            # and the other way
    assert containment("Aurora Air", "Air Aurora") == 1.0            # tokens, not order
    assert containment("New York", "York Times") == 0.0
    assert containment("a a", "a b") == 0.0                          # multiplicity: two a's are not in one
    assert containment("", "x") == 0.0                               # no token contains nothing


def test_ratio_by_hand():
    # Indel similarity: "abc" vs "abd": longest common subsequence 2, 2 insertions/deletions of 6 characters
    assert SIMILARITIES["ratio"]("abc", "abd") == pytest.approx(1 - 2 / 6)
    # "Aurora Air" (10) vs "Aurora Airlines" (15): the first is a subsequence: 5 insertions of 25 characters
    assert SIMILARITIES["ratio"]("Aurora Air", "Aurora Airlines") == pytest.approx(1 - 5 / 25)


def test_best_pairs_is_optimal_where_greedy_is_not():
    w = np.array([[0.9, 0.8], [0.7, 0.0]])
    # greedy takes (0, 0) = 0.9 and leaves row 1 alone; the optimum pairs (0, 1) and (1, 0): 0.8 + 0.7 = 1.5
    assert sorted(best_pairs(w, 0.5)) == [(0, 1), (1, 0)]
    # at threshold 0.75 the cell 0.7 is not allowed: (0, 0) alone, 0.9, beats (0, 1) alone, 0.8
    assert best_pairs(w, 0.75) == [(0, 0)]
    assert best_pairs(np.array([[0.2, 0.6, 0.6]]), 0.5) == [(0, 1)]     # one row: the first largest allowed cell
    assert best_pairs(np.zeros((2, 0)), 0.5) == []


def _gold() -> Corpus:
    text = "Maria Lund works for Aurora Air in New York City. Maria met Ola in Oslo."
    spans = (("PER", 0, 10), ("ORG", 21, 31), ("LOC", 35, 48), ("PER", 50, 55), ("PER", 60, 63), ("LOC", 67, 71))
    doc = Document("d", tuple(make_annotation(*s) for s in spans), text)
    assert [text[a:b] for _, a, b in spans] == ["Maria Lund", "Aurora Air", "New York City", "Maria", "Ola", "Oslo"]
    return Corpus([doc])


PRED = records_corpus([{"id": "d", "entities": [
    {"text": "Maria", "label": "PER"},            # strict match (gold Maria)
    {"text": "Maria", "label": "PER"},            # left: vs Maria Lund, token F1 2/3 (P 1/1, R 1/2)
    {"text": "Aurora Airlines", "label": "ORG"},  # left: vs Aurora Air, token F1 1/2 (1 common of 2 and 2)
    {"text": "New York", "label": "LOC"},         # left: vs New York City 0.8; vs Oslo 0
    {"text": "Oslo", "label": "ORG"},             # label error on the string Oslo: never relaxed to a LOC
    {"text": "Ola Nordmann", "label": "LOC"},     # left: no LOC gold is like it (vs Oslo 0, vs New York City 0)
]}])


def test_hand_counted_document_token_f1():
    result = accord.score(_gold(), PRED, align="none", relaxed="token-f1")
    measures = result.to_dict()["measures"]
    strict, relaxed = measures["pairs"]["totals"], measures["relaxed"]["totals"]
    assert (strict["gold"], strict["pred"], strict["match"]) == (6, 6, 1)
    # relaxed: Maria/Maria Lund 2/3, Aurora Airlines/Aurora Air 1/2 (at the threshold), New York/New York City 0.8
    assert (relaxed["gold"], relaxed["pred"], relaxed["match"]) == (6, 6, 4)
    assert relaxed["precision"] == pytest.approx(4 / 6) and relaxed["recall"] == pytest.approx(4 / 6)
    found = result.options["alignment"]["relaxed"]
    assert result.options["relaxed"] == {"similarity": "token-f1", "threshold": 0.5}
    assert found["matched"] == 3
    assert found["total_similarity"] == pytest.approx(2 / 3 + 1 / 2 + 0.8, abs=1e-6)
    assert {(m["gold"], m["pred"]) for m in found["listed"]} == {
        ("Maria Lund", "Maria"), ("Aurora Air", "Aurora Airlines"), ("New York City", "New York")}
    # above 1/2 the ORG pair is not enough
    strict_above = accord.score(_gold(), PRED, align="none", relaxed="token-f1", relaxed_threshold=0.6)
    assert strict_above.measures["relaxed"].totals()["match"] == 3


def test_hand_counted_document_containment_and_ratio():
    # containment: Maria in Maria Lund, New York in New York City; Aurora Airlines does not contain Aurora Air's
    # tokens (Airlines is not Air) nor the other way
    result = accord.score(_gold(), PRED, align="none", relaxed="containment")
    assert result.measures["relaxed"].totals()["match"] == 1 + 2
    # ratio >= 0.8: Maria/Maria Lund 1 - 5/15 = 0.667 no; Aurora Air/Aurora Airlines 1 - 5/25 = 0.8 yes;
    # New York/New York City 1 - 5/21 = 0.762 no
    result = accord.score(_gold(), PRED, align="none", relaxed="ratio")
    assert result.measures["relaxed"].totals()["match"] == 1 + 1
    assert result.options["relaxed"]["threshold"] == 0.8


def test_relaxed_pairing_is_one_to_one_and_optimal_in_a_document():
    gold = Corpus([Document("d", (make_annotation("X", 0, 5), make_annotation("X", 6, 9)), "a b c d e f")])
    # gold strings "a b c" and "d e"; predictions "a b c d" and "a b"
    assert [gold["d"].text[0:5], gold["d"].text[6:9]] == ["a b c", "d e"]
    pred = records_corpus([{"id": "d", "entities": [{"text": "a b c d", "label": "X"}, {"text": "a b", "label": "X"}]}])
    # token F1: (a b c, a b c d) 6/7; (a b c, a b) 4/5; (d e, a b c d) 1/3; (d e, a b) 0
    # greedy by best pair: a b c/a b c d (0.857) then d e/a b (0): 1 match; optimal: the same, 0.857 + 0 vs
    # 0.8 + 1/3 = 1.133 with both at or above the threshold 0.3: 2 matches
    result = accord.score(gold, pred, align="none", relaxed="token-f1", relaxed_threshold=0.3)
    assert result.measures["relaxed"].totals()["match"] == 2
    assert result.options["alignment"]["relaxed"]["total_similarity"] == pytest.approx(0.8 + 1 / 3, abs=1e-6)
    # at 0.5 the pair of 1/3 is not allowed: the best is 6/7 alone
    result = accord.score(gold, pred, align="none", relaxed="token-f1")
    assert result.measures["relaxed"].totals()["match"] == 1
    assert result.options["alignment"]["relaxed"]["total_similarity"] == pytest.approx(6 / 7, abs=1e-6)


def test_normalisers_apply_before_the_similarity():
    pred = records_corpus([{"id": "d", "entities": [{"text": "the NEW YORK", "label": "LOC"}]}])
    gold = Corpus([Document("d", (make_annotation("LOC", 0, 13),), "New York City")])
    # lower + articles: "new york" vs "new york city": token F1 0.8
    result = accord.score(gold, pred, align="none", normalize="lower,articles,whitespace", relaxed="token-f1",
                          relaxed_threshold=0.8)
    assert result.measures["relaxed"].totals()["match"] == 1
    assert accord.score(gold, pred, align="none", relaxed="token-f1").measures["relaxed"].totals()["match"] == 0


def test_outputs_show_both_measures():
    result = accord.score(_gold(), PRED, align="none", relaxed="token-f1")
    csv = result.to_csv().splitlines()
    assert any(line.startswith("relaxed,<all>,all,<all>,") for line in csv)
    assert any(line.startswith("pairs,<all>,all,<all>,") for line in csv)
    assert [t.measure for t in result.tables] == ["relaxed"]
    assert "token-f1 >= 0.5" in (result.tables[0].caption or "")


def test_relaxed_options_are_checked():
    with pytest.raises(OptionError, match="must be one of token-f1, ratio, containment"):
        accord.score(_gold(), PRED, align="none", relaxed="jaccard")
    with pytest.raises(OptionError, match="above 0 and at most 1"):
        accord.score(_gold(), PRED, align="none", relaxed="token-f1", relaxed_threshold=0)
    with pytest.raises(OptionError, match="above 0 and at most 1"):
        accord.score(_gold(), PRED, align="none", relaxed="token-f1", relaxed_threshold=1.5)
    with pytest.raises(OptionError, match="applies with relaxed"):
        accord.score(_gold(), PRED, align="none", relaxed_threshold=0.5)
    with pytest.raises(OptionError, match="apply with align='none'"):
        accord.score(_gold(), PRED, relaxed="token-f1")


def test_relaxed_with_other_modes():
    # semeval: its main measure (strict) again over the relaxed matches
    result = accord.score(_gold(), PRED, align="none", relaxed="token-f1", match="semeval")
    assert result.measures["relaxed"].totals()["correct"] == 4
    assert result.measures["strict"].totals()["correct"] == 1
