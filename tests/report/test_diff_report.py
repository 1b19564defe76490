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


class _Links(HTMLParser):
    """The page's ``href="#..."`` targets and its element ids."""

    def __init__(self):
        super().__init__()
        self.hrefs, self.ids = [], []

    def handle_starttag(self, tag, attrs):
        d = dict(attrs)
        if d.get("id"):
            self.ids.append(d["id"])
        if tag == "a" and (d.get("href") or "").startswith("#"):
            self.hrefs.append(d["href"][1:])


HOSTILE = ['"><script>alert(1)</script>', "a b", "a-b", "", "é/ü?#x"]
"""Document ids that are data: markup, spaces, ids whose readable parts coincide, the empty id, non-ASCII."""


def test_anchor_ids_are_safe_and_unique():
    from accord.diff._views import anchor_id

    ids = [anchor_id("doc", k, name) for k, name in enumerate(HOSTILE)]
    assert ids == ["doc-0-script-alert-1-script", "doc-1-a-b", "doc-2-a-b", "doc-3", "doc-4-x"]
    import re

    assert all(re.fullmatch(r"[A-Za-z0-9_-]+", x) for x in ids)


def test_text_context_by_hand():
    from accord.diff._views import text_context

    # TEXT[26:32] is " Paris", TEXT[27:32] "Paris": 3 characters each side of 26..32 are "in" + " " and " on"
    ctx = text_context(TEXT, A("LOC", 27, 32), A("LOC", 26, 32), around=3)
    assert ctx == {"parts": [[(" in", ""), (" ", "b"), ("Paris", "ab"), (" on", "")]], "skipped": 0,
                   "before": True, "after": True}
    # a key alone at the start of the text: nothing before it
    assert text_context(TEXT, A("PER", 0, 5), None, around=4) == {
        "parts": [[("Alice", "a"), (" met", "")]], "skipped": 0, "before": False, "after": True}
    # an extent longer than `middle` shows its first and last middle // 2 characters: 0..10 and 33..43 of 0..43
    long = text_context(TEXT, A("S", 0, 43), None, around=5, middle=20)
    assert long == {"parts": [[("Alice met ", "a")], [("on Monday.", "a")]], "skipped": 23, "before": False,
                    "after": False}
    assert text_context(None, A("PER", 0, 5), None) is None
    assert text_context(TEXT, A("REL", None, None), None) is None


def test_qa_rows_link_to_their_documents_and_rows_show_context_in_chromium(tmp_path):
    from accord.diff._views import DOCUMENT_SHOWN

    long_text = "x" * (DOCUMENT_SHOWN + 123)
    key = Corpus([Document(d, (A("PER", 0, 5),), TEXT) for d in HOSTILE[:4]]
                 + [Document(HOSTILE[4], (A("PER", 3, 7),), long_text), Document("empty", (), TEXT)])
    resp = Corpus([Document(d, (A("PER", 0, 5), A("LOC", 27, 32)), TEXT) for d in HOSTILE[:4]]
                  + [Document(HOSTILE[4], (), long_text), Document("empty", (), TEXT)])
    cd = diff_corpora(key, resp)
    html = diff_html(diff_view(cd, ("strict",), 1.0))
    links = _Links()
    links.feed(html)
    assert len(links.ids) == len(set(links.ids))
    assert set(links.hrefs) <= set(links.ids)
    # every document (the one without annotations too) has an anchor that its QA row links to (5 cells each), and
    # each type one that its by-type row links to
    assert len(set(links.hrefs)) == 6 + 2 and len(links.hrefs) == 6 * 5 + 2 * 5
    assert "<script>alert" not in html
    assert f"{123} more characters" in html and html.count("x" * DOCUMENT_SHOWN) == 1
    assert "x" * (DOCUMENT_SHOWN + 1) not in html
    page = tmp_path / "diff.html"
    page.write_text(html, encoding="utf-8")
    target = links.hrefs[-1]
    dom, errors = headless_dom(page, target)
    assert errors == []
    assert f'id="{target}"' in dom and dom.count('data-outcome="') == 9
    # the decisions the adjudication script writes: one line per row, the context column adds none
    assert dom.split('id="decisions-preview">')[1].split("</pre>")[0].count("\n") == 1 + 9
    assert dom.count('<details class="context">') == 9 and '<mark class="ab">Alice</mark>' in dom
