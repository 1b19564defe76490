"""``accord agree --unitizing``: GATE test documents, a brat corpus of three annotators, units tables, the JSON
contract and the alignment, and the errors."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from accord.cli import main

DATA = Path(__file__).parent.parent / "data"
GATE = DATA / "gate" / "beijing-opera.xml"
BRAT = DATA / "brat-news"


def run(args, capsys):
    status = main(args)
    out = capsys.readouterr()
    return status, out.out, out.err


def brat_annotators(tmp_path: Path) -> list[Path]:
    """Three annotators of the brat news text: the first as distributed (entities only); the second moves two
    boundaries and retypes one entity; the third leaves one entity out and adds one."""
    text = (BRAT / "090-event_structures.txt").read_text(encoding="utf-8")
    lines = [ln for ln in (BRAT / "090-event_structures.ann").read_text(encoding="utf-8").splitlines()
             if ln.startswith("T")]
    entities = [ln.split("\t") for ln in lines]
    edits = {
        "ann2": lambda i, t, label, s, e: (label if i != 2 else "Person", s + (1 if i == 0 else 0),
                                           e - (2 if i == 5 else 0)),
        "ann3": lambda i, t, label, s, e: None if i == 3 else (label, s, e),
    }
    folders = []
    for name in ("ann1", "ann2", "ann3"):
        folder = tmp_path / name
        folder.mkdir()
        shutil.copy(BRAT / "090-event_structures.txt", folder / "news.txt")
        out = []
        for i, (t, span, _) in enumerate(entities):
            label, s, e = span.split(" ")[0], int(span.split(" ")[1]), int(span.split(" ")[2])
            changed = edits.get(name, lambda i, t, *x: x)(i, t, label, s, e)
            if changed is None:
                continue
            label, s, e = changed
            out.append(f"{t}\t{label} {s} {e}\t{text[s:e]}")
        if name == "ann3":
            out.append(f"T99\tPerson 0 5\t{text[0:5]}")
        (folder / "news.ann").write_text("\n".join(out) + "\n", encoding="utf-8")
        folders.append(folder)
    return folders


def test_gamma_on_a_brat_corpus_of_three_annotators(tmp_path, capsys):
    folders = brat_annotators(tmp_path)
    out = tmp_path / "gamma.json"
    details = tmp_path / "alignment.csv"
    status, _, err = run(["agree", *map(str, folders), "--unitizing", "gamma", "-o", str(out), "--details",
                          str(details)], capsys)
    assert status == 0, err
    result = json.loads(out.read_text())
    assert result["command"] == "agree" and result["mode"] == "gamma"
    totals = result["totals"]
    assert totals["units_per_annotator"] == {str(folders[0]): 22, str(folders[1]): 22, str(folders[2]): 22}
    assert 0 < totals["gamma"] < 1 and totals["gamma"] == pytest.approx(1 - totals["observed_disorder"]
                                                                         / totals["expected_disorder"])
    # every unit of every annotator is in exactly one unitary alignment
    seen = {}
    for entry in result["alignment"]:
        for annotator, unit in entry["units"].items():
            if unit is not None:
                key = (annotator, unit["start"], unit["end"], unit["category"])
                seen[key] = seen.get(key, 0) + 1
    assert len(seen) == 66 and set(seen.values()) == {1}
    # 18 of the 22 entities are marked identically by all three: unitary alignments of disorder 0
    assert sum(1 for e in result["alignment"] if e["disorder"] == 0) == 18
    # the second annotator's moved boundary: T1 [327, 333) against [328, 333) twice, ((1 + 0) / (6 + 5))² each
    moved = next(e for e in result["alignment"] if any(u and u["start"] == 328 for u in e["units"].values()))
    assert moved["disorder"] == pytest.approx(2 * (1 / 11) ** 2 / 3)
    rows = details.read_text().splitlines()
    assert rows[0] == "document,alignment,disorder,annotator,start,end,category,id"
    assert len(rows) == 1 + 3 * len(result["alignment"])


def test_alpha_u_on_the_brat_corpus(tmp_path, capsys):
    folders = brat_annotators(tmp_path)
    status, out, err = run(["agree", *map(str, folders), "--unitizing", "alpha-u", "--output", "json"], capsys)
    assert status == 0, err
    totals = json.loads(out)["totals"]
    assert set(totals["u_alpha_1995"]["by_category"]) == {"Organization", "Person", "Report", "Merge-org"}
    assert totals["u_alpha_1995"]["by_category"]["Report"] == 1.0     # the four Report units are the same for all
    assert totals["u_alpha_1995"]["by_category"]["Merge-org"] < 1.0  # the second annotator retyped one
    assert -1 < totals["u_alpha"] < 1 and -1 < totals["cu_alpha"] <= 1


def test_gate_documents(capsys):
    status, out, err = run(["agree", str(GATE), "--sets", "ann1,ann2,ann3", "--types", "sent", "--feature", "Op",
                            "--unitizing", "gamma", "--output", "json"], capsys)
    assert status == 0, err
    totals = json.loads(out)["totals"]
    # the three annotators split the text into the same 19 sentences; only the Op feature differs
    assert totals["units_per_annotator"] == {"ann1": 19, "ann2": 19, "ann3": 19}
    assert set(totals["gamma_k"]) == {"", "false", "true"}
    assert 0 < totals["gamma"] < 1
    status, out, err = run(["agree", str(GATE), "--sets", "ann1,ann2,ann3", "--types", "sent",
                            "--unitizing", "alpha-u", "--output", "json"], capsys)
    assert status == 0, err
    totals = json.loads(out)["totals"]
    assert totals["u_alpha_1995"]["overall"] == 1.0      # the same sentence boundaries
    assert totals["binary_u_alpha"] == 1.0


def test_units_tables(tmp_path, capsys):
    pygamma_csv = tmp_path / "continuum.csv"       # pygamma-agreement's command-line file: no header
    pygamma_csv.write_text("A,x,0,10\nA,y,20,30\nB,x,1,10\nB,x,22,35\nC,x,0,12\n")
    status, out, err = run(["agree", str(pygamma_csv), "--unitizing", "gamma", "--output", "json", "--seed", "3"],
                           capsys)
    assert status == 0, err
    result = json.loads(out)
    assert result["options"]["seed"] == 3 and result["by_document"] == {}
    first = ((1 / 19) ** 2 + (2 / 22) ** 2 + (3 / 21) ** 2) / 3
    second = ((7 / 23) ** 2 + 3) / 3
    assert result["totals"]["observed_disorder"] == pytest.approx((first + second) / (5 / 3))
    named = tmp_path / "units.tsv"
    named.write_text("label\tdoc\tbegin\tend\tcoder\nx\td1\t0\t10\tA\nx\td1\t1\t10\tB\nx\td2\t0\t4\tA\nx\td2\t0\t4\tB\n")
    status, out, err = run(["agree", str(named), "--unitizing", "gamma", "--output", "csv"], capsys)
    assert status == 0, err
    assert out.splitlines()[0] == "scope,coefficient,category,value"
    assert any(line.startswith("d2,gamma,,1.0") for line in out.splitlines())


@pytest.mark.parametrize("args, message", [
    (["--unitizing", "gamma", "--level", "ordinal"], "--level apply to coefficients over items"),
    (["--unitizing", "alpha-u", "--samples", "5"], "--samples apply to --unitizing gamma"),
    (["--samples", "5"], "--samples apply with --unitizing gamma"),
    (["--unitizing", "gamma", "--bootstrap", "10"], "--bootstrap does not apply"),
    (["--unitizing", "gamma", "--precision", "2"], "--precision must be in (0, 1)"),
    (["--unitizing", "gamma", "--categorical-dissimilarity", "nope"], "neither"),
    (["--unitizing", "alpha-u", "--jobs", "2"], "--jobs apply to --unitizing gamma"),
    (["--jobs", "2"], "--jobs apply with --unitizing gamma"),
    (["--unitizing", "gamma", "--jobs", "0"], "--jobs must be a whole number >= 1 or auto; got 0"),
    (["--unitizing", "gamma", "--jobs", "many"], "--jobs must be a whole number >= 1 or auto; got 'many'"),
])
def test_option_errors(tmp_path, capsys, args, message):
    table = tmp_path / "u.csv"
    table.write_text("A,x,0,10\nB,x,1,10\n")
    status, _, err = run(["agree", str(table), *args], capsys)
    assert status != 0 and message in err and "Traceback" not in err


@pytest.mark.parametrize("text, message", [
    ("A,x,0,10\nB,x,5,4\n", "u.csv:2: the unit [5, 4) is not a segment with end >= start"),
    ("A,x,0,10\nB,x,5,5\n", "B has a unit of length 0 at [5, 5) (u.csv:2"),
    ("A,x,0,ten\n", "u.csv:1: start and end must be numbers"),
    ("A,x,0\n", "3 columns without a header"),
    ("annotator,start,end\nA,0,1\n", "no category column"),
    ("A,x,0,10\n", "at least two annotators"),
])
def test_units_table_errors(tmp_path, capsys, text, message):
    table = tmp_path / "u.csv"
    table.write_text(text)
    status, _, err = run(["agree", str(table), "--unitizing", "gamma"], capsys)
    assert status != 0 and message in err and "Traceback" not in err


def test_alpha_u_takes_units_of_length_0(tmp_path, capsys):
    """DKPro Agreement's testZeroLengthUnitsMixedWithPositiveLengthUnits through the command: a point of A at 0 and
    the same unit [2, 7) by both annotators over [0, 15): D_o 0, uα 1 (γ refuses the point, as pygamma-agreement)."""
    table = tmp_path / "u.csv"
    table.write_text("annotator,document,start,end,category\nr0,d,0,0,A\nr0,d,2,7,A\nr1,d,2,7,A\nr1,d,15,15,A\n")
    status, out, err = run(["agree", str(table), "--unitizing", "alpha-u", "--output", "json"], capsys)
    assert status == 0, err
    totals = json.loads(out)["totals"]
    assert totals["u_alpha_1995"]["overall"] == pytest.approx(1.0)
    assert totals["u_alpha_1995"]["observed_disagreement"]["A"] == 0.0
    status, _, err = run(["agree", str(table), "--unitizing", "gamma"], capsys)
    assert status == 2 and "unit of length 0" in err


def test_time_limit_bounds_gamma_and_applies_to_gamma_only(tmp_path, capsys):
    """--time-limit: γ over units too dense to list their candidates is refused once it is spent (exit 2, the
    document and the limit named); it is refused with alpha-u and without --unitizing; 0 or a word is an argparse
    error."""
    import numpy as np

    rng = np.random.default_rng(0)
    lines = [f"A{a},d,{s:g},{s + w:g},{c}" for a in range(3)
             for s, w, c in zip(np.round(rng.uniform(0, 100, 150)), np.round(rng.uniform(1, 25, 150)),
                                rng.choice(list("abcd"), 150))]
    table = tmp_path / "dense.csv"
    table.write_text("\n".join(dict.fromkeys(lines)) + "\n")
    status, _, err = run(["agree", str(table), "--unitizing", "gamma", "--time-limit", "0.000001"], capsys)
    assert status == 2 and "document 'd'" in err and "within 1e-06 CPU-s" in err and "--time-limit" in err
    status, _, err = run(["agree", str(table), "--unitizing", "alpha-u", "--time-limit", "5"], capsys)
    assert status == 2 and "--time-limit" in err and "--unitizing gamma" in err
    from accord.agreement._colgen import COLGEN_SECONDS
    from accord.cli import build_parser

    assert build_parser().parse_args(["agree", "x", "--unitizing", "gamma"]).time_limit == COLGEN_SECONDS
    for bad in ("0", "-3", "soon"):
        with pytest.raises(SystemExit) as stop:
            main(["agree", str(table), "--unitizing", "gamma", "--time-limit", bad])
        err = capsys.readouterr().err
        assert stop.value.code == 2 and "--time-limit" in err and "seconds" in err


def test_jobs_give_the_json_of_one_process(tmp_path, capsys, monkeypatch):
    """--jobs 2 (and auto): the JSON of --jobs 1, byte for byte but the command line it records, on dense units of
    two documents whose samples are aligned one by one (the listing limit lowered so that their batch is
    refused)."""
    import numpy as np

    from accord.agreement import _alignment

    monkeypatch.setattr(_alignment, "MAX_CANDIDATES", 20_000)
    rng = np.random.default_rng(5)
    lines = [f"A{a},{doc},{s:g},{s + w:g},{c}" for doc in ("d1", "d2") for a in range(3)
             for s, w, c in zip(np.round(rng.uniform(0, 300, 50)), np.round(rng.uniform(1, 60, 50)),
                                rng.choice(list("abc"), 50))]
    table = tmp_path / "units.csv"
    table.write_text("\n".join(dict.fromkeys(lines)) + "\n")
    outputs = []
    for jobs in ("1", "2", "auto"):
        status, out, err = run(["agree", str(table), "--unitizing", "gamma", "--samples", "4", "--output", "json",
                                "--jobs", jobs], capsys)
        assert status == 0, err
        outputs.append(out.replace(f'"--jobs", "{jobs}"', '"--jobs", "N"'))
    assert outputs[0] == outputs[1] == outputs[2]
    assert json.loads(outputs[0])["options"]["samples"] == 4
