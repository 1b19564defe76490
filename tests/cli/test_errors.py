"""What reaches the command line: exit statuses, one-line errors and warnings, names checked against the input,
repairs reported, and no NaN in any JSON."""

from __future__ import annotations

import contextlib
import json
from collections import Counter
from pathlib import Path

import pytest

import accord.cli
from accord.cli import main
from accord.formats.text.gate import read_gate_sets
from tests.result.contract import checked

DATA = Path(__file__).parents[1] / "data"
GATE = DATA / "gate" / "beijing-opera.xml"


def no_nan(text: str) -> object:
    def refuse(name: str) -> None:
        raise AssertionError(f"{name} in JSON output")
    return json.loads(text, parse_constant=refuse)


def one_error(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("accord: error: "), err
    return err[0]


def conll(tmp_path: Path, name: str, body: str) -> str:
    p = tmp_path / name
    p.write_text(body, encoding="utf-8")
    return str(p)


# ------------------------------------------------------------------------- exit statuses
def test_a_defect_is_exit_3_on_one_line(monkeypatch, capsys, tmp_path):
    def broken(args):
        raise KeyError("boom")
    monkeypatch.setattr(accord.cli, "_run", broken)
    g = conll(tmp_path, "g.conll", "a O\n")
    assert main(["score", g, g]) == 3
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "internal error (a bug in accord" in err[0] and "KeyError" in err[0]


def test_bad_input_is_exit_2_and_broken_pipe_is_0(monkeypatch, capsys, tmp_path):
    assert main(["score", str(tmp_path / "nope.conll"), str(tmp_path / "nope.conll")]) == 2
    assert "nope.conll" in one_error(capsys)

    def closed(args):
        raise BrokenPipeError
    monkeypatch.setattr(accord.cli, "_run", closed)
    assert main(["score", "x", "y"]) == 0


def test_multi_line_messages_become_one_line(monkeypatch, capsys):
    from accord.errors import FormatError

    def multi(args):
        raise FormatError("first\n  second\n")
    monkeypatch.setattr(accord.cli, "_run", multi)
    assert main(["score", "x", "y"]) == 2
    assert one_error(capsys) == "accord: error: first second"


def test_a_message_quoting_a_megabyte_is_cut_in_its_middle(monkeypatch, capsys):
    from accord.errors import FormatError

    def huge(args):
        raise FormatError("f.txt:1: expected a tag, found " + "x" * 1_000_000 + " (end)")
    monkeypatch.setattr(accord.cli, "_run", huge)
    assert main(["score", "x", "y"]) == 2
    line = one_error(capsys)
    assert len(line) < 2100 and line.startswith("accord: error: f.txt:1: expected a tag")
    assert line.endswith(" (end)") and "characters cut" in line


# ------------------------------------------------------------------------------- repairs
def test_repairs_are_reported_on_stderr_and_in_json(tmp_path, capsys):
    g = conll(tmp_path, "g.conll", "John B-PER\nSmith I-PER\nran O\nhome O\n")
    p = conll(tmp_path, "p.conll", "John O\nSmith I-PER\nran O\nhome I-LOC\n")
    assert main(["score", g, p, "--output", "json"]) == 0
    captured = capsys.readouterr()
    warnings = [line for line in captured.err.splitlines() if line.startswith("accord: warning:")]
    assert len(warnings) == 1 and "2 invalid IOB2 transition(s)" in warnings[0]
    assert "line 2 'I-PER' after 'O'" in warnings[0] and "line 4 'I-LOC' after 'O'" in warnings[0]
    out = no_nan(captured.out)
    (repair,) = out["repairs"]
    assert repair["file"] == p and repair["count"] == 2 and repair["method"] == "conlleval"
    assert [x["line"] for x in repair["first"]] == [2, 4]
    # conlleval's reading: I-PER after O starts a PER chunk (Smith), which is not the gold John Smith
    assert (out["totals"]["match"], out["totals"]["pred"]) == (0, 2)
    assert main(["score", g, p, "--repair", "error"]) == 2
    assert "p.conll" in one_error(capsys)


def test_no_repairs_no_report(tmp_path, capsys):
    g = conll(tmp_path, "g.conll", "John B-PER\nran O\n")
    assert main(["score", g, g, "--output", "json"]) == 0
    captured = capsys.readouterr()
    assert "warning" not in captured.err and no_nan(captured.out).get("repairs", []) == []


# ----------------------------------------------------------------------- names checked
@pytest.mark.parametrize("option, value, suggestion", [
    ("--ignore", "PERS", "PER"), ("--attributes", "knd", "kind"), ("--equivalence-class", "X=PER,LCO", "LOC")])
def test_score_names_are_checked(tmp_path, capsys, option, value, suggestion):
    doc = {"id": "d", "text": "John in Rome", "annotations": [
        {"label": "PER", "start": 0, "end": 4, "attributes": {"kind": "a"}}, {"label": "LOC", "start": 8, "end": 12}]}
    g = tmp_path / "g.jsonl"
    g.write_text(json.dumps(doc) + "\n", encoding="utf-8")
    assert main(["score", str(g), str(g), option, value]) == 2
    err = one_error(capsys)
    assert option in err and f"did you mean {suggestion!r}" in err


@pytest.mark.parametrize("command", ["diff", "qa"])
def test_gate_commands_refuse_unknown_types(capsys, command):
    assert main([command, str(GATE), str(GATE), "--key-set", "ann1", "--response-set", "ann2", "--type",
                 "Locaton"]) == 2
    err = one_error(capsys)
    assert "--type" in err and "did you mean 'Location'" in err


def test_agree_type_list_is_several_types(capsys):
    assert main(["agree", str(GATE), "--sets", "ann1,ann2", "--type", "Os,sent", "--output", "json"]) == 0
    out = no_nan(capsys.readouterr().out)
    # items: every span of an Os or sent annotation in either set; the category is the label
    _, sets = read_gate_sets(GATE)
    spans = {(a.start, a.end) for s in ("ann1", "ann2") for a in sets[s] if a.label in ("Os", "sent")}
    assert out["totals"]["items"] == len(spans)
    assert main(["agree", str(GATE), "--sets", "ann1,ann2", "--type", "Os,snt"]) == 2
    assert "did you mean 'sent'" in one_error(capsys)


def test_structured_metric_needs_its_records(tmp_path, capsys):
    k = tmp_path / "k.jsonl"
    k.write_text(json.dumps({"id": "a", "relations": [{"type": "R", "subj": [0, 1], "obj": [3, 3]}]}) + "\n",
                 encoding="utf-8")
    assert main(["structured", str(k), str(k), "--metric", "uas"]) == 2
    assert "dependencies" in one_error(capsys)
    assert main(["structured", str(k), str(k), "--metric", "relaton"]) == 2
    assert "did you mean 'relation'" in one_error(capsys)


# ---------------------------------------------------------------------- GATE annotation sets
def test_gate_default_set_empty_names_the_options(capsys):
    assert main(["score", str(GATE), str(GATE)]) == 2
    err = one_error(capsys)
    assert "--gold-set" in err and "'ann1'" in err


def test_gate_named_sets_are_scored(capsys):
    assert main(["score", str(GATE), str(GATE), "--gold-set", "ann1", "--pred-set", "ann2", "--output", "json"]) == 0
    totals = no_nan(capsys.readouterr().out)["totals"]
    # strict: the multiset intersection of (label, start, end) of the two sets, counted here independently
    _, sets = read_gate_sets(GATE)
    a, b = (Counter((x.label, x.start, x.end) for x in sets[s]) for s in ("ann1", "ann2"))
    assert totals["match"] == sum((a & b).values())
    assert (totals["gold"], totals["pred"]) == (38, 22)


# ------------------------------------------------------------------------------ NaN in JSON
def test_qa_json_has_no_nan_for_a_type_absent_from_a_document(tmp_path, capsys):
    docs = [{"id": "d1", "text": "John ran", "annotations": [{"label": "PER", "start": 0, "end": 4}]},
            {"id": "d2", "text": "Rome", "annotations": [{"label": "LOC", "start": 0, "end": 4}]}]
    g = tmp_path / "g.jsonl"
    g.write_text("".join(json.dumps(d) + "\n" for d in docs), encoding="utf-8")
    for command in ("qa", "diff"):
        assert main([command, str(g), str(g), "--output", "json"]) == 0
        out = no_nan(capsys.readouterr().out)
        if command == "qa":
            # GATE's AnnotationDiffer: an empty cell (LOC in d1) has P = R = F = 1 (notes/gate-evaluation.md)
            empty = out["measures"]["strict"]["by_document_label"]["d1"]["LOC"]
            assert empty["gold"] == empty["pred"] == 0 and empty["f1"] == 1.0


def test_score_zero_division_nan_is_null(tmp_path, capsys):
    g = conll(tmp_path, "g.conll", "a O\n")
    assert main(["score", g, g, "--zero-division", "nan", "--output", "json"]) == 0
    out = no_nan(capsys.readouterr().out)
    assert out["totals"]["precision"] is None and out["totals"]["gold"] == 0


# ------------------------------------------------------------------------------ options named
@pytest.mark.parametrize("argv, option", [
    (["score", "{g}", "{g}", "--match", "clueval", "--leniency", "7"], "--leniency"),
    (["score", "{g}", "{g}", "--beta", "-1"], "--beta"),
    (["score", "{g}", "{g}", "--beta", "nan"], "--beta"),
])
def test_option_errors_name_the_option(tmp_path, capsys, argv, option):
    g = conll(tmp_path, "g.conll", "John B-PER\n")
    with pytest.raises(SystemExit) if "--beta" in argv else contextlib.nullcontext():
        status = main([a.format(g=g) for a in argv])
        assert status == 2
    assert option in capsys.readouterr().err


# ------------------------------------------------------------------ version, -m, standard output
def test_version_and_python_dash_m(tmp_path):
    import subprocess
    import sys

    import accord

    run = subprocess.run([sys.executable, "-m", "accord", "--version"], capture_output=True, text=True)
    assert run.returncode == 0 and run.stdout.strip() == f"accord {accord.__version__}"
    g = conll(tmp_path, "g.conll", "John B-PER\n")
    run = subprocess.run([sys.executable, "-m", "accord", "score", g, g, "--output", "json"], capture_output=True,
                         text=True)
    assert run.returncode == 0 and json.loads(run.stdout)["totals"]["match"] == 1


def test_dash_o_dash_is_standard_output(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    g = conll(tmp_path, "g.conll", "John B-PER\n")
    assert main(["score", g, g, "--output", "json", "-o", "-"]) == 0
    assert checked(capsys.readouterr().out)["totals"]["gold"] == 1
    assert not (tmp_path / "-").exists()
    assert main(["adjudicate", g, g, "-o", "-"]) == 2
    assert "-o -" in one_error(capsys)


# ------------------------------------------------------------------------------- nothing to count
def test_empty_files_score_with_a_warning_not_a_quiet_zero(tmp_path, capsys):
    empty = tmp_path / "e.conll"
    empty.write_text("", encoding="utf-8")
    only_o = tmp_path / "o.conll"
    only_o.write_text("-DOCSTART- O\n\nJohn O\n", encoding="utf-8")
    for path in (empty, only_o):
        assert main(["score", str(path), str(path), "--output", "json"]) == 0
        err = capsys.readouterr().err
        assert "accord: warning: nothing to count: both sides are empty" in err


def test_a_document_with_mentions_gives_no_such_warning(tmp_path, capsys):
    g = conll(tmp_path, "g.conll", "John B-PER\nran O\n")
    assert main(["score", g, g, "--output", "json"]) == 0
    assert "nothing to count" not in capsys.readouterr().err


def test_coref_on_empty_files_is_an_error_and_without_mentions_a_warning(tmp_path, capsys):
    empty = tmp_path / "e.conll"
    empty.write_text("", encoding="utf-8")
    assert main(["coref", str(empty), str(empty)]) == 2      # was exit 3 (an array of no document reshaped)
    assert "no document to score" in one_error(capsys)
    bare = tmp_path / "d.conll"
    bare.write_text("#begin document (d);\nd 0 0 John -\n#end document\n", encoding="utf-8")
    assert main(["coref", str(bare), str(bare), "--output", "json"]) == 0
    assert "nothing to count" in capsys.readouterr().err


def test_standard_input_is_named_stdin_in_outputs(tmp_path, monkeypatch, capsys):
    """The JSON's sources and the captions name standard input <stdin>, as Python does, not its temporary copy."""
    import io
    import sys

    g = conll(tmp_path, "g.conll", "John B-PER\nran O\n")
    for argv in (["score", g, "-", "--output", "json"], ["score", g, "-"]):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"John B-PER\nran O\n")))
        assert main(argv) == 0
        out = capsys.readouterr().out
        assert "accord-stdin" not in out
        if "--output" in argv:
            assert json.loads(out)["inputs"]["pred"]["sources"] == ["<stdin>"]
        else:
            assert "<stdin> · pairs" in out
    key = tmp_path / "k.conll"
    key.write_text("#begin document (d);\nd 0 0 John (0)\n#end document\n", encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(key.read_bytes())))
    assert main(["coref", str(key), "-", "--output", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["inputs"]["pred"]["sources"] == ["<stdin>"]


def test_ctrl_c_while_the_options_are_read_is_one_line(monkeypatch, capsys):
    """Ctrl-C in the first tenth of a second (the parser being built) printed Python's traceback (a review)."""
    def interrupted(*commands):
        raise KeyboardInterrupt
    monkeypatch.setattr(accord.cli, "build_parser", interrupted)
    assert main(["score", "x", "y"]) == 130
    assert capsys.readouterr().err == "accord: interrupted\n"
