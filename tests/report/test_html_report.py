"""The one-page HTML report (accord report, score --html), opened in headless Chromium."""

from __future__ import annotations

import re

from accord.cli import main

from ..conftest import headless_dom, screenshot
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
    # the document tables are drawn from their data, the first 50 of the 231 documents
    assert dom.count('<table class="lazy-table documents"') == 2 and dom.count("50 of 231 shown") == 2
    assert screenshot(page, "report-two-systems.png").stat().st_size > 10_000


def status(dom):
    return re.search(r'id="eb-status">([^<]*)<', dom).group(1)


def test_report_confusion_changes_and_error_filters(tmp_path, capsys, recwarn):
    import accord
    from accord.clueval import evaluate_spans, span_confusion
    from accord.clueval._browser import error_changes, error_rows

    worse = worse_copy(tmp_path)
    page = tmp_path / "report.html"
    assert main(["report", CONLL_GOLD, CONLL_PRED, worse, "--samples", "200", "--bootstrap", "0",
                 "-o", str(page)]) == 0
    evaluations = {name: evaluate_spans(*accord.score(CONLL_GOLD, path).corpora)
                   for name, path in (("xlm_flert", CONLL_PRED), ("worse", worse))}
    rows = {name: error_rows(ev) for name, ev in evaluations.items()}
    (changes,) = error_changes(rows)
    dom, errors = headless_dom(page)
    assert errors == []
    # each system's confusion matrix as span_confusion counts it (checked against all pairs in its own test)
    tables = re.findall(r'<table class="confusion">(.*?)</table>', dom, re.S)
    assert len(tables) == 2
    for table, ev in zip(tables, evaluations.values()):
        cells = [int(n) for n in re.findall(r'<td class="num" style="[^"]*" title="[^"]*">(\d+)</td>', table)]
        assert cells == span_confusion(ev).counts.ravel().tolist()
    row = re.search(r'<table id="changes-table">.*?<td>worse</td>(.*?)</tr>', dom, re.S).group(1)
    numbers = [int(n) for n in re.findall(r'<td class="num">([+-]?\d+)</td>', row)]
    assert numbers == [changes.fixed["FN"], changes.fixed["FP"], changes.broken["FN"], changes.broken["FP"],
                       sum(changes.fixed.values()) - sum(changes.broken.values())]
    total = sum(len(r) for r in rows.values())
    assert f"of {total} matching ({total} in all)" in status(dom) and len(re.findall('<tr class="eb-row (?:FN|FP)">', dom)) == 100
    # the filters, given in the address as a shared link would give them
    broken = sum(changes.broken.values())
    fixed = sum(changes.fixed.values())
    dom, errors = headless_dom(page, "system=worse&change=new")
    assert errors == [] and f"of {broken} matching" in status(dom)
    assert len(re.findall('<small class="eb-change">broken</small></td>', dom)) == 100
    dom, _ = headless_dom(page, "change=fixed&size=500")
    assert f"errors 1\u2013{fixed} of {fixed} matching" in status(dom)
    assert len(re.findall('<small class="eb-change">fixed by worse</small></td>', dom)) == fixed
    per = sum(r.kind == "FN" and r.label == "PER" for r in rows["xlm_flert"])
    dom, _ = headless_dom(page, "system=xlm_flert&kind=FN&label=PER")
    assert f"of {per} matching" in status(dom)
    assert screenshot(page, "report-errors-broken.png", "system=worse&change=new").exists()


def test_report_in_the_clueval_and_semeval_modes(tmp_path, capsys, recwarn):
    worse = worse_copy(tmp_path)
    page = tmp_path / "clueval.html"
    assert main(["report", CONLL_GOLD, CONLL_PRED, worse, "--match", "clueval", "--leniency", "overlap",
                 "--samples", "200", "--bootstrap", "50", "-o", str(page)]) == 0
    dom, errors = headless_dom(page)
    assert errors == [] and dom.count('<table class="classes">') == 2
    assert "Errors at leniency 4" in dom
    counts = re.search(r'<table id="counts-table">(.*?)</table>', dom, re.S).group(1)
    assert counts.count("<tr>") == 1 + 2 * 8 and "false_negatives" in counts    # 8 measures a system
    from accord import score

    level4 = score(CONLL_GOLD, CONLL_PRED, match="clueval", leniency=4)
    fn, fp = (level4.measures["overlap"].totals()[k] for k in ("false_negatives", "false_positives"))
    dom, _ = headless_dom(page, "system=xlm_flert")
    assert f"of {fn + fp} matching" in status(dom)
    page = tmp_path / "semeval.html"
    assert main(["report", CONLL_GOLD, CONLL_PRED, "--match", "semeval", "--bootstrap", "0", "-o", str(page)]) == 0
    dom, errors = headless_dom(page)
    counts = re.search(r'<table id="counts-table">(.*?)</table>', dom, re.S).group(1)
    assert errors == [] and counts.count("<tr>") == 1 + 4 and "incorrect" in counts and "partial" in counts


def test_report_says_why_there_is_no_error_browser(tmp_path, capsys, recwarn):
    gold, pred = tmp_path / "g.jsonl", tmp_path / "p.jsonl"
    nested = '{"id": "d", "text": "New York City", "annotations": [{"label": "LOC", "start": 0, "end": 13}, ' \
             '{"label": "LOC", "start": 0, "end": 8}]}\n'
    gold.write_text(nested, encoding="utf-8")
    pred.write_text(nested, encoding="utf-8")
    page = tmp_path / "nested.html"
    assert main(["report", str(gold), str(pred), "--bootstrap", "0", "-o", str(page)]) == 0
    dom, errors = headless_dom(page)
    assert errors == [] and '<p class="note">No error browser or confusion matrix: ' in dom and "overlap" in dom


def test_score_html_writes_the_report_of_one_result(tmp_path, capsys, recwarn):
    page = tmp_path / "one.html"
    assert main(["score", CONLL_GOLD, CONLL_PRED, "--bootstrap", "100", "--seed", "1", "--html", str(page),
                 "--output", "json"]) == 0
    capsys.readouterr()
    dom, errors = headless_dom(page)
    assert errors == [] and "xlm_flert" in dom and 'id="comparison-table"' not in dom
