"""``accord structured --preset biored`` against BioRED's official evaluation, run here as the peer (ncbi/bert_gt
``src/run_eval_biored.py``, its ``eval`` in the four settings of its ``run_train_test_eval``) on BioRED's test set
and perturbed predictions (../shared/corpora/official/biored)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import accord
from accord.errors import AccordWarning, FormatError
from accord.structured._biored import BIORED_MEASURES, BIORED_SCRIPT

from ._official import official_data, official_source

BERT_GT = ("ncbi/bert_gt", "979831325e64a95f8cf2ff92394ac4f05179ba35", "src/run_eval_biored.py")

RUNNER = r'''
import contextlib, io, json, sys
sys.path.insert(0, sys.argv[1])
import run_eval_biored as official
out = {}
for name, binary, novelty in json.loads(sys.argv[4]):
    with contextlib.redirect_stdout(io.StringIO()):     # it prints every pair
        official.eval(sys.argv[2], sys.argv[3], sys.argv[1] + "/scores.txt", to_binary=binary, has_novelty=novelty)
    # its return value's rates are those of the last line written; the file's "Overall" line is the total
    overall = open(sys.argv[1] + "/scores.txt").readline().rstrip("\n").split("\t")
    out[name] = [float(x) for x in overall[1:]]
print(json.dumps(out))
'''


def _official(tmp: Path, gold: Path, pred: Path) -> subprocess.CompletedProcess:
    official_source(BERT_GT[0], BERT_GT[1], BERT_GT[2], tmp / "run_eval_biored.py")
    pytest.importorskip("pandas")
    (tmp / "runner.py").write_text(RUNNER)
    settings = json.dumps([[n, b, v] for n, (b, v) in BIORED_MEASURES.items()])
    return subprocess.run([sys.executable, str(tmp / "runner.py"), str(tmp), str(gold), str(pred), settings],
                          capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("pred", ["pred.pubtator", "pred_missing.pubtator"])
def test_biored_equals_the_official_evaluation(tmp_path: Path, pred: str) -> None:
    gold, predicted = official_data("biored", "test.pubtator"), official_data("biored", pred)
    done = _official(tmp_path, gold, predicted)
    assert done.returncode == 0, done.stderr
    official = json.loads(done.stdout.strip().splitlines()[-1])
    if pred == "pred_missing.pubtator":
        with pytest.warns(AccordWarning, match="3 document\\(s\\) of the key are missing"):
            result = accord.structured_metrics(gold, predicted, preset="biored")
    else:
        result = accord.structured_metrics(gold, predicted, preset="biored")
    assert result.options["official_script"] == BIORED_SCRIPT
    for name, (n_gold, tp, fp, fn, p, r, f) in official.items():
        t = result.measures[name].totals()
        assert (t.gold_total, t.match, t.pred_total - t.match, t.gold_total - t.match) == (n_gold, tp, fp, fn)
        assert (t.precision, t.recall) == (pytest.approx(p, rel=1e-12), pytest.approx(r, rel=1e-12))
        assert t.f1 == pytest.approx(f, rel=1e-12)


def test_biored_composite_ids_are_refused_as_the_official_script_fails(tmp_path: Path) -> None:
    """A relation line naming a composite mention's whole id column: the official script stops (KeyError);
    accord refuses with the file and line."""
    gold, pred = official_data("biored", "test.pubtator"), official_data("biored", "pred_composite.pubtator")
    done = _official(tmp_path, gold, pred)
    assert done.returncode != 0 and "KeyError" in done.stderr
    with pytest.raises(FormatError, match=r"pred_composite.pubtator:\d+: relation id '[^']*,[^']*' is not an id"):
        accord.structured_metrics(gold, pred, preset="biored")


GOLD = """\
1|t|Title one.
1|a|Abstract.
1\t0\t3\tabc\tGeneOrGeneProduct\tG1
1\t4\t6\tde\tChemicalEntity\tC1,C2
1\t7\t9\tfg\tDiseaseOrPhenotypicFeature\tD1
1\t9\t10\th\tDiseaseOrPhenotypicFeature\tD2
1\tBind\tG1\tC1\tNovel
1\tAssociation\tD1\tG1\tNo
1\tAssociation\tD1\tD2\tNo
1\tPositive_Correlation\tC2\tD1\tNovel

"""
PRED = """\
1|t|Title one.
1|a|Abstract.
1\t0\t3\tabc\tGeneOrGeneProduct\tG1
1\t4\t6\tde\tChemicalEntity\tC1,C2
1\t7\t9\tfg\tDiseaseOrPhenotypicFeature\tD1
1\tBind\tC1\tG1\tNo
1\tBind\tG1\tC1\tNo
1\tAssociation\tG1\tD1
1\tNegative_Correlation\tC2\tD1\tNovel

2|t|Not in the key.
2\t0\t1\tx\tChemicalEntity\tC9
2\t1\t2\ty\tChemicalEntity\tC8
2\tAssociation\tC9\tC8\tNovel
"""


def test_biored_hand_count(tmp_path: Path) -> None:
    """Hand counts: the reversed pair is the same pair; the disease-disease relation is left out; a 4-column line's
    novelty is "None"; a document the key lacks is all false positives."""
    gold, pred = tmp_path / "gold.pubtator", tmp_path / "pred.pubtator"
    gold.write_text(GOLD)
    pred.write_text(PRED)
    result = accord.structured_metrics(gold, pred, preset="biored")
    t = {n: (m.totals().match, m.totals().pred_total, m.totals().gold_total) for n, m in result.measures.items()}
    # key pairs: (C1, G1), (D1, G1), (C2, D1); response: (C1, G1) twice = once, (D1, G1), (C2, D1), and (C8, C9)
    assert t["pair"] == (3, 4, 3)
    # types: Bind = Bind, Association = Association, Negative != Positive
    assert t["pair_type"] == (2, 4, 3)
    # novelty: (C1, G1) No vs Novel; (D1, G1) None vs No; (C2, D1) Novel = Novel; binary labels "Association|..."
    assert t["pair_novelty"] == (1, 4, 3)
    assert t["pair_type_novelty"] == (0, 4, 3)
    done = _official(tmp_path, gold, pred)
    assert done.returncode == 0, done.stderr
    for name, (n_gold, tp, fp, _fn, *_) in json.loads(done.stdout.strip().splitlines()[-1]).items():
        assert (t[name][2], t[name][0], t[name][1] - t[name][0]) == (n_gold, tp, fp)


def test_biored_refusals(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pubtator"
    bad.write_text("1|t|T\n1\tBind\tG1\tC1\n")
    with pytest.raises(FormatError, match=r"bad.pubtator:2: relation id 'G1' is not an id"):
        accord.structured_metrics(bad, bad, preset="biored")
    short = tmp_path / "short.pubtator"
    short.write_text("1|t|T\n1\t0\t3\n")
    with pytest.raises(FormatError, match=r"short.pubtator:2: expected an entity line .* got 3 columns"):
        accord.structured_metrics(short, short, preset="biored")
    orphan = tmp_path / "orphan.pubtator"
    orphan.write_text("1\t0\t3\tabc\tGene\tG1\n")
    with pytest.raises(FormatError, match=r"orphan.pubtator:1: an entity or relation line before any title"):
        accord.structured_metrics(orphan, orphan, preset="biored")


def test_biored_two_blank_lines_keep_the_relations(tmp_path: Path) -> None:
    """A departure, on purpose: given two blank lines after a document, the official script stores its relations,
    then an empty set over them (1 pair found of 1, not 2 of 2); accord reads blank lines as separators only."""
    path = tmp_path / "double.pubtator"
    path.write_text("1|t|T\n1\t0\t3\tabc\tGeneOrGeneProduct\tG1\n1\t4\t6\tde\tChemicalEntity\tC1\n"
                    "1\tBind\tG1\tC1\tNovel\n\n\n2|t|U\n2\t0\t1\tx\tChemicalEntity\tC9\n"
                    "2\t1\t2\ty\tChemicalEntity\tC8\n2\tAssociation\tC9\tC8\tNovel\n\n")
    done = _official(tmp_path, path, path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1])["pair"][:2] == [1, 1]    # gold 1, tp 1
    t = accord.structured_metrics(path, path, preset="biored").measures["pair"].totals()
    assert (t.gold_total, t.match) == (2, 2)
