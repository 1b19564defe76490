"""Coreference metrics against the CoNLL-2012 reference scorer's test suite and metametric."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accord.errors import OptionError
from accord.structured.coref import COREF_METRICS, conll_f1, coref_scores

from ..conftest import DATA

CASES = json.loads((DATA / "coref" / "reference_cases.json").read_text())["cases"]
CHECKS = [(case, metric) for case in CASES for metric in case["expected"]]


def test_the_suite_has_125_checks():
    assert len(CHECKS) == 125


@pytest.mark.parametrize("case,metric", CHECKS, ids=[f"{c['id']}-{m}" for c, m in CHECKS])
def test_reference_scorer_case(case, metric):
    got = coref_scores({"doc": case["key_clusters"]}, {"doc": case["response_clusters"]})[metric]
    exp = case["expected"][metric]
    # the reference harness passes when |dR| + |dP| + |dF| < 1e-4 (some expected values are rounded to 5 places)
    assert abs(got.recall - exp["recall"]) + abs(got.precision - exp["precision"]) + abs(got.f1 - exp["f1"]) < 1e-4


def test_micro_average_sums_numerators_and_denominators():
    """The corpus score of two documents is summed counts, not the mean of document scores (hand count)."""
    key = {"a": [[(0, 0), (2, 2)]], "b": [[(0, 0), (1, 1), (2, 2), (3, 3)]]}
    resp = {"a": [[(0, 0), (2, 2)]], "b": [[(0, 0), (1, 1)], [(2, 2), (3, 3)]]}
    muc = coref_scores(key, resp, metrics=["muc"])["muc"]
    # a: 1 common link of 1 key link; b: (2-1)+(2-1) = 2 common links of 3 key links, 2 response links
    assert (muc.recall_num, muc.recall_den, muc.precision_num, muc.precision_den) == (3, 4, 3, 3)
    assert muc.recall == 0.75 and muc.by_document["b"].recall == pytest.approx(2 / 3)


def test_empty_documents_add_nothing():
    key = {"a": [[(0, 0), (2, 2)]], "empty": []}
    resp = {"a": [[(0, 0)], [(2, 2)]], "empty": []}
    with_empty = coref_scores(key, resp)
    without = coref_scores({"a": key["a"]}, {"a": resp["a"]})
    for m in COREF_METRICS:
        assert with_empty[m].to_dict() == without[m].to_dict()
        assert with_empty[m].by_document["empty"].f1 == 0.0


def test_duplicates_first_wins_and_empty_entities_drop():
    key = {"d": [[(0, 0), (1, 1)]]}
    dup = {"d": [[(0, 0), (1, 1), (1, 1)], [(0, 0)]]}   # a repeat inside and a repeat alone
    clean = {"d": [[(0, 0), (1, 1)]]}
    for m in COREF_METRICS:
        assert coref_scores(key, dup)[m].to_dict() == coref_scores(key, clean)[m].to_dict()


def test_missing_response_document_scores_as_empty():
    s = coref_scores({"a": [[(0, 0), (1, 1)]]}, {})
    assert s["muc"].recall == 0.0 and s["bcub"].recall_den == 2


def test_bad_inputs():
    with pytest.raises(OptionError, match="not in the key"):
        coref_scores({"a": []}, {"b": []})
    with pytest.raises(OptionError, match="unknown coreference metric 'ceaf'"):
        coref_scores({}, {}, metrics=["ceaf"])
    with pytest.raises(OptionError, match="document 'a', key entity 0"):
        coref_scores({"a": [[(3, 1)]]}, {})
    with pytest.raises(OptionError, match="start, end"):
        coref_scores({"a": [[(1, 2, 3)]]}, {})


def test_conll_f1_is_the_mean_of_three():
    s = coref_scores({"d": CASES[1]["key_clusters"]}, {"d": CASES[1]["response_clusters"]})
    assert conll_f1(s) == pytest.approx((s["muc"].f1 + s["bcub"].f1 + s["ceafe"].f1) / 3)
    with pytest.raises(OptionError):
        conll_f1({"muc": s["muc"]})


# --------------------------------------------------------------------- against metametric
def _random_doc(rng: random.Random, n_mentions: int, n_entities: int):
    spans = rng.sample(range(200), n_mentions)
    clusters = [[] for _ in range(n_entities)]
    for s in spans:
        clusters[rng.randrange(n_entities)].append((s, s + rng.randrange(2)))
    return [c for c in clusters if c]


def _metametric(key, resp):
    from metametric.metrics.coref import coref_suite
    from metametric.structures.ie import Entity, EntitySet, Mention

    def es(cl):
        return EntitySet([Entity([Mention(s, e) for s, e in c]) for c in cl])

    suite = coref_suite.new()
    suite.update_single(es(resp), es(key))
    return suite.compute()


@pytest.mark.parametrize("seed", range(25))
def test_agrees_with_metametric(seed):
    """On documents where metametric is right: no duplicate mentions, links on both sides."""
    rng = random.Random(seed)
    key = _random_doc(rng, 12, 4)
    resp = _random_doc(rng, 12, 5)
    # share most mentions so that the metrics are not trivial
    resp[0] = resp[0] + [m for m in key[0] if m not in {x for c in resp for x in c}]
    if not any(len(c) > 1 for c in key) or not any(len(c) > 1 for c in resp):
        pytest.skip("no coreference link on one side: metametric divides by zero there")
    theirs = _metametric(key, resp)
    ours = coref_scores({"d": key}, {"d": resp})
    for name, metric in (("muc", "muc"), ("b_cubed", "bcub"), ("ceaf_phi4", "ceafe")):
        for rate in ("precision", "recall", "f1"):
            assert getattr(ours[metric], rate) == pytest.approx(float(theirs[f"{name}-{rate}"]), abs=1e-12)


# ------------------------------------------------------------------------------ properties
clusters_st = st.lists(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 2)).map(lambda t: (t[0], t[0] + t[1])),
                                min_size=1, max_size=5), max_size=6)


@settings(max_examples=150, deadline=None)
@given(clusters_st, clusters_st)
def test_properties(key, resp):
    ab = coref_scores({"d": key}, {"d": resp})
    ba = coref_scores({"d": resp}, {"d": key})
    self_ = coref_scores({"d": key}, {"d": key})
    for m in COREF_METRICS:
        assert 0.0 <= ab[m].recall <= 1.0 + 1e-12 and 0.0 <= ab[m].precision <= 1.0 + 1e-12
        if m != "blanc":  # BLANC's special cases look at the key's links only, so it is not symmetric
            assert ab[m].recall == pytest.approx(ba[m].precision)
            assert ab[m].precision == pytest.approx(ba[m].recall)
    seen, kept = set(), []
    for c in key:  # the documented rule: a repeated mention keeps its first occurrence
        kept.append([m for m in c if not (m in seen or seen.add(m))])
    has_link = any(len(c) > 1 for c in kept)
    if key:
        for m in ("bcub", "ceafm", "ceafe", "lea"):
            assert self_[m].f1 == pytest.approx(1.0)
        if has_link:
            assert self_["muc"].f1 == pytest.approx(1.0)
