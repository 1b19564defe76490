"""What accord writes: inside the output folder only, whole or not at all, never over an input, '-' as standard
output, no spreadsheet formula from the data (accord._support.safe_paths, accord._support.csv_cells)."""

import csv
import io
import json
import os
import pathlib

import pytest

import accord._support.safe_paths
from accord.cli import main


def _jsonl(path, docs):
    path.write_text("".join(json.dumps(d) + "\n" for d in docs), encoding="utf-8")
    return path


def _doc(doc_id, text="John lives in Paris", spans=((0, 4, "PER"), (14, 19, "LOC"))):
    return {"id": doc_id, "text": text, "annotations": [{"label": lbl, "start": s, "end": e} for s, e, lbl in spans]}


def _tree(root):
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


# -- document ids as file names (issue 45, item 1) --------------------------------------------------------------------
@pytest.mark.parametrize("fmt, ext", [("brat", ".ann"), ("mat-json", ".json"), ("xml-inline", ".xml")])
def test_the_reported_attack_writes_inside_the_output_folder(tmp_path, monkeypatch, capsys, fmt, ext):
    # the example: an id "../evil" wrote evil.json beside out/, an absolute id wrote at that absolute path
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    victim = tmp_path / "victim"
    _jsonl(work / "in.jsonl", [_doc("../evil"), _doc(str(victim / "x")), _doc("ok")])
    assert main(["convert", "in.jsonl", "out", "--to", fmt]) == 0
    assert not victim.exists() and sorted(os.listdir(tmp_path)) == ["work"]
    assert sorted(os.listdir(work)) == ["in.jsonl", "out"]
    names = os.listdir(work / "out")
    assert "%2E.%2Fevil" + ext in names and "ok" + ext in names
    assert "written under another name" in capsys.readouterr().err   # the renamed documents, in one warning


def test_brat_names_read_back_as_the_ids(tmp_path):
    ids = ["../evil", "CON", "a/b", "fine"]
    _jsonl(tmp_path / "in.jsonl", [_doc(i) for i in ids])
    assert main(["convert", str(tmp_path / "in.jsonl"), str(tmp_path / "out"), "--to", "brat", "-q"]) == 0
    stems = {p.stem for p in (tmp_path / "out").glob("*.ann")}
    assert {accord._support.safe_paths.document_id(s) for s in stems} == set(ids)


@pytest.mark.parametrize("fmt", ["brat", "mat-json", "xml-inline"])
def test_a_folder_of_escaped_names_reads_back_with_its_ids_and_scores_perfect(tmp_path, capsys, fmt):
    """OntoNotes-style ids (nw/wsj/00/wsj_0001) and reserved names written to a folder pair with the original
    (a review found 'only in the gold side': the readers kept the escaped names as ids)."""
    ids = ["nw/wsj/00/wsj_0001", "../evil", "CON", "50%", "fine"]
    _jsonl(tmp_path / "in.jsonl", [_doc(i) for i in ids])
    out = tmp_path / "out"
    assert main(["convert", str(tmp_path / "in.jsonl"), str(out), "--to", fmt, "-q"]) == 0
    capsys.readouterr()
    assert main(["score", str(tmp_path / "in.jsonl"), str(out), "--output", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert set(result["by_document"]) == set(ids)
    assert (result["totals"]["match"], result["totals"]["f1"]) == (2 * len(ids), 1.0)


def test_a_name_accord_would_not_write_is_its_own_id():
    from accord._support.safe_paths import id_from_file_name

    assert id_from_file_name("nw%2Fwsj") == "nw/wsj" and id_from_file_name("%43ON") == "CON"
    for name in ("%E9t%E9", "100%", "a%2", "%2f", "%41", "cut%~0123456789abcdef"):   # not names file_name writes
        assert id_from_file_name(name) == name


def test_two_ids_sharing_a_file_are_an_error_and_nothing_is_written(tmp_path, capsys):
    _jsonl(tmp_path / "in.jsonl", [_doc("Report"), _doc("report")])
    assert main(["convert", str(tmp_path / "in.jsonl"), str(tmp_path / "out"), "--to", "brat"]) == 2
    assert "'Report' and 'report'" in capsys.readouterr().err
    assert _tree(tmp_path) == ["in.jsonl"]


def test_a_symbolic_link_out_of_the_output_folder_is_not_followed(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "ok.ann").symlink_to(tmp_path / "outside.ann")
    _jsonl(tmp_path / "in.jsonl", [_doc("ok")])
    assert main(["convert", str(tmp_path / "in.jsonl"), str(out), "--to", "brat", "-q"]) == 0
    assert not (tmp_path / "outside.ann").exists()            # the new folder replaced the link, not its target
    assert not (out / "ok.ann").is_symlink() and (out / "ok.ann").read_text().startswith("T1\tPER 0 4")


# -- inputs are never overwritten (issue 45 item 3, issue 33 item 18) -------------------------------------------------
def test_convert_onto_its_input_is_an_error(tmp_path, capsys):
    src = _jsonl(tmp_path / "in.jsonl", [_doc("a")])
    before = src.read_bytes()
    assert main(["convert", str(src), str(src), "--to", "jsonl"]) == 2
    assert "is an input" in capsys.readouterr().err and src.read_bytes() == before
    link = tmp_path / "link.jsonl"
    link.symlink_to(src)                       # the same file by another name
    assert main(["convert", str(src), str(link), "--to", "jsonl"]) == 2
    assert src.read_bytes() == before


def test_a_folder_output_that_would_overwrite_an_input_file_is_an_error(tmp_path, capsys):
    folder = tmp_path / "corpus"
    assert main(["convert", str(_jsonl(tmp_path / "in.jsonl", [_doc("a"), _doc("b")])), str(folder), "--to",
                 "brat", "-q"]) == 0
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert main(["convert", str(folder), str(folder), "--to", "brat"]) == 2
    assert "is an input" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before


def test_score_output_onto_an_input_is_an_error(tmp_path, capsys):
    gold = _jsonl(tmp_path / "g.jsonl", [_doc("a")])
    pred = _jsonl(tmp_path / "p.jsonl", [_doc("a")])
    for option in ("-o", "--details"):
        assert main(["score", str(gold), str(pred), option, str(pred)]) == 2
        assert "is an input" in capsys.readouterr().err
    assert json.loads(pred.read_text().splitlines()[0])["id"] == "a"


# -- '-' is standard output (issue 33 item 18) ------------------------------------------------------------------------
def test_dash_is_standard_output_for_details_and_tsv(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    gold = _jsonl(tmp_path / "g.jsonl", [_doc("a")])
    pred = _jsonl(tmp_path / "p.jsonl", [_doc("a", spans=((0, 4, "PER"),))])
    assert main(["score", str(gold), str(pred), "--details", "-", "-o", str(tmp_path / "s.json")]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [r["outcome"] for r in rows] == ["match", "missing"]          # by hand: PER matched, LOC missed
    assert main(["errors", str(gold), str(pred), "--tsv", "-"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("document\t") or "\t" in out.splitlines()[0]
    assert not (tmp_path / "-").exists()


# -- spreadsheet formulas (issue 33 item 18) --------------------------------------------------------------------------
EVIL = "=cmd|' /C calc'!A0"


def test_a_formula_label_is_quoted_in_every_spreadsheet_file(tmp_path, capsys):
    gold = _jsonl(tmp_path / "g.jsonl", [_doc("-doc", spans=((0, 4, EVIL), (14, 19, "@SUM(A1)")))])
    pred = _jsonl(tmp_path / "p.jsonl", [_doc("-doc", spans=((0, 4, EVIL), (14, 19, "+LOC")))])
    assert main(["score", str(gold), str(pred), "--details", str(tmp_path / "d.csv"), "--mat-csv",
                 str(tmp_path / "mat"), "-o", str(tmp_path / "r.csv"), "-q"]) == 0
    files = [tmp_path / "d.csv", tmp_path / "r.csv", *sorted((tmp_path / "mat").iterdir())]
    cells = {f.name: [c for row in csv.reader(io.StringIO(f.read_text(encoding="utf-8"))) for c in row]
             for f in files}
    for name, values in cells.items():
        texts = [c for c in values if c and c[0] in "=+-@" and not _is_formula_of_accord(name, c)]
        assert all(_number(c) for c in texts), (name, texts)       # only numbers begin with a sign
    assert "'" + EVIL in cells["d.csv"] and "'" + EVIL in cells["r.csv"] and "'-doc" in cells["r.csv"]
    assert "'@SUM(A1)" in cells["d.csv"] and "'+LOC" in cells["details.csv"]
    # accord's own formulas (MATScore's excel output) stay formulas
    assert any(c.startswith("=") for c in cells["bytag_excel.csv"])


def _number(text):
    try:
        float(text)
    except ValueError:
        return False
    return True


def _is_formula_of_accord(name, cell):
    return name.endswith("_excel.csv") and cell.startswith("=") and "cmd" not in cell and "SUM" not in cell


# -- interrupted writers leave the old output or none (issue 45 item 3) ------------------------------------------------
def _interrupt_at(monkeypatch, owner, name, n=2):
    """``owner.name`` raising KeyboardInterrupt on its ``n``-th call (as Ctrl-C there would)."""
    original = getattr(owner, name)
    calls = []

    def wrapper(*args, **kwargs):
        calls.append(1)
        if len(calls) == n:
            raise KeyboardInterrupt
        return original(*args, **kwargs)
    monkeypatch.setattr(owner, name, wrapper)
    return calls


@pytest.mark.parametrize("fmt", ["brat", "mat-json", "xml-inline"])
def test_an_interrupted_folder_conversion_leaves_the_previous_folder(tmp_path, monkeypatch, capsys, fmt):
    src = _jsonl(tmp_path / "in.jsonl", [_doc("a"), _doc("b"), _doc("c")])
    out = tmp_path / "out"
    assert main(["convert", str(src), str(out), "--to", fmt, "-q"]) == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    _jsonl(src, [_doc("a", text="Mary lives in Paris"), _doc("b"), _doc("c")])
    calls = _interrupt_at(monkeypatch, pathlib.Path, "write_text")      # at the second file
    assert main(["convert", str(src), str(out), "--to", fmt, "-q"]) == 130
    assert len(calls) == 2 and capsys.readouterr().err.strip() == "accord: interrupted"
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert sorted(os.listdir(tmp_path)) == ["in.jsonl", "out"]          # no temporary folder left


def test_an_interrupted_first_conversion_leaves_nothing(tmp_path, monkeypatch):
    src = _jsonl(tmp_path / "in.jsonl", [_doc("a"), _doc("b")])
    _interrupt_at(monkeypatch, pathlib.Path, "write_text")
    assert main(["convert", str(src), str(tmp_path / "out"), "--to", "brat", "-q"]) == 130
    assert os.listdir(tmp_path) == ["in.jsonl"]


@pytest.mark.parametrize("fmt, name", [("jsonl", "out.jsonl"), ("conll", "out.conll"), ("doccano", "out.jsonl"),
                                       ("label-studio", "out.json")])
def test_an_interrupted_file_conversion_leaves_the_previous_file(tmp_path, monkeypatch, fmt, name):
    src = _jsonl(tmp_path / "in.jsonl", [_doc("a"), _doc("b")])
    out = tmp_path / name
    assert main(["convert", str(src), str(out), "--to", fmt, "-q"]) == 0
    before = out.read_bytes()
    _interrupt_at(monkeypatch, os, "replace", 1)     # the file is written, not yet in place
    assert main(["convert", str(src), str(out), "--to", fmt, "-q"]) == 130
    assert out.read_bytes() == before and sorted(os.listdir(tmp_path)) == sorted(["in.jsonl", name])


def test_interrupted_score_outputs_leave_the_previous_files(tmp_path, monkeypatch):
    gold = _jsonl(tmp_path / "g.jsonl", [_doc("a"), _doc("b")])
    pred = _jsonl(tmp_path / "p.jsonl", [_doc("a"), _doc("b", spans=((0, 4, "PER"),))])
    outs = {"-o": tmp_path / "s.json", "--details": tmp_path / "d.csv", "--mat-csv": tmp_path / "mat",
            "--html": tmp_path / "r.html"}
    argv = ["score", str(gold), str(pred), "--profile", "mat", "-q"]
    for option, path in outs.items():
        argv += [option, str(path)]
    assert main(argv) == 0
    snapshot = _tree(tmp_path)
    contents = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    import accord._support.csv_cells

    for owner, name, n in [(accord._support.csv_cells.SpreadsheetDictWriter, "writerow", 2),   # --details, second row
                           (pathlib.Path, "open", 2),                                 # --mat-csv, second file
                           (os, "replace", 1), (os, "replace", 2), (os, "replace", 3)]:
        with monkeypatch.context() as m:
            _interrupt_at(m, owner, name, n)
            assert main(argv) == 130
        assert _tree(tmp_path) == snapshot
        assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == contents


def test_an_interrupted_report_leaves_no_page(tmp_path, monkeypatch):
    gold = _jsonl(tmp_path / "g.jsonl", [_doc("a")])
    _interrupt_at(monkeypatch, os, "replace", 1)
    assert main(["report", str(gold), str(gold), "-o", str(tmp_path / "r.html"), "--bootstrap", "0", "-q"]) == 130
    assert os.listdir(tmp_path) == ["g.jsonl"]


def test_an_interrupted_adjudication_leaves_the_previous_folder(tmp_path, monkeypatch):
    key = _jsonl(tmp_path / "key.jsonl", [_doc("a"), _doc("b"), _doc("c")])
    resp = _jsonl(tmp_path / "resp.jsonl", [_doc("a"), _doc("b", spans=((0, 4, "PER"),)), _doc("c")])
    out = tmp_path / "out"
    argv = ["adjudicate", str(key), str(resp), "-o", str(out), "--out-format", "brat", "-q"]
    assert main(argv) == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    assert sorted(before) == ["a.ann", "a.txt", "b.ann", "b.txt", "c.ann", "c.txt"]
    _interrupt_at(monkeypatch, pathlib.Path, "write_text", 3)       # the second document's first file
    assert main(argv + ["--rest", "key"]) == 130
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert sorted(os.listdir(tmp_path)) == ["key.jsonl", "out", "resp.jsonl"]


def test_a_folder_output_cannot_be_standard_output(tmp_path, capsys):
    gold = _jsonl(tmp_path / "g.jsonl", [_doc("a")])
    assert main(["score", str(gold), str(gold), "--mat-csv", "-", "-q"]) == 2
    assert "standard output" in capsys.readouterr().err and not (tmp_path / "-").exists()
    assert main(["convert", str(_jsonl(tmp_path / "two.jsonl", [_doc("a"), _doc("b")])), "-", "--to", "brat"]) == 2


def test_one_document_into_an_existing_folder_and_a_missing_folder_named(tmp_path, capsys):
    """One document converted to an existing folder goes in it (was 'Is a directory' on a temporary name); a file
    output in a folder that does not exist is an error naming the path given, not the temporary file."""
    src = tmp_path / "one.jsonl"
    _jsonl(src, [_doc("d1")])
    folder = tmp_path / "ex"
    folder.mkdir()
    assert main(["convert", str(src), str(folder), "--to", "mat-json"]) == 0
    assert [p.name for p in folder.iterdir()] == ["d1.json"]
    capsys.readouterr()
    for argv in (["convert", str(src), str(tmp_path / "nodir" / "x.json"), "--to", "mat-json"],
                 ["score", str(src), str(src), "-o", str(tmp_path / "nodir" / "x.csv")]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert "nodir" in err and "does not exist" in err and "accord-tmp" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ex", "one.jsonl"]


def test_a_gate_key_folder_of_symbolic_links_is_adjudicated(tmp_path, capsys):
    """Key files that are links to files elsewhere (git-annex, DataLad, DVC) are read; only outputs are checked to
    stay in their folder (a review found them refused as 'leads outside')."""
    import shutil

    real, key, resp = tmp_path / "real", tmp_path / "k", tmp_path / "r"
    for d in (real, key, resp):
        d.mkdir()
    for name in ("beijing-opera.xml", "beijing-opera-2.xml"):
        shutil.copy(f"tests/data/gate/{name}", real / name)
        shutil.copy(f"tests/data/gate/{name}", resp / name)
        (key / name).symlink_to(real / name)
    out = tmp_path / "out"
    assert main(["adjudicate", str(key), str(resp), "--key-set", "ann1", "--response-set", "ann2", "-o", str(out),
                 "--out-format", "gate", "-q"]) == 0, capsys.readouterr().err
    assert sorted(p.name for p in out.iterdir()) == ["beijing-opera-2.xml", "beijing-opera.xml"]


def test_two_outputs_to_one_file_or_both_to_standard_output_are_refused(tmp_path, capsys):
    """-o same.csv --details same.csv exited 0 with the last write winning (a review)."""
    gold = _jsonl(tmp_path / "g.jsonl", [_doc("a")])
    same = tmp_path / "same.csv"
    assert main(["score", str(gold), str(gold), "-o", str(same), "--details", str(same)]) == 2
    assert "-o and --details both write to" in capsys.readouterr().err and not same.exists()
    assert main(["score", str(gold), str(gold), "--details", "-", "--html", "-"]) == 2
    assert "both write to standard output" in capsys.readouterr().err
    assert main(["score", str(gold), str(gold), "-o", str(tmp_path / "s.json"), "--details",
                 str(tmp_path / "d.csv"), "--output", "json"]) == 0
