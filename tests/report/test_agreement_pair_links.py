"""The agreement page's annotator matrix links each cell to the annotations of its pair: the disagreement browser
filtered to the stretches where the two annotators' spans differ (issue 44, item 8), in headless Chromium."""

import re
from html.parser import HTMLParser

from accord.cli import main
from accord.report._csp import script_hash

from ..conftest import headless_dom
from .test_agreement_page import shown_stretches


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs, self.ids, self.pairs = [], [], []
        self._in_pair = False

    def handle_starttag(self, tag, attrs):
        d = dict(attrs)
        if d.get("id"):
            self.ids.append(d["id"])
        if tag == "a" and (d.get("href") or "").startswith("#"):
            self.hrefs.append(d["href"][1:])
        if tag == "select":
            self._in_pair = d.get("name") == "pair"
        if tag == "option" and self._in_pair and d.get("value"):
            self.pairs.append(d["value"])


def _page(tmp_path, monkeypatch):
    from tests.agreement.test_disputes import three_annotators

    monkeypatch.chdir(tmp_path)
    page = tmp_path / "agree.html"
    assert main(["agree", *three_annotators(tmp_path), "--html", str(page), "-q"]) == 0
    return page


# By hand (tests/agreement/test_disputes.py): the disputed stretches 0-15 (ann1 PER 0-15, ann2 PER 0-5, ann3 PER
# 0-15), 35-42 (LOC, LOC, ORG) and 48-62 (PER, PER, nothing): ann1 and ann2 differ on 0-15 only, ann1 and ann3 on
# 35-42 and 48-62, ann2 and ann3 on all three.
BY_PAIR = {"0-1": ["0–15"], "0-2": ["35–42", "48–62"], "1-2": ["0–15", "35–42", "48–62"]}


def test_matrix_cells_link_to_the_pairs_disputes(tmp_path, monkeypatch, capsys):
    page = _page(tmp_path, monkeypatch)
    html = page.read_text(encoding="utf-8")
    links = _Links()
    links.feed(html)
    # every link within the page resolves: an element's id, or a pair the browser's filter holds
    for href in links.hrefs:
        if href.startswith("pair="):
            assert href[5:] in links.pairs, href
        else:
            assert href in links.ids, href
    cells = re.findall(r'<a class="dp-pair" href="#pair=(\d-\d)"', html)
    assert sorted(cells) == sorted(["0-1", "0-2", "1-2"] * 2)   # each pair from its row and from its column
    assert links.pairs == ["0-1", "0-2", "1-2"]
    for pair, expected in [*BY_PAIR.items(), ("0-9", [])]:
        dom, errors = headless_dom(page, f"pair={pair}")
        assert errors == [], pair
        assert shown_stretches(dom) == expected, pair
        assert f"{len(expected)} of 3 stretches shown" in dom, pair
    dom, errors = headless_dom(page, "pair=1-2&label=ORG")
    assert errors == [] and shown_stretches(dom) == ["35–42"]


def test_a_click_on_a_matrix_cell_filters_the_browser(tmp_path, monkeypatch, capsys):
    """The page already open: a click on the cell's link (a change of the address's fragment) applies the filter."""
    page = _page(tmp_path, monkeypatch)
    html = page.read_text(encoding="utf-8")
    click = 'document.querySelector(\'a.dp-pair[href="#pair=0-2"]\').click();'
    policy = "script-src "
    assert html.count(policy) == 1
    html = html.replace(policy, policy + script_hash(click) + " ")
    html = html.replace("</body>", f"<script>{click}</script></body>")
    clicked = tmp_path / "clicked.html"
    clicked.write_text(html, encoding="utf-8")
    dom, errors = headless_dom(clicked)
    assert errors == []
    assert shown_stretches(dom) == BY_PAIR["0-2"] and "2 of 3 stretches shown" in dom
