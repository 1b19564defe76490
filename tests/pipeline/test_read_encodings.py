"""Per-side text encodings (MAT's --ref_encoding): a latin-1 gold against a UTF-8 prediction."""

from __future__ import annotations

import json

import pytest

import accord
from accord.cli import main
from accord.errors import OptionError

TEXT = "José visited Guam."
ANN = "T1\tPER 0 4\tJosé\nT2\tLOC 13 17\tGuam\n"


def sides(tmp_path, gold_encoding="latin-1", pred_encoding="utf-8"):
    for side, encoding in (("gold", gold_encoding), ("pred", pred_encoding)):
        (tmp_path / side).mkdir()
        (tmp_path / side / "d.txt").write_bytes(TEXT.encode(encoding))
        (tmp_path / side / "d.ann").write_bytes(ANN.encode(encoding))
    return tmp_path / "gold", tmp_path / "pred"


def test_one_encoding_cannot_read_both(tmp_path):
    gold, pred = sides(tmp_path)
    with pytest.raises(accord.AccordError):    # 'é' in latin-1 is byte 0xE9, not UTF-8
        accord.score(gold, pred, format="brat")


def test_per_side_encodings_read_each_side(tmp_path):
    gold, pred = sides(tmp_path)
    r = accord.score(gold, pred, format="brat", gold_encoding="latin-1")
    # hand count: both entities on both sides, equal spans and labels
    assert (r.totals.gold, r.totals.pred, r.totals.match) == (2, 2, 2)
    swapped = accord.score(pred, gold, format="brat", pred_encoding="latin-1")
    assert swapped.totals.match == 2


def test_command_line_names(tmp_path, capsys):
    gold, pred = sides(tmp_path)
    assert main(["score", str(gold), str(pred), "--format", "brat", "--quiet"]) == 2
    capsys.readouterr()
    for argv in (["--ref-encoding", "latin-1"], ["--gold-encoding", "latin-1"],
                 ["--encoding", "latin-1", "--pred-encoding", "utf-8"]):
        assert main(["score", str(gold), str(pred), "--format", "brat", "--output", "json", "--quiet",
                     *argv]) == 0, argv
        assert json.loads(capsys.readouterr().out)["totals"]["match"] == 2


def test_an_unknown_encoding_is_an_error(tmp_path, capsys):
    gold, pred = sides(tmp_path)
    assert main(["score", str(gold), str(pred), "--format", "brat", "--gold-encoding", "no-such-codec"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no-such-codec" in err


def test_modes_reading_their_own_inputs_refuse_them(tmp_path):
    gold, pred = sides(tmp_path)
    with pytest.raises(OptionError, match="apply to span inputs"):
        accord.score(gold, pred, match="coref", gold_encoding="latin-1")


def test_sharded_runs_read_per_side_encodings_in_one_process(tmp_path):
    from accord.errors import ShardedRunWarning

    gold, pred = sides(tmp_path)
    with pytest.warns(ShardedRunWarning, match="read in one process"):
        r = accord.score(gold, pred, format="brat", gold_encoding="latin-1", jobs=2)
    assert r.totals.match == 2
