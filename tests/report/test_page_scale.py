"""The error page of a 1.4 million-token corpus: under 5 MB, its first page of errors drawn in under 2 s in
headless Chromium (the page before the error browser: 10.6 MB and 11 s on this machine class)."""

import re

from accord.clueval import evaluate_spans
from accord.clueval._browser import error_rows
from accord.clueval._error_rows import error_page_view
from accord.formats import read
from accord.model import Corpus
from accord.report.error_report import errors_html

from ..conftest import DATA, headless_dom

TOKENS = 1_400_000


def repeated(path, copies):
    corpus = read(path)
    return Corpus([d._replace(id=f"{k}:{d.id}") for k in range(copies) for d in corpus.values()])


def test_error_page_of_a_million_tokens_is_small_and_opens_at_once(tmp_path, recwarn):
    per_copy = sum(len(d.tokens) for d in read(DATA / "conll03" / "gold.conll").values())
    copies = -(-TOKENS // per_copy)
    gold = repeated(DATA / "conll03" / "gold.conll", copies)
    pred = repeated(DATA / "conll03" / "xlm_flert.conll", copies)
    ev = evaluate_spans(gold, pred)
    rows = error_rows(ev)
    page = tmp_path / "errors.html"
    page.write_text(errors_html(error_page_view(ev, rows)), encoding="utf-8")
    assert page.stat().st_size < 5_000_000
    dom, errors = headless_dom(page)
    assert errors == [] and len(re.findall('<tr class="eb-row (?:FN|FP)">', dom)) == 100
    assert f"of {len(rows)} matching" in dom
    assert 'data-encoding="gzip+base64"' in page.read_text(encoding="utf-8")
    ready_ms = int(re.search(r'data-errors-ready-ms="(\d+)"', dom).group(1))
    assert ready_ms < 2000, f"the page took {ready_ms} ms to draw its first errors"
