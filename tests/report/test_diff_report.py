"""The Annotation Diff outputs: Corpus QA tables, CSV and the HTML page (in headless Chromium)."""

import csv
import io
from html.parser import HTMLParser
from pathlib import Path

import pytest

from accord.diff import diff_corpora
from accord.diff._qa import qa_table
from accord.diff._result import diff_result
from accord.diff._views import diff_view, qa_result_table
from accord.model import Corpus, Document
from accord.model import make_annotation as A
from accord.report.diff_report import diff_html, render_qa

from ..conftest import headless_dom

TEXT = "Alice met <Bob> & Carol in Paris on Monday."


def corpus_pair():
    key = Corpus([
        Document("d1", (A("PER", 0, 5), A("PER", 10, 15, {"g": "m"}), A("LOC", 27, 32)), TEXT),
        Document("d2", (A("PER", 0, 5),), TEXT),
        Document("d3", (), TEXT),
    ])
    resp = Corpus([
        Document("d1", (A("PER", 0, 5), A("PER", 10, 15, {"g": "f"}), A("LOC", 26, 32), A("PER", 36, 42)), TEXT),
        Document("d2", (), TEXT),
        Document("d3", (), TEXT),
    ])
    return key, resp


def test_qa_rows_micro_and_macro_by_hand():
    key, resp = corpus_pair()
    cd = diff_corpora(key, resp, features=["g"])
    by_type = qa_table(cd, "type", ("strict", "lenient"))
    rows = {n: c for n, c in by_type.rows}
    # LOC: one partial. PER: d1 one correct, one mismatch (m+s), one spurious; d2 one missing
    assert (rows["LOC"].correct, rows["LOC"].partial) == (0, 1)
    assert (rows["PER"].correct, rows["PER"].missing, rows["PER"].spurious) == (1, 2, 2)
    assert by_type.micro.keys == 4 and by_type.micro.responses == 4
    # macro: mean over the rows; strict P: LOC 0/1, PER 1/3; lenient R: LOC 1/1, PER 1/3
    assert by_type.macro["strict"][0] == pytest.approx((0 + 1 / 3) / 2)
    assert by_type.macro["lenient"][1] == pytest.approx((1 + 1 / 3) / 2)
    by_doc = qa_table(cd, "document", ("strict",))
    docs = {n: c for n, c in by_doc.rows}
    assert docs["d3"].keys == docs["d3"].responses == 0
    # d3 has nothing on either side: it scores 1.0 and counts in the macro mean, as in Corpus QA
    assert by_doc.macro["strict"][2] == pytest.approx((docs["d1"].f() + 0.0 + 1.0) / 3)
    summary = diff_result(cd, ("average",), 1.0).to_dict()["measures"]["average"]
    assert summary["totals"]["correct"] == 1 and summary["by_document_label"]["d2"]["PER"]["missing"] == 1
    assert summary["macro"]["f1"] == qa_table(cd, "type", ("average",)).macro["average"][2]
    assert summary["macro_by_document"]["f1"] == qa_table(cd, "document", ("average",)).macro["average"][2]


def test_csv_and_terminal_table():
    key, resp = corpus_pair()
    cd = diff_corpora(key, resp)
    rows = list(csv.DictReader(io.StringIO(diff_result(cd, ("strict",), 1.0).to_csv())))
    assert (rows[0]["document"], rows[0]["group"], rows[0]["gold"]) == ("<all>", "all", "4")
    # every document lists every type (GATE's empty cells score 1.0)
    assert {(r["document"], r["row"]) for r in rows if r["group"] == "label"} == {
        (d, t) for d in ("<all>", "d1", "d2", "d3") for t in ("LOC", "PER")}
    from rich.console import Console

    console = Console(file=io.StringIO(), width=200)
    render_qa(qa_result_table(qa_table(cd, "type", ("strict", "lenient", "average"))), console)
    out = console.file.getvalue()
    assert "Micro summary" in out and "F1.a" in out


class _Rows(HTMLParser):
    def __init__(self):
        super().__init__()
        self.outcomes = []

    def handle_starttag(self, tag, attrs):
        d = dict(attrs)
        if tag == "tr" and "data-outcome" in d:
            self.outcomes.append(d["data-outcome"])


def test_html_page_rows_escaping_and_chromium(tmp_path):
    key, resp = corpus_pair()
    cd = diff_corpora(key, resp, features=["g"])
    html = diff_html(diff_view(cd, ("strict", "lenient", "average"), 1.0), title="key <vs> response")
    parser = _Rows()
    parser.feed(html)
    assert sorted(parser.outcomes) == ["correct", "mismatch", "missing", "partial", "spurious"]
    assert "&lt;Bob&gt;" in html and "<Bob>" not in html and "key &lt;vs&gt; response" in html
    page = tmp_path / "diff.html"
    page.write_text(html, encoding="utf-8")
    dom, errors = headless_dom(page)
    assert errors == []
    assert dom.count('data-outcome="') == 5
    assert "Micro summary" in dom and "Macro summary" in dom


def test_html_page_of_gate_documents_in_chromium(tmp_path):
    from accord.formats import read

    doc = Path(__file__).parent.parent / "data" / "gate" / "beijing-opera.xml"
    cd = diff_corpora(read(doc, annotation_set="ann1"), read(doc, annotation_set="ann2"), features=["Op"])
    page = tmp_path / "diff.html"
    page.write_text(diff_html(diff_view(cd, ("strict",), 1.0)), encoding="utf-8")
    dom, errors = headless_dom(page)
    assert errors == []
    expected = sum(len(td.rows) for types in cd.diffs.values() for td in types.values())
    assert dom.count('data-outcome="') == expected > 30
