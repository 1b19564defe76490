"""The annotator matrix page: colours, cells, links, and loading in headless Chromium."""

import re
from pathlib import Path

import pytest

from accord.agreement._matrix import matrix_view
from accord.agreement._spans import span_agreement
from accord.formats import read
from accord.model import Corpus
from accord.report.agreement_matrix import cell_colour, matrix_html

from ..conftest import headless_dom

GATE = Path(__file__).parent.parent / "data" / "gate"
NAMES = ["ann1", "ann2", "ann3"]


def agreement():
    docs = [GATE / "beijing-opera.xml", GATE / "beijing-opera-2.xml"]
    corpora = [Corpus([read(d, annotation_set=n).documents[0] for d in docs]) for n in NAMES]
    return span_agreement(corpora, NAMES, types=["Os", "sent"], feature={"sent": "Op"})


def test_colour_scale():
    assert cell_colour(1.0) == "rgba(0,150,0,1.000)"
    assert cell_colour(0.5) == "rgba(0,150,0,0.000)"     # white
    assert cell_colour(0.0) == "rgba(150,0,0,1.000)"
    assert cell_colour(0.25) == "rgba(150,0,0,0.500)"
    assert cell_colour(float("nan")) == "transparent"


def test_pairs_are_symmetric_in_f_and_swap_precision_and_recall():
    sa = agreement()
    ab, ba = sa.counts("ann1", "ann2"), sa.counts("ann2", "ann1")
    assert (ab.missing, ab.spurious) == (ba.spurious, ba.missing)
    assert ab.precision() == ba.recall() and sa.f("ann1", "ann2") == pytest.approx(sa.f("ann2", "ann1"))
    # micro: summed over both documents and both types; by hand from the IAA per-pair counts
    # (Os 2/1/2/0 and 1/1/2/2, sent 7/0/2/2 and 7/0/5/2 as c/p/m/s)
    assert (ab.correct, ab.partial, ab.missing, ab.spurious) == (17, 2, 11, 6)


def test_matrix_page_in_chromium(tmp_path):
    sa = agreement()
    html = matrix_html(matrix_view(sa, "lenient"))
    page = tmp_path / "matrix.html"
    page.write_text(html, encoding="utf-8")
    f12 = sa.f("ann1", "ann2", "lenient")
    assert f"{f12:.4f}" in html
    anchors = set(re.findall(r'href="#([^"]+)"', html))
    assert len(anchors) == 3 and all(f'id="{a}"' in html for a in anchors)
    dom, errors = headless_dom(page)
    assert errors == []
    assert dom.count('class="cell"') == 3 * 2 + 3     # six pair cells, three averages
