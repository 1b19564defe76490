"""Tag decoding choices users meet on the command line: E-/S- tags under the default scheme, suffix tags."""

import json
import random
import subprocess
import sys
import warnings

import pytest

import accord
from accord.errors import RepairWarning, SchemeError

seqeval_metrics = pytest.importorskip("seqeval.metrics")

BIES = ["O", "O", "B-PER", "I-PER", "E-PER", "S-PER", "B-LOC", "I-LOC", "E-LOC", "S-LOC"]


def _write(path, sentences, column_of=lambda t: t):
    path.write_text("".join("".join(f"w{k} {column_of(t)}\n" for k, t in enumerate(s)) + "\n" for s in sentences),
                    encoding="utf-8")


@pytest.mark.parametrize("seed", range(15))
def test_end_and_single_tags_read_as_conlleval_reads_them(seed):
    """conlleval's chunk rules are seqeval's default mode (seqeval ported conlleval's start/end-of-chunk tests)."""
    rng = random.Random(seed)
    y_true = [[rng.choice(BIES) for _ in range(rng.randint(1, 10))] for _ in range(12)]
    y_pred = [[t if rng.random() < 0.7 else rng.choice(BIES) for t in s] for s in y_true]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = accord.score(y_true, y_pred)
    assert report.f1 == pytest.approx(seqeval_metrics.f1_score(y_true, y_pred, zero_division=0), abs=1e-12)
    assert report.totals["gold"] == sum(
        v["support"] for k, v in seqeval_metrics.classification_report(
            y_true, y_pred, output_dict=True, zero_division=0).items() if " avg" not in k)


def test_the_reading_is_a_visible_repair(tmp_path):
    _write(tmp_path / "g.conll", [["B-PER", "E-PER", "O", "S-LOC"]])
    with pytest.warns(RepairWarning, match=r"g.conll: 2 tag\(s\) with E- or S- letters.*line 2 'E-PER', line 4 "
                                           r"'S-LOC'"):
        report = accord.score(tmp_path / "g.conll", tmp_path / "g.conll")
    assert report.repairs[0]["count"] == 2
    assert report.totals["match"] == 2   # PER [0,2) and LOC [3,4), by hand


def test_other_repairs_and_schemes_still_refuse_them(tmp_path):
    _write(tmp_path / "g.conll", [["B-PER", "E-PER"]])
    with pytest.raises(SchemeError, match=r"g.conll:2: tag .E-PER."):
        accord.score(tmp_path / "g.conll", tmp_path / "g.conll", repair="error")
    with pytest.raises(SchemeError):
        accord.score([["EVENT"]], [["O"]])   # a letter without a separator is no E- tag


def test_suffix_option_on_the_command_line(tmp_path):
    rng = random.Random(5)
    y_true = [[rng.choice(["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]) for _ in range(8)] for _ in range(20)]
    y_pred = [[t if rng.random() < 0.7 else "O" for t in s] for s in y_true]

    def suffixed(t):
        return t if t == "O" else f"{t[2:]}-{t[0]}"

    _write(tmp_path / "g.conll", y_true, suffixed)
    _write(tmp_path / "p.conll", y_pred, suffixed)
    out = subprocess.run([sys.executable, "-m", "accord.cli", "score", str(tmp_path / "g.conll"),
                          str(tmp_path / "p.conll"), "--suffix", "--output", "json"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    expected = seqeval_metrics.f1_score([[suffixed(t) for t in s] for s in y_true],
                                        [[suffixed(t) for t in s] for s in y_pred], suffix=True)
    assert result["totals"]["f1"] == pytest.approx(expected, abs=1e-12)
    assert result["options"]["suffix"] is True


@pytest.mark.parametrize("scheme, letters", [("IOB1", "IB"), ("IOE1", "IE"), ("IOBES", "BIES"), ("IOB2", "BI")])
@pytest.mark.parametrize("seed", range(3))
def test_compat_seqeval_equals_seqeval_strict_mode(tmp_path, scheme, letters, seed):
    seqeval_scheme = pytest.importorskip("seqeval.scheme")
    rng = random.Random(seed)
    tags = ["O", "O"] + [f"{x}-{t}" for x in letters for t in ("PER", "LOC")]
    y_true = [[rng.choice(tags) for _ in range(rng.randint(1, 9))] for _ in range(30)]
    y_pred = [[t if rng.random() < 0.6 else rng.choice(tags) for t in s] for s in y_true]
    _write(tmp_path / "g.conll", y_true)
    _write(tmp_path / "p.conll", y_pred)
    out = subprocess.run([sys.executable, "-m", "accord.cli", "score", str(tmp_path / "g.conll"),
                          str(tmp_path / "p.conll"), "--scheme", scheme, "--compat", "seqeval", "--output", "json"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    expected = seqeval_metrics.f1_score(y_true, y_pred, mode="strict", scheme=getattr(seqeval_scheme, scheme),
                                        zero_division=0)
    assert result["totals"]["f1"] == pytest.approx(expected, abs=1e-12)
    assert result["options"]["repair"] == "seqeval"
