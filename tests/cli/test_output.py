"""Output of every command: terminal tables that never cut a number, the format from -o's extension,
standard input and output."""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import sys

import pytest

from accord.cli import main
from tests.result.contract import checked

from ..result.commands import CONLL_GOLD, CONLL_PRED, INPUT_NAMES, command_lines, command_names, write_inputs


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    return write_inputs(tmp_path_factory.mktemp("tables"))


NAMES = command_names()


def _percents(block: dict) -> list[str]:
    return [f"{100 * block[k]:.2f}" for k in ("precision", "recall", "f1") if isinstance(block.get(k), float)]


_JSON: dict[str, dict] = {}
"""Each command's JSON output, checked against the contract once for both widths (the JSON has no width)."""


@pytest.mark.parametrize("width", [60, 100])
@pytest.mark.parametrize("name", NAMES)
def test_tables_never_cut_a_number(name, width, inputs, capsys, monkeypatch, recwarn):
    argv = command_lines(inputs)[name]
    monkeypatch.setenv("COLUMNS", str(width))
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "…" not in text and text.strip()
    assert max(len(line) for line in text.splitlines()) <= width
    if name not in _JSON:
        assert main([*argv, "--output", "json"]) == 0
        _JSON[name] = checked(capsys.readouterr().out)
    out = _JSON[name]
    # every corpus-level rate the JSON has is printed whole (P, R, F as percentages with two decimals)
    if out["command"] != "agree":
        blocks = [m["totals"] for m in out["measures"].values()] if "measures" in out else [out["totals"]]
        if out["command"] in ("diff", "qa") or out["mode"] == "gate":
            blocks = []   # GATE's tables show fractions with four decimals (as GATE), checked below
        for block in blocks:
            for value in _percents(block):
                assert value in text, (value, text)
    # and the caption names the inputs and the documents
    assert "document" in text


def test_gate_tables_show_whole_fractions(monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "60")
    argv = command_lines({k: "" for k in INPUT_NAMES})["qa"]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert main([*argv, "--output", "json"]) == 0
    strict = checked(capsys.readouterr().out)["measures"]["strict"]["totals"]
    assert f"{strict['precision']:.4f}" in text and f"{strict['recall']:.4f}" in text


def test_score_table_says_mode_profile_and_documents(capsys, monkeypatch, recwarn):
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["score", CONLL_GOLD, CONLL_PRED, "--profile", "lenient"]) == 0
    text = capsys.readouterr().out
    assert "pairs, profile lenient" in text and "231 documents" in text and "xlm_flert.conll" in text
    # P, R, F in that order
    header = next(line for line in text.splitlines() if "P %" in line)
    assert header.index("P %") < header.index("R %") < header.index("F1 %")


def test_output_format_from_the_extension(tmp_path, capsys, recwarn):
    for name, check in (("out.json", lambda t: json.loads(t)["command"] == "score"),
                        ("out.csv", lambda t: next(csv.DictReader(io.StringIO(t)))["measure"] == "pairs"),
                        ("out.txt", lambda t: "P %" in t and "{" not in t)):
        assert main(["score", CONLL_GOLD, CONLL_PRED, "-o", str(tmp_path / name)]) == 0
        assert check((tmp_path / name).read_text(encoding="utf-8")), name
    # --output wins over the extension
    assert main(["score", CONLL_GOLD, CONLL_PRED, "-o", str(tmp_path / "x.json"), "--output", "csv"]) == 0
    assert (tmp_path / "x.json").read_text().startswith("measure,")
    assert capsys.readouterr().out == ""


def test_standard_input_as_an_input(tmp_path):
    gold = open(CONLL_GOLD, "rb").read()
    run = subprocess.run([sys.executable, "-m", "accord", "score", "-", CONLL_PRED, "--format", "conll", "-o", "-",
                          "--output", "json"], input=gold, capture_output=True)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["totals"]["match"] == 5339
    # sniffed by content when no format is given
    run = subprocess.run([sys.executable, "-m", "accord", "smatch", "-", "-"], input=b"(a / dog)\n",
                         capture_output=True)
    assert run.returncode == 2 and b"standard input ('-') can be only one" in run.stderr


def test_quiet_keeps_warnings_and_drops_the_summary_line(tmp_path, capsys, recwarn):
    vrt = tmp_path / "c.vrt"
    vrt.write_text("<text id='t'>\n<s>\nA\tB-X\tB-X\nb\tI-X\tO\n</s>\n</text>\n", encoding="utf-8")
    args = ["errors", str(vrt), "--gold-column", "2", "--pred-column", "3", "--positional-attributes",
            "word,gold,pred", "--tsv", str(tmp_path / "e.tsv")]
    assert main(args) == 0
    assert "written to" in capsys.readouterr().err
    assert main([*args, "--quiet"]) == 0
    assert capsys.readouterr().err == ""
    assert re.search(r"\bFN\b", (tmp_path / "e.tsv").read_text(encoding="utf-8"))


def test_table_cells_from_the_data_are_shown_as_they_are(tmp_path, capsys):
    """A label is never read as rich markup ('[red]X[/red]' showed as 'X': a wrong label on screen) and its control
    characters cannot drive the terminal (an escape sequence was printed raw: a review)."""
    import json as _json

    label = "[red]X[/red]\x1b]0;PWNED\x07"
    g = tmp_path / "g.jsonl"
    g.write_text(_json.dumps({"id": "d", "text": "John", "annotations": [{"label": label, "start": 0, "end": 4}]})
                 + "\n", encoding="utf-8")
    for command in ("score", "diff", "qa"):
        assert main([command, str(g), str(g)]) == 0
        out = capsys.readouterr().out
        assert "\x1b" not in out and "\x07" not in out          # no control character reaches the terminal
        assert "[red]" in out and "\\x1b" in out                # the markup shown as text, the escape written out


def test_captions_name_what_changes_a_modes_reading(tmp_path, capsys, monkeypatch):
    """Smatch++'s standardization and the coreference options other than CoNLL-2012's are named in the caption
    (and the defaults are not)."""
    monkeypatch.setenv("COLUMNS", "200")
    amr = tmp_path / "a.amr"
    amr.write_text("(w / want-01 :ARG0 (b / boy))\n")
    assert main(["smatch", str(amr), str(amr), "--standardize"]) == 0
    assert "· smatch, standardize amr ·" in capsys.readouterr().out
    assert main(["smatch", str(amr), str(amr)]) == 0
    assert "· smatch · 1 document" in capsys.readouterr().out
    conll = tmp_path / "k.conll"
    conll.write_text("#begin document (d);\nd 0 0 Ann (1)\nd 0 1 left 1)\n#end document\n".replace(" 1)", " -"))
    assert main(["coref", str(conll), str(conll), "--singletons", "drop"]) == 0
    assert "· coref, singletons drop ·" in capsys.readouterr().out
    assert main(["coref", str(conll), str(conll)]) == 0
    assert "· coref · 1 document" in capsys.readouterr().out
