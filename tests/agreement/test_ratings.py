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
