"""Error table renderings: emoji-marked spreadsheet files and the HTML page in headless Chromium."""

import csv
import io
import re

from accord.cli import main
from accord.clueval import error_table, evaluate_spans
from accord.model import Corpus, Document, make_annotation
from accord.report.error_report import ERROR_COLUMNS, OTHER_MARK, PROBLEM_MARK, errors_delimited, errors_html
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
    text = errors_delimited(ev, rows, "\t")
    table = list(csv.DictReader(io.StringIO(text), delimiter="\t"))
    assert list(table[0]) == list(ERROR_COLUMNS)
    tiling = table[0]
    assert (tiling["kind"], tiling["class"], tiling["text"]) == ("FN", "tiling", "<b>New</b> York City")
    y, b = PROBLEM_MARK, OTHER_MARK
    assert tiling["context"] == f"the {y}{b}<b>New</b> York{b} {b}City{b}{y} & Co met Bob"
    missed = [r for r in table if r["text"] == "Bob"][0]
    assert missed["class"] == "FN" and missed["context"].endswith(f"met {y}Bob{y}")
    assert all(r["note"] == "" for r in table)
    same = list(csv.DictReader(io.StringIO(errors_delimited(ev, rows, ","))))
    assert same == table


def test_html_page_loads_in_chromium_with_one_row_per_error_and_escaped_text(tmp_path):
    ev, rows = evaluation()
    page = tmp_path / "errors.html"
    page.write_text(errors_html(ev, rows), encoding="utf-8")
    source = page.read_text()
    assert "<b>New</b>" not in source and "&lt;b&gt;New&lt;/b&gt;" in source
    assert "<i>X</i>" not in source
    dom, console_errors = headless_dom(page)
    assert console_errors == []
    # FN: the tiled LOC, the ORG with a wrong label, Bob; FP: New, York (each inside the LOC), the X label
    assert len(re.findall(r'<tr class="error (?:FN|FP)"', dom)) == len(rows) == 6
    # the script ran: the counter shows every row
    assert re.search(r'<span id="shown">6</span>', dom)
    # highlighted spans carry their labels in tooltips
    # (older DOM serializers leave < unescaped inside attribute values: it is text there, not markup)
    assert 'title="gold: LOC; predicted: LOC"' in dom
    assert re.search(r'title="predicted: (&lt;|<)i(&gt;|>)X(&lt;|<)/i(&gt;|>); gold: ORG"', dom)
    assert "<i>X</i></span>" not in dom and 'title="predicted: &lt;i&gt;X&lt;/i&gt;; gold: ORG"' in source


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
