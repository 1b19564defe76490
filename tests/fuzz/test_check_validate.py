"""Fuzz: accord check, validate, repair, count and score --output conlleval on generated tag files.

* any two tag files (tags valid or not, letters of other schemes, sentence breaks anywhere): every command ends in
  0, 1 (a failed check, an invalid file) or 2 (one error line), never a traceback or a hang;
* check's verdict is the comparison of accord.score's rate with the threshold;
* validate's invalid transitions are seqscore's (its validate_labels, run here) sentence by sentence, and repair's
  tags are seqscore's repair_labels (IOB2: conlleval and discard);
* conlleval's text has accord.score's counts and the accuracy counted here (equal tags over all tokens).
"""

from __future__ import annotations

import contextlib
import io
import signal
import tempfile
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord.checks._repair import repair_file
from accord.checks._validate import validate
from accord.cli import main

from .harness import FULL, PROFILE, TIME_LIMIT, Hang

settings.load_profile(PROFILE)
EXAMPLES = 700 if FULL else 40
"""Cases per test (a command line run is about 50 ms)."""
COMMAND_EXAMPLES = 700 if FULL else 20
"""Cases of the test that runs six commands on each."""

VALID_TAGS = ["O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
ODD_TAGS = ["S-PER", "E-LOC", "PER", "X-Y", "B-", "I-O"]


@st.composite
def sentences(draw, odd: bool = True):
    tags = st.sampled_from(VALID_TAGS + (ODD_TAGS if odd else []))
    return draw(st.lists(st.lists(tags, min_size=1, max_size=8), min_size=1, max_size=5))


def write(path: Path, sents: list[list[str]], docstart: bool = False) -> Path:
    lines = ["-DOCSTART- O", ""] if docstart else []
    for k, sent in enumerate(sents):
        lines += [f"w{k}_{i} {tag}" for i, tag in enumerate(sent)] + [""]
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def run(argv: list[str]) -> tuple[int, str, str]:
    """``accord ARGV`` in process: exit 0, 1 or 2 (2 with exactly one error line), within the time limit."""
    out, err = io.StringIO(), io.StringIO()
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(TIME_LIMIT)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                status = main(argv)
            except SystemExit as exc:      # argparse refusing an option
                status = int(exc.code or 0)
                assert status == 2
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert status in (0, 1, 2), f"accord {' '.join(argv)}: exit {status}: {err.getvalue()}"
    assert "Traceback" not in err.getvalue()
    if status == 2:
        errors = [line for line in err.getvalue().splitlines() if line.startswith("accord: error:")]
        assert len(errors) == 1, err.getvalue()
    return status, out.getvalue(), err.getvalue()


def _alarm(signum: int, frame: object) -> None:
    raise Hang(f"the command ran longer than {TIME_LIMIT} s")


@settings(max_examples=COMMAND_EXAMPLES)
@given(gold=sentences(), pred=sentences(), threshold=st.sampled_from(["0", "0.5", "1", "50%", "1.5", "x"]),
       scheme=st.sampled_from(["IOB2", "IOB1", "IOBES"]))
def test_every_command_ends_cleanly(gold, pred, threshold, scheme):
    with tempfile.TemporaryDirectory() as tmp:
        g, p = write(Path(tmp) / "g.conll", gold), write(Path(tmp) / "p.conll", pred)
        run(["check", str(g), str(p), "--min", f"f1={threshold}", "--scheme", scheme])
        run(["check", str(g), str(p), "--baseline", str(g), "--significant", "--samples", "20", "--seed", "1"])
        run(["validate", str(g), str(p), "--scheme", scheme, "--labels", "PER"])
        run(["repair", str(p), "-o", str(Path(tmp) / "r.conll"), "--scheme", scheme])
        run(["count", str(g), str(p), "--by", "document", "--scheme", scheme])
        run(["score", str(g), str(p), "--scheme", scheme, "--output", "conlleval"])


@settings(max_examples=EXAMPLES)
@given(gold=sentences(odd=False), pred=sentences(odd=False), threshold=st.floats(0, 1))
def test_check_verdict_is_the_rate_against_the_threshold(gold, pred, threshold):
    with tempfile.TemporaryDirectory() as tmp:
        g = write(Path(tmp) / "g.conll", gold)
        # pred: the gold's tokens with the generated tags, cycled to the gold's sentence lengths
        tags = [[pred[k % len(pred)][i % len(pred[k % len(pred)])] for i in range(len(s))]
                for k, s in enumerate(gold)]
        p = write(Path(tmp) / "p.conll", tags)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            f1 = accord.score(g, p).totals["f1"]
            verdict = accord.check(g, p, min={"f1": threshold})
        assert verdict.passed == (f1 >= threshold - 1e-12)
        status, _, err = run(["check", str(g), str(p), "--min", f"f1={threshold!r}"])
        assert status == (0 if verdict.passed else 1)
        assert (status == 1) == ("accord: check failed: f1 = " in err)


@settings(max_examples=EXAMPLES)
@given(sents=sentences(odd=False))
def test_validate_and_repair_are_seqscores(sents):
    seqscore = pytest.importorskip("seqscore.validation")
    from seqscore.encoding import get_encoding

    bio = get_encoding("BIO")
    with tempfile.TemporaryDirectory() as tmp:
        f = write(Path(tmp) / "f.conll", sents, docstart=True)
        expected = sum(len(seqscore.validate_labels(s, bio).errors) for s in sents)
        report = validate([f])
        assert report.counts["transition"] == expected
        for method in ("conlleval", "discard"):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                fixed = repair_file(f, method=method)
            got = [line.split()[-1] for line in fixed.text.splitlines() if line and not line.startswith("-DOC")]
            want = [t for s in sents for t in bio.repair_labels(s, method)]
            assert got == want
            fixed_path = Path(tmp) / "fixed.conll"
            fixed_path.write_text(fixed.text, encoding="utf-8")
            assert validate([fixed_path]).valid
        # IOB1 (seqscore's IOB): its invalid transitions and its conlleval repair
        iob = get_encoding("IOB")
        assert validate([f], scheme="IOB1").counts["transition"] == \
            sum(len(seqscore.validate_labels(s, iob).errors) for s in sents)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fixed = repair_file(f, scheme="IOB1")
        got = [line.split()[-1] for line in fixed.text.splitlines() if line and not line.startswith("-DOC")]
        assert got == [t for s in sents for t in iob.repair_labels(s, "conlleval")]


@settings(max_examples=EXAMPLES)
@given(gold=sentences(odd=False), pred=sentences(odd=False))
def test_conlleval_text_has_scores_counts_and_the_tag_accuracy(gold, pred):
    tags = [[pred[k % len(pred)][i % len(pred[k % len(pred)])] for i in range(len(s))] for k, s in enumerate(gold)]
    with tempfile.TemporaryDirectory() as tmp:
        g = write(Path(tmp) / "g.conll", gold)
        p = write(Path(tmp) / "p.conll", tags)
        status, out, _ = run(["score", str(g), str(p), "--output", "conlleval"])
        assert status == 0
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            totals = accord.score(g, p).totals
        tokens = sum(map(len, gold))
        equal = sum(a == b for s, t in zip(gold, tags) for a, b in zip(s, t))
        first, second = out.splitlines()[:2]
        assert first == (f"processed {tokens} tokens with {totals['gold']} phrases; found: {totals['pred']} "
                         f"phrases; correct: {totals['match']}.")
        assert second.startswith(f"accuracy: {100 * equal / tokens:6.2f}%; ")
