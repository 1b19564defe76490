"""The disputed stretches of the agreement page's browser (accord.agreement._disputes), counted by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

import accord
from accord.agreement._disputes import disputes_view
from accord.errors import OptionError

TEXT = "Maria Lindqvist opened a bakery in Tampere with Jussi Koskinen near Oulu."
# Maria Lindqvist 0-15, Maria 0-5, Tampere 35-42, Jussi Koskinen 48-62, Oulu 68-72
ANNOTATORS = {
    "ann1": [("PER", 0, 15), ("LOC", 35, 42), ("PER", 48, 62), ("LOC", 68, 72)],
    "ann2": [("PER", 0, 5), ("LOC", 35, 42), ("PER", 48, 62), ("LOC", 68, 72)],
    "ann3": [("PER", 0, 15), ("ORG", 35, 42), ("LOC", 68, 72)],
}


def three_annotators(root: Path) -> list[str]:
    """Three brat folders of one document, named as the annotators (run from ``root``): the page's tests' case."""
    out = []
    for name, spans in ANNOTATORS.items():
        folder = root / name
        folder.mkdir()
        (folder / "doc1.txt").write_text(TEXT, encoding="utf-8")
        (folder / "doc1.ann").write_text("".join(f"T{k}\t{label} {s} {e}\t{TEXT[s:e]}\n"
                                                 for k, (label, s, e) in enumerate(spans, 1)), encoding="utf-8")
        out.append(name)
    return out


def test_three_annotators_by_hand(tmp_path, monkeypatch):
    """Four stretches: Maria (Lindqvist) 0-15, ann2 marking only 'Maria' (ann1 and ann3 agree: ann2 differs);
    Tampere, LOC for two, ORG for ann3; Jussi Koskinen, which ann3 left out; Oulu, where all three agree."""
    monkeypatch.chdir(tmp_path)
    result = accord.agree(three_annotators(tmp_path), disputes=10)
    d = result.disputes
    assert (d["disputed"], d["agreed"], d["more"]) == (3, 1, 0)
    assert d["labels"] == ["LOC", "ORG", "PER"]
    rows = d["stretches"]
    assert [(r["start"], r["end"], r["text"]) for r in rows] == [
        (0, 15, "Maria Lindqvist"), (35, 42, "Tampere"), (48, 62, "Jussi Koskinen")]
    assert [[d["annotators"][k] for k in r["odd"]] for r in rows] == [["ann2"], ["ann3"], ["ann3"]]
    per, loc, org = 2, 0, 1
    assert rows[0]["readings"] == [[[0, 15, per, "Maria Lindqvist"]], [[0, 5, per, "Maria"]],
                                   [[0, 15, per, "Maria Lindqvist"]]]
    assert rows[1]["readings"] == [[[35, 42, loc, "Tampere"]], [[35, 42, loc, "Tampere"]], [[35, 42, org, "Tampere"]]]
    assert rows[2]["readings"][2] == []
    assert rows[1]["before"] == "Maria Lindqvist opened a bakery in " and rows[1]["after"].startswith(" with Jussi")
    assert d["by_label"] == {"LOC": 1, "ORG": 1, "PER": 2}
    assert d["by_annotator"] == {"ann1": 0, "ann2": 1, "ann3": 2}
    assert d["spans_by_annotator"] == {"ann1": 4, "ann2": 4, "ann3": 3}


def test_the_list_is_bounded_and_the_rest_counted():
    # 7 disputed stretches (a span only the first annotator marks), 1 agreed
    spans = {0: [(10 * k, 10 * k + 5, "X") for k in range(8)], 1: [(70, 75, "X")]}
    d = disputes_view(["a", "b"], [("doc", None, spans)], limit=3)
    assert (d["disputed"], d["agreed"], len(d["stretches"]), d["more"]) == (7, 1, 3, 4)
    assert [r["start"] for r in d["stretches"]] == [0, 10, 20]      # the first, in document order
    assert d["by_label"] == {"X": 7} and d["by_annotator"] == {"a": 7, "b": 7}   # two readings: no majority
    with pytest.raises(OptionError):
        disputes_view(["a", "b"], [], limit=-1)


def test_touching_spans_are_two_stretches_and_a_missing_document_no_reading():
    spans = {0: [(0, 5, "A"), (5, 9, "A")], 1: [(0, 5, "A")], 2: [(0, 5, "B")]}
    d = disputes_view(["a", "b", "c"], [("doc", None, spans)])
    # [0, 5): a, b A and c B (c odd); [5, 9): only a (a odd)
    assert [(r["start"], r["end"], r["odd"]) for r in d["stretches"]] == [(0, 5, [2]), (5, 9, [0])]
    d = disputes_view(["a", "b", "c"], [("doc", None, {0: [(0, 5, "A")], 2: [(0, 5, "B")]})])
    assert d["stretches"][0]["readings"][1] is None and d["stretches"][0]["odd"] == [0, 2]


def test_units_table_without_text(tmp_path):
    table = tmp_path / "units.csv"
    table.write_text("annotator,document,start,end,category\na,d,0,4,X\nb,d,0,4,Y\na,d,10,12,X\nb,d,10,12,X\n",
                     encoding="utf-8")
    result = accord.agree(str(table), unitizing="alpha-u", disputes=5)
    d = result.disputes
    assert (d["disputed"], d["agreed"]) == (1, 1)
    assert d["stretches"][0]["text"] == "" and d["stretches"][0]["readings"] == [[[0, 4, 0, ""]], [[0, 4, 1, ""]]]


def test_a_long_span_over_many_lists_twenty_of_them():
    """One annotator's span over the whole text makes one stretch of the other's 30 spans: 20 listed, 10 counted."""
    spans = {0: [(0, 300, "S")], 1: [(10 * k, 10 * k + 5, "X") for k in range(30)]}
    d = disputes_view(["a", "b"], [("doc", None, spans)])
    row = d["stretches"][0]
    assert (d["disputed"], len(row["readings"][1]), row["hidden"]) == (1, 20, [0, 10])


def test_ratings_table_items_by_hand(tmp_path):
    """Eight items, four raters: items 1 and 6 agreed; the others disputed, each with one rater off the majority
    (item 2 c, 3 a, 4 m, 5 c, 7 c, 8 m); a ninth item rated by one rater only is no item of the browser."""
    table = tmp_path / "r.csv"
    table.write_text("item,a,b,c,m\n1,1,1,1,1\n2,2,2,1,2\n3,1,2,2,2\n4,3,3,3,1\n5,1,1,2,1\n6,2,2,2,2\n7,3,3,2,3\n"
                     "8,1,1,1,2\n9,,,3,\n", encoding="utf-8")
    d = accord.agree(str(table), items="item", disputes=4).disputes
    assert (d["unit"], d["disputed"], d["agreed"], d["more"]) == ("items", 6, 2, 2)
    assert [r["document"] for r in d["stretches"]] == ["2", "3", "4", "5"]
    assert [[d["annotators"][k] for k in r["odd"]] for r in d["stretches"]] == [["c"], ["a"], ["m"], ["c"]]
    assert d["by_annotator"] == {"a": 1, "b": 0, "c": 3, "m": 2}
    assert d["by_label"] == {"1": 5, "2": 5, "3": 2}
    assert d["spans_by_annotator"] == {"a": 8, "b": 8, "c": 9, "m": 8}
    first = d["stretches"][0]["readings"]
    assert [[d["labels"][s[2]] for s in r] for r in first] == [["2"], ["2"], ["1"], ["2"]]
    # without an item column the items are numbered from 1
    table.write_text("a,b\nx,x\nx,y\n,y\n", encoding="utf-8")
    d = accord.agree(str(table), disputes=4).disputes
    assert [r["document"] for r in d["stretches"]] == ["item 2"] and d["agreed"] == 1
