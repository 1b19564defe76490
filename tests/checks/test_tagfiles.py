"""accord validate, repair and count against seqscore run here (validate, repair, count on the same files), and
hand-made files whose problems are written in the test."""

import json
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from accord.checks._count import count_spans
from accord.checks._repair import repair_file
from accord.checks._validate import validate
from accord.cli import main
from accord.errors import RepairWarning, SchemeError

from ..conftest import SHARED

CONLL03 = SHARED / "data" / "conll03"
SEQSCORE = Path(sys.executable).parent / "seqscore"


def seqscore(*args: str) -> subprocess.CompletedProcess:
    if not SEQSCORE.exists():
        pytest.skip("seqscore is not installed")
    return subprocess.run([str(SEQSCORE), *args], capture_output=True, text=True, encoding="utf-8")


def tags_of(path: Path) -> list[tuple[str, str]]:
    """(token, tag) of every token line, -DOCSTART- left out (seqscore writes tab-separated lines)."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        fields = line.split()
        if fields and fields[0] != "-DOCSTART-":
            out.append((fields[0], fields[-1]))
    return out


# -- validate

def test_validate_finds_seqscores_invalid_transitions_on_the_same_lines():
    run = seqscore("validate", "--labels", "BIO", str(CONLL03 / "xlm_flert.conll"))
    lines = [int(line.rsplit(" on line ", 1)[1]) for line in run.stdout.splitlines() if "on line" in line]
    head = run.stdout.splitlines()[0]     # Encountered 23 errors in 46435 tokens, 3453 sequences, and 231 document(s)
    report = validate([CONLL03 / "xlm_flert.conll"])
    assert [p.line for p in report.problems if p.kind == "transition"] == lines and len(lines) == 23
    size = report.files[str(CONLL03 / "xlm_flert.conll")]
    assert f"{report.total} errors in {size['tokens']} tokens, {size['sentences']} sequences, and " \
           f"{size['documents']} document(s)" in head


def test_validate_gold_is_valid_and_exits_0(capsys):
    assert main(["validate", str(CONLL03 / "gold.conll")]) == 0
    assert "no problems in 46,435 tokens, 3,453 sentences and 231 documents" in capsys.readouterr().out


MIXED = "A B-PER\nb E-PER\nc O\n\nd S-LOC\ne O\n\nf I-ORG\ng O\nh PER\n"
#        line 1  line 2  line 3     line 5  line 6     line 8  line 9  line 10


def test_validate_mixed_schemes_invalid_transitions_unknown_tags_and_labels(tmp_path):
    f = tmp_path / "mixed.conll"
    f.write_text(MIXED, encoding="utf-8")
    report = validate([f], scheme="IOB2", labels=["PER", "LOC"])
    found = {(p.line, p.kind) for p in report.problems}
    # E and S are IOBES letters (lines 2, 5); I-ORG opens a sentence (line 8); 'PER' has no letter (line 10);
    # ORG is not among the labels (line 8)
    assert found == {(2, "scheme"), (5, "scheme"), (8, "transition"), (10, "tag"), (8, "label")}
    assert "is it IOBES?" in next(p.message for p in report.problems if p.line == 2)
    assert not report.valid and report.total == 5


def test_validate_under_iobes_reads_the_same_file_otherwise(tmp_path):
    f = tmp_path / "mixed.conll"
    f.write_text(MIXED, encoding="utf-8")
    report = validate([f], scheme="IOBES")
    # under IOBES: B-PER E-PER and S-LOC are valid; I-ORG at a sentence start and before O is invalid; PER no tag
    assert sorted((p.line, p.kind) for p in report.problems) == [(8, "transition"), (10, "tag")]


def test_validate_two_files_with_different_sentences(tmp_path, capsys):
    a = tmp_path / "a.conll"
    b = tmp_path / "b.conll"
    a.write_text("x O\ny O\n\nz O\n", encoding="utf-8")
    b.write_text("x O\n\ny O\nz O\n", encoding="utf-8")
    report = validate([a, b])
    (problem,) = report.problems
    # sentence 1: 2 tokens in a (line 1), 1 in b (line 1)
    assert (problem.path, problem.line, problem.kind) == (str(b), 1, "tokens")
    assert "sentence 1 has 1 token here and 2 at line 1" in problem.message
    assert main(["validate", str(a), str(b)]) == 1
    run = capsys.readouterr()
    assert f"{b}:1: sentence 1" in run.out and run.err == "accord: invalid: 1 problem (tokens 1)\n"


def test_validate_two_files_with_different_token_text(tmp_path):
    a = tmp_path / "a.conll"
    b = tmp_path / "b.conll"
    a.write_text("x O\ny O\n", encoding="utf-8")
    b.write_text("x O\nY O\n", encoding="utf-8")
    (problem,) = validate([a, b]).problems
    assert problem.line == 2 and "token 'Y', line 2" in problem.message


def test_validate_lists_a_bounded_number_and_counts_all(tmp_path, capsys):
    f = tmp_path / "many.conll"
    f.write_text("".join(f"t{k} I-X\n\n" for k in range(300)), encoding="utf-8")
    report = validate([f], limit=10)
    assert report.total == 300 and len(report.problems) == 10
    assert main(["validate", str(f), "--max-problems", "3", "--output", "json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["problems"] == 300 and len(out["listed"]) == 3 and out["by_kind"] == {"transition": 300}


def test_validate_bad_input_exits_2(tmp_path, capsys):
    f = tmp_path / "one.conll"
    f.write_text("a\nb\n", encoding="utf-8")
    assert main(["validate", str(f)]) == 2
    assert main(["validate", str(f), "--scheme", "XYZ"]) == 2


# -- repair

@pytest.mark.parametrize("method", ["conlleval", "discard"])
def test_repair_equals_seqscore_repair_on_conll03(tmp_path, method):
    ours = tmp_path / "ours.conll"
    theirs = tmp_path / "theirs.conll"
    assert main(["repair", str(CONLL03 / "xlm_flert.conll"), "-o", str(ours), "--method", method, "-q"]) == 0
    run = seqscore("repair", "--labels", "BIO", "--repair-method", method, "-q", str(CONLL03 / "xlm_flert.conll"),
                   str(theirs))
    assert run.returncode == 0, run.stderr
    assert tags_of(ours) == tags_of(theirs)
    assert tags_of(ours) != tags_of(CONLL03 / "xlm_flert.conll")
    # every other byte kept: the lines that differ are the changed tags' lines
    before = (CONLL03 / "xlm_flert.conll").read_text(encoding="utf-8").splitlines()
    after = ours.read_text(encoding="utf-8").splitlines()
    assert len(before) == len(after)
    changed = [k for k, (x, y) in enumerate(zip(before, after)) if x != y]
    assert all(before[k].split()[0] == after[k].split()[0] for k in changed)
    assert len(changed) == (23 if method == "conlleval" else 28)


def test_repair_iob1_equals_seqscore(tmp_path):
    src = tmp_path / "iob1.conll"
    src.write_text("a B-X\nb I-X\nc O\n\nd I-X\ne B-X\nf B-Y\ng I-Y\n", encoding="utf-8")
    ours = tmp_path / "ours.conll"
    theirs = tmp_path / "theirs.conll"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fixed = repair_file(src, scheme="IOB1")
    ours.write_text(fixed.text, encoding="utf-8")
    assert seqscore("repair", "--labels", "IOB", "--repair-method", "conlleval", "-q", str(src),
                    str(theirs)).returncode == 0
    assert tags_of(ours) == tags_of(theirs)
    # by hand: B-X opening a chunk after O (line 1) and B-Y after X (line 6) become I-
    assert [(line, old, new) for line, old, new in fixed.changes] == [(1, "B-X", "I-X"), (7, "B-Y", "I-Y")]
    assert any(isinstance(w.message, RepairWarning) for w in caught)


def test_repair_refuses_a_tag_of_another_scheme(tmp_path):
    src = tmp_path / "s.conll"
    src.write_text("a O\nb S-X\n", encoding="utf-8")
    with pytest.raises(SchemeError, match=":2:"):
        repair_file(src, scheme="IOB2")


def test_repair_of_a_valid_file_changes_nothing(tmp_path):
    fixed = repair_file(CONLL03 / "gold.conll")
    assert fixed.changes == () and fixed.text == (CONLL03 / "gold.conll").read_text(encoding="utf-8")


# -- count

def test_count_equals_seqscore_count_on_gold(capsys):
    assert main(["count", str(CONLL03 / "gold.conll")]) == 0
    ours = capsys.readouterr().out
    theirs = seqscore("count", "--labels", "BIO", str(CONLL03 / "gold.conll")).stdout
    assert ours == theirs and len(ours.splitlines()) > 1000


@pytest.mark.filterwarnings("ignore::accord.errors.RepairWarning")
def test_count_equals_seqscore_count_with_conlleval_repair(capsys):
    assert main(["count", str(CONLL03 / "xlm_flert.conll")]) == 0
    ours = capsys.readouterr().out
    theirs = seqscore("count", "--labels", "BIO", "--repair-method", "conlleval", "-q",
                      str(CONLL03 / "xlm_flert.conll")).stdout
    assert ours == theirs


def test_count_by_label_is_the_gold_column_of_seqscores_table():
    rows = count_spans([CONLL03 / "gold.conll"], by="label")
    # seqscore's table for this corpus (xlm_flert.seqscore.txt): Reference LOC 1668, MISC 702, ORG 1661, PER 1617
    assert [(label, spans) for label, spans, _ in rows] == [("LOC", 1668), ("MISC", 702), ("ORG", 1661),
                                                            ("PER", 1617)]


def test_count_by_document_by_hand(tmp_path):
    f = tmp_path / "d.conll"
    f.write_text("-DOCSTART- O\n\na B-X\nb I-X\nc B-Y\n\n-DOCSTART- O\n\nd B-X\ne O\nf B-X\n", encoding="utf-8")
    assert count_spans([f], by="document") == [("1", "X", 1), ("1", "Y", 1), ("2", "X", 2)]
    assert count_spans([f], by="label") == [("X", 3, 2), ("Y", 1, 1)]
    # by mention: every mention once, in the order met (seqscore's ties)
    assert count_spans([f]) == [(1, "X", "a b"), (1, "Y", "c"), (1, "X", "d"), (1, "X", "f")]
