"""Labels that differ only by case (``PER`` in gold, ``per`` in a system's export) are warned about, once, naming
them: they score as two labels (every such item missing and spurious), which is rarely what was meant."""

from __future__ import annotations

import warnings

import pytest

import accord
from accord.errors import LabelCaseWarning

DOC = "-DOCSTART- O\n\nJohn {0}-PER\nlives O\nin O\nParis {0}-LOC\n. O\n\n"


def _files(tmp_path, gold_case: str, pred_case: str, documents: int = 1):
    gold, pred = tmp_path / "g.conll", tmp_path / "p.conll"
    gold.write_text(DOC.format("B").replace("PER", gold_case) * documents, encoding="utf-8")
    pred.write_text(DOC.format("B").replace("PER", pred_case) * documents, encoding="utf-8")
    return gold, pred


def test_a_label_in_two_cases_is_warned_once_naming_both(tmp_path):
    gold, pred = _files(tmp_path, "PER", "per")
    with pytest.warns(LabelCaseWarning, match="'PER' and 'per'") as caught:
        report = accord.score(gold, pred)
    assert len([w for w in caught if w.category is LabelCaseWarning]) == 1
    # by hand: LOC matches, PER is missing and per spurious: 1 of 2 on each side
    assert (report.totals.gold, report.totals.pred, report.totals.match) == (2, 2, 1)


def test_no_warning_when_the_labels_agree(tmp_path):
    gold, pred = _files(tmp_path, "PER", "PER")
    with warnings.catch_warnings():
        warnings.simplefilter("error", LabelCaseWarning)
        assert accord.score(gold, pred).totals.match == 2


def test_the_sharded_run_warns_once_too(tmp_path):
    gold, pred = _files(tmp_path, "PER", "Per", documents=40)
    with pytest.warns(LabelCaseWarning, match="'PER' and 'Per'") as caught:
        accord.score(gold, pred, jobs=2, shard_size=64)
    assert len([w for w in caught if w.category is LabelCaseWarning]) == 1


def test_the_command_line_shows_it_as_one_line(tmp_path, capsys):
    from accord.cli import main

    gold, pred = _files(tmp_path, "PER", "per")
    assert main(["score", str(gold), str(pred), "--output", "json"]) == 0
    err = capsys.readouterr().err
    assert err.count("accord: warning: labels that differ only by case") == 1


def test_agreement_between_annotators_warns_too(tmp_path):
    gold, pred = _files(tmp_path, "PER", "per")
    with pytest.warns(LabelCaseWarning, match="'PER' and 'per'"):
        accord.agree([str(gold), str(pred)])
