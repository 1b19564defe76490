"""Ratings tables on the command line: the item column, ragged rows, messages naming options."""

from __future__ import annotations

import pytest

from accord.cli import main
from tests.result.contract import checked

WIDE = "id,r1,r2\n1,a,a\n2,a,b\n3,b,b\n4,b,b\n5,a,a\n6,c,c\n"


def _agree(tmp_path, capsys, text, *options):
    p = tmp_path / "r.csv"
    p.write_text(text, encoding="utf-8")
    status = main(["agree", str(p), *options])
    return status, capsys.readouterr()


def test_an_id_column_is_not_taken_for_a_rater(tmp_path, capsys):
    status, out = _agree(tmp_path, capsys, WIDE)
    assert status == 2 and "r.csv:1: the first column 'id'" in out.err and "--items id" in out.err
    status, out = _agree(tmp_path, capsys, WIDE, "--items", "id", "--output", "json")
    assert status == 0
    result = checked(out.out)["totals"]
    from sklearn.metrics import cohen_kappa_score
    r1, r2 = list("aabbac"), list("abbbac")
    assert result["raters"] == ["r1", "r2"] and result["items"] == 6
    assert result["coefficients"]["cohen_kappa"] == pytest.approx(cohen_kappa_score(r1, r2))


def test_unique_first_column_without_an_id_name_is_refused_too(tmp_path, capsys):
    text = "code,r1,r2\n" + "".join(f"x{k},a,{'ab'[k % 2]}\n" for k in range(6))
    status, out = _agree(tmp_path, capsys, text)
    assert status == 2 and "--items" in out.err
    status, out = _agree(tmp_path, capsys, text, "--items", "", "--output", "json")
    assert status == 0 and checked(out.out)["totals"]["raters"] == ["code", "r1", "r2"]


def test_ragged_rows_and_unknown_categories_name_the_place(tmp_path, capsys):
    status, out = _agree(tmp_path, capsys, "r1,r2\na,a\nb\n")
    assert status == 2 and "r.csv:3" in out.err
    status, out = _agree(tmp_path, capsys, "r1,r2\na,a\nb,c\n", "--categories", "a,b")
    assert status == 2 and "--categories" in out.err and "'c'" in out.err


def test_frame_keeps_rater_names_that_the_csv_quotes_for_spreadsheets(tmp_path):
    """A rater named like a formula is quoted in the CSV (``'=a``) but is its own name in the frame."""
    pytest.importorskip("pandas")
    import accord

    table = tmp_path / "r.csv"
    table.write_text("item,=a,-b,c\n1,x,x,x\n2,y,x,y\n3,y,y,x\n", encoding="utf-8")
    result = accord.agree(table, items="item")
    assert "'=a | -b" in result.to_csv()
    frame = result.to_frame()
    assert {"=a | -b", "=a | c", "-b | c"} <= set(frame["raters"])
    # =a and -b agree on items 1 and 3 of 3 (hand count)
    row = frame[(frame["scope"] == "<all>") & (frame["coefficient"] == "observed_agreement")
                & (frame["raters"] == "=a | -b")]
    assert row["value"].tolist() == [pytest.approx(2 / 3)]
