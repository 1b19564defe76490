"""The report of generated output (strings without offsets, aligned to the gold text; issue 38, part 5), opened in
headless Chromium: the alignment counts in the summary, the unaligned and fuzzily aligned predictions listed (with
"N more" past the summary's fifty), and the error browser's notes on their rows. Counted by hand."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from accord.cli import main

from ..conftest import headless_dom

GOLD = ('{"id": "d1", "text": "Maria works for Aurora Air. Maria Lund met her in Bergen.", "annotations": '
        '[{"label": "PER", "start": 0, "end": 5}, {"label": "ORG", "start": 16, "end": 26}, '
        '{"label": "PER", "start": 28, "end": 38}, {"label": "LOC", "start": 50, "end": 56}]}\n')
#        0         1         2         3         4         5
#        012345678901234567890123456789012345678901234567890123456
PRED = {"id": "d1", "entities": [{"text": "Maria", "label": "PER"}, {"text": "Aurora Ar", "label": "LOC"},
                                 {"text": "Maria Lund", "label": "PER"}, {"text": "Oslo", "label": "LOC"},
                                 {"text": "Bergen", "label": "LOC"}, {"text": "Bergen", "label": "LOC"}]}


def _inputs(tmp_path: Path, *records: dict) -> tuple[str, list[str]]:
    gold = tmp_path / "gold.jsonl"
    gold.write_text(GOLD, encoding="utf-8")
    paths = []
    for k, r in enumerate(records):
        p = tmp_path / f"model{k + 1}.jsonl"
        p.write_text(json.dumps(r) + "\n", encoding="utf-8")
        paths.append(str(p))
    return str(gold), paths


def _rows(dom: str) -> list[str]:
    body = re.search(r'<table id="eb-table">.*?<tbody>(.*?)</tbody>', dom, re.S).group(1)
    return re.findall(r'<tr class="eb-row (?:FN|FP)">.*?</tr>', body, re.S)


def _notes(dom: str) -> list[str]:
    return [n for r in _rows(dom) for n in re.findall(r'<small class="eb-note">(.*?)</small>', r)]


def test_the_report_lists_the_unaligned_and_fuzzy_strings_and_the_browser_notes_them(tmp_path, capsys, recwarn):
    pytest.importorskip("rapidfuzz")
    gold, (pred,) = _inputs(tmp_path, PRED)
    page = tmp_path / "report.html"
    assert main(["report", gold, pred, "--align", "fuzzy", "--align-threshold", "0.8", "--bootstrap", "0",
                 "-o", str(page)]) == 0
    dom, errors = headless_dom(page)
    assert errors == []
    # by hand: Maria, Maria Lund, Bergen exact; "Aurora Ar" fuzzily on "Aurora Air" (rapidfuzz's ratio: 2 * 9
    # matching characters / 19 = 0.947); Oslo not in the text; the second Bergen has no occurrence left
    summary = re.search(r'<table id="summary-table".*?</table>', dom, re.S).group(0)
    assert "<th class=\"sortable\">Generated strings</th>" in summary
    assert '<td class="alignment-counts">3 exact · 1 fuzzy · 2 unaligned</td>' in summary
    unaligned = re.search(r'<table class="unaligned">.*?</table>', dom, re.S).group(0)
    assert re.findall(r"<tr><td>d1</td><td>([^<]*)</td><td>LOC</td><td>([^<]*)</td></tr>", unaligned) == [
        ("Oslo", "not in the text"), ("Bergen", "listed more often than the text holds it")]
    assert "more not listed" not in unaligned
    fuzzy = re.search(r'<table class="fuzzy">.*?</table>', dom, re.S).group(0)
    assert re.findall(r"<tr><td>d1</td><td>Aurora Ar</td><td>LOC</td><td class=\"num\">16–26</td>"
                      r"<td>Aurora Air</td><td class=\"num\">0.95</td></tr>", fuzzy)
    # the errors by hand: FN the gold ORG "Aurora Air" (the model said LOC), FP the LOC placed there, and the two
    # unaligned FPs; Maria, Maria Lund and Bergen are hits
    rows = _rows(dom)
    notes = _notes(dom)
    assert len(rows) == 4 and sum('class="eb-row FP"' in r for r in rows) == 3
    assert sorted(notes) == ["placed fuzzily from \u201cAurora Ar\u201d (similarity 0.95)",
                             "unaligned \u201cBergen\u201d: listed more often than the text holds it",
                             "unaligned \u201cOslo\u201d: not in the text"]


def test_past_fifty_the_report_says_how_many_more_and_the_browser_still_marks_them(tmp_path, capsys, recwarn):
    # 53 strings not in the text: the summary lists fifty, the page says "3 more", and every one of the 53 rows of
    # the browser is marked unaligned (the last three without their string)
    many = {"id": "d1", "entities": [{"text": f"Nowhere{k}", "label": "LOC"} for k in range(53)]}
    gold, (pred,) = _inputs(tmp_path, many)
    page = tmp_path / "many.html"
    assert main(["report", gold, pred, "--bootstrap", "0", "-o", str(page)]) == 0
    dom, errors = headless_dom(page, "size=500")
    assert errors == []
    unaligned = re.search(r'<table class="unaligned">.*?</table>', dom, re.S).group(0)
    assert unaligned.count("<tr><td>d1</td>") == 50
    assert '<td colspan="4" class="more">3 more not listed</td>' in unaligned
    assert '<td class="alignment-counts">0 exact · 0 fuzzy · 53 unaligned</td>' in dom
    assert "fuzzy" not in re.search(r'<h3 id="alignment-1".*?<h3>By label', dom, re.S).group(0).split("</p>")[1]
    notes = _notes(dom)
    assert len(notes) == 53 and notes.count("unaligned: a string not placed on the text (past those listed)") == 3
    assert [n for n in notes if "\u201c" in n] == [f"unaligned \u201cNowhere{k}\u201d: not in the text"
                                                   for k in range(50)]


def test_a_page_without_generated_output_has_no_alignment_part(tmp_path, capsys, recwarn):
    gold, _ = _inputs(tmp_path)
    page = tmp_path / "plain.html"
    assert main(["report", gold, gold, "--bootstrap", "0", "-o", str(page)]) == 0
    html = page.read_text(encoding="utf-8")
    assert "Generated strings" not in html and "eb-note" not in html and "alignment-1" not in html


def test_strings_compared_without_alignment_have_no_error_browser_and_the_page_says_why(tmp_path, capsys, recwarn):
    # before: a browser of rows without a string or a context (the multiset's spans have no text)
    gold, (pred,) = _inputs(tmp_path, PRED)
    page = tmp_path / "none.html"
    assert main(["report", gold, pred, "--align", "none", "--bootstrap", "0", "-o", str(page)]) == 0
    dom, errors = headless_dom(page)
    assert errors == [] and 'id="eb-table"' not in dom
    assert re.search(r'<p class="note">No error browser or confusion matrix: model1: its strings were compared '
                     r"without alignment \(--align none\)", dom)
    # by hand: 6 strings against the 4 gold ones
    assert '<td class="alignment-counts">6 predicted strings against 4 gold strings</td>' in dom


def test_accord_errors_places_generated_strings_and_notes_them_in_its_page_and_table(tmp_path, capsys, recwarn):
    # before: "spanless annotations have no span to compare"
    pytest.importorskip("rapidfuzz")
    import csv

    gold, (pred,) = _inputs(tmp_path, PRED)
    page, table = tmp_path / "errors.html", tmp_path / "errors.tsv"
    assert main(["errors", gold, pred, "--align", "fuzzy", "--align-threshold", "0.8", "--html", str(page),
                 "--tsv", str(table)]) == 0
    dom, errors = headless_dom(page)
    assert errors == [] and len(_rows(dom)) == 4     # as in the report, by hand
    assert sorted(_notes(dom)) == ["placed fuzzily from \u201cAurora Ar\u201d (similarity 0.95)",
                                   "unaligned \u201cBergen\u201d: listed more often than the text holds it",
                                   "unaligned \u201cOslo\u201d: not in the text"]
    with open(table, encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    assert sorted((r["kind"], r["label"], r["note"]) for r in rows) == [
        ("FN", "ORG", ""), ("FP", "LOC", "placed fuzzily from \u201cAurora Ar\u201d (similarity 0.95)"),
        ("FP", "LOC", "unaligned \u201cBergen\u201d: listed more often than the text holds it"),
        ("FP", "LOC", "unaligned \u201cOslo\u201d: not in the text")]
    assert main(["errors", gold, gold, "--align", "exact"]) == 2
    assert "the predicted side be records" in capsys.readouterr().err


def test_the_pairs_a_relaxed_similarity_or_a_judge_matched_are_listed(tmp_path, monkeypatch, capsys, recwarn):
    # "Aurora Ar" given as ORG: the strings left after the strict rows are the gold "Aurora Air" and it (same label)
    pred = {**PRED, "entities": [{**e, "label": "ORG"} if e["text"] == "Aurora Ar" else e for e in PRED["entities"]]}
    gold, (path,) = _inputs(tmp_path, pred)
    page = tmp_path / "relaxed.html"
    assert main(["report", gold, path, "--align", "none", "--relaxed", "token-f1", "--bootstrap", "0",
                 "-o", str(page)]) == 0
    dom, errors = headless_dom(page)
    table = re.search(r'<table class="matched-pairs relaxed">.*?</table>', dom, re.S).group(0)
    # by hand: SQuAD's token F1 of "aurora air" and "aurora ar": one token of two on each side, 0.5
    assert errors == [] and "token-f1 similarity at least 0.5" in table and "1 pair of the same label" in table
    assert re.findall(r"<tr><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td><td class=\"num\">(.*?)</td>",
                      table) == [("d1", "ORG", "Aurora Air", "Aurora Ar", "0.50")]
    (tmp_path / "prefix_judge.py").write_text(     # the same first word
        "def judge(gold, pred):\n    return gold['text'].split()[0] == pred['text'].split()[0]\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    page = tmp_path / "judge.html"
    assert main(["report", gold, path, "--align", "none", "--judge", "prefix_judge:judge", "--bootstrap", "0",
                 "-o", str(page)]) == 0
    dom, errors = headless_dom(page)
    table = re.search(r'<table class="matched-pairs judge">.*?</table>', dom, re.S).group(0)
    assert errors == [] and "Pairs the judge prefix_judge:judge matched: 1 (1 verdicts asked" in table
    assert re.findall(r"<tr><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td><td class=\"num\">(.*?)</td>",
                      table) == [("d1", "ORG", "Aurora Air", "Aurora Ar", "1.00")]
