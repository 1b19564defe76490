"""GATE's own numbers, reproduced from GATE's test documents.

Expected values are those GATE's unit tests assert (gate-core ``TestClassificationMeasures``;
gateplugin-Inter_Annotator_Agreement ``TestIaaPlugin``), transcribed in
``../shared/data/gate/reference_cases.json``. GATE computes in Java float (32-bit) and
its tests compare Float objects; accord computes in double, so the values are checked
to float precision (1e-6). The IAA plugin's tests assert ``ceil(100 x)`` or
``ceil(1000 x)``; those are checked exactly as the tests write them.
"""

import json
import math
from pathlib import Path

import numpy as np
import pytest

from accord.agreement import agreement_stats, cohen_kappa, observed_agreement, scott_pi, specific_agreement
from accord.agreement._gate import corpus_qa_table, gate_pair_tables, iaa_table
from accord.agreement._spans import span_agreement
from accord.cli import main
from accord.errors import RatingsError
from accord.formats import read
from accord.formats.text.gate import read_gate_sets
from accord.model import Corpus, Document
from accord.model import make_annotation as A

DATA = Path(__file__).parent.parent / "data" / "gate"
DOCS = ["beijing-opera.xml", "beijing-opera-2.xml"]
NAMES = ["ann1", "ann2", "ann3"]
CM_CASES = {c["id"]: c for c in json.loads((DATA / "classification_cases.json").read_text())["cases"]}


def annotators(docs=DOCS):
    return [Corpus([read(DATA / d, annotation_set=n).documents[0] for d in docs]) for n in NAMES]


def measures(table):
    return observed_agreement(table), cohen_kappa(table), scott_pi(table)


@pytest.mark.parametrize("case,doc", [("classification_measures_doc1", "beijing-opera.xml"),
                                      ("classification_measures_doc2", "in-outlook-09-aug-2001.xml")])
def test_corpus_qa_classification_measures_per_document(case, doc):
    _, sets = read_gate_sets(DATA / doc)
    table = corpus_qa_table(sets["ann1"], sets["ann2"], "sent", "Op")
    exp = CM_CASES[case]["expected"]
    got = measures(table)
    assert got == pytest.approx((exp["observed_agreement"], exp["cohen_kappa"], exp["scott_pi"]), abs=1e-6)
    # the confusion matrix behind them (rows ann1, columns ann2), over the labels GATE lists
    from accord.agreement import confusion_matrix

    derived = CM_CASES[case]["derived"]
    cats, matrix = confusion_matrix(table)
    full = np.zeros((len(derived["labels"]),) * 2, dtype=int)
    for i, a in enumerate(derived["labels"]):
        for j, b in enumerate(derived["labels"]):
            if a in cats and b in cats:
                full[i, j] = matrix[cats.index(a), cats.index(b)]
    assert full.tolist() == derived["matrix_rows_A_cols_B"]


def test_corpus_qa_pooled_over_two_documents():
    stats = None
    for doc in ("beijing-opera.xml", "in-outlook-09-aug-2001.xml"):
        _, sets = read_gate_sets(DATA / doc)
        s = agreement_stats(corpus_qa_table(sets["ann1"], sets["ann2"], "sent", "Op"))
        stats = s if stats is None else stats + s
    exp = CM_CASES["classification_measures_pooled"]["expected"]
    assert measures(stats) == pytest.approx((exp["observed_agreement"], exp["cohen_kappa"], exp["scott_pi"]),
                                            abs=1e-6)


def test_iaa_plugin_kappa_macro_over_pairs_then_documents():
    # TestIaaPlugin, AGREEMENTANDKAPPA, sent->Op, ann1;ann2;ann3: ceil(1000x) = 847 / 761 / 759
    tables = gate_pair_tables(annotators(), NAMES, type="sent", feature="Op", convention="iaa")
    per_doc = []
    for doc in ("beijing-opera", "beijing-opera-2"):
        per_doc.append(np.mean([measures(t[doc]) for t in tables.values()], axis=0))
    overall = np.mean(per_doc, axis=0)
    assert [math.ceil(1000 * x) for x in overall] == [847, 761, 759]
    # the finer values of the independent re-implementation (reference_cases.json, derived)
    assert overall == pytest.approx([0.846979, 0.760429, 0.758780], abs=1e-6)
    doc0 = tables[("ann1", "ann2")]["beijing-opera"]
    assert measures(doc0) == pytest.approx((0.894737, 0.831858, 0.830735), abs=1e-6)
    # its table over ["", false, true, Non-cat]: [[0,1,0,0],[0,3,0,0],[0,1,4,0],[0,0,0,10]]
    # specific agreement as the plugin reports it (positive, negative) for 'true'
    pos = specific_agreement(doc0)["true"]
    neg = specific_agreement(doc0, negative=True)["true"]
    assert (round(pos, 4), round(neg, 4)) == (0.8889, 0.9655)
    doc1 = tables[("ann1", "ann2")]["beijing-opera-2"]
    assert measures(doc1) == pytest.approx((0.777778, 0.666667, 0.664336), abs=1e-6)


def test_iaa_table_without_a_feature_is_c_m_s():
    # TestIaa caseN=2 (Os, no feature, beijing-opera.xml), pairwise: the table is [[c, m], [s, 0]]
    _, sets = read_gate_sets(DATA / "beijing-opera.xml")
    t = iaa_table(sets["ann1"], sets["ann2"], "Os", None)
    from accord.agreement import confusion_matrix

    cats, m = confusion_matrix(t)
    assert cats == ("Anns", "Non-cat") and m.tolist() == [[2, 2], [0, 0]]   # c=2, m=2 (the partial drops out)
    # its pairwise kappas, mean over the three pairs: ceil(100x) = 53 / -12 / -32
    tables = gate_pair_tables(annotators(DOCS[:1]), NAMES, type="Os", feature=None)
    mean = np.mean([measures(t["beijing-opera"]) for t in tables.values()], axis=0)
    assert [math.ceil(100 * x) for x in mean] == [53, -12, -32]
    assert mean == pytest.approx([0.522222, -0.121212, -0.320635], abs=1e-6)


def test_iaa_plugin_f_measure_counts():
    # TestIaaPlugin FMEASURE over both documents, ceil(100 x) of the averaged counts
    both = span_agreement(annotators(), NAMES, types=["Os", "sent"], feature={"sent": "Op"}).gate_iaa_counts()
    assert {k: math.ceil(100 * v) for k, v in both.items()} == \
        {"correct": 425, "partial": 50, "spurious": 167, "missing": 234}
    os_only = span_agreement(annotators(), NAMES, types=["Os"]).gate_iaa_counts()
    assert {k: math.ceil(100 * v) for k, v in os_only.items()} == \
        {"correct": 167, "partial": 100, "spurious": 117, "missing": 150}


def test_iaa_f_with_a_feature_compares_values_only_with_equal_values():
    # TestIaa caseN=1 (sent/Op, beijing-opera.xml): pairwise F counts 7/0/2/2 for every pair
    sa = span_agreement(annotators(DOCS[:1]), NAMES, types=["sent"], feature="Op")
    for a, b in sa.pairs:
        c = sa.counts(a, b)
        assert (c.correct, c.partial, c.spurious, c.missing) == (7, 0, 2, 2)


def test_gate_conventions_bad_options():
    with pytest.raises(RatingsError, match="unknown GATE convention"):
        gate_pair_tables(annotators(), NAMES, type="sent", feature="Op", convention="gate")
    with pytest.raises(RatingsError, match="give --feature"):
        gate_pair_tables(annotators(), NAMES, type="sent", feature=None, convention="corpus-qa")
    # an annotation set's duplicate spans are left out by the corpus-qa convention
    a = [A("S", 0, 5, {"f": "x"}), A("S", 0, 5, {"f": "y"}), A("S", 6, 9, {"f": "x"})]
    b = [A("S", 0, 5, {"f": "x"}), A("S", 6, 9, {"f": "x"}), A("S", 6, 9, {"f": "y"})]
    t = corpus_qa_table(a, b, "S", "f")
    assert len(t.codes) == 0     # [0,5) repeats in A; [6,9) has two partners in B


def test_iaa_plugin_report_several_types_each_with_its_feature(tmp_path, capsys):
    # issue 18.7: --types Os,sent:Op (the plugin's annTypesAndFeats "Os;sent->Op") in one run; the plugin's
    # F-measures "micro averaged over documents" from the averaged counts 4.25 / 0.5 / 1.6667 / 2.3333
    # (TestIaaPlugin, ceil(100x) 425/50/167/234), its 0 for an empty denominator
    from accord import _api

    result = _api.agree([Corpus(c.documents, name=n) for c, n in zip(annotators(), NAMES)],
                        types=["Os", "sent:Op"], convention="iaa")
    fm = result.summary["f_measures"]
    assert {k: math.ceil(100 * v) for k, v in fm["counts"].items()} == \
        {"correct": 425, "partial": 50, "spurious": 167, "missing": 234}
    c, p, s, m = (fm["counts"][k] for k in ("correct", "partial", "spurious", "missing"))
    assert fm["strict"]["precision"] == pytest.approx(c / (c + p + s))
    assert fm["strict"]["recall"] == pytest.approx(c / (c + p + m))
    assert fm["lenient"]["precision"] == pytest.approx((c + p) / (c + p + s))
    assert fm["average"]["f1"] == pytest.approx((fm["strict"]["f1"] + fm["lenient"]["f1"]) / 2)
    assert result.options["feature"] == {"sent": "Op"} and result.summary["types"] == ["Os", "sent"]
    from tests.result.contract import checked

    totals = checked(result.to_json())["totals"]
    assert totals["f_measures"]["counts"] == pytest.approx(fm["counts"]) and len(totals["against_majority"]) == 3
    # the same through the CLI, GATE's arrow syntax too
    files = [str(DATA / d) for d in DOCS]
    assert main(["agree", files[0], "--sets", "ann1,ann2,ann3", "--types", "Os,sent->Op", "--convention",
                 "iaa"]) == 0
    table = capsys.readouterr().out
    assert "micro averaged over documents" in table and "Non-cat" in table and "sent:" in table


def test_pair_confusion_matrix_and_specific_agreement():
    # corpus-qa on beijing-opera.xml, ann1 against ann2 (sent/Op): GATE's matrix over "", false, true is
    # [[0,1,0],[0,3,0],[0,1,4]] (TestClassificationMeasures); specific agreement by hand, N = 9:
    # true: n 4, row 5, col 4 -> positive 8/9, negative 2(9-5-4+4)/(18-9) = 8/9
    # false: n 3, row 3, col 5 -> positive 6/8, negative 2(9-3-5+3)/(18-8) = 8/10
    from accord import _api

    result = _api.agree(str(DATA / "beijing-opera.xml"), sets=["ann1", "ann2"], types=["sent"], feature="Op",
                        convention="corpus-qa")
    block = result.summary["pair_tables"][0]
    assert block["raters"] == ["ann1", "ann2"] and block["categories"] == ["", "false", "true"]
    assert block["matrix"] == [[0, 1, 0], [0, 3, 0], [0, 1, 4]]
    sp = block["specific_agreement"]
    assert sp["true"] == pytest.approx({"positive": 8 / 9, "negative": 8 / 9})
    assert sp["false"] == pytest.approx({"positive": 6 / 8, "negative": 8 / 10})
    assert sp[""] == {"positive": 0.0, "negative": pytest.approx(2 * (9 - 1) / 17)}
    from tests.result.contract import checked

    assert checked(result.to_json())["totals"]["pair_tables"][0]["matrix"] == block["matrix"]


def test_bdm_agreement_by_hand(tmp_path, capsys):
    # Maynard's augmented P and R (GATE's IAA plugin, computeFNumbersBDM), counted by hand: ann1 marks Person,
    # Artist and Company, ann2 Politician on the Person span, Artist, and a Person elsewhere. BDM(Person,
    # Politician) = 6/11 (accord bdm on this taxonomy, as test_bdm_command_and_bdm_measures checks)
    from accord import _api
    from accord.bdm import bdm_scores, read_hierarchy
    from accord.bdm._compute import BdmTable

    tax = tmp_path / "tax.tsv"
    tax.write_text("Entity\nPerson\tEntity\nOrganisation\tEntity\nPolitician\tPerson\nArtist\tPerson\n"
                   "Company\tOrganisation\n", encoding="utf-8")
    table = BdmTable(bdm_scores(read_hierarchy(tax)))
    text = "Ann met Bob at Acme. Zed"

    def annotator(name, spans):
        return Corpus([Document("d", tuple(A("Mention", s, e, {"class": c}) for c, s, e in spans), text=text)],
                      name=name)
    one = annotator("ann1", [("Person", 0, 3), ("Artist", 8, 11), ("Company", 15, 19)])
    two = annotator("ann2", [("Politician", 0, 3), ("Artist", 8, 11), ("Person", 21, 24)])
    result = _api.agree([one, two], types=["Mention"], feature="class", convention="iaa", bdm=table)
    pair = result.summary["bdm"]["pairs"][0]
    b = table.bdm("Person", "Politician")
    assert b == pytest.approx(6 / 11, abs=1e-6)
    # correct = b + 1 (Artist = Artist), n = 2 matches, Company missing, the second Person spurious
    assert (pair["correct"], pair["matched"], pair["missing"], pair["spurious"]) == (pytest.approx(b + 1), 2, 1, 1)
    assert pair["strict"]["precision"] == pytest.approx((b + 1) / 3)
    assert pair["strict"]["recall"] == pytest.approx((b + 1) / 3)
    from tests.result.contract import checked

    assert checked(result.to_json())["totals"]["bdm"]["pairs"][0]["matched"] == 2
    with pytest.raises(Exception, match="--convention iaa or corpus-qa"):
        _api.agree([one, two], types=["Mention"], feature="class", bdm=table)


def test_each_annotator_against_the_majority_of_the_others():
    # by hand: A marks [0,2)=a and [3,5)=b, B [0,2)=a and [3,5)=c, C [0,2)=a and [6,8)=d. For each annotator the
    # two others must agree (2 of 2 votes): only [0,2)=a is their consensus, so each has 1 correct, 1 spurious
    from accord import _api
    from accord.agreement._majority import against_majority

    text = "ab cd ef gh"

    def annotator(name, spans):
        return Corpus([Document("d", tuple(A("X", s, e, {"v": v}) for v, s, e in spans), text=text)], name=name)
    sets = [annotator("A", [("a", 0, 2), ("b", 3, 5)]), annotator("B", [("a", 0, 2), ("c", 3, 5)]),
            annotator("C", [("a", 0, 2), ("d", 6, 8)])]
    rows = against_majority(sets, ["A", "B", "C"], ["X"], "v")
    assert [(r["annotator"], r["votes_needed"], r["correct"], r["missing"], r["spurious"]) for r in rows] == [
        ("A", 2, 1, 0, 1), ("B", 2, 1, 0, 1), ("C", 2, 1, 0, 1)]
    assert rows[0]["precision"] == 0.5 and rows[0]["recall"] == 1.0
    # B changes [3,5) to b: A and B now agree on it, so for C the majority holds [3,5)=b, which C misses
    sets[1] = annotator("B", [("a", 0, 2), ("b", 3, 5)])
    c = against_majority(sets, ["A", "B", "C"], ["X"], "v")[2]
    assert (c["correct"], c["missing"], c["spurious"]) == (1, 1, 1)
    summary = _api.agree(sets, types=["X"], feature="v", convention="iaa").summary
    assert [r["annotator"] for r in summary["against_majority"]] == ["A", "B", "C"]
    assert "against_majority" not in _api.agree(sets[:2], types=["X"], feature="v", convention="iaa").summary
