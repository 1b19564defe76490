"""Each measure kind's vectorised rates equal, bit for bit, those of the scalar count classes the reference
conformance tests check (Counts, ClueCounts, SchemaCounts, CorefScore, SmatchScore, MatchScore, DiffCounts)."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from accord.clueval import ClueCounts
from accord.diff import DiffCounts
from accord.pairs._tally import Counts
from accord.result import (
    BetterKind,
    ClueKind,
    CorefKind,
    GateKind,
    PairsKind,
    RecordsKind,
    SemEvalKind,
    SmatchKind,
    UnitsKind,
)
from accord.semeval import SchemaCounts
from accord.structured._matching import MatchScore
from accord.structured.amr import SmatchScore
from accord.structured.coref import CorefScore
from accord.structured.templates import BetterScore
from accord.units import accuracies

small = st.integers(0, 6)
credit = st.one_of(st.integers(0, 6).map(float), st.floats(0, 6, allow_nan=False).map(lambda x: round(x, 3)))


def _prf(block):
    return [block["precision"], block["recall"], block["f1"]]


def _nan_none(values):
    return [None if v != v else v for v in values]


@settings(max_examples=300, deadline=None)
@given(st.lists(small, min_size=5, max_size=5), st.sampled_from([0.0, 0.5, 1.0, 2.0]),
       st.sampled_from(["zero", "one", "nan"]), small)
def test_pairs_and_units(v, beta, zd, test):
    c = Counts(*v)
    assert _prf(PairsKind(beta, zd).blocks([v])[0]) == _nan_none(c.rates(beta, zd))
    test = test + c.gold
    block = UnitsKind(beta, zd).blocks([v + [test]])[0]
    assert {k: block[k] for k in accuracies(c, test)} == accuracies(c, test)


@settings(max_examples=300, deadline=None)
@given(small, small, small, small, st.sampled_from([0.5, 1.0]), st.sampled_from(["zero", "one", "nan"]))
def test_clueval(g, p, gh, ph, beta, zd):
    gh, ph = min(gh, g), min(ph, p)
    c = ClueCounts(g, p, gh, ph)
    block = ClueKind(beta, zd).blocks([[g, p, gh, ph]])[0]
    assert _prf(block) == _nan_none(c.rates(beta, zd))
    assert (block["false_negatives"], block["false_positives"]) == (c.missed, c.unsupported)


@settings(max_examples=300, deadline=None)
@given(st.lists(small, min_size=8, max_size=8), st.booleans(), st.sampled_from(["zero", "one", "nan"]))
def test_semeval(v, half, zd):
    c = SchemaCounts(*v, half_credit=half)
    block = SemEvalKind(half, 1.0, zd).blocks([v])[0]
    assert _prf(block) == _nan_none(c.rates(1.0, zd))
    assert (block["gold"], block["pred"]) == (c.possible, c.actual)


@settings(max_examples=300, deadline=None)
@given(st.lists(credit, min_size=8, max_size=8), st.booleans())
def test_coref(v, blanc):
    s = CorefScore("m", *v[:4], noncoref=tuple(v[4:]) if blanc else None)
    block = CorefKind(blanc).blocks([[1, 1] + (v if blanc else v[:4])])[0]
    assert _prf(block) == [s.precision, s.recall, s.f1]


@settings(max_examples=200, deadline=None)
@given(small, small, small)
def test_smatch(m, t, g):
    s = SmatchScore(min(m, t, g), t, g)
    assert _prf(SmatchKind().blocks([[s.match, g, t]])[0]) == [s.precision, s.recall, s.f1]


@settings(max_examples=300, deadline=None)
@given(credit, credit, credit, credit, credit, credit, credit, credit)
def test_records_and_better(m, gm, pt, gt, tm, tgm, tpt, tgt):
    s = MatchScore(0.0, m, pt, gt, [], 1.0, gm)
    block = RecordsKind().blocks([[0, 0, m, gm, pt, gt]])[0]
    assert _prf(block) == [s.precision, s.recall, s.f1]
    t = MatchScore(0.0, tm, tpt, tgt, [], 1.0, tgm)
    b = BetterScore(t, s, [])
    block = BetterKind().blocks([[0, 0, m, gm, pt, gt, tm, tgm, tpt, tgt]])[0]
    assert (block["type_f1"], block["score"]) == (t.f1, float(b))


@settings(max_examples=300, deadline=None)
@given(small, small, small, small, st.floats(0, 1), st.sampled_from([0.5, 1.0, 3.0]),
       st.sampled_from(["strict", "lenient", "average", "strict-bdm", "lenient-bdm", "average-bdm"]))
def test_gate(c, p, m, s, share, beta, measure):
    d = DiffCounts(c, p, m, s, round(share * m, 6))
    block = GateKind(measure, beta).blocks([[c, p, m, s, d.bdm]])[0]
    assert _prf(block) == [d.precision(measure), d.recall(measure), d.f(measure, beta)]
    assert (block["gold"], block["pred"]) == (d.keys, d.responses)
    assert ("bdm" in block) == measure.endswith("-bdm")


def test_float_totals_sum_as_a_column_does():
    # a float table's total equals numpy's (pairwise) sum of the column: merging never reorders a sum
    from accord.result import Measure, document_table

    rng = np.random.default_rng(0)
    values = rng.random((1000, 6)) * 10
    m = Measure(CorefKind(), document_table(CorefKind().fields, [str(k) for k in range(1000)], values))
    assert m.counts().tolist() == [float(values[:, k].sum()) for k in range(6)]
    assert not math.isnan(m.totals()["f1"])
