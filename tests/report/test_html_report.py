"""The one-page HTML report (accord report, score --html), opened in headless Chromium."""

from __future__ import annotations

import re

from accord.cli import main

from ..conftest import headless_dom
from ..result.commands import CONLL_GOLD, CONLL_PRED, worse_copy


def test_report_of_two_systems_in_a_browser(tmp_path, capsys, recwarn):
    page = tmp_path / "report.html"
    assert main(["report", CONLL_GOLD, CONLL_PRED, worse_copy(tmp_path), "--samples", "500", "--bootstrap", "200",
                 "-o", str(page)]) == 0
    assert "written to" in capsys.readouterr().err
    html = page.read_text(encoding="utf-8")
    # self-contained: no script, style, image or link fetched from anywhere
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)
    dom, errors = headless_dom(page)
    assert errors == [] and 'data-ready="yes"' in dom
    summary = re.search(r'<table id="summary-table".*?</table>', dom, re.S).group(0)
    assert summary.count("<tr>") == 1 + 2 and "93.69" in summary and "[92." in summary   # F1 with its interval
    comparisons = re.search(r'<table id="comparison-table".*?</table>', dom, re.S).group(0)
    assert comparisons.count('class="significant"') == 5 and "**" in comparisons     # ALL and four labels
    for label in ("LOC", "MISC", "ORG", "PER"):
        assert f"<td>{label}</td>" in dom
    assert dom.count('class="sortable-table documents"') == 2


def test_score_html_writes_the_report_of_one_result(tmp_path, capsys, recwarn):
    page = tmp_path / "one.html"
    assert main(["score", CONLL_GOLD, CONLL_PRED, "--bootstrap", "100", "--seed", "1", "--html", str(page),
                 "--output", "json"]) == 0
    capsys.readouterr()
    dom, errors = headless_dom(page)
    assert errors == [] and "xlm_flert" in dom and 'id="comparison-table"' not in dom
