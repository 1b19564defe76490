"""The ``accord structured`` command, and the ``--details`` files of ``coref``, ``smatch`` and ``structured``."""

from __future__ import annotations

import csv
import io
import json
import math

import pytest

from accord.cli import main
from accord.formats.coref.clusters import write_coref_conll
from tests.result.contract import checked


def _jsonl(path, *objs):
    path.write_text("".join(json.dumps(o) + "\n" for o in objs))
    return str(path)


def _rel(t, s, o):
    return {"type": t, "subj": s, "obj": o}


def test_structured_relations_micro_over_documents(tmp_path, capsys):
    key = _jsonl(tmp_path / "k.jsonl",
                 {"id": "a", "relations": [_rel("R", [0, 1], [3, 3]), _rel("S", [5, 5], [7, 8])]},
                 {"id": "b", "relations": [_rel("R", [0, 0], [2, 2])]},
                 {"id": "c", "relations": []})
    resp = _jsonl(tmp_path / "r.jsonl",
                  {"id": "a", "relations": [_rel("R", [0, 1], [3, 3]), _rel("R", [5, 5], [7, 8])]},
                  {"id": "b", "relations": [_rel("R", [0, 0], [2, 2]), _rel("R", [9, 9], [2, 2])]})
    details = tmp_path / "pairs.jsonl"
    assert main(["structured", key, resp, "--metric", "relation,relation-boundaries", "--output", "json",
                 "--details", str(details)]) == 0
    out = checked(capsys.readouterr().out)
    # strict: a has 1 of 2 (the type differs), b 1 of 1 gold, 1 of 2 predicted; c nothing -> 2 / 4 / 3
    strict = out["measures"]["relation"]["totals"]
    assert (strict["match"], strict["pred_total"], strict["gold_total"]) == (2, 4, 3)
    assert strict["precision"] == 0.5 and strict["recall"] == pytest.approx(2 / 3)
    assert out["measures"]["relation-boundaries"]["totals"]["match"] == 3
    assert out["measures"]["relation"]["by_document"]["c"]["f1"] == 1.0  # empty on both sides
    assert (strict["gold"], strict["pred"]) == (3, 4)  # records
    rows = [json.loads(line) for line in details.read_text().splitlines()]
    assert len(rows) == 2 + 3
    assert rows[0] == {"document": "a", "metric": "relation", "pred_index": 0, "gold_index": 0, "similarity": 1.0,
                       "pred": {"type": "R", "subj": [0, 1], "obj": [3, 3]},
                       "gold": {"type": "R", "subj": [0, 1], "obj": [3, 3]}}


def test_structured_templates_and_options(tmp_path, capsys):
    gold = {"id": "d", "templates": [{"type": "bombing", "fillers": [
        {"slot": "perp", "value": ["the FMLN"]}, {"slot": "instrument", "value": "bomb"}]}]}
    pred = {"id": "d", "templates": [{"type": "bombing", "fillers": [
        {"slot": "perp", "value": "the guerrillas"}, {"slot": "instrument", "value": "dynamite"}]}]}
    key, resp = _jsonl(tmp_path / "k.jsonl", gold), _jsonl(tmp_path / "r.jsonl", pred)
    (tmp_path / "h.json").write_text('{"dynamite": "bomb"}')
    assert main(["structured", key, resp, "--metric", "muc4,better", "--output", "json"]) == 0
    out = {m: v["totals"] for m, v in checked(capsys.readouterr().out)["measures"].items()}
    assert out["muc4"]["match"] == 1.0  # "the" is shared; dynamite is not bomb without a hierarchy
    assert main(["structured", key, resp, "--metric", "muc4,better", "--output", "json", "--premodifiers", "the",
                 "--hierarchy", str(tmp_path / "h.json")]) == 0
    out = {m: v["totals"] for m, v in checked(capsys.readouterr().out)["measures"].items()}
    assert out["muc4"]["match"] == 0.5
    assert out["better"]["type_f1"] == 1.0 and out["better"]["score"] == pytest.approx(0.25)
    assert main(["structured", key, resp, "--metric", "better"]) == 0
    assert "better" in capsys.readouterr().out


def test_structured_bad_input(tmp_path, capsys):
    key = _jsonl(tmp_path / "k.jsonl", {"id": "d", "relations": []})
    resp = _jsonl(tmp_path / "r.jsonl", {"id": "e", "relations": []})
    assert main(["structured", key, resp, "--metric", "relation"]) == 2
    assert "not in the key, e.g. 'e'" in capsys.readouterr().err
    assert main(["structured", key, key, "--metric", "relaton"]) == 2
    assert "unknown structured metric 'relaton'" in capsys.readouterr().err
    (tmp_path / "bad.json").write_text("[1]")
    assert main(["structured", key, key, "--metric", "muc4", "--hierarchy", str(tmp_path / "bad.json")]) == 2
    assert "expected a JSON object" in capsys.readouterr().err


def test_coref_details_list_the_ceaf_alignment(tmp_path, capsys):
    key = {"d": [[(0, 0), (2, 2), (4, 4)], [(6, 6), (8, 8)]]}
    resp = {"d": [[(6, 6), (8, 8)], [(0, 0), (2, 2)], [(10, 10)]]}
    write_coref_conll(key, tmp_path / "k.conll")
    write_coref_conll(resp, tmp_path / "r.conll")
    details = tmp_path / "align.csv"
    assert main(["coref", str(tmp_path / "k.conll"), str(tmp_path / "r.conll"), "--metrics", "ceafm,ceafe",
                 "--details", str(details), "--output", "json"]) == 0
    capsys.readouterr()
    rows = list(csv.DictReader(details.open()))
    # entities are numbered in the order the reference scorer meets them (first mention in the file), not by
    # their written numbers: the response's written entity 1 holds token 0, so it is response entity 0.
    # Key entity 0 (3 mentions) aligns with it (2 shared), key 1 with response entity 1 (written 0)
    got = {(r["metric"], r["key_entity"], r["response_entity"]): float(r["phi"]) for r in rows}
    assert got == {("ceafm", "0", "0"): 2, ("ceafm", "1", "1"): 2,
                   ("ceafe", "0", "0"): pytest.approx(0.8), ("ceafe", "1", "1"): 1.0}


def test_smatch_details_list_the_mapping(tmp_path, capsys):
    (tmp_path / "g.amr").write_text("(w / want-01 :ARG0 (b / boy))\n")
    (tmp_path / "p.amr").write_text("(x / want-01 :ARG0 (y / boy))\n")
    details = tmp_path / "map.jsonl"
    assert main(["smatch", str(tmp_path / "g.amr"), str(tmp_path / "p.amr"), "--details", str(details),
                 "--output", "csv"]) == 0
    capsys.readouterr()
    rows = [json.loads(line) for line in details.read_text().splitlines()]
    assert rows == [{"pair": 1, "test_variable": "x", "gold_variable": "w"},
                    {"pair": 1, "test_variable": "y", "gold_variable": "b"}]


# ----------------------------------------------------------------------------- accord agree
WIDE = "item,ann1,ann2,ann3\n1,a,a,a\n2,a,b,a\n3,b,b,\n4,c,c,c\n5,a,,b\n"


def test_agree_wide_table(tmp_path, capsys):
    from accord import agreement as A

    (tmp_path / "r.csv").write_text(WIDE)
    assert main(["agree", str(tmp_path / "r.csv"), "--items", "item", "--output", "json"]) == 0
    captured = capsys.readouterr()
    out = checked(captured.out)["totals"]
    assert out["raters"] == ["ann1", "ann2", "ann3"] and out["items"] == 5
    # ann1~ann2 rated items 1-4 both, agreeing on 1, 3, 4
    pairs = {tuple(p["raters"]): p["value"] for p in out["coefficients"]["observed_agreement"]["pairs"]}
    assert pairs[("ann1", "ann2")] == 0.75
    table = {"ann1": list("aabca"), "ann2": ["a", "b", "b", "c", None], "ann3": ["a", "a", None, "c", "b"]}
    assert out["coefficients"]["krippendorff_alpha"] == pytest.approx(A.krippendorff_alpha(table))
    assert out["coefficients"]["cohen_kappa"]["mean"] == pytest.approx(float(A.cohen_kappa(table)))
    assert "2 item(s) not rated by every rater are left out" in captured.err
    assert out["confusion_matrices"][0] == {"raters": ["ann1", "ann2"], "counts": [[1, 1, 0], [0, 1, 0], [0, 0, 1]]}


def test_agree_long_table_and_csv_output(tmp_path, capsys):
    rows = ["item\tannotator\tlabel"] + [f"{i}\t{r}\t{v}" for i, (a, b) in enumerate(
        [("x", "x"), ("x", "y"), ("y", "y"), ("y", "y")]) for r, v in (("A", a), ("B", b))]
    (tmp_path / "r.tsv").write_text("\n".join(rows) + "\n")
    assert main(["agree", str(tmp_path / "r.tsv"), "--items", "item", "--raters", "annotator", "--labels", "label",
                 "--output", "csv"]) == 0
    lines = list(csv.DictReader(capsys.readouterr().out.splitlines()))
    value = {r["coefficient"]: float(r["value"]) for r in lines if r["raters"] == "all"}
    # Po = 3/4; Cohen: rows (2, 2), columns (1, 3) over 4 -> Pe = (2*1 + 2*3) / 16 = 0.5 -> kappa 0.5
    assert value["observed_agreement"] == 0.75 and value["cohen_kappa"] == pytest.approx(0.5)


def _ann_doc(doc, spans):
    return {"id": doc, "tokens": ["w"] * 20,
            "annotations": [{"label": "Mention", "start": s, "end": e, **({"attributes": {"class": c}} if c else {})}
                            for s, e, c in spans]}


def test_agree_annotation_sets_pair_by_span(tmp_path, capsys):
    # three annotators; items are the spans any of them marked
    sets = {
        "a1": [("d1", [(0, 1, "PER"), (3, 5, "ORG"), (8, 9, "LOC")]), ("d2", [(0, 2, "PER")])],
        "a2": [("d1", [(0, 1, "PER"), (3, 5, "LOC"), (10, 11, "LOC")]), ("d2", [(0, 2, "PER")])],
        "a3": [("d1", [(0, 1, "PER"), (3, 5, "ORG"), (8, 9, None)]), ("d2", [(0, 2, "ORG")])],
    }
    paths = []
    for name, docs in sets.items():
        p = tmp_path / f"{name}.jsonl"
        p.write_text("".join(json.dumps(_ann_doc(d, spans)) + "\n" for d, spans in docs))
        paths.append(str(p))
    assert main(["agree", *paths, "--type", "Mention", "--feature", "class", "--output", "json"]) == 0
    out = checked(capsys.readouterr().out)
    by_document = out["by_document"]
    out = out["totals"]
    # d1 items: [0,1) PER PER PER; [3,5) ORG LOC ORG; [8,9) LOC Non-cat ''; [10,11) Non-cat LOC Non-cat
    # d2 items: [0,2) PER PER ORG.  a1~a2 agree on 2 of 5 items
    pairs = {tuple(p["raters"]): p["value"] for p in out["coefficients"]["observed_agreement"]["pairs"]}
    assert pairs[(paths[0], paths[1])] == pytest.approx(2 / 5)
    # a1~a3: [0,1), [3,5) and [10,11), which both left unmarked (a2 marked it): Non-cat on both sides
    assert pairs[(paths[0], paths[2])] == pytest.approx(3 / 5)
    assert set(out["categories"]) == {"", "LOC", "Non-cat", "ORG", "PER"}
    assert set(by_document) == {"d1", "d2"} and by_document["d2"]["items"] == 1


def test_agree_bad_input(tmp_path, capsys):
    (tmp_path / "r.csv").write_text(WIDE)
    assert main(["agree", str(tmp_path / "r.csv"), "--raters", "who"]) == 2
    assert "no column 'who'" in capsys.readouterr().err
    assert main(["agree", str(tmp_path / "r.csv"), "--type", "X"]) == 2
    assert "one INPUT per annotator" in capsys.readouterr().err
    (tmp_path / "a.jsonl").write_text(json.dumps(_ann_doc("d1", [])) + "\n")
    # (two files of one document each pair as given, whatever their ids: issue 33; here b holds two)
    (tmp_path / "b.jsonl").write_text(json.dumps(_ann_doc("d1", [])) + "\n" + json.dumps(_ann_doc("d2", [])) + "\n")
    assert main(["agree", str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl")]) == 2
    assert "every annotation set needs the same documents" in capsys.readouterr().err


GATE = __import__("pathlib").Path(__file__).parents[1] / "data" / "gate"


def test_diff_gate_documents_json_details_and_html(tmp_path, capsys):
    doc = str(GATE / "beijing-opera.xml")
    details, page = tmp_path / "rows.csv", tmp_path / "diff.html"
    assert main(["diff", doc, doc, "--key-set", "ann1", "--response-set", "ann2", "--type", "Os", "--output", "json",
                 "--details", str(details), "--html", str(page)]) == 0
    out = checked(capsys.readouterr().out)
    # the IAA plugin's pair counts for Os, beijing-opera.xml, ann1 against ann2: c=2 p=1 m=2 s=0
    os_ = {m: v["by_label"]["Os"] for m, v in out["measures"].items()}
    assert [os_["strict"][k] for k in ("correct", "partial", "missing", "spurious")] == [2, 1, 2, 0]
    assert (os_["strict"]["gold"], os_["strict"]["pred"]) == (5, 3)   # keys, responses
    assert os_["strict"]["precision"] == pytest.approx(2 / 3) and os_["lenient"]["recall"] == pytest.approx(3 / 5)
    assert out["measures"]["average"]["totals"]["f1"] == pytest.approx((os_["strict"]["f1"] + os_["lenient"]["f1"]) / 2)
    assert out["options"]["pairing"] == "gate"
    rows = list(csv.DictReader(details.open(encoding="utf-8")))
    assert sorted(r["outcome"] for r in rows) == ["correct", "correct", "missing", "missing", "partial"]
    first = rows[0]
    assert first["key_text"] == "The form" and first["key_start"] == "245" and first["key_features"] == "{}"
    html = page.read_text(encoding="utf-8")
    assert html.count('data-outcome="') == 5 and "The form" in html


def test_qa_tables_by_type_and_document(tmp_path, capsys):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    for name in ("beijing-opera.xml", "beijing-opera-2.xml"):
        (a / name).write_bytes((GATE / name).read_bytes())
        (b / name).write_bytes((GATE / name).read_bytes())
    assert main(["qa", str(a), str(b), "--key-set", "ann1", "--response-set", "ann3", "--type", "Os,sent",
                 "--measures", "strict,lenient", "--output", "csv"]) == 0
    rows = list(csv.DictReader(capsys.readouterr().out.splitlines()))
    cells = {(r["document"], r["row"]): r for r in rows if r["group"] == "label" and r["measure"] == "lenient"}
    # IAA plugin pair counts, Os, ann1 against ann3: doc0 c=2 p=2 m=1 s=0, doc1 c=1 p=2 m=1 s=1
    assert [cells["beijing-opera", "Os"][k] for k in ("correct", "partial", "missing", "spurious")] == \
        ["2", "2", "1", "0"]
    assert [cells["beijing-opera-2", "Os"][k] for k in ("correct", "partial", "missing", "spurious")] == \
        ["1", "2", "1", "1"]
    total_os = next(r for r in rows if r["document"] == "<all>" and r["row"] == "Os" and r["measure"] == "lenient")
    assert [total_os[k] for k in ("correct", "partial", "missing", "spurious")] == ["3", "4", "2", "1"]
    assert float(total_os["precision"]) == pytest.approx(7 / 8)
    assert main(["qa", str(a), str(b), "--key-set", "ann1", "--response-set", "ann3"]) == 0
    text = capsys.readouterr().out
    assert "Macro summary" in text and "by document" in text and "beijing-opera-2" in text


def test_diff_bad_options(capsys):
    doc = str(GATE / "beijing-opera.xml")
    assert main(["diff", doc, doc, "--key-set", "ann9"]) == 2
    assert "no annotation set 'ann9'" in capsys.readouterr().err
    assert main(["diff", doc, doc, "--measures", "strict,loose"]) == 2
    assert "unknown measure 'loose'" in capsys.readouterr().err


def test_agree_gate_conventions_and_matrix(tmp_path, capsys):
    a = tmp_path / "docs"
    a.mkdir()
    for name in ("beijing-opera.xml", "beijing-opera-2.xml"):
        (a / name).write_bytes((GATE / name).read_bytes())
    base = ["agree", str(a), "--sets", "ann1,ann2,ann3", "--type", "sent", "--feature", "Op"]
    assert main(base + ["--convention", "iaa", "--output", "json"]) == 0
    out = checked(capsys.readouterr().out)
    assert out["mode"] == "iaa" and out["command"] == "agree"
    out = {**out["totals"], "span_agreement": out["span_agreement"]}
    # GATE's IAA plugin test: ceil(1000x) of the mean over pairs then documents = 847 / 761 / 759
    import math
    assert [math.ceil(1000 * out["coefficients"][n]["mean"]) for n in
            ("observed_agreement", "cohen_kappa", "scott_pi")] == [847, 761, 759]
    assert out["span_agreement"]["measure"] == "strict"
    page = tmp_path / "m.html"
    assert main(base + ["--convention", "corpus-qa", "--output", "csv", "--html", str(page)]) == 0
    rows = list(csv.DictReader(capsys.readouterr().out.splitlines()))
    assert {r["coefficient"] for r in rows} == {"observed_agreement", "cohen_kappa", "scott_pi"}
    assert page.read_text(encoding="utf-8").count('class="cell"') == 3 * 2 + 3
    assert main(["agree", str(a), "--sets", "ann1,ann2", "--convention", "iaa"]) == 2
    assert "needs --type" in capsys.readouterr().err
    assert main(["agree", str(a), str(a), "--sets", "ann1,ann2"]) == 2
    assert "one INPUT" in capsys.readouterr().err


def test_agree_iaa_convention_reports_all_way(capsys):
    doc = str(GATE / "beijing-opera.xml")
    base = ["agree", doc, "--sets", "ann1,ann2,ann3", "--type", "Os", "--convention", "iaa"]
    assert main(base + ["--output", "json"]) == 0
    aw = checked(capsys.readouterr().out)["all_way"]
    # GATE's TestIaa case 2 (Os, no feature): all-way Po 0.6, Davies & Fleiss 0, S&C 0.18 (ceil x100: 61/0/19)
    assert (aw["instances"], aw["observed_agreement"], aw["davies_fleiss_kappa"]) == (5, 0.6, 0.0)
    assert math.ceil(100 * aw["siegel_castellan_kappa"]) == 19
    assert main(base + ["--output", "csv"]) == 0
    rows = [r for r in csv.DictReader(capsys.readouterr().out.splitlines()) if r["raters"] == "all (all-way)"]
    assert [r["coefficient"] for r in rows] == ["observed_agreement", "davies_fleiss_kappa", "siegel_castellan_kappa"]
    assert main(base) == 0
    assert "all-way, over 5 instances" in capsys.readouterr().out


def _bdm_inputs(tmp_path):
    tax = tmp_path / "tax.tsv"
    tax.write_text("Entity\nPerson\tEntity\nOrganisation\tEntity\nPolitician\tPerson\nArtist\tPerson\n"
                   "Company\tOrganisation\n", encoding="utf-8")
    text = "Ann met Bob at Acme."
    key = {"id": "d", "text": text, "annotations": [{"label": "Person", "start": 0, "end": 3},
                                                    {"label": "Artist", "start": 8, "end": 11},
                                                    {"label": "Company", "start": 15, "end": 19}]}
    resp = {"id": "d", "text": text, "annotations": [{"label": "Politician", "start": 0, "end": 3},
                                                     {"label": "Artist", "start": 8, "end": 11}]}
    (tmp_path / "key.jsonl").write_text(json.dumps(key) + "\n", encoding="utf-8")
    (tmp_path / "resp.jsonl").write_text(json.dumps(resp) + "\n", encoding="utf-8")
    return tax, tmp_path / "key.jsonl", tmp_path / "resp.jsonl"


def test_bdm_command_and_bdm_measures(tmp_path, capsys):
    tax, key, resp = _bdm_inputs(tmp_path)
    out = tmp_path / "bdm.txt"
    assert main(["bdm", str(tax), "-o", str(out)]) == 0
    assert "21 concept pairs of 6 concepts" in capsys.readouterr().err
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("##") and len(lines) == 22
    assert any(x.startswith("key=Person, response=Politician, bdm=0.54545456, msca=Person, cp=1, dpk=0, dpr=1, ")
               for x in lines)
    assert main(["qa", str(key), str(resp), "--bdm", str(out), "--output", "json"]) == 0
    qa = checked(capsys.readouterr().out)
    person = {m: v["by_label"]["Person"] for m, v in qa["measures"].items()}
    # Person: c 0, m 1, s 0, credit 6/11 from the Politician response: P = (B + c)/(c + s) = 1.0 (0/0),
    # R = (B + c)/(c + m) = 6/11
    assert person["strict-bdm"]["bdm"] == pytest.approx(6 / 11) and "bdm" not in person["strict"]
    assert person["strict-bdm"]["recall"] == pytest.approx(6 / 11, abs=1e-6)
    assert person["strict-bdm"]["precision"] == 1.0
    assert qa["measures"]["strict"]["totals"]["recall"] == pytest.approx(1 / 3)
    assert qa["measures"]["strict-bdm"]["totals"]["recall"] == pytest.approx((1 + 6 / 11) / 3, abs=1e-6)
    # the same through accord score: --bdm implies the gate profile
    assert main(["score", str(key), str(resp), "--bdm", str(out), "--output", "json"]) == 0
    assert checked(capsys.readouterr().out)["measures"] == qa["measures"]
    assert main(["score", str(key), str(resp), "--profile", "gate"]) == 0
    assert "Micro summary" in capsys.readouterr().out
    assert main(["qa", str(key), str(resp), "--measures", "strict-bdm"]) == 2
    assert "need --bdm" in capsys.readouterr().err
    assert main(["score", str(key), str(resp), "--bdm", str(out), "--profile", "lenient"]) == 2
    assert "gate profile" in capsys.readouterr().err


def _two_column_vrt(tmp_path):
    path = tmp_path / "corpus.vrt"
    path.write_text("<!-- #vrt positional-attributes: word gold pred -->\n<text id=\"a\">\n<s>\n"
                    "New\tB-LOC\tB-LOC\nYork\tI-LOC\tB-LOC\nCity\tI-LOC\tI-LOC\nmet\tO\tO\nBob\tB-PER\tB-ORG\n"
                    "</s>\n</text>\n", encoding="utf-8")
    return path


def test_score_match_clueval_json_and_csv(tmp_path, capsys):
    path = _two_column_vrt(tmp_path)
    assert main(["score", str(path), "--gold-column", "gold", "--pred-column", "pred", "--match", "clueval",
                 "--leniency", "tiling", "--unlabelled", "--output", "json"]) == 0
    out = checked(capsys.readouterr().out)
    # gold New York City is tiled by New + York City; Bob is an exact match with another label
    assert (out["options"]["leniency"], out["options"]["labelled"]) == (3, False)
    first = next(iter(out["measures"]))
    assert first == "tiling-unlabelled"
    assert out["measures"][first]["totals"]["gold_hits"] == 2 and out["measures"][first]["totals"]["pred_hits"] == 3
    assert out["measures"]["exact"]["totals"]["gold_hits"] == 0
    assert out["classes"]["gold"]["totals"]["tiling"] == 1 and out["classes"]["pred"]["totals"]["superset"] == 2
    assert main(["score", str(path), "--gold-column", "2", "--pred-column", "3", "--match", "clueval",
                 "--output", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    total = [r for r in rows if r["measure"] == "superset-unlabelled" and r["document"] == "<all>"
             and r["group"] == "all"][0]
    assert (total["gold_hits"], total["pred_hits"]) == ("1", "3")
    assert main(["score", str(path), "--gold-column", "gold", "--pred-column", "pred", "--match", "clueval",
                 "--profile", "lenient"]) == 2
    assert "do not apply to --match clueval" in capsys.readouterr().err


def test_score_match_semeval_json(tmp_path, capsys):
    path = _two_column_vrt(tmp_path)
    assert main(["score", str(path), "--gold-column", "gold", "--pred-column", "pred", "--match", "semeval",
                 "--output", "json"]) == 0
    out = {m: {"total": v["totals"]} for m, v in checked(capsys.readouterr().out)["measures"].items()}
    # blocks: {NYC | New, York City} -> one pair, boundaries differ; {Bob PER | Bob ORG} same boundaries
    assert out["strict"]["total"]["correct"] == 0 and out["strict"]["total"]["incorrect"] == 2
    assert out["exact"]["total"]["correct"] == 1 and out["partial"]["total"]["partial"] == 1
    assert out["type"]["total"]["correct"] == 1 and out["strict"]["total"]["spurious"] == 1
