"""GATE's IAA verbosity level 2 and the consensus set kept apart (issue 44, item 10), counted by hand.

One document, four E annotations with feature v on the same spans: a = x x y y, b = x y y y, consensus = a.
a against b: 4 coextensive pairs, 3 agree -> observed 0.75; marginals a (2, 2), b (1, 3): chance (2 + 6)/16 = 0.5,
kappa (0.75 - 0.5)/0.5 = 0.5. Against the consensus: a 1.0 (kappa 1), b as against a (0.75, 0.5); "average against
consensus" 0.875 (kappa 0.75). Before, the consensus was a third annotator: the IAA mean was (0.75 + 1 + 0.75)/3.
"""

import json
import re

import pytest

from accord.agreement._gate_summary import gate_summary_of
from accord.cli import main
from accord.formats.text.gate import write_gate_sets
from accord.model import Corpus, Document
from accord.model import make_annotation as A
from tests.result.contract import checked

TEXT = "a b c d e f g h"


def _anns(values):
    return [A("E", 2 * k, 2 * k + 1, {"v": v}) for k, v in enumerate(values)]


SETS = {"a": _anns("xxyy"), "b": _anns("xyyy"), "consensus": _anns("xxyy")}


def _corpora(sets=SETS, doc="d1"):
    return [Corpus([Document(doc, tuple(anns), text=TEXT)]) for anns in sets.values()], list(sets)


def _values(block, name):
    c = block["coefficients"][name]
    return c["mean"], {tuple(p["raters"]): p["value"] for p in c["pairs"]}


def test_the_consensus_is_kept_apart():
    corpora, names = _corpora()
    s = gate_summary_of(corpora, names, ["E"], "v", "iaa")
    assert s["raters"] == ["a", "b"]
    assert _values(s, "observed_agreement") == (0.75, {("a", "b"): 0.75})
    assert _values(s, "cohen_kappa") == (0.5, {("a", "b"): 0.5})
    against = s["against_consensus"]
    assert against["consensus"] == "consensus"
    assert _values(against, "observed_agreement") == (0.875, {("a", "consensus"): 1.0, ("b", "consensus"): 0.75})
    assert _values(against, "cohen_kappa") == (0.75, {("a", "consensus"): 1.0, ("b", "consensus"): 0.5})
    # consensus=None: the old reading, the consensus one more annotator
    every = gate_summary_of(corpora, names, ["E"], "v", "iaa", consensus=None)
    assert every["coefficients"]["observed_agreement"]["mean"] == pytest.approx(2.5 / 3)
    assert "against_consensus" not in every


def test_verbosity_2_lists_each_documents_tables():
    # d1 as above; d2: a x, b y on one span -> a~b in d2: one (x, y) pair, positive specific agreement of x 0
    d1, _ = _corpora({"a": SETS["a"], "b": SETS["b"]})
    d2, _ = _corpora({"a": _anns("x"), "b": _anns("y")}, "d2")
    corpora = [Corpus([*x.values(), *y.values()]) for x, y in zip(d1, d2)]
    assert "pair_tables_by_document" not in gate_summary_of(corpora, ["a", "b"], ["E"], "v", "iaa")
    s = gate_summary_of(corpora, ["a", "b"], ["E"], "v", "iaa", verbosity=2)
    by_doc = s["pair_tables_by_document"]
    assert list(by_doc) == ["d1", "d2"]

    def cells(block):
        cats = block["categories"]
        return {(cats[i], cats[j]): n for i, row in enumerate(block["matrix"]) for j, n in enumerate(row) if n}

    (t1,), (t2,) = by_doc["d1"], by_doc["d2"]
    assert cells(t1) == {("x", "x"): 1, ("x", "y"): 1, ("y", "y"): 2} and cells(t2) == {("x", "y"): 1}
    # d1: positive x = 2*1/(2 + 1), y = 2*2/(2 + 3); d2: x 2*0/(1 + 0)
    assert t1["specific_agreement"]["x"]["positive"] == pytest.approx(2 / 3)
    assert t1["specific_agreement"]["y"]["positive"] == pytest.approx(0.8)
    assert t2["specific_agreement"]["x"]["positive"] == 0.0
    # the corpus table is their sum
    assert cells(s["pair_tables"][0]) == {("x", "x"): 1, ("x", "y"): 2, ("y", "y"): 2}


def test_the_command(tmp_path, capsys):
    path = tmp_path / "d1.xml"
    write_gate_sets(Document("d1", (), text=TEXT), SETS, path)
    args = ["agree", str(path), "--sets", "a,b,consensus", "--convention", "iaa", "--types", "E", "--feature", "v"]
    assert main([*args, "--verbosity", "2", "--output", "json"]) == 0
    totals = checked(capsys.readouterr().out)["totals"]
    assert totals["against_consensus"]["coefficients"]["observed_agreement"]["mean"] == 0.875
    assert totals["coefficients"]["observed_agreement"]["mean"] == 0.75
    assert "d1" in totals["pair_tables_by_document"]
    # the plugin's F among the annotators only: a against b, c 3, s 1, m 1 -> 0.75
    assert totals["f_measures"]["strict"]["f1"] == 0.75
    assert main([*args, "--verbosity", "2"]) == 0
    out = capsys.readouterr().out
    assert "against the consensus set 'consensus'" in out and "document d1" in out
    document_row = re.compile(r"^\s*d1\s+│ observed agreement", re.M)
    assert document_row.search(out)
    assert main([*args, "--verbosity", "0"]) == 0
    assert not document_row.search(capsys.readouterr().out)     # level 0: the corpus figures only
    code = main(["agree", str(path), "--sets", "a,b", "--verbosity", "2"])
    assert code == 2 and "--convention iaa or corpus-qa" in capsys.readouterr().err
    json.dumps(totals)
