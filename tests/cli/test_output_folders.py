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


def test_a_full_disk_is_one_line_naming_the_output(capsys):
    import os

    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this machine")
    assert main(["score", *SIDES, "-o", "/dev/full"]) == 2
    assert capsys.readouterr().err == "accord: error: writing the output failed: No space left on device\n"


def test_a_missing_file_named_by_an_option_is_one_line_naming_it(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["structured", SIDES[0], SIDES[0], "--metrics", "relation", "--hierarchy", "nonexist.json"]) == 2
    assert capsys.readouterr().err == "accord: error: nonexist.json: No such file or directory\n"


@pytest.mark.parametrize("command", [["report", SIDES[0], "-", "-o", "r.html"], ["compare", SIDES[0], SIDES[1], "-"],
                                     ["agree", SIDES[0], "-"]])
def test_standard_input_as_a_system_or_an_annotator(tmp_path, monkeypatch, capsys, command):
    """``cat sys | accord report gold - -o r.html`` (and compare, agree): standard input among the systems, named
    <stdin> (before: '-: no such file or directory', or agree's temporary file's name)."""
    import io
    import sys

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(Path(SIDES[1]).read_bytes())))
    assert main(command) == 0
    out, err = capsys.readouterr()
    assert "accord-stdin" not in out + err and ("<stdin>" in out + err or command[0] == "report")
