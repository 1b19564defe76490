"""Error table renderings: emoji-marked spreadsheet files and the HTML page in headless Chromium."""

import csv
import io
import re

from accord.cli import main
from accord.clueval import error_table, evaluate_spans
from accord.clueval._error_rows import ERROR_COLUMNS, OTHER_MARK, PROBLEM_MARK, error_page_view, errors_table
from accord.model import Corpus, Document, make_annotation
from accord.report.error_report import errors_delimited, errors_html
from tests.conftest import headless_dom

WORDS = ("the", "<b>New</b>", "York", "City", "&", "Co", "met", "Bob")


def corpus(spans):
    return Corpus([Document("d1", tuple(make_annotation(l, s, e) for l, s, e in spans), tokens=WORDS,
                            sentences=((0, len(WORDS)),))])


GOLD = corpus([("LOC", 1, 4), ("ORG", 4, 6), ("PER", 7, 8)])
PRED = corpus([("LOC", 1, 3), ("LOC", 3, 4), ("<i>X</i>", 4, 6)])


def evaluation():
    ev = evaluate_spans(GOLD, PRED)
    return ev, error_table(ev, "gold") + error_table(ev, "pred")


def test_tsv_and_csv_mark_the_context_with_emoji():
    ev, rows = evaluation()
    text = errors_delimited(errors_table(ev, rows), "\t")
    table = list(csv.DictReader(io.StringIO(text), delimiter="\t"))
    assert list(table[0]) == list(ERROR_COLUMNS)
    tiling = table[0]
    assert (tiling["kind"], tiling["class"], tiling["text"]) == ("FN", "tiling", "<b>New</b> York City")
    y, b = PROBLEM_MARK, OTHER_MARK
    assert tiling["context"] == f"the {y}{b}<b>New</b> York{b} {b}City{b}{y} & Co met Bob"
    missed = [r for r in table if r["text"] == "Bob"][0]
    assert missed["class"] == "FN" and missed["context"].endswith(f"met {y}Bob{y}")
    assert all(r["note"] == "" for r in table)
    same = list(csv.DictReader(io.StringIO(errors_delimited(errors_table(ev, rows), ","))))
    assert same == table


def rows_of(dom):
    return re.findall(r'<tr class="eb-row (FN|FP)">(.*?)</tr>', dom, re.S)


def test_html_page_draws_every_error_with_both_sides_and_escaped_text(tmp_path):
    ev, rows = evaluation()
    page = tmp_path / "errors.html"
    page.write_text(errors_html(error_page_view(ev, rows)), encoding="utf-8")
    source = page.read_text()
    # the user's text is never markup: escaped in the embedded data and in what the script draws
    assert "<b>New</b>" not in source and "<i>X</i>" not in source
    dom, console_errors = headless_dom(page)
    assert console_errors == []
    drawn = rows_of(dom)
    # FN: the tiled LOC, the ORG with a wrong label, Bob; FP: New, York (each inside the LOC), the X label
    assert [kind for kind, _ in drawn] == [r.kind for r in rows] and len(drawn) == 6
    assert "errors 1\u20136 of 6 matching" in dom
    tiled = drawn[0][1]
    # the gold line boxes the problem span (the LOC over New York City), the predicted line both LOC spans
    gold_line, pred_line = re.findall(r'<span class="eb-text">(.*?)</span></div>', tiled)
    assert re.search(r'<span class="eb-span eb-problem" title="LOC">&lt;b&gt;New&lt;/b&gt; York City<sup>LOC</sup>',
                     gold_line)
    assert pred_line.count('class="eb-span"') == 3 and "eb-problem" not in pred_line    # New, York, the X span
    assert "&lt;i&gt;X&lt;/i&gt;</sup>" in pred_line


def test_filters_from_the_address_change_the_rows_drawn(tmp_path):
    ev, rows = evaluation()
    page = tmp_path / "errors.html"
    page.write_text(errors_html(error_page_view(ev, rows)), encoding="utf-8")
    for fragment, expected in (("kind=FP", ["FP"] * 3), ("kind=FN&label=ORG", ["FN"]), ("class=tiling", ["FN"]),
                               ("label=%3Ci%3EX%3C%2Fi%3E", ["FP"]), ("label=NOPE", [])):
        dom, console_errors = headless_dom(page, fragment)
        assert console_errors == []
        assert [kind for kind, _ in rows_of(dom)] == expected, fragment
    dom, _ = headless_dom(page, "label=NOPE")
    assert "no error matches (of 6)" in dom


def test_pages_of_rows_and_character_documents(tmp_path):
    text = "Ann met Bob in Rome. " * 40
    gold = Corpus([Document("c", tuple(make_annotation("PER", k * 21, k * 21 + 3) for k in range(40)), text=text)])
    pred = Corpus([Document("c", (), text=text)])
    ev = evaluate_spans(gold, pred)
    rows = error_table(ev, "gold")
    page = tmp_path / "chars.html"
    page.write_text(errors_html(error_page_view(ev, rows), page_size=50), encoding="utf-8")
    dom, console_errors = headless_dom(page, "size=50&page=1")
    assert console_errors == [] and len(rows_of(dom)) == 40
    first = rows_of(dom)[0][1]
    # characters joined as they are in the text, the problem span boxed
    assert '<span class="eb-span eb-problem" title="PER">Ann<sup>PER</sup></span> met Bob in Rome.' in first
    small = tmp_path / "small.html"
    small.write_text(errors_html(error_page_view(ev, rows), page_size=50), encoding="utf-8")
    # 40 rows, 50 per page: one page; with a document filter that matches nothing, none
    dom, _ = headless_dom(small, "document=zzz")
    assert rows_of(dom) == []


def test_accord_errors_command(tmp_path, capsys):
    gold = tmp_path / "gold.vrt"
    pred = tmp_path / "pred.vrt"
    head = "<!-- #vrt positional-attributes: word id ner -->\n<text id=\"a\">\n<s>\n"
    gold.write_text(head + "New\tw1\tB-LOC\nYork\tw2\tI-LOC\nBob\tw3\tB-PER\n</s>\n</text>\n")
    pred.write_text(head + "New\tw1\tB-LOC\nYork\tw2\tB-LOC\nBob\tw3\tO\n</s>\n</text>\n")
    html, tsv = tmp_path / "e.html", tmp_path / "e.tsv"
    assert main(["errors", str(gold), str(pred), "--columns", "ner", "--token-id-column", "id",
                 "--html", str(html), "--tsv", str(tsv)]) == 0
    assert "2 false negatives and 2 false positives at leniency 1 (labelled)" in capsys.readouterr().err
    table = list(csv.DictReader(tsv.open(encoding="utf-8"), delimiter="\t"))
    assert [(r["kind"], r["class"], r["text"], r["token_id_start"]) for r in table] == [
        ("FN", "tiling", "New York", "w1"), ("FP", "superset", "New", "w1"), ("FP", "superset", "York", "w2"),
        ("FN", "FN", "Bob", "w3")]
    assert main(["errors", str(gold), str(pred), "--columns", "ner", "--leniency", "tiling", "--only", "fn"]) == 0
    out = list(csv.DictReader(io.StringIO(capsys.readouterr().out), delimiter="\t"))
    assert [r["text"] for r in out] == ["Bob"]
