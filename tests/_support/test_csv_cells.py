"""accord._support.csv_cells: text that a spreadsheet would run as a formula gets a leading quote; numbers stay numbers."""

import csv
import io

import pytest

from accord._support.csv_cells import SpreadsheetDictWriter, SpreadsheetWriter, text_cell


@pytest.mark.parametrize("text", ["=cmd|' /C calc'!A0", "+1+2", "-2+3", "@SUM(A1:A2)", "\tx", "\rx", "=", "-",
                                  "-x", "+"])
def test_formula_starts_are_quoted(text):
    assert text_cell(text) == "'" + text


@pytest.mark.parametrize("value", ["-0.5", "+3", "-1e-05", "-inf", "nan", -0.5, 3, None, "plain", "a=b", "'x", ""])
def test_numbers_and_plain_text_stay(value):
    assert text_cell(value) == value


def test_the_writers_quote_every_cell():
    buf = io.StringIO()
    SpreadsheetWriter(buf, lineterminator="\n").writerow(["=1+1", -0.5, "ok"])
    dw = SpreadsheetDictWriter(buf, fieldnames=["a", "b"], lineterminator="\n")
    dw.writerows([{"a": "@x", "b": "-0.25"}])
    rows = list(csv.reader(io.StringIO(buf.getvalue())))
    assert rows == [["'=1+1", "-0.5", "ok"], ["'@x", "-0.25"]]


def test_a_line_break_inside_a_cell_never_starts_an_unescaped_row(tmp_path, capsys):
    """A label 'PER\\r=1+1': Python 3.11's writer with a '\\n' terminator left the '\\r' unquoted, so a spreadsheet
    (and csv.reader) read '=1+1' as the first cell of a new row, a formula (found by a review)."""
    import csv
    import io
    import json

    from accord.cli import main

    doc = {"id": "d", "text": "John", "annotations": [{"label": "PER\r=1+1", "start": 0, "end": 4}]}
    g = tmp_path / "g.jsonl"
    g.write_text(json.dumps(doc) + "\n", encoding="utf-8")
    for argv in (["score", str(g), str(g), "--output", "csv"], ["diff", str(g), str(g), "--output", "csv"]):
        assert main(argv) == 0
        rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
        width = len(rows[0])
        assert all(len(r) == width for r in rows), rows
        assert not any(cell.startswith(("=", "+", "@")) for r in rows for cell in r)
        assert any(cell == "PER\r=1+1" for r in rows for cell in r)
