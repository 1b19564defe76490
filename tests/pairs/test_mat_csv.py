"""MATScore's CSV files (MAT notes 2.1-2.4 and case C of section 5: one PERSON changed to LOCATION gives PERSON
refclash 1 and LOCATION hypclash 1 in bytag_literal.csv). Counts by hand; the excel and oo formulas are evaluated
here and must give the literal file's numbers."""

import csv
import math
import re

import pytest

from accord.cli import main
from accord.formats import write
from tests.mat_documents import text_document

TEXT = "John met Mary in Rome ."


def doc(spans):
    return text_document(TEXT, spans, ids=True)


GOLD = [("PERSON", "John"), ("PERSON", "Mary"), ("LOCATION", "Rome")]
PRED = [("PERSON", "John"), ("LOCATION", "Mary"), ("LOCATION", "Rome")]


@pytest.fixture
def dirs(tmp_path):
    for side, spans in (("gold", GOLD), ("pred", PRED)):
        (tmp_path / side).mkdir()
        write(doc(spans), tmp_path / side / "voa2.txt.json", "mat-json")
        write(doc(GOLD), tmp_path / side / "voa3.txt.json", "mat-json")   # scored perfectly
    return tmp_path


def run(dirs, *extra):
    out = dirs / "out"
    assert main(["score", str(dirs / "gold"), str(dirs / "pred"), "--profile", "mat", "--mat-csv", str(out),
                 "-q", "-o", str(dirs / "table.txt"), *extra]) == 0
    return out


def read(path):
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_bytag_literal_counts_and_formulas(dirs):
    out = run(dirs, "--csv-formula-output", "literal,excel,oo")
    rows = read(out / "bytag_literal.csv")
    assert list(rows[0]) == ["similarity profile", "score profile", "file", "test docs", "tag", "test toks", "match",
                             "refclash", "missing", "refonly", "reftotal", "hypclash", "spurious", "hyponly",
                             "hyptotal", "precision", "recall", "fmeasure"]
    key = {(r["file"], r["tag"]): r for r in rows}
    assert [(r["file"], r["tag"]) for r in rows] == [
        ("voa2.txt.json", "LOCATION"), ("voa2.txt.json", "PERSON"), ("voa2.txt.json", "<all>"),
        ("voa3.txt.json", "LOCATION"), ("voa3.txt.json", "PERSON"), ("voa3.txt.json", "<all>"),
        ("<all>", "LOCATION"), ("<all>", "PERSON"), ("<all>", "<all>")]
    per, loc = key[("voa2.txt.json", "PERSON")], key[("voa2.txt.json", "LOCATION")]
    # Mary: PERSON in the reference, LOCATION in the hypothesis -> PERSON refclash 1, LOCATION hypclash 1
    assert (per["match"], per["refclash"], per["missing"], per["hypclash"], per["spurious"]) == ("1", "1", "0", "0", "0")
    assert (loc["match"], loc["refclash"], loc["missing"], loc["hypclash"], loc["spurious"]) == ("1", "0", "0", "1", "0")
    assert (per["refonly"], per["reftotal"], per["hyponly"], per["hyptotal"]) == ("1", "2", "0", "1")
    assert float(per["precision"]) == 1 and float(per["recall"]) == 0.5 and float(per["fmeasure"]) == pytest.approx(2 / 3)
    assert float(loc["precision"]) == 0.5 and float(loc["recall"]) == 1
    assert per["test toks"] == "6" and per["test docs"] == "1" and per["similarity profile"] == "<default>"
    total = key[("<all>", "<all>")]
    # corpus: 5 matches (2 + 3), 1 refclash, 1 hypclash, 6 + 6 tokens, 2 documents
    assert (total["match"], total["refclash"], total["hypclash"], total["test toks"], total["test docs"]) == (
        "5", "1", "1", "12", "2")
    assert float(total["precision"]) == pytest.approx(5 / 6)
    for fmt in ("excel", "oo"):
        with open(out / f"bytag_{fmt}.csv", newline="") as fh:
            sheet = list(csv.reader(fh))
        assert sheet[0] == list(rows[0])
        for n, line in enumerate(sheet[1:], start=2):
            literal = list(rows[n - 2].values())
            for k, cell in enumerate(line):
                if cell.startswith("="):
                    assert (";" in cell) == (fmt == "oo" and "IF(" in cell)
                    assert evaluate(cell, sheet, literal) == pytest.approx(float(literal[k])), (fmt, n, k, cell)


def test_mismatch_detail_columns(dirs):
    out = run(dirs, "--tag-output-mismatch-details", "--csv-formula-output", "literal")
    rows = read(out / "bytag_literal.csv")
    cols = list(rows[0])
    # the ref-side token after refclash, the hyp-side one after hypclash
    assert cols[cols.index("refclash") + 1] == "reftagclash (detail)"
    assert cols[cols.index("hypclash") + 1] == "hyptagclash (detail)"
    key = {(r["file"], r["tag"]): r for r in rows}
    assert key[("voa2.txt.json", "PERSON")]["reftagclash (detail)"] == "1"
    assert key[("voa2.txt.json", "LOCATION")]["hyptagclash (detail)"] == "1"
    assert key[("voa2.txt.json", "LOCATION")]["reftagclash (detail)"] == "0"
    assert key[("<all>", "<all>")]["reftagclash (detail)"] == "1"


def test_details_csv_has_mats_columns(dirs):
    out = run(dirs)
    rows = [r for r in read(out / "details.csv") if r["file"] == "voa2.txt.json"]
    assert list(rows[0]) == ["file", "type", "refid", "hypid", "refdescription", "hypdescription", "reflabel",
                             "hyplabel", "refstart", "refend", "hypstart", "hypend", "refcontent", "hypcontent"]
    assert [(r["type"], r["reflabel"], r["hyplabel"], r["refcontent"]) for r in rows] == [
        ("match", "PERSON", "PERSON", "John"), ("tagclash", "PERSON", "LOCATION", "Mary"),
        ("match", "LOCATION", "LOCATION", "Rome")]
    assert rows[1]["refid"] == "a1" and rows[1]["hypstart"] == "9" and rows[1]["hypend"] == "13"


def test_unit_tables_and_confidence_data(dirs):
    out = run(dirs, "--by-token", "--by-character", "--compute-confidence-data", "--seed", "3",
              "--csv-formula-output", "literal")
    tok = read(out / "bytoken_literal.csv")
    assert "tag_sensitive_accuracy" in tok[0] and "test toks" in tok[0]
    row = {(r["file"], r["tag"]): r for r in tok}[("voa2.txt.json", "<all>")]
    # 6 tokens; Mary's one token clashes: tag-sensitive accuracy 5/6, tag-blind 6/6
    assert float(row["tag_sensitive_accuracy"]) == pytest.approx(5 / 6) and float(row["tag_blind_accuracy"]) == 1
    chars = read(out / "bychar_literal.csv")
    assert "test chars" in chars[0] and {(r["file"], r["tag"]): r for r in chars}[("voa2.txt.json", "<all>")][
        "test chars"] == str(len(TEXT))
    tag = read(out / "bytag_literal.csv")
    for r in tag:
        if r["file"] != "<all>":
            assert r["precision_mean"] == ""
        else:
            mean, var, sd = (float(r[f"precision_{s}"]) for s in ("mean", "variance", "stddev"))
            assert 0 <= mean <= 1 and math.isclose(sd, math.sqrt(var))
    # two documents, one perfect: the resampled corpus precision is 1 (both draws voa3), 5/6 or 2/3 (both voa2)
    total = next(r for r in tag if r["file"] == "<all>" and r["tag"] == "<all>")
    assert 2 / 3 <= float(total["precision_mean"]) <= 1
    # by hand, the distribution of a resample's precision: 1 (voa3 twice, 1/4), 5/6 (one each, 1/2), 2/3 (voa2
    # twice, 1/4): mean 5/6, population variance 2 * 1/4 * (1/6)^2 = 1/72; 1000 draws are within 0.015 and 0.004
    assert float(total["precision_mean"]) == pytest.approx(5 / 6, abs=0.015)
    assert float(total["precision_variance"]) == pytest.approx(1 / 72, abs=0.004)


def test_file_re_and_suffixes(tmp_path, capsys):
    (tmp_path / "ref").mkdir()
    (tmp_path / "hyp").mkdir()
    write(doc(GOLD), tmp_path / "ref" / "voa2.json", "mat-json")
    write(doc(GOLD), tmp_path / "ref" / "voa3.json", "mat-json")
    write(doc(PRED), tmp_path / "hyp" / "voa2.tagged.json", "mat-json")
    write(doc(GOLD), tmp_path / "hyp" / "voa3.tagged.json", "mat-json")
    out = tmp_path / "out"
    assert main(["score", str(tmp_path / "ref"), str(tmp_path / "hyp"), "--profile", "mat", "--ref-fsuff-off",
                 ".tagged.json", "--ref-fsuff-on", ".json", "--file-re", "voa2.*", "--mat-csv", str(out),
                 "--csv-formula-output", "literal", "-q", "-o", str(tmp_path / "t.txt")]) == 0
    rows = read(out / "bytag_literal.csv")
    # only voa2 is scored (voa3 left out on both sides), its file column is the hypothesis file's name
    assert {r["file"] for r in rows} == {"voa2.tagged.json", "<all>"}
    assert next(r for r in rows if r["file"] == "<all>" and r["tag"] == "<all>")["test docs"] == "1"
    assert main(["score", str(tmp_path / "ref"), str(tmp_path / "hyp"), "--file-re", "nothing"]) == 2
    assert "matches none" in capsys.readouterr().err
    assert main(["score", str(tmp_path / "ref"), str(tmp_path / "hyp"), "--csv-formula-output", "lotus"]) == 2
    assert main(["score", str(tmp_path / "ref"), str(tmp_path / "hyp"), "--mat-csv", str(out),
                 "--csv-formula-output", "lotus"]) == 2
    assert "unknown format(s) lotus" in capsys.readouterr().err
    # modes that do not write MAT's tables refuse the option by name instead of ignoring it
    for mode in (["--profile", "gate"], ["--match", "semeval"]):
        assert main(["score", str(tmp_path / "ref"), str(tmp_path / "hyp"), *mode, "--mat-csv", str(out)]) == 2
        assert "--mat-csv" in capsys.readouterr().err


def evaluate(formula, sheet, literal):
    """The value of a spreadsheet formula of this module (cell references, + - * /, =, IF) over the literal
    file's values of its row."""
    def cell(m):
        col = 0
        for ch in m.group(1):
            col = col * 26 + ord(ch) - 64
        return repr(float(literal[col - 1]))
    expr = re.sub(r"\b([A-Z]+)(\d+)\b", cell, formula[1:].replace(";", ","))
    return _py(expr)


def _py(expr):
    """Evaluate with IF(c, a, b) lazy (only the branch taken is evaluated)."""
    m = re.search(r"IF\(", expr)
    if not m:
        return eval(expr.replace("=", "=="))     # noqa: S307 - numbers and operators only
    depth, parts, k = 1, [], m.end()
    for i in range(m.end(), len(expr)):
        if expr[i] == "(":
            depth += 1
        elif expr[i] == ")":
            depth -= 1
            if depth == 0:
                parts.append(expr[k:i])
                end = i
                break
        elif expr[i] == "," and depth == 1:
            parts.append(expr[k:i])
            k = i + 1
    cond, yes, no = parts
    value = _py(yes) if _py(cond) else _py(no)
    return _py(expr[:m.start()] + repr(float(value)) + expr[end + 1:]) if (m.start() or end + 1 < len(expr)) else value


def test_corpus_rows_hold_the_corpus_test_size(tmp_path):
    # ORG only in the second file: its file=<all> row still counts every file's tokens (6 + 6), so its
    # tag-sensitive accuracy divides by the corpus's 12 tokens: (12 - 0 - 0 - 0) / 12 for a perfect ORG
    for side in ("gold", "pred"):
        (tmp_path / side).mkdir()
        write(doc([("PERSON", "John")]), tmp_path / side / "a.json", "mat-json")
        write(doc([("ORG", "Rome")]), tmp_path / side / "b.json", "mat-json")
    out = tmp_path / "out"
    assert main(["score", str(tmp_path / "gold"), str(tmp_path / "pred"), "--by-token", "--mat-csv", str(out),
                 "--csv-formula-output", "literal", "-q", "-o", str(tmp_path / "t.txt")]) == 0
    for name in ("bytag_literal.csv", "bytoken_literal.csv"):
        rows = {(r["file"], r["tag"]): r for r in read(out / name)}
        assert rows[("b.json", "ORG")]["test toks"] == "6"
        assert rows[("<all>", "ORG")]["test toks"] == "12" and rows[("<all>", "<all>")]["test toks"] == "12"


DIM_TASK = """<task><annotation_set_descriptors><annotation_set_descriptor name='content'>
<annotation label='PERSON'/><annotation label='LOCATION'/>
<attribute name='nomtype' of_annotation='PERSON,LOCATION'><choice>NAM</choice><choice>NOM</choice></attribute>
<attribute name='digits' of_annotation='PERSON,LOCATION' aggregation='set'/>
<attribute name='note' of_annotation='PERSON,LOCATION'/>
</annotation_set_descriptor></annotation_set_descriptors>
<similarity_profile>
  <tag_profile true_labels='PERSON,LOCATION'>
    <dimension name='_label' weight='.1'/><dimension name='_span' weight='.5'/>
    <dimension name='nomtype' weight='.2'/><dimension name='digits' weight='.1'/>
    <dimension name='_nonannotation_attribute_remainder' weight='.1'/>
  </tag_profile>
</similarity_profile></task>"""


def test_details_csv_adds_a_ref_and_hyp_column_per_task_dimension(tmp_path):
    # MAT notes 2.4: "With a task profile, a `ref <dim>` / `hyp <dim>` pair is added ... for each tag-profile
    # dimension other than `_label` and `_span`"; issue 44 item 4: after the 14 fixed columns
    from accord.model import Corpus, Document
    from accord.model import make_annotation as A

    (tmp_path / "task.xml").write_text(DIM_TASK)
    gold = Document("d", (A("PERSON", 0, 4, {"nomtype": "NAM", "digits": frozenset({"2", "3"}), "note": "x"},
                            id="g1"),
                          A("LOCATION", 17, 21, {"nomtype": "NAM"}, id="g2")), TEXT)
    pred = Document("d", (A("PERSON", 0, 4, {"nomtype": "NOM", "digits": frozenset({"3", "1"}), "note": "x"},
                            id="p1"),), TEXT)
    write(Corpus([gold]), tmp_path / "g.json", "mat-json")
    write(Corpus([pred]), tmp_path / "p.json", "mat-json")
    out = tmp_path / "out"
    assert main(["score", str(tmp_path / "g.json"), str(tmp_path / "p.json"), "--task", str(tmp_path / "task.xml"),
                 "--mat-csv", str(out), "-q", "-o", str(tmp_path / "table.txt")]) == 0
    rows = read(out / "details.csv")
    assert list(rows[0]) == ["file", "type", "refid", "hypid", "refdescription", "hypdescription", "reflabel",
                             "hyplabel", "refstart", "refend", "hypstart", "hypend", "refcontent", "hypcontent",
                             "ref nomtype", "hyp nomtype", "ref digits", "hyp digits",
                             "ref _nonannotation_attribute_remainder", "hyp _nonannotation_attribute_remainder"]
    clash, missing = rows
    assert clash["refid"] == "g1" and clash["type"] != "match"
    assert (clash["ref nomtype"], clash["hyp nomtype"]) == ("NAM", "NOM")
    assert (clash["ref digits"], clash["hyp digits"]) == ("2,3", "1,3")    # a set: sorted, comma-joined
    # the remainder: the attributes no dimension names (note)
    assert (clash["ref _nonannotation_attribute_remainder"], clash["hyp _nonannotation_attribute_remainder"]) == (
        "note=x", "note=x")
    assert missing["type"] == "missing" and (missing["ref nomtype"], missing["hyp nomtype"]) == ("NAM", "")


def test_details_csv_without_a_task_profile_keeps_mats_14_columns(tmp_path):
    (tmp_path / "task.xml").write_text(DIM_TASK.split("<similarity_profile>")[0] + "</task>")
    gold = text_document(TEXT, GOLD, ids=True)
    write(gold, tmp_path / "g.json", "mat-json")
    out = tmp_path / "out"
    assert main(["score", str(tmp_path / "g.json"), str(tmp_path / "g.json"), "--task", str(tmp_path / "task.xml"),
                 "--mat-csv", str(out), "-q", "-o", str(tmp_path / "table.txt")]) == 0
    assert len(read(out / "details.csv")[0]) == 14
