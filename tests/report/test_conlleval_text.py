"""accord score --output conlleval: byte-identical to what conlleval.pl printed (../shared/data/conlleval)."""

from pathlib import Path

import pytest

from accord.cli import main
from accord.report.conlleval_text import ConllevalCounts, conlleval_text, tag_accuracy

from ..conftest import SHARED

CONLLEVAL = SHARED / "data" / "conlleval"
CONLL03 = SHARED / "data" / "conll03"


def _run(argv: list[str], tmp_path: Path) -> bytes:
    out = tmp_path / "out.txt"
    assert main(["score", *argv, "--output", "conlleval", "-o", str(out), "-q"]) == 0
    return out.read_bytes()


@pytest.mark.filterwarnings("ignore::accord.errors.RepairWarning")
def test_seqeval_ground_truth_is_conlleval_pl_byte_for_byte(tmp_path):
    # one file, token POS gold predicted: the gold and predicted columns are 2 and 3 (0-based)
    got = _run([str(CONLLEVAL / "ground_truth.txt"), "--gold-column", "2", "--pred-column", "3"], tmp_path)
    assert got == (CONLLEVAL / "ground_truth.conlleval.txt").read_bytes()


@pytest.mark.filterwarnings("ignore::accord.errors.RepairWarning")
def test_conll03_xlm_flert_is_conlleval_pl_byte_for_byte(tmp_path):
    # two files; conlleval.pl counted the 231 -DOCSTART- lines as tokens (46,666 of them)
    got = _run([str(CONLL03 / "gold.conll"), str(CONLL03 / "xlm_flert.conll")], tmp_path)
    assert got == (CONLLEVAL / "conll03_xlm_flert.conlleval.txt").read_bytes()
    assert got.startswith(b"processed 46666 tokens with 5648 phrases; found: 5749 phrases; correct: 5339.\n")


def test_token_accuracy_counts_docstart_lines_and_compares_whole_tags(tmp_path):
    gold = tmp_path / "g.conll"
    pred = tmp_path / "p.conll"
    gold.write_text("-DOCSTART- O\n\nA B-X\nb I-X\nc O\n\nd B-Y-Z\n", encoding="utf-8")
    pred.write_text("-DOCSTART- O\n\nA B-X\nb B-X\nc O\n\nd B-Y-W\n", encoding="utf-8")
    # hand count: 5 tokens (the -DOCSTART- line is one); equal tags: -DOCSTART-, A, c (b: I vs B; d: types differ)
    assert tag_accuracy(gold, pred) == (5, 3)


def test_boundary_lines_are_no_tokens(tmp_path):
    gold = tmp_path / "g.conll"
    pred = tmp_path / "p.conll"
    gold.write_text("a B-X\n-X- O\nb O\n", encoding="utf-8")
    pred.write_text("a O\n-X- O\nb O\n", encoding="utf-8")
    # conlleval.pl counts a and b (the -X- line is a sentence boundary): 2 tokens, 1 equal tag
    assert tag_accuracy(gold, pred) == (2, 1)


def test_layout_by_hand():
    text = conlleval_text(ConllevalCounts(10, 7, {"PER": (3, 2, 1), "A_VERY_LONG_LABEL_NAME": (1, 0, 0)}))
    # overall: P = 1/2, R = 1/4, F = 2PR/(P+R) = 33.33; accuracy 70 %
    assert text == (
        "processed 10 tokens with 4 phrases; found: 2 phrases; correct: 1.\n"
        "accuracy:  70.00%; precision:  50.00%; recall:  25.00%; FB1:  33.33\n"
        "A_VERY_LONG_LABEL_NAME: precision:   0.00%; recall:   0.00%; FB1:   0.00  0\n"
        "              PER: precision:  50.00%; recall:  33.33%; FB1:  40.00  2\n")


def test_no_tokens_prints_the_counts_line_only():
    assert conlleval_text(ConllevalCounts(0, 0, {})) == \
        "processed 0 tokens with 0 phrases; found: 0 phrases; correct: 0.\n"


def test_type_padding_counts_utf8_bytes_as_perl():
    # 'É' is two bytes of UTF-8: conlleval.pl's %17s (no decoding layer) pads 'ÉTÉ' (5 bytes) with 12 spaces
    line = conlleval_text(ConllevalCounts(1, 1, {"ÉTÉ": (1, 1, 1)})).splitlines()[2]
    assert line.startswith(" " * 12 + "ÉTÉ: ")


def test_refused_outside_strict_pairs(tmp_path, capsys):
    gold = tmp_path / "g.conll"
    gold.write_text("a B-X\nb O\n", encoding="utf-8")
    assert main(["score", str(gold), str(gold), "--profile", "lenient", "--output", "conlleval"]) == 2
    assert "strict profile" in capsys.readouterr().err
