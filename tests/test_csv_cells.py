"""accord._csv_cells: text that a spreadsheet would run as a formula gets a leading quote; numbers stay numbers."""

import csv
import io

import pytest

from accord._csv_cells import SpreadsheetDictWriter, SpreadsheetWriter, text_cell


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
