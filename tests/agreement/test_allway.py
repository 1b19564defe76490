"""GATE's all-way figures (``TestIaa``, gateplugin-Inter_Annotator_Agreement) on ``beijing-opera.xml``.

``TestIaa`` asserts ``ceil`` of the counts and of ``100 x`` the kappas. Case 1 (``sent``
with ``Op``) runs GATE's annotation merging before the kappas, and that merge deletes
``Op`` from annotator 0's and 1's annotations fewer than two annotators agree on
(``../shared/notes/gate-evaluation.md`` section 7). accord's consensus has no side effect,
so the test replays that deletion (``gate_merge_side_effect``) to reach GATE's asserted
numbers, and checks the untouched data against the values the notes derive without it.
"""

import json
import math
from pathlib import Path

import numpy as np
import pytest

from accord.adjudicate import consensus
from accord.agreement._allway import iaa_allway_counts, iaa_allway_kappa
from accord.agreement._gate import gate_pair_tables, gate_summary
from accord.errors import RatingsError
from accord.formats import read
from accord.model import Attributes, Corpus
from accord.model import make_annotation as A

DATA = Path(__file__).parent.parent / "data" / "gate"
NAMES = ["ann1", "ann2", "ann3"]
CASES = {c["id"]: c for c in json.loads((DATA / "classification_cases.json").read_text())["cases"]}


def documents():
    return [read(DATA / "beijing-opera.xml", annotation_set=n).documents[0] for n in NAMES]


def as_corpora(docs, annotation_lists=None):
    lists = annotation_lists or [d.annotations for d in docs]
    return [Corpus([d._replace(annotations=tuple(a))]) for d, a in zip(docs, lists)]


def gate_merge_side_effect(sets, type, feature, min_votes=2):
    """Replay what GATE's ``AnnotationMerging.mergeAnnotation`` does to its input sets.

    Annotators 0 .. n-k in turn: each annotation not yet claimed looks for one compatible
    (same span and value) annotation in each later set and claims it; when fewer than
    ``min_votes`` agree, GATE removes the feature from the annotation itself.
    """
    n = len(sets)
    out = [list(s) for s in sets]
    pool = [[(j, a) for j, a in enumerate(s) if a.label == type] for s in sets]
    for first in range(n - min_votes + 1):
        for j, a in list(pool[first]):
            votes = 1
            for later in range(first + 1, n):
                for item in pool[later]:
                    b = item[1]
                    if (b.start, b.end) == (a.start, a.end) and b.attributes.get(feature) == a.attributes.get(feature):
                        votes += 1
                        pool[later].remove(item)
                        break
            if votes < min_votes:
                out[first][j] = a._replace(attributes=Attributes(
                    {k: v for k, v in a.attributes.items() if k != feature}))
    return out


def java_ceil_percent(x):
    """``(int) Math.ceil((double) f * 100)`` with ``f`` a Java float, as TestIaa computes it."""
    return math.ceil(float(np.float32(x)) * 100)


def test_all_way_kappa_without_features_case2():
    case = CASES["iaa_calc_case2_Os_nolabel"]
    got = iaa_allway_kappa(as_corpora(documents()), NAMES, type="Os")
    assert got["instances"] == 5 and got["categories"] == ["Non-cat"]
    # exact values: 3 of 5 instances have an overlapping Os from every annotator
    assert got["observed_agreement"] == pytest.approx(0.6)
    assert got["davies_fleiss_kappa"] == 0.0
    assert got["siegel_castellan_kappa"] == pytest.approx(case["derived"]["allway"]["kappa_SC"], abs=1e-6)
    exp = case["expected_ceil"]["allway_kappa_x100"]
    # 0.6 as a Java float is 0.60000002, hence GATE's 61
    assert [java_ceil_percent(got[k]) for k in ("observed_agreement", "davies_fleiss_kappa",
                                                "siegel_castellan_kappa")] == \
        [exp["observed"], exp["davies_fleiss"], exp["sc_m_raters"]]


def test_all_way_counts_against_the_consensus_case2():
    docs = documents()
    ref = consensus([d.annotations for d in docs], type="Os", min_votes=2)
    got = iaa_allway_counts(as_corpora(docs), NAMES, Corpus([docs[0]._replace(annotations=tuple(ref))]), type="Os")
    exp = CASES["iaa_calc_case2_Os_nolabel"]["expected_ceil"]["allway_F_counts_vs_merged"]
    assert {k: math.ceil(v) for k, v in got.items()} == exp
    assert got == {"correct": 2.0, "partial": 0.0, "spurious": 2.0, "missing": 0.0}


def test_all_way_kappa_with_a_feature_case1_as_gate_asserts():
    docs = documents()
    case = CASES["iaa_calc_case1_sent_Op"]
    mutated = as_corpora(docs, gate_merge_side_effect([d.annotations for d in docs], "sent", "Op"))
    got = iaa_allway_kappa(mutated, NAMES, type="sent", feature="Op")
    der = case["derived"]["allway_after_mutation"]
    assert (got["observed_agreement"], got["davies_fleiss_kappa"], got["siegel_castellan_kappa"]) == \
        pytest.approx((der["Po"], der["kappa_DF"], der["kappa_SC"]), abs=1e-6)
    exp = case["expected_ceil"]["allway_kappa_x100_after_mutation"]
    assert [java_ceil_percent(got[k]) for k in ("observed_agreement", "davies_fleiss_kappa",
                                                "siegel_castellan_kappa")] == \
        [exp["observed"], exp["davies_fleiss"], exp["sc_m_raters"]]
    # the pairwise kappas of the same test, after the same deletion
    summary = gate_summary(gate_pair_tables(mutated, NAMES, type="sent", feature="Op"), "iaa")
    means = [summary["coefficients"][k]["mean"] for k in ("observed_agreement", "cohen_kappa", "scott_pi")]
    pw = case["derived"]["pairwise_after_mutation"]
    assert means == pytest.approx([pw["Po"], pw["kappa"], pw["pi"]], abs=1e-6)
    exp = case["expected_ceil"]["pairwise_kappa_x100_after_mutation"]
    assert [java_ceil_percent(x) for x in means] == [exp["observed"], exp["cohen"], exp["pi"]]


def test_all_way_kappa_with_a_feature_on_the_documents_as_they_are():
    # the notes' values without GATE's deletion (caveat of iaa_calc_case1_sent_Op)
    got = iaa_allway_kappa(as_corpora(documents()), NAMES, type="sent", feature="Op")
    assert (got["observed_agreement"], got["davies_fleiss_kappa"], got["siegel_castellan_kappa"]) == \
        pytest.approx((0.842105, 0.829851, 0.809488), abs=1e-6)


def test_all_way_counts_against_the_consensus_case1():
    docs = documents()
    mutated = as_corpora(docs, gate_merge_side_effect([d.annotations for d in docs], "sent", "Op"))
    ref = consensus([d.annotations for d in docs], type="sent", feature="Op", min_votes=2, undecided=True)
    ref_corpus = Corpus([docs[0]._replace(annotations=tuple(ref))])
    got = iaa_allway_counts(mutated, NAMES, ref_corpus, type="sent", feature="Op")
    der = CASES["iaa_calc_case1_sent_Op"]["derived"]["allway_F_vs_merged"]
    assert [got[k] for k in ("correct", "partial", "spurious", "missing")] == \
        pytest.approx([der["c"], der["p"], der["s"], der["m"]], abs=1e-6)
    exp = CASES["iaa_calc_case1_sent_Op"]["expected_ceil"]["allway_F_counts_vs_merged"]
    assert {k: math.ceil(v - 1e-9) for k, v in got.items()} == exp


def test_all_way_kappa_by_hand():
    from accord.model import Document

    # instances are ann1's: [0,2) all say x; [3,5) x,y,x; [6,8) only ann1 (y)
    lists = [[A("E", 0, 2, {"c": "x"}), A("E", 3, 5, {"c": "x"}), A("E", 6, 8, {"c": "y"})],
             [A("E", 0, 2, {"c": "x"}), A("E", 3, 5, {"c": "y"})],
             [A("E", 1, 2, {"c": "x"}), A("E", 3, 4, {"c": "x"})]]
    corpora = [Corpus([Document("d", tuple(x))]) for x in lists]
    got = iaa_allway_kappa(corpora, NAMES, type="E", feature="c")
    # y_ic: (3,0), (2,1), (0,1) over categories x, y (Non-cat empty); N=3, m=3
    n, m, y2 = 3, 3, 9 + 4 + 1 + 1
    a = np.array([[2, 1, 2], [1, 1, 0]], dtype=float)          # categories x annotators
    p_cj = a / a.sum(axis=0)
    p_c = a.sum(axis=1) / a.sum()
    den = n * (m * (m - 1) * (p_c * (1 - p_c)).sum() + ((p_cj - p_c[:, None]) ** 2).sum())
    assert got["davies_fleiss_kappa"] == pytest.approx(1 - (n * m * m - y2) / den)
    assert got["observed_agreement"] == pytest.approx(1 / 3)
    pe = (5 / 9) ** 3 + (2 / 9) ** 3
    assert got["siegel_castellan_kappa"] == pytest.approx((1 / 3 - pe) / (1 - pe))


def test_all_way_needs_two_annotators():
    with pytest.raises(RatingsError, match="two or more"):
        iaa_allway_kappa([Corpus([])], ["a"], type="E")


def test_a_span_in_the_gap_of_a_discontinuous_one_is_no_span():
    """All-way agreement: the second annotator's span lies in the gap of the first's discontinuous span, so it
    overlaps its extent and none of its pieces: the same figures as a second annotator who marked nothing there,
    and unlike the merged extent, which overlaps it."""
    from accord.model import Corpus, Document, make_annotation

    def corpora(b_span):
        text = "Ada and Bob met Cy"
        a = [make_annotation("PER", fragments=[(0, 3), (8, 11)], attributes={"k": "x"}),
             make_annotation("PER", 16, 18, attributes={"k": "y"})]
        b = ([b_span] if b_span is not None else []) + [make_annotation("PER", 16, 18, attributes={"k": "y"})]
        c = [make_annotation("PER", 0, 3, attributes={"k": "x"}), make_annotation("PER", 16, 18, attributes={"k": "y"})]
        return [Corpus([Document("d", tuple(x), text)]) for x in (a, b, c)]

    in_gap = make_annotation("PER", 4, 7, attributes={"k": "x"})
    names = ["a", "b", "c"]
    got = iaa_allway_kappa(corpora(in_gap), names, type="PER", feature="k")
    assert got == iaa_allway_kappa(corpora(None), names, type="PER", feature="k")
    merged = corpora(in_gap)
    merged[0] = Corpus([Document("d", (make_annotation("PER", 0, 11, attributes={"k": "x"}),
                                       make_annotation("PER", 16, 18, attributes={"k": "y"})), "Ada and Bob met Cy")])
    assert iaa_allway_kappa(merged, names, type="PER", feature="k")["observed_agreement"] == 1.0
    assert got["observed_agreement"] < 1.0
