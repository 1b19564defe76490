"""A result's named tables (accord.result.ResultTable): a mode fills them, a renderer draws them without knowing the
mode, the details writer writes them; the pairs, CLUEval and GATE modes' tables hold the counts of their own JSON."""

from __future__ import annotations

import csv
import io

import pytest

from accord.errors import OptionError
from accord.report.details import write_details
from accord.report.result_tables import render_tables
from accord.report.table import TableConsole
from accord.result import ALL, CountTable, Measure, PairsKind, Result, ResultTable

from .commands import CONLL_GOLD, CONLL_PRED, GATE

pytestmark = pytest.mark.filterwarnings("ignore::accord.errors.AccordWarning")   # the inputs' repairs, types left out


def toy_result() -> Result:
    """A result of a mode no renderer knows: one document, one label, counts written by hand."""
    table = CountTable.build(PairsKind.fields, [("d", ("label", "X"), [2, 0, 0, 1, 1]), ("d", ALL, [2, 0, 0, 1, 1])],
                             ["d"])
    return Result("toy", "toy", {"toy": Measure(PairsKind(), table)}, nested=False)


def drawn(result: Result) -> str:
    out = io.StringIO()
    render_tables(result, TableConsole(file=out, width=100))
    return out.getvalue()


def test_a_renderer_draws_a_toy_modes_tables_without_knowing_the_mode():
    result = toy_result()
    result.add_table(ResultTable("shapes", ("shape", "count"), [("circle", "3"), ("square", "12")],
                                 caption="shapes seen", styles=(None, "bold"), sections=(1,)))
    result.add_table(ResultTable("triangles", note="triangles not counted: none drawn"))
    text = drawn(result)
    assert "shapes seen" in text and "triangles not counted: none drawn" in text
    lines = [line for line in text.splitlines() if "circle" in line or "square" in line]
    assert [line.split()[::2] for line in lines] == [["circle", "3"], ["square", "12"]]
    assert text.index("shapes seen") < text.index("triangles not counted")     # in the order the mode added them


def test_a_table_standing_for_a_measure_is_drawn_by_its_kind():
    result = toy_result()
    result.add_table(ResultTable("again", measure="toy", caption="the toy measure again"))
    text = drawn(result)
    assert "the toy measure again" in text
    x = next(line for line in text.splitlines() if line.split()[:1] == ["X"])
    # gold 3 (2 matched, 1 missing), pred 3 (2 matched, 1 spurious), no clash: P = R = F = 2/3
    assert x.replace("│", " ").split()[1:] == ["3", "3", "2", "0", "0", "1", "1", "66.67", "66.67", "66.67"]


def test_tables_are_a_copy_and_records_name_the_columns():
    result = toy_result()
    t = ResultTable("t", ("a", "b"), [(1, None), (2, "x")])
    result.add_table(t)
    result.tables.clear()                                   # the property hands out a list of its own
    assert result.tables == [t]
    assert list(t.records()) == [{"a": 1, "b": None}, {"a": 2, "b": "x"}]


def test_details_of_a_result_that_lists_no_items_are_refused(tmp_path):
    with pytest.raises(OptionError, match="toy .toy. lists no details"):
        write_details(toy_result(), tmp_path / "d.csv")
    assert not (tmp_path / "d.csv").exists()


def test_pairs_details_count_as_the_totals(tmp_path):
    """Every details row is one gold or predicted item: matches, clashes, misses and spurious items add up to the
    totals of the result (independently counted by the tally)."""
    from accord import score

    result = score(CONLL_GOLD, CONLL_PRED)
    table = result.details()
    rows = list(table.records())
    outcomes = [r["outcome"] for r in rows]
    t = result.totals
    assert outcomes.count("match") == t.match
    assert outcomes.count("missing") == t.missing and outcomes.count("spurious") == t.spurious
    assert len(rows) - outcomes.count("missing") - outcomes.count("spurious") == t.match + t.gold_clash
    write_details(result, tmp_path / "d.csv")
    with open(tmp_path / "d.csv", newline="", encoding="utf-8") as fh:
        assert len(list(csv.DictReader(fh))) == len(rows)


def test_clueval_coverage_classes_table_holds_the_json_counts():
    from accord import score

    result = score(CONLL_GOLD, CONLL_PRED, match="clueval")
    (table,) = result.tables
    classes = result.to_dict()["classes"]
    rows = {row[0]: row[1:] for row in table.rows}
    for side, name in (("gold", "gold"), ("pred", "predicted")):
        totals = classes[side]["totals"]
        assert rows[name] == (*(str(totals[k]) for k in table.columns[1:-1]), str(sum(totals.values())))


def test_gate_qa_tables_micro_row_holds_the_measure_totals():
    from accord.diff._commands import qa

    result = qa(GATE, GATE, key_set="ann1", response_set="ann2")
    tables = {t.name: t for t in result.tables}
    assert set(tables) == {"by type", "by document", "present in every"}     # (the sets, types, features)
    totals = result.totals
    for t in (tables["by type"], tables["by document"]):
        micro = list(t.rows)[-1]
        assert micro[0] == "Micro summary"
        assert micro[1:5] == (str(int(totals["correct"])), str(int(totals["missing"])),
                              str(int(totals["spurious"])), str(int(totals["partial"])))
