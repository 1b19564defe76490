"""The framework: similarities, matching constraints, normalizers, order-preserving matching (hand counts)."""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accord import structured as S
from accord.errors import AccordError, OptionError


def test_paper_sequence_example():
    # section 5: (1,2,3,4,5) and (1,3,5,7,9) match 1, 3, 5 in order
    m = S.sequence_match()
    assert m((1, 2, 3, 4, 5), (1, 3, 5, 7, 9)) == 3
    assert m.compute((1, 2, 3, 4, 5), (1, 3, 5, 7, 9))[1] == [(0, 0, 1.0), (2, 1, 1.0), (4, 2, 1.0)]
    # order matters: a set matching finds 2 here, a sequence matching 1
    assert S.match()((1, 2), (2, 1)) == 2 and m((1, 2), (2, 1)) == 1


@dataclass(frozen=True)
class Mention:
    left: int
    right: int


Rel = namedtuple("Rel", "type subj obj")


def test_records_of_every_kind_and_relation_f1_by_hand():
    mention = S.product(left=S.exact, right=S.exact)
    relation = S.product(type=S.exact, subj=mention, obj=mention)
    rel_f1 = S.f1(S.match(relation, constraint="1:1"))
    gold = [Rel("capital", Mention(0, 1), Mention(3, 4)), Rel("born", {"left": 5, "right": 5}, Mention(7, 8))]
    pred = [Rel("capital", Mention(0, 1), Mention(3, 4)), Rel("born", {"left": 5, "right": 6}, Mention(7, 8)),
            Rel("x", Mention(9, 9), Mention(9, 9))]
    s = rel_f1(pred, gold)
    # 1 of 3 predicted, 1 of 2 gold
    assert (s.match, s.pred_total, s.gold_total) == (1, 3, 2)
    assert s.precision == pytest.approx(1 / 3) and s.recall == 0.5 and float(s) == pytest.approx(0.4)
    assert s.pairs == [(0, 0, 1.0)]
    # boundaries only: the type does not count, the second relation still has a wrong subject
    assert S.relation_f1(strict=False)(pred, gold).match == 1


def test_constraints_by_hand():
    # pred items 'a', 'a', 'b' against gold 'a', 'b', 'b' under equality
    pred, gold = ["a", "a", "b"], ["a", "b", "b"]
    assert S.match(S.exact, "1:1")(pred, gold) == 2           # a-a, b-b
    assert S.match(S.exact, "N:1")(pred, gold) == 3           # each pred takes one gold: a,a -> a; b -> b
    assert S.match(S.exact, "1:N")(pred, gold) == 3           # each gold takes one pred
    assert S.match(S.exact, "N:N")(pred, gold) == 4           # 2 (a's) + 2 (b's)


def test_normalizers_by_hand():
    # m = 2, p = 3, r = 4
    s = S.f1(S.match())(["a", "b", "c"], ["a", "b", "d", "e"])
    assert (s.precision, s.recall) == (2 / 3, 0.5)
    assert s.f1 == pytest.approx(2 * 2 / 7)
    assert S.jaccard(S.match())(["a", "b", "c"], ["a", "b", "d", "e"]) == pytest.approx(2 / 5)
    assert S.precision(S.match())(["a", "b", "c"], ["a"]) == pytest.approx(1 / 3)
    assert S.recall(S.match())(["a", "b", "c"], ["a"]) == 1.0
    fb = S.fbeta(S.match(), 2.0)(["a", "b", "c"], ["a", "b", "d", "e"])
    assert float(fb) == pytest.approx(5 * (2 / 3) * 0.5 / (4 * (2 / 3) + 0.5))


def test_weighted_and_func():
    w = S.weighted({"type": (1, S.exact), "span": (3, S.func(lambda a, b: 1.0 if a == b else 0.5))})
    assert w({"type": "A", "span": 1}, {"type": "B", "span": 2}) == pytest.approx(1.5 / 4)
    assert S.weighted({"x": (2, S.exact)}, normalize=False)({"x": 1}, {"x": 1}) == 2


def test_nested_matching_is_ceaf():
    """CEAFe derived as F1 over entities of an F1 over mentions equals the corpus-level implementation."""
    key = [[(0, 1), (3, 4), (6, 6)], [(8, 9), (11, 11)]]
    resp = [[(0, 1), (3, 4)], [(6, 6), (8, 9), (11, 11)], [(13, 13), (14, 14)]]
    nested = S.f1(S.match(S.f1(S.match(S.exact)), "1:1"))
    fast = S.coref_scores({"d": key}, {"d": resp})
    s = nested([frozenset(c) for c in resp], [frozenset(c) for c in key])
    assert s.recall == pytest.approx(fast["ceafe"].recall) and s.precision == pytest.approx(fast["ceafe"].precision)
    for derived, name in ((S.ceaf_m, "ceafm"), (S.ceaf_e, "ceafe"), (S.muc_recall, "muc")):
        d = derived(S.entity_sets(resp), S.entity_sets(key))
        assert (d.recall, d.precision) == pytest.approx((fast[name].recall, fast[name].precision))


def _no_repeats(clusters):
    spans = [tuple(m) for c in clusters for m in c]
    return len(spans) == len(set(spans))


def test_bcubed_derived_over_memberships_equals_the_reference_suite():
    """Equations 23-24 (memberships, nested recall/precision) against the CoNLL-2012 scorer's expected values."""
    import json
    from pathlib import Path

    cases = json.loads((Path(__file__).parents[1] / "data" / "coref" / "reference_cases.json").read_text())["cases"]
    checked = 0
    for case in cases:
        key = [[tuple(m) for m in c] for c in case["key_clusters"]]
        resp = [[tuple(m) for m in c] for c in case["response_clusters"]]
        if "bcub" not in case["expected"] or not (_no_repeats(key) and _no_repeats(resp)):
            continue  # the suite's duplicate-mention rule is coref_scores' business
        gold, pred = S.memberships(key), S.memberships(resp)
        exp = case["expected"]["bcub"]
        assert float(S.bcub_recall(pred, gold)) == pytest.approx(exp["recall"], abs=1e-4), case["name"]
        assert float(S.bcub_precision(pred, gold)) == pytest.approx(exp["precision"], abs=1e-4), case["name"]
        checked += 1
    assert checked >= 10  # the filter must leave most of the suite


def test_micro_sums_counts():
    m = S.f1(S.match())
    total = S.micro([m(["a"], ["a", "b"]), m(["c", "d", "e"], ["c"])])
    assert (total.match, total.pred_total, total.gold_total) == (2, 4, 3)
    assert float(total) == pytest.approx(4 / 7)


def test_empty_sides():
    m = S.f1(S.match())
    assert float(m([], [])) == 1.0          # identical: nothing to find, nothing found
    assert float(m([], ["a"])) == 0.0 and m(["a"], []).precision == 0.0


def test_bad_inputs():
    with pytest.raises(OptionError, match="unknown matching constraint"):
        S.match(S.exact, "2:2")
    with pytest.raises(OptionError, match="non-negative"):
        S.weighted({"a": (-1, S.exact)})
    with pytest.raises(OptionError, match="collection"):
        S.match()("abc", ["a"])
    with pytest.raises(OptionError, match="no field 'type'"):
        S.product(type=S.exact)({"x": 1}, {"x": 1})
    with pytest.raises(OptionError, match="normalizes a matching"):
        S.f1(S.exact)
    with pytest.raises(AccordError):
        S.match(S.func(lambda a, b: -1.0, normalized=False))([1], [1])


items = st.lists(st.tuples(st.sampled_from("abc"), st.integers(0, 3)), max_size=7)


@settings(max_examples=200, deadline=None)
@given(items, items)
def test_properties(pred, gold):
    sim = S.product(S.exact, S.func(lambda a, b: 1.0 / (1 + abs(a - b))))
    one = S.f1(S.match(sim, "1:1"))
    ab, ba = one(pred, gold), one(gold, pred)
    assert 0.0 <= float(ab) <= 1.0 + 1e-12
    assert ab.precision == pytest.approx(ba.recall) and ab.recall == pytest.approx(ba.precision)
    assert float(one(pred, pred)) == pytest.approx(1.0)
    # 1:1 never scores above N:N
    assert S.match(sim, "1:1")(pred, gold) <= S.match(sim, "N:N")(pred, gold) + 1e-9
    # the exact fast path agrees with the matrix path
    slow = S.match(S.func(lambda a, b: 1.0 if a == b else 0.0), "1:1")
    assert S.match(S.exact, "1:1")(pred, gold) == slow(pred, gold)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 7), st.integers(1, 5), st.data())
def test_one_sided_unit_path_equals_the_integer_program(n, k, data):
    """The N:1 spreading of unit credits (Kuhn-Munkres over the columns' free places) reaches the optimum the
    integer program finds, Σ_j min(load_j, cap_j), every row staying on a column of its best score; and neither is
    below the first choice of every row."""
    import numpy as np

    from accord.structured._matching import _choices, _spread

    m = np.array(data.draw(st.lists(st.lists(st.sampled_from([0.0, 1.0]), min_size=k, max_size=k), min_size=n,
                                    max_size=n)))
    caps = np.array(data.draw(st.lists(st.integers(1, 3), min_size=k, max_size=k)), dtype=float)
    allowed, rows, cols, free = _choices(m, np.ones(n))

    def credit(c):
        assert all(allowed[i, j] for i, j in zip(rows, c))
        return float(np.minimum(np.bincount(c, weights=m[rows, c], minlength=k), caps).sum())

    fast = credit(_spread(m, allowed, rows, cols, free, caps))
    exact = credit(_spread(m, allowed, rows, cols, free, caps, program=True))
    assert fast == exact >= credit(cols)
