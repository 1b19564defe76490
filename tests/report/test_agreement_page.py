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


# --- issue 39, part 4: every figure, each annotator, the disagreement browser -------------------------------------

def _text(cell):
    import html

    return html.unescape(re.sub(r"<[^>]+>", "", cell)).strip()


def table_rows(dom, anchor):
    """The rows (cell texts, header row first) of the table with ``id=anchor``, or of the first table after the
    heading with ``id=anchor``."""
    at = dom.index(f'id="{anchor}"')
    start = dom.index("<table", dom.rfind("<", 0, at) if dom[dom.rfind("<", 0, at):].startswith("<table") else at)
    body = dom[start:dom.index("</table>", start)]
    return [[_text(c) for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, flags=re.S)]
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, flags=re.S)]


def shown_stretches(dom):
    """The browser's rows the filters leave visible: (document, place) of each."""
    rows = re.findall(r'<tr class="dp-row"([^>]*)>(.*?)</tr>', dom, flags=re.S)
    return [_text(re.findall(r"<td[^>]*>(.*?)</td>", body, flags=re.S)[1]).rsplit(" ", 1)[-1]
            for attrs, body in rows if "hidden" not in attrs]


def test_three_annotators_page_by_hand(tmp_path, monkeypatch, capsys):
    """Three annotators of one sentence (tests/agreement/test_disputes.py): every figure of the page counted by hand.

    Items (accord's convention: every span any annotator marked; Non-cat where one did not): 0-15 PER/Non-cat/PER,
    0-5 Non-cat/PER/Non-cat, 35-42 LOC/LOC/ORG, 48-62 PER/PER/Non-cat, 68-72 LOC/LOC/LOC. Observed agreement
    ann1~ann2 3/5, ann1~ann3 3/5, ann2~ann3 1/5. Strict F (Annotation Diff, the row annotator as key): ann1~ann2
    3 correct, 1 partial of 4 and 4: 3/4; ann1~ann3 2 correct, 2 missing, 1 spurious: P 2/3, R 2/4, F 4/7;
    ann2~ann3 1 correct, 1 partial, 2 missing, 1 spurious: P 1/3, R 1/4, F 2/7."""
    from tests.agreement.test_disputes import three_annotators

    monkeypatch.chdir(tmp_path)
    page, out = tmp_path / "agree.html", tmp_path / "agree.json"
    assert main(["agree", *three_annotators(tmp_path), "--html", str(page), "-o", str(out)]) == 0
    data = checked(out.read_text(encoding="utf-8"))
    dom, errors = headless_dom(page)
    assert errors == [] and 'data-ready="yes"' in dom and 'data-disputes-ready="yes"' in dom
    cells = coefficient_cells(dom)
    assert list(cells) == list(data["totals"]["coefficients"])
    assert cells["observed_agreement"] == (f"{(3 / 5 + 3 / 5 + 1 / 5) / 3:.4f}", None)
    # each annotator: spans, mean F of its row, mean observed agreement of its pairs, stretches where it differs
    rows = {r[0]: r for r in table_rows(dom, "annotators-table")}
    head = rows.pop("Annotator")
    col = {name: head.index(name) for name in ("spans", "F1 (strict) — mean of its row of the matrix",
                                               "observed agreement — mean of its pairs")}
    disputed = head.index("disputed stretches — where its spans are not the majority's")
    expected = {"ann1": (4, (3 / 4 + 4 / 7) / 2, 3 / 5, 0), "ann2": (4, (3 / 4 + 2 / 7) / 2, (3 / 5 + 1 / 5) / 2, 1),
                "ann3": (3, (4 / 7 + 2 / 7) / 2, (3 / 5 + 1 / 5) / 2, 2)}
    for name, (spans, f, agreement, odd) in expected.items():
        row = rows[name]
        assert (row[col["spans"]], row[disputed]) == (str(spans), str(odd)), name
        assert row[col["F1 (strict) — mean of its row of the matrix"]] == f"{f:.4f}", name
        assert row[col["observed agreement — mean of its pairs"]] == f"{agreement:.4f}", name
    # the browser: three disputed stretches of four, each annotator's spans side by side, the odd one shaded
    assert "4 stretches of overlapping spans; in 3 the" in _text(dom)
    assert shown_stretches(dom) == ["0–15", "35–42", "48–62"]
    browser = table_rows(dom, "dp-table")
    assert browser[0] == ["Document", "Text", "ann1", "ann2", "ann3"]
    assert browser[1][2:] == ["PER 0–15", "PER 0–5 “Maria”", "PER 0–15"]
    assert browser[2][2:] == ["LOC 35–42", "LOC 35–42", "ORG 35–42"]
    assert browser[3][2:] == ["PER 48–62", "PER 48–62", "nothing"]
    odd = re.findall(r'<tr class="dp-row"[^>]*>(.*?)</tr>', dom, flags=re.S)
    assert [len(re.findall(r'<td class="dp-odd">', r)) for r in odd] == [1, 1, 1]
    assert screenshot(page, "agreement-three.png", size="1280,2400").exists()


def test_the_browsers_filters_in_chromium(tmp_path, monkeypatch, capsys):
    """The filters (kept in the address): by label (a stretch where any annotator gave it) and by annotator (the
    stretches where its spans are not the majority's); a name the page does not hold matches nothing."""
    from tests.agreement.test_disputes import three_annotators

    monkeypatch.chdir(tmp_path)
    page = tmp_path / "agree.html"
    assert main(["agree", *three_annotators(tmp_path), "--html", str(page), "-q"]) == 0
    for fragment, expected in (("label=ORG", ["35–42"]), ("label=PER", ["0–15", "48–62"]),
                               ("annotator=ann3", ["35–42", "48–62"]), ("annotator=ann1", []),
                               ("label=PER&annotator=ann3", ["48–62"]), ("label=NOPE", []),
                               ("annotator=ann2&label=", ["0–15"])):
        dom, errors = headless_dom(page, fragment)
        assert errors == [], fragment
        assert shown_stretches(dom) == expected, fragment
        assert f"{len(expected)} of 3 stretches shown" in dom, fragment


def test_unitizing_pages_show_gamma_and_the_unitizing_alphas(tmp_path, monkeypatch, capsys):
    """--unitizing with --html (refused before): γ (γ-cat, γ-k per category, the disorders) or every uα of the JSON,
    the annotator matrix and the browser beside them; a units table (no text) still has its browser."""
    from tests.agreement.test_disputes import three_annotators

    monkeypatch.chdir(tmp_path)
    sides = three_annotators(tmp_path)
    for measure in ("gamma", "alpha-u"):
        page, out = tmp_path / f"{measure}.html", tmp_path / f"{measure}.json"
        assert main(["agree", *sides, "--unitizing", measure, "--samples", "5", "--html", str(page), "-o", str(out)]
                    if measure == "gamma" else
                    ["agree", *sides, "--unitizing", measure, "--html", str(page), "-o", str(out)]) == 0
        totals = checked(out.read_text(encoding="utf-8"))["totals"]
        dom, errors = headless_dom(page)
        assert errors == [] and 'data-disputes-ready="yes"' in dom
        cells = {name: value for name, (value, _) in coefficient_cells(dom).items()}
        if measure == "gamma":
            assert cells["gamma"] == f"{totals['gamma']:.4f}" and cells["gamma_cat"] == f"{totals['gamma_cat']:.4f}"
            assert {k: cells[f"gamma_k/{k}"] for k in totals["gamma_k"]} == {
                k: f"{v:.4f}" for k, v in totals["gamma_k"].items()}
            assert cells["observed_disorder"] == f"{totals['observed_disorder']:.4f}"
        else:
            assert cells["u_alpha_1995/overall"] == f"{totals['u_alpha_1995']['overall']:.4f}"
            for name in ("u_alpha", "binary_u_alpha", "cu_alpha"):
                assert cells[name] == ("n/a" if totals[name] is None else f"{totals[name]:.4f}"), name
            assert {k: cells[f"cu_alpha_by_category/{k}"] for k in totals["cu_alpha_by_category"]} == {
                k: "n/a" if v is None else f"{v:.4f}" for k, v in totals["cu_alpha_by_category"].items()}
        assert 'id="matrix"' in dom and shown_stretches(dom) == ["0–15", "35–42", "48–62"]
    table = tmp_path / "units.csv"
    table.write_text("annotator,document,start,end,category\na,d,0,4,X\nb,d,0,4,Y\na,d,10,12,X\nb,d,10,12,X\n",
                     encoding="utf-8")
    page = tmp_path / "units.html"
    assert main(["agree", str(table), "--unitizing", "alpha-u", "--html", str(page), "-q"]) == 0
    dom, errors = headless_dom(page)
    assert errors == [] and shown_stretches(dom) == ["0–4"] and "<th>Place</th>" in dom


def test_gate_convention_pages_show_every_table(tmp_path, capsys):
    """Under --convention iaa the page holds what the table output holds: each pair's table, the IAA plugin's F,
    each annotator against the majority, all-way; and each annotator's row (its pairs' mean kappa)."""
    page, out = tmp_path / "iaa.html", tmp_path / "iaa.json"
    assert main(["agree", str(GATE / "beijing-opera.xml"), "--sets", "ann1,ann2,ann3", "--types", "sent",
                 "--feature", "Op", "--convention", "iaa", "--html", str(page), "-o", str(out)]) == 0
    data = checked(out.read_text(encoding="utf-8"))
    totals = data["totals"]
    dom, errors = headless_dom(page)
    assert errors == []
    text = _text(dom)
    for block in totals["pair_tables"]:
        a, b = block["raters"]
        title = f"{a} (rows) against {b} (columns), summed over documents"
        assert title in text
        anchor = re.search(r'<h3 id="([^"]+)">' + re.escape(title), dom).group(1)
        rows = table_rows(dom, anchor)[1:]
        assert [[int(x) for x in r[1:1 + len(block["categories"])]] for r in rows] == block["matrix"]
    f = table_rows(dom, re.search(r'<h3 id="([^"]+)">GATE(?:&#39;|.)s IAA plugin F', dom).group(1))
    strict = next(r for r in f if r[0] == "strict")
    assert strict[f[0].index("f1")] == f"{totals['f_measures']['strict']['f1']:.4f}"
    majority = table_rows(dom, re.search(r'<h3 id="([^"]+)">each annotator against the majority', dom).group(1))
    assert [r[majority[0].index("f1")] for r in majority[1:]] == [f"{r['f1']:.4f}" for r in totals["against_majority"]]
    all_way = {r[0]: r[1] for r in table_rows(dom, re.search(r'<h3 id="([^"]+)">all-way', dom).group(1))[1:]}
    assert all_way["davies fleiss kappa"] == f"{data['all_way']['davies_fleiss_kappa']:.4f}"
    assert all_way["instances"] == str(data["all_way"]["instances"])
    # each annotator: its pairs' mean Cohen's kappa, and its F1 against the majority of the others
    people = {r[0]: r for r in table_rows(dom, "annotators-table")}
    head = people.pop("Annotator")
    kappa = totals["coefficients"]["cohen_kappa"]["pairs"]
    for name, row in people.items():
        mine = [p["value"] for p in kappa if name in p["raters"]]
        assert row[head.index("Cohen's kappa — mean of its pairs")] == f"{sum(mine) / 2:.4f}"
        against = next(r for r in totals["against_majority"] if r["annotator"] == name)
        assert row[head.index("against the majority of the others — f1")] == f"{against['f1']:.4f}"


def test_bdm_agreement_on_the_page(tmp_path):
    """GATE's BDM-based agreement (tests/agreement/test_gate_conventions.py's hand count): P = R = (6/11 + 1) / 3."""
    from accord import _api
    from accord.agreement._matrix import page_views
    from accord.bdm import bdm_scores, read_hierarchy
    from accord.bdm._compute import BdmTable
    from accord.model import Annotation as A
    from accord.model import Corpus, Document
    from accord.report.agreement_page import agreement_html

    tax = tmp_path / "tax.tsv"
    tax.write_text("Entity\nPerson\tEntity\nOrganisation\tEntity\nPolitician\tPerson\nArtist\tPerson\n"
                   "Company\tOrganisation\n", encoding="utf-8")
    text = "Ann met Bob at Acme. Zed"

    def annotator(name, spans):
        return Corpus([Document("d", tuple(A("Mention", s, e, {"class": c}) for c, s, e in spans), text=text)],
                      name=name)
    sets = [annotator("ann1", [("Person", 0, 3), ("Artist", 8, 11), ("Company", 15, 19)]),
            annotator("ann2", [("Politician", 0, 3), ("Artist", 8, 11), ("Person", 21, 24)])]
    result = _api.agree(sets, types=["Mention"], feature="class", convention="iaa",
                        bdm=BdmTable(bdm_scores(read_hierarchy(tax))), disputes=10)
    page = tmp_path / "bdm.html"
    page.write_text(agreement_html(result, **page_views(result)), encoding="utf-8")
    dom, errors = headless_dom(page)
    assert errors == []
    rows = table_rows(dom, re.search(r'<h3 id="([^"]+)">BDM-based agreement[^<]*: pairs', dom).group(1))
    assert rows[1][0] == "ann1 ~ ann2"
    assert rows[1][rows[0].index("strict precision")] == f"{(6 / 11 + 1) / 3:.4f}"
    assert rows[1][rows[0].index("matched")] == "2"
    # the browser: Ann (Person / Politician) and Zed (only ann2's) are disputed, Bob agreed, Acme only ann1's
    assert shown_stretches(dom) == ["0–3", "15–19", "21–24"]


def test_the_page_draws_what_the_result_holds_not_a_list(tmp_path):
    """A coefficient the page does not know, a mapping of values and a part of the result keyed by annotators
    (as a reference annotator's or an aggregation's figures) all appear, without a change to the page."""
    from accord.agreement._matrix import annotator_view
    from accord.report.agreement_page import agreement_html

    class Result:
        options, inputs, ci, disputes = {}, {"a": {}, "b": {}, "c": {}}, None, None

        def to_dict(self):
            return {"mode": "ratings", "totals": {
                "raters": ["a", "b", "c"], "items": 4, "categories": ["x", "y"],
                "coefficients": {"brand_new_kappa": {"pairs": [{"raters": ["a", "b"], "value": 0.5},
                                                               {"raters": ["a", "c"], "value": 0.25},
                                                               {"raters": ["b", "c"], "value": 1.0}], "mean": 0.5833},
                                 "some_icc": {"ICC1": 0.125, "ICC2k": 0.75}},
                "ci": {"brand_new_kappa": [0.1, 0.9]}},
                "reference": {"reference": "c", "annotators": {"a": {"items": 4, "coefficients": {"cohen_kappa": 0.3},
                                                                    "ci": {"cohen_kappa": [0.125, 0.5]}},
                                                              "b": {"items": 3, "coefficients": {"cohen_kappa": 0.6}}}},
                "by_document": {}, "by_label": {}}

    result = Result()
    view = annotator_view(result)
    page = tmp_path / "page.html"
    page.write_text(agreement_html(result, annotators=view), encoding="utf-8")
    dom, errors = headless_dom(page)
    assert errors == []
    cells = coefficient_cells(dom)
    assert cells["brand_new_kappa"] == ("0.5833", "[0.100, 0.900]")
    assert cells["some_icc/ICC1"] == ("0.1250", None) and cells["some_icc/ICC2k"] == ("0.7500", None)
    people = {r[0]: r for r in table_rows(dom, "annotators-table")}
    head = people.pop("Annotator")
    # a's pairs: 0.5 and 0.25; b's: 0.5 and 1.0; c's: 0.25 and 1.0
    assert [people[n][head.index("brand new kappa — mean of its pairs")] for n in "abc"] == [
        "0.3750", "0.7500", "0.6250"]
    assert [people[n][head.index("reference — coefficients cohen_kappa")] for n in "abc"] == ["0.3000", "0.6000",
                                                                                              "n/a"]
    assert "reference: annotators" in _text(dom)
    rows = table_rows(dom, re.search(r'<h3 id="([^"]+)">reference: annotators', dom).group(1))
    assert rows[1][rows[0].index("ci cohen kappa")] == "[0.125, 0.500]"    # an interval, not a list


def test_ratings_page_has_each_pairs_confusion_matrix(tmp_path, capsys):
    """The ratings table of the stored renders (r1 r2 r3; the fifth item r3 left empty), counted by hand, and its
    disagreement browser of items:
    r1 against r2 over 5 items a-a, b-b, a-b, c-c, a-a; r1 against r3 over the 4 items both rated a-b, b-b, a-a,
    c-c."""
    ratings = tmp_path / "r.csv"
    ratings.write_text("r1,r2,r3\na,a,b\nb,b,b\na,b,a\nc,c,c\na,a,\n", encoding="utf-8")
    page = tmp_path / "ratings.html"
    assert main(["agree", str(ratings), "--html", str(page), "-q"]) == 0
    dom, errors = headless_dom(page)
    assert errors == []
    # the browser lists the items whose ratings differ: item 1 (a a b: r3 off) and item 3 (a b a: r2 off)
    assert "5 items rated by two or more annotators; on 2 their ratings differ" in " ".join(_text(dom).split())
    assert table_rows(dom, "dp-table") == [["Item", "r1", "r2", "r3"], ["item 1", "a", "a", "b"],
                                           ["item 3", "a", "b", "a"]]
    dom, errors = headless_dom(page, "annotator=r3")
    assert errors == [] and "1 of 2 items shown" in dom
    tables = {m.group(2): m.group(1) for m in re.finditer(r'<h3 id="([^"]+)">([^<]+)</h3>', dom)}
    r12 = table_rows(dom, tables["r1 (rows) against r2 (columns), items both rated"])
    assert r12 == [["", "a", "b", "c"], ["a", "2", "1", "0"], ["b", "0", "1", "0"], ["c", "0", "0", "1"]]
    r13 = table_rows(dom, tables["r1 (rows) against r3 (columns), items both rated"])
    assert r13 == [["", "a", "b", "c"], ["a", "1", "1", "0"], ["b", "0", "1", "0"], ["c", "0", "0", "1"]]


def test_the_browser_is_bounded_on_a_big_corpus(tmp_path, capsys):
    """600 disputed stretches (the second annotator marks every other span of the first): the page lists the first
    500 and says how many more there are; the filters' counts are over all 600."""
    import json

    words = ["w"] * 1200
    text = " ".join(words)
    spans = [{"label": "A" if k % 3 else "B", "start": 2 * k, "end": 2 * k + 1} for k in range(1200)]
    for name, kept in (("a", spans), ("b", spans[1::2])):
        (tmp_path / f"{name}.jsonl").write_text(json.dumps({"id": "d", "text": text, "annotations": kept}) + "\n",
                                                encoding="utf-8")
    page = tmp_path / "big.html"
    assert main(["agree", str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl"), "--html", str(page), "-q"]) == 0
    html = page.read_text(encoding="utf-8")
    assert html.count('<tr class="dp-row"') == 500
    assert '<strong id="dp-more">100 more</strong>' in html and "in 600 the" in html
    # labels of the 600 stretches (the even spans): k % 3 == 0 for k = 0, 6, 12...: 200 B, 400 A
    assert ">A (400)</option>" in html and ">B (200)</option>" in html
    dom, errors = headless_dom(page)
    assert errors == [] and "500 of 500 stretches shown" in dom
