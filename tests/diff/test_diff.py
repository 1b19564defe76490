"""Annotation Diff: GATE's asserted numbers, the pairing rules, feature types and the measures."""

import itertools
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accord.diff import DiffCounts, annotation_diff, diff_corpora, subsumes, values_equal
from accord.diff._pairing import candidates, pair
from accord.errors import OptionError, PairingError
from accord.formats.text.gate import read_gate_sets
from accord.model import Corpus, Document
from accord.model import make_annotation as A

DATA = Path(__file__).parent.parent / "data" / "gate"


def counts(d):
    return (d.counts.correct, d.counts.partial, d.counts.missing, d.counts.spurious)


def test_gate_test_differ_extra_response_and_extra_key():
    # gate-core TestDiffer: 100 coextensive Foo pairs plus one response [2,4) inside key [0,10),
    # all features significant; GATE asserts P strict 0.99 (tolerance 0.001) and R = 1
    keys = [A("Foo", 10 * i, 10 * i + 10, {"type": "BAR"}) for i in range(100)]
    extra = A("Foo", 2, 4, {"type": "BAR"})
    d = annotation_diff(keys, keys + [extra], features=None)["Foo"]
    assert counts(d) == (100, 0, 0, 1)
    assert d.counts.precision("strict") == pytest.approx(100 / 101) == pytest.approx(0.99, abs=1e-3)
    assert d.counts.recall("strict") == d.counts.recall("lenient") == 1.0
    d = annotation_diff(keys + [extra], keys, features=None)["Foo"]
    assert counts(d) == (100, 0, 1, 0)
    assert d.counts.recall("strict") == pytest.approx(0.99, abs=1e-3)
    assert d.counts.precision("strict") == d.counts.precision("lenient") == 1.0


def test_gate_pairing_depends_on_order_and_the_optimal_one_does_not():
    # ../shared/notes/gate-evaluation.md section 1: keys K1=[5,6), K2=[2,6); responses R1=[2,5), R2=[2,6)
    k1, k2, r1, r2 = A("X", 5, 6), A("X", 2, 6), A("X", 2, 5), A("X", 2, 6)
    assert counts(annotation_diff([k1, k2], [r1, r2], pairing="gate")["X"]) == (1, 0, 1, 1)
    assert counts(annotation_diff([k2, k1], [r1, r2], pairing="gate")["X"]) == (0, 2, 0, 0)
    for keys, resps in [([k1, k2], [r1, r2]), ([k2, k1], [r2, r1])]:
        assert counts(annotation_diff(keys, resps, pairing="optimal")["X"]) == (0, 2, 0, 0)


@pytest.mark.parametrize("doc", ["beijing-opera.xml", "beijing-opera-2.xml"])
def test_iaa_plugin_pair_counts_of_type_os(doc):
    # the per-document, per-pair c/p/m/s behind the IAA plugin's asserted F-measure numbers
    # (gateplugin-Inter_Annotator_Agreement TestIaaPlugin, derived in reference_cases.json)
    expected = {
        "beijing-opera.xml": {("ann1", "ann2"): (2, 1, 2, 0), ("ann1", "ann3"): (2, 2, 1, 0),
                              ("ann2", "ann3"): (2, 0, 1, 2)},
        "beijing-opera-2.xml": {("ann1", "ann2"): (1, 1, 2, 2), ("ann1", "ann3"): (1, 2, 1, 1),
                                ("ann2", "ann3"): (2, 0, 2, 2)},
    }[doc]
    _, sets = read_gate_sets(DATA / doc)
    for (a, b), want in expected.items():
        assert counts(annotation_diff(sets[a], sets[b], types=["Os"])["Os"]) == want


def test_outcomes_and_feature_rules():
    key = [A("P", 0, 5, {"g": "m", "n": 5}), A("P", 10, 15, {"g": "f"}), A("P", 20, 25, {"g": "m"}),
           A("P", 30, 35, {"g": "m"}), A("P", 40, 45)]
    resp = [A("P", 0, 5, {"g": "m", "n": "5"}),      # coextensive; n differs in type
            A("P", 10, 15, {"g": "m"}),              # coextensive, g differs: mismatch
            A("P", 21, 25, {"g": "m"}),              # overlapping, compatible: partial
            A("P", 31, 36, {"g": "f"}),              # overlapping, incompatible: wrong
            A("P", 50, 55)]                          # spurious (key [40,45) missing)
    by = lambda d: [r.outcome for r in d["P"].rows]  # noqa: E731
    d = annotation_diff(key, resp, features=["g"])
    assert by(d) == ["correct", "mismatch", "partial", "wrong", "missing", "spurious"]
    assert counts(d["P"]) == (1, 1, 3, 3)
    assert d["P"].counts.keys == 5 and d["P"].counts.responses == 5
    # all features: "5" is not 5 unless compared as strings
    assert by(annotation_diff(key, resp, features=None))[0] == "mismatch"
    assert by(annotation_diff(key, resp, features=None, compare_as_strings=True))[0] == "correct"
    # no significant features: only spans count
    assert counts(annotation_diff(key, resp, features=())["P"]) == (2, 2, 1, 1)


def test_feature_subsumption_and_value_types():
    assert subsumes({"a": 1, "b": 2}, {"a": 1}, None) and not subsumes({"a": 1}, {"a": 1, "b": 2}, None)
    assert subsumes({"a": 1}, {"a": 1, "b": 2}, ["a"])
    assert subsumes({}, {}, ["absent"])                   # absent on both sides: null equals null
    assert not subsumes({}, {"a": None}, None) and subsumes({"a": None}, {"a": None}, None)
    assert subsumes({}, {"a": None}, ["a"])              # listed: absent counts as null
    assert not values_equal(1, 1.0) and not values_equal(True, 1) and not values_equal("5", 5)
    assert values_equal(True, "true", as_strings=True) and values_equal(5, "5", as_strings=True)
    assert values_equal(None, None) and not values_equal(None, "")


def test_measures_by_hand():
    c = DiffCounts(correct=2, partial=1, missing=1, spurious=2)      # K = 4, R = 5
    assert (c.precision("strict"), c.recall("strict")) == (2 / 5, 2 / 4)
    assert (c.precision("lenient"), c.recall("lenient")) == (3 / 5, 3 / 4)
    assert c.precision("average") == pytest.approx(2.5 / 5) and c.recall("average") == pytest.approx(2.5 / 4)
    fs, fl = 2 * 0.4 * 0.5 / 0.9, 2 * 0.6 * 0.75 / 1.35
    assert c.f("strict") == pytest.approx(fs) and c.f("lenient") == pytest.approx(fl)
    assert c.f("average") == pytest.approx((fs + fl) / 2)         # mean of the Fs, not F of the means
    assert c.f("strict", beta=0.5) == pytest.approx(1.25 * 0.4 * 0.5 / (0.25 * 0.4 + 0.5))
    empty = DiffCounts()
    assert (empty.precision(), empty.recall(), empty.f("average")) == (1.0, 1.0, 1.0)
    nothing_right = DiffCounts(missing=2, spurious=1)
    assert nothing_right.f("lenient") == 0.0
    assert DiffCounts(0, 0, 3, 0).precision() == 1.0 and DiffCounts(0, 0, 0, 3).recall() == 1.0
    assert (c + c).to_dict()["strict"]["precision"] == 0.4
    with pytest.raises(OptionError, match="unknown measure 'loose'"):
        c.precision("loose")


def test_zero_length_annotations():
    k = [A("X", 5, 5), A("X", 10, 10), A("X", 20, 30)]
    r = [A("X", 5, 5), A("X", 10, 20), A("X", 25, 25)]
    d = annotation_diff(k, r)["X"]
    # coextensive points pair; a point at a boundary does not overlap; a point strictly inside does
    assert [(r.outcome) for r in d.rows] == ["correct", "missing", "spurious", "partial"]


def test_corpus_diff_sums_documents_and_types():
    text = "a" * 40
    key = Corpus([Document("d1", (A("P", 0, 5), A("L", 10, 15)), text), Document("d2", (A("P", 0, 5),), text)])
    resp = Corpus([Document("d1", (A("P", 0, 5), A("L", 11, 15)), text), Document("d2", (A("L", 0, 5),), text)])
    cd = diff_corpora(key, resp)
    assert cd.types == ("L", "P") and cd.documents == ("d1", "d2")
    assert cd.counts() == DiffCounts(1, 1, 1, 1)
    assert cd.counts(type="L") == DiffCounts(0, 1, 0, 1) and cd.counts(document="d2") == DiffCounts(0, 0, 1, 1)
    assert counts(cd.diffs["d2"]["P"]) == (0, 0, 1, 0)
    with pytest.raises(PairingError, match="only in the gold side"):
        diff_corpora(key, Corpus([resp["d1"]]))
    assert diff_corpora(key, Corpus([resp["d1"]]), allow_missing="empty").counts(document="d2").missing == 1
    with pytest.raises(OptionError, match="unknown pairing"):
        annotation_diff([], [], pairing="best")
    with pytest.raises(PairingError, match="has no span"):
        annotation_diff([A("R")], [])


spans = st.lists(st.tuples(st.integers(0, 12), st.integers(0, 4)).map(lambda t: (t[0], t[0] + t[1])),
                 max_size=7)


@settings(max_examples=200, deadline=None)
@given(spans, spans, st.lists(st.booleans(), min_size=49, max_size=49))
def test_candidates_and_pairings_against_brute_force(keys, resps, flags):
    ks, ke = np.array([a for a, _ in keys], dtype=np.int64), np.array([b for _, b in keys], dtype=np.int64)
    rs, re = np.array([a for a, _ in resps], dtype=np.int64), np.array([b for _, b in resps], dtype=np.int64)
    ki, ri, coext = candidates(ks, ke, rs, re)
    want = [(i, j) for i, (a0, a1) in enumerate(keys) for j, (b0, b1) in enumerate(resps)
            if (a0, a1) == (b0, b1) or (b1 > a0 and b0 < a1)]
    assert list(zip(ki.tolist(), ri.tolist())) == want       # key-major, responses in order
    compat = lambda k, r: flags[7 * k + r]                    # noqa: E731
    best = 0
    value = {}
    for (i, j), co in zip(want, coext.tolist()):
        value[i, j] = (3 if compat(i, j) else 1) if co else (2 if compat(i, j) else 0)
    # brute force: the best total value of correct and partial pairs over one-to-one pairings
    cand = [c for c in want if value[c] >= 2]
    for n in range(len(cand), 0, -1):
        for combo in itertools.combinations(cand, n):
            if len({i for i, _ in combo}) == n and len({j for _, j in combo}) == n:
                best = max(best, sum(value[c] for c in combo))
    for how in ("gate", "optimal"):
        pk, pr, pv = pair(ks, ke, rs, re, compat, how)
        assert len(set(pk.tolist())) == len(pk) and len(set(pr.tolist())) == len(pr)
        total = int(pv[pv >= 2].sum())
        assert total <= best
        if how == "optimal":
            assert total == best

