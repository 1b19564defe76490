"""``--jobs N`` gives the output of ``--jobs 1``, byte for byte, in every mode of ``accord score`` and ``compare``;
errors are those of one process; an input that cannot be cut is scored in one process with a warning."""

from __future__ import annotations

import json
import random
import shutil
import warnings
from pathlib import Path

import pytest

import accord
from accord.cli import main
from accord.errors import FormatError, OptionError, PairingError
from accord.parallel import ShardedRunWarning
from tests.command_line import without_command_line
from tests.parallel._corpora import noisy_pair, write_pair
from tests.result.contract import checked

SMALL = ["--shard-size", "600"]   # shards of a few documents each

pytestmark = pytest.mark.filterwarnings("error::accord.parallel.ShardedRunWarning")   # unless a test expects it


def _run(capsys, args: list[str]) -> tuple[str, str]:
    status = main(args)
    out = capsys.readouterr()
    assert status == 0, out.err
    return out.out, out.err


def _same_output(capsys, args: list[str], jobs: str = "2", shards: list[str] = SMALL) -> dict:
    serial, serial_err = _run(capsys, args)
    sharded, sharded_err = _run(capsys, args + ["--jobs", jobs, *shards])
    assert without_command_line(sharded) == without_command_line(serial)
    assert "scored in one process" not in sharded_err
    assert [line for line in sharded_err.splitlines() if "warning" in line] == [
        line for line in serial_err.splitlines() if "warning" in line]
    return json.loads(serial) if serial.startswith("{") else {}


def test_hand_counted_shards(tmp_path):
    """Three documents cut into three shards: the counts are those counted by hand."""
    gold = tmp_path / "g.conll"
    pred = tmp_path / "p.conll"
    gold.write_text("-DOCSTART- O\n\nAnn B-PER\nlives O\n\n-DOCSTART- O\n\nin O\nRome B-LOC\n\n"
                    "-DOCSTART- O\n\nIBM B-ORG\nCorp I-ORG\n\n")
    pred.write_text("-DOCSTART- O\n\nAnn B-PER\nlives O\n\n-DOCSTART- O\n\nin O\nRome B-PER\n\n"
                    "-DOCSTART- O\n\nIBM B-ORG\nCorp O\n\n")
    r = accord.score(str(gold), str(pred), jobs=2, shard_size=20)
    # document 1: PER matched; 2: LOC gold against PER predicted (strict: missing + spurious); 3: ORG spans differ
    assert r.documents == ("1", "2", "3")
    assert (r.totals.match, r.totals.missing, r.totals.spurious) == (1, 2, 2)
    assert r.by_document["2"].spurious == 1 and r.by_document["3"].missing == 1


@pytest.mark.parametrize("options", [
    [],
    ["--bootstrap", "200", "--seed", "7"],
    ["--bootstrap", "100", "--seed", "3", "--ci-method", "bca", "--confidence-data"],
    ["--match", "clueval"],
    ["--match", "semeval"],
    ["--scheme", "IOBES", "--repair", "discard"],
    ["--by-token", "--confusability"],
    ["--ignore", "LOC", "--equivalence-class", "NAME=PER,ORG"],
    ["--profile", "lenient", "--beta", "0.5"],
    ["--output", "csv"],
])
def test_every_mode_is_byte_identical(tmp_path, capsys, options):
    gold, pred = write_pair(tmp_path, seed=1, documents=40, comments=True, empty_every=7)
    out = _same_output(capsys, ["score", gold, pred, "--output", "json", *options])
    if out:
        checked(json.dumps(out))


def test_document_before_the_first_docstart(tmp_path, capsys):
    gold, pred = write_pair(tmp_path, seed=2, documents=25, prefix=True)
    out = _same_output(capsys, ["score", gold, pred, "--output", "json"])
    assert out["inputs"]["gold"]["documents"] == 26


def test_documents_on_one_side(tmp_path, capsys):
    g, p = noisy_pair(random.Random(3), 30)
    gold, pred = tmp_path / "g.conll", tmp_path / "p.conll"
    gold.write_text(g)
    pred.write_text(p + "-DOCSTART- X O\n\nextra X B-PER\n\n-DOCSTART- X O\n\nmore X O\n\n")
    for mode in ("empty", "skip"):
        out = _same_output(capsys, ["score", str(gold), str(pred), "--output", "json", "--allow-missing", mode])
        assert ("32" in out["by_document"]) == (mode == "empty")
    serial = pytest.raises(PairingError, accord.score, str(gold), str(pred))
    sharded = pytest.raises(PairingError, accord.score, str(gold), str(pred), jobs=2, shard_size=600)
    assert str(sharded.value) == str(serial.value)
    assert "2 document(s) only in the predicted side" in str(serial.value)


def test_two_columns_of_one_file(tmp_path, capsys):
    g, p = noisy_pair(random.Random(4), 30, columns=3)
    both = tmp_path / "both.conll"
    both.write_text("".join(a.rstrip("\n") + " " + b.split()[-1] + "\n" if a.strip() else a
                            for a, b in zip(g.splitlines(keepends=True), p.splitlines(keepends=True))))
    _same_output(capsys, ["score", str(both), "--gold-column", "2", "--pred-column", "3", "--output", "json"])


def test_folders_and_patterns(tmp_path, capsys):
    for k in range(6):
        g, p = noisy_pair(random.Random(10 + k), 2 + k % 3)
        for side, text in (("gold", g), ("pred", p)):
            (tmp_path / side).mkdir(exist_ok=True)
            (tmp_path / side / f"part{k}.conll").write_text(text)
    (tmp_path / "pred" / "unpaired.conll").write_text("-DOCSTART- X O\n\nx X B-LOC\n\n")
    _same_output(capsys, ["score", str(tmp_path / "gold"), str(tmp_path / "pred"), "--output", "json",
                          "--allow-missing", "empty"])
    _same_output(capsys, ["score", str(tmp_path / "gold" / "*.conll"), str(tmp_path / "pred" / "part*.conll"),
                          "--output", "json"])


def test_brat_folders(tmp_path, capsys):
    for side in ("gold", "pred"):
        (tmp_path / side).mkdir()
    for k in range(5):
        text = f"Ann met Bob in Rome {k}.\n"
        (tmp_path / "gold" / f"d{k}.txt").write_text(text)
        (tmp_path / "pred" / f"d{k}.txt").write_text(text)
        (tmp_path / "gold" / f"d{k}.ann").write_text("T1\tPER 0 3\tAnn\nT2\tPER 8 11\tBob\nT3\tLOC 15 19\tRome\n")
        (tmp_path / "pred" / f"d{k}.ann").write_text("T1\tPER 0 3\tAnn\nT2\tLOC 8 11\tBob\n")
    out = _same_output(capsys, ["score", str(tmp_path / "gold"), str(tmp_path / "pred"), "--output", "json"],
                       shards=["--shard-size", "1"])
    assert (out["totals"]["match"], out["totals"]["gold"], out["totals"]["pred"]) == (5, 15, 10)


def test_compare_is_byte_identical(tmp_path, capsys):
    gold, pred = write_pair(tmp_path, seed=5, documents=30)
    other = tmp_path / "other.conll"
    _, p2 = noisy_pair(random.Random(5), 30)
    g2, _ = noisy_pair(random.Random(5), 30)
    assert (tmp_path / "gold.conll").read_text() == g2
    other.write_text(p2.replace("B-LOC", "B-ORG"))
    _same_output(capsys, ["compare", gold, pred, str(other), "--output", "json", "--samples", "500", "--seed", "1"])


def test_reading_errors_are_those_of_one_process(tmp_path):
    g, p = noisy_pair(random.Random(6), 40)
    lines = p.splitlines(keepends=True)
    bad = next(k for k in range(len(lines) * 3 // 4, len(lines)) if lines[k].startswith("w"))
    lines[bad] = "broken line with too many columns here\n"
    gold, pred = tmp_path / "g.conll", tmp_path / "p.conll"
    gold.write_text(g)
    pred.write_text("".join(lines))
    serial = pytest.raises(FormatError, accord.score, str(gold), str(pred))
    with pytest.warns(ShardedRunWarning, match="lines of 3 and 7 columns"):    # found again in one process
        sharded = pytest.raises(FormatError, accord.score, str(gold), str(pred), jobs=2, shard_size=600)
    assert str(sharded.value) == str(serial.value)
    assert f":{bad + 1}:" in str(serial.value)
    # an invalid sequence refused (--repair error) names the same line
    serial = pytest.raises(FormatError, accord.score, str(gold), str(gold).replace("g.conll", "g.conll"),
                           repair="error")
    sharded = pytest.raises(FormatError, accord.score, str(gold), str(gold), repair="error", jobs=2,
                            shard_size=600)
    assert str(sharded.value) == str(serial.value)


def test_name_and_token_errors(tmp_path):
    gold, pred = write_pair(tmp_path, seed=7, documents=30)
    serial = pytest.raises(OptionError, accord.score, gold, pred, ignore=["LCO"])
    sharded = pytest.raises(OptionError, accord.score, gold, pred, ignore=["LCO"], jobs=2, shard_size=600)
    assert str(sharded.value) == str(serial.value)
    # a label found in one shard only is no error
    text = Path(gold).read_text()
    last = text.rfind("B-PER")
    Path(gold).write_text(text[:last] + "B-RARE" + text[last + 5:])
    accord.score(gold, pred, ignore=["RARE"], jobs=2, shard_size=600)
    lines = Path(pred).read_text().splitlines(keepends=True)
    k = max(i for i, line in enumerate(lines) if line.startswith("w"))
    lines[k] = "changed" + lines[k][lines[k].index(" "):]
    Path(pred).write_text("".join(lines))
    serial = pytest.raises(PairingError, accord.score, gold, pred)
    sharded = pytest.raises(PairingError, accord.score, gold, pred, jobs=2, shard_size=600)
    assert str(sharded.value) == str(serial.value)


def test_what_cannot_be_cut_is_scored_in_one_process(tmp_path, data_dir):
    gold, pred = write_pair(tmp_path, seed=8, documents=20)
    serial = accord.score(gold, pred).to_json()
    # a -DOCSTART- indented by a no-break space: the scan misses it, the workers' counts disagree with the plan
    text = Path(pred).read_text()
    at = [k for k in range(len(text)) if text.startswith("-DOCSTART-", k)][-5]
    Path(pred).write_text(text[:at] + "\u00a0" + text[at:])
    with pytest.warns(ShardedRunWarning, match="scored in one process"):
        fallback = accord.score(gold, pred, jobs=2, shard_size=600)
    assert fallback.to_json() == serial     # the same documents, one of them marked differently
    # a form feed is a line break of Python's splitlines: line numbers cannot be counted by newline bytes
    text = Path(gold).read_text()
    cut = text.index("\n\n", len(text) // 2)
    Path(pred).write_text(text[:cut] + "\n\f\n" + text[cut + 2:])   # a blank line that is two for splitlines
    with pytest.warns(ShardedRunWarning, match="line breaks"):
        shifted = accord.score(gold, pred, jobs=2, shard_size=600)
    assert shifted.to_json() == accord.score(gold, pred).to_json()
    # one file in a format without -DOCSTART- documents
    mat = Path(data_dir) / "mat"
    docs = sorted(mat.glob("*.json")) if mat.is_dir() else []
    if docs:
        with pytest.warns(ShardedRunWarning):
            accord.score(str(docs[0]), str(docs[0]), jobs=2)


def test_options_refused_with_jobs(tmp_path, capsys):
    gold, pred = write_pair(tmp_path, seed=9, documents=10)
    for extra in (["--details", str(tmp_path / "d.jsonl")], ["--html", str(tmp_path / "r.html")],
                  ["--mat-csv", str(tmp_path / "csv")]):
        assert main(["score", gold, pred, "--jobs", "2", *extra]) == 2
        assert "stays in the workers" in capsys.readouterr().err
    assert main(["score", gold, pred, "--jobs", "0"]) == 2
    assert "--jobs must be a whole number" in capsys.readouterr().err
    assert main(["score", gold, pred, "--profile", "gate", "--jobs", "2"]) == 2
    assert "do not apply to the gate profile" in capsys.readouterr().err
    assert main(["score", gold, pred, "--shard-size", "4M"]) == 2
    assert "applies with jobs > 1" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["score", gold, pred, "--shard-size", "lots"])
    assert "expected a size" in capsys.readouterr().err


def test_jobs_auto_and_one(tmp_path):
    gold, pred = write_pair(tmp_path, seed=11, documents=12)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ShardedRunWarning)
        assert accord.score(gold, pred, jobs="auto", shard_size=600).to_json() == accord.score(gold, pred).to_json()
        assert accord.score(gold, pred, jobs=1).to_json() == accord.score(gold, pred).to_json()


def test_encodings(tmp_path):
    gold, pred = write_pair(tmp_path, seed=12, documents=20)
    for name in (gold, pred):
        Path(name).write_bytes(Path(name).read_text().replace("w1 ", "wé ").encode("latin-1"))
    serial = accord.score(gold, pred, encoding="latin-1").to_json()
    with warnings.catch_warnings():
        warnings.simplefilter("error", ShardedRunWarning)
        assert accord.score(gold, pred, encoding="latin-1", jobs=2, shard_size=600).to_json() == serial
    utf16 = tmp_path / "u16"
    utf16.mkdir()
    for name in (gold, pred):
        (utf16 / Path(name).name).write_bytes(Path(name).read_bytes().decode("latin-1").encode("utf-16"))
    with pytest.warns(ShardedRunWarning, match="utf-16"):
        out = accord.score(str(utf16 / "gold.conll"), str(utf16 / "pred.conll"), encoding="utf-16", jobs=2,
                           shard_size=600)
    assert out.to_json().replace("u16/", "") == serial


def test_pipeline_objects_are_scored_in_one_process():
    with pytest.warns(ShardedRunWarning, match="given in Python"):
        r = accord.score([["B-PER", "O"]], [["B-PER", "O"]], jobs=2)
    assert r.totals.match == 1


def test_copy_of_shared_data(tmp_path, data_dir):
    """The CoNLL-2003 test set and a system's output (tests/data/conll03) in shards: the serial figures."""
    src = Path(data_dir) / "conll03"
    gold, pred = tmp_path / "gold.conll", tmp_path / "pred.conll"
    shutil.copy(src / "gold.conll", gold)
    shutil.copy(src / "xlm_flert.conll", pred)
    r = accord.score(str(gold), str(pred), jobs=2, shard_size=64 << 10)
    assert (r.totals.match, r.totals.gold, r.totals.pred) == (5339, 5648, 5749)   # README's figures
    assert r.to_json() == accord.score(str(gold), str(pred)).to_json()


def test_a_name_from_two_files_in_two_shards(tmp_path):
    for sub in ("a", "b", "c"):
        (tmp_path / sub).mkdir()
        g, _ = noisy_pair(random.Random(30), 3)
        (tmp_path / sub / f"{sub}.conll").write_text(g)
    (tmp_path / "c" / "a.conll").write_text((tmp_path / "a" / "a.conll").read_text())
    pattern = str(tmp_path / "**" / "*.conll")
    serial = pytest.raises(FormatError, accord.score, pattern, pattern)
    sharded = pytest.raises(FormatError, accord.score, pattern, pattern, jobs=2, shard_size=1)
    assert str(sharded.value) == str(serial.value)
    assert "comes from two files" in str(serial.value)


def test_a_task_with_aggregations_over_shared_out_files(tmp_path, capsys):
    """MAT documents with a task (score profile aggregations and decompositions), one file a document."""
    from tests.result.commands import write_inputs

    inputs = write_inputs(tmp_path)
    for side, name in (("gold", "mat_gold"), ("pred", "mat_pred")):
        (tmp_path / side).mkdir()
        for k, line in enumerate(Path(inputs[name]).read_text().splitlines()):
            (tmp_path / side / f"doc{k}.jsonl").write_text(line + "\n")
    out = _same_output(capsys, ["score", str(tmp_path / "gold"), str(tmp_path / "pred"), "--task", inputs["task"],
                                "--profile", "mat", "--output", "json", "--by-token", "--format", "jsonl"],
                       shards=["--shard-size", "1"])
    assert out["aggregations"] and out["decompositions"]
