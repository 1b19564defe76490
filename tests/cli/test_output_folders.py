"""An output whose folder does not exist is refused before any work, in one line, with nothing else printed; a
device is a valid output (``-o /dev/null``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from accord.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SIDES = [str(EXAMPLES / "gold.conll"), str(EXAMPLES / "system.conll")]


@pytest.mark.parametrize("option", [["-o", "nodir/x.json", "--output", "json"], ["--html", "nodir/x.html"],
                                    ["--details", "nodir/x.csv"], ["--mat-csv", "nodir/sub"]])
def test_a_missing_folder_is_one_line_before_any_work(tmp_path, monkeypatch, capsys, option):
    monkeypatch.chdir(tmp_path)
    assert main(["score", *SIDES, *option]) == 2
    out, err = capsys.readouterr()
    assert out == ""                      # before: the table was printed, then the error
    assert err == f"accord: error: {option[1]}: the folder nodir does not exist; create it first\n"
    assert list(tmp_path.iterdir()) == []


def test_a_folder_output_whose_parent_exists_is_made(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["score", *SIDES, "--mat-csv", "new"]) == 0
    assert (tmp_path / "new" / "details.csv").is_file()
