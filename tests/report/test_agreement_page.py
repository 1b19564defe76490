"""accord agree --html: the coefficients with their intervals beside the annotator matrix, in headless Chromium."""

import re
from pathlib import Path

from accord.cli import main

from ..conftest import headless_dom, screenshot
from ..result.contract import checked

GATE = Path(__file__).parent.parent / "data" / "gate"


def coefficient_cells(dom):
    """``{coefficient: (value text, interval text or None)}`` of the coefficients table."""
    rows = re.findall(r'<tr data-coefficient="([^"]+)"><td>[^<]*</td><td class="num"[^>]*>([^<]*)'
                      r'(?:<small class="ci">([^<]*)</small>)?', dom)
    return {name: (value.strip(), ci or None) for name, value, ci in rows}


def test_sets_page_shows_the_bootstrap_intervals_and_the_matrix(tmp_path, capsys):
    page, out = tmp_path / "agree.html", tmp_path / "agree.json"
    assert main(["agree", str(GATE / "beijing-opera.xml"), "--sets", "ann1,ann2,ann3", "--types", "sent",
                 "--feature", "Op", "--bootstrap", "300", "--seed", "4", "--html", str(page), "-o", str(out)]) == 0
    data = checked(out.read_text(encoding="utf-8"))
    dom, errors = headless_dom(page)
    assert errors == [] and 'data-ready="yes"' in dom
    cells = coefficient_cells(dom)
    totals = data["totals"]
    assert list(cells) == list(totals["coefficients"])
    for name, v in totals["coefficients"].items():
        value = v["mean"] if isinstance(v, dict) else v
        lo, hi = totals["ci"][name]
        assert cells[name] == (f"{value:.4f}", f"[{lo:.3f}, {hi:.3f}]"), name
    # the annotator matrix beside them: six pair cells, three averages, and each pair's counts
    assert dom.count('class="cell"') == 3 * 2 + 3 and dom.count('<table class="pair">') == 3
    assert "resamples" in dom and "300 resamples, seed 4" in dom
    assert screenshot(page, "agreement.png").exists()


def test_gate_convention_page_shows_gates_numbers(tmp_path, capsys):
    """GATE's TestClassificationMeasures: ann1 against ann2 on beijing-opera.xml, sent/Op, coextensive pairs:
    observed agreement 0.7777778, Cohen's kappa 0.6086957, Scott's pi 0.59550565 (gate-core's own assertions)."""
    page = tmp_path / "qa.html"
    assert main(["agree", str(GATE / "beijing-opera.xml"), "--sets", "ann1,ann2", "--types", "sent", "--feature",
                 "Op", "--convention", "corpus-qa", "--html", str(page), "-q"]) == 0
    dom, errors = headless_dom(page)
    assert errors == []
    assert coefficient_cells(dom) == {"observed_agreement": ("0.7778", None), "cohen_kappa": ("0.6087", None),
                                      "scott_pi": ("0.5955", None)}
    assert "corpus-qa convention" in dom and 'id="documents-table"' in dom


def test_ratings_page_has_coefficients_and_no_matrix(tmp_path, capsys):
    ratings = tmp_path / "r.csv"
    # two raters, six items: they agree on four (a a, b b, a a, c c) and differ on two
    ratings.write_text("item,r1,r2\n1,a,a\n2,b,b\n3,a,b\n4,a,a\n5,c,c\n6,b,c\n", encoding="utf-8")
    page = tmp_path / "ratings.html"
    assert main(["agree", str(ratings), "--items", "item", "--html", str(page), "-q"]) == 0
    dom, errors = headless_dom(page)
    cells = coefficient_cells(dom)
    assert errors == [] and "Annotator matrix" not in dom
    assert cells["observed_agreement"] == ("0.6667", None)          # 4 of 6
    # Cohen's kappa by hand: p_o = 4/6; r1 marginals a 3, b 2, c 1; r2 a 2, b 2, c 2: p_e = (6 + 4 + 2) / 36
    p_e = 12 / 36
    assert cells["cohen_kappa"] == (f"{(4 / 6 - p_e) / (1 - p_e):.4f}", None)


def test_page_without_an_item_count_names_no_items(tmp_path, capsys):
    """GATE's IAA convention counts no items: the page's first sentence names the annotators and the convention, not
    a count of items (it showed ``<built-in method items of dict object at 0x...> items``: the template read the
    dict's method where the key is absent)."""
    page = tmp_path / "iaa.html"
    assert main(["agree", str(GATE / "beijing-opera.xml"), "--sets", "ann1,ann2,ann3", "--types", "sent",
                 "--feature", "Op", "--convention", "iaa", "--html", str(page), "-o", str(tmp_path / "o.json")]) == 0
    html = page.read_text(encoding="utf-8")
    assert "built-in method" not in html and " items, " not in html
    assert re.search(r"<p>3 annotators \(ann1, ann2, ann3\);", html)
