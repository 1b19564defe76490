"""accord score on CoNLL-2003 against seqscore's printed table and seqeval run here."""

import json
import re

import pytest

import accord
from accord.cli import main

from .conftest import DATA, read_conll_sentences

GOLD = DATA / "conll03" / "gold.conll"
PRED = DATA / "conll03" / "xlm_flert.conll"


def seqscore_rows():
    """Parse the first table of seqscore's output: Type, Precision, Recall, F1, Reference, Predicted, Correct."""
    rows = {}
    for line in (DATA / "conll03" / "xlm_flert.seqscore.txt").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 7 and re.fullmatch(r"[A-Z]+", cells[0]):
            rows[cells[0]] = (float(cells[1]), float(cells[2]), float(cells[3]), int(cells[4]), int(cells[5]),
                              int(cells[6]))
        if line.startswith("|   Count"):
            break
    return rows


@pytest.fixture(scope="module")
def report():
    return accord.score(GOLD, PRED)


def test_totals_equal_seqscore(report):
    expected = seqscore_rows()
    assert set(expected) == {"ALL", "LOC", "MISC", "ORG", "PER"}
    p, r, f, ref, predicted, correct = expected["ALL"]
    assert (report.totals.gold, report.totals.pred, report.totals.match) == (ref, predicted, correct) == (5648, 5749, 5339)
    assert round(100 * report.precision, 2) == p
    assert round(100 * report.recall, 2) == r
    assert round(100 * report.f1, 2) == f


def test_each_label_equals_seqscore(report):
    expected = seqscore_rows()
    for label in ("LOC", "MISC", "ORG", "PER"):
        c = report.by_label[label]
        p, r, f = report.rates(c)
        assert (c.gold, c.pred, c.match) == expected[label][3:], label
        assert (round(100 * p, 2), round(100 * r, 2), round(100 * f, 2)) == expected[label][:3], label


def test_identities_and_no_clash_under_strict(report):
    t = report.totals
    assert t.gold == t.match + t.gold_clash + t.missing
    assert t.pred == t.match + t.pred_clash + t.spurious
    assert t.gold_clash == t.pred_clash == 0
    assert sum(c.gold for c in report.by_document.values()) == t.gold
    assert len(report.by_document) == 231


def test_seqeval_default_and_strict_agree(report):
    seqeval = pytest.importorskip("seqeval.metrics")
    from seqeval.scheme import IOB2

    y_true = read_conll_sentences(GOLD)
    y_pred = read_conll_sentences(PRED)
    d = seqeval.classification_report(y_true, y_pred, output_dict=True)
    for label in ("LOC", "MISC", "ORG", "PER"):
        p, r, f = report.rates(report.by_label[label])
        assert d[label]["precision"] == pytest.approx(p, abs=1e-12)
        assert d[label]["recall"] == pytest.approx(r, abs=1e-12)
        assert d[label]["support"] == report.by_label[label].gold
    assert seqeval.f1_score(y_true, y_pred) == pytest.approx(report.f1, abs=1e-12)
    strict = accord.score(GOLD, PRED, repair="discard")
    s = seqeval.classification_report(y_true, y_pred, mode="strict", scheme=IOB2, output_dict=True)
    assert s["micro avg"]["f1-score"] == pytest.approx(strict.f1, abs=1e-12)
    for label in ("LOC", "MISC", "ORG", "PER"):
        assert s[label]["support"] == strict.by_label[label].gold
        assert s[label]["precision"] == pytest.approx(strict.rates(strict.by_label[label])[0], abs=1e-12)


def test_cli_json_contract(tmp_path, capsys):
    out = tmp_path / "r.json"
    assert main(["score", str(GOLD), str(PRED), "--output", "json", "-o", str(out)]) == 0
    data = json.loads(out.read_text())
    keys = {"gold", "pred", "match", "gold_clash", "pred_clash", "missing", "spurious", "precision", "recall", "f1"}
    assert set(data["totals"]) == keys
    assert all(set(b) == keys for b in data["by_label"].values())
    assert all(set(b) == keys for b in data["by_document"].values())
    assert data["totals"]["match"] == 5339
    assert 0 <= data["totals"]["f1"] <= 1


def test_cli_table_prints_seqscore_numbers(capsys):
    assert main(["score", str(GOLD), str(PRED)]) == 0
    out = capsys.readouterr().out
    for needle in ("5648", "5749", "5339", "92.87", "94.53", "93.69", "83.33"):
        assert needle in out
