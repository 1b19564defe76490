"""Relations and events in the Annotation Diff when their types are asked for, on a BioNLP-ST GE document."""

import json
import shutil
from pathlib import Path

import pytest

from accord.cli import main
from accord.diff import annotation_diff
from accord.errors import OptionError
from accord.model import make_annotation as A

GENIA = Path(__file__).parent.parent / "data" / "bionlp-st-ge"
TYPES = "Protein,Gene_expression,Negative_regulation,Binding"


@pytest.fixture
def perturbed(tmp_path):
    """The document with: T1 shortened by a character (a partial Protein, hence a partial Binding E2, hence a partial
    Negative_regulation E1 whose theme is E2), the Gene_expression event E3 removed, and E5's theme moved from T5 to
    T4 (E5 missing and spurious). E4 is untouched."""
    out = tmp_path / "pred"
    out.mkdir()
    shutil.copy(GENIA / "PMID-10364260.txt", out)
    lines = (GENIA / "PMID-10364260.ann").read_text().splitlines()
    edited = []
    for line in lines:
        if line.startswith("T1\t"):
            line = "T1\tProtein 53 57\tREF-"
        elif line.startswith("E3\t"):
            continue
        elif line.startswith("E5\t"):
            line = "E5\tNegative_regulation:T10 Theme:T4"
        edited.append(line)
    (out / "PMID-10364260.ann").write_text("\n".join(edited) + "\n")
    return str(out)


def _diff(capsys, argv):
    assert main(argv + ["--output", "json"]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)["measures"]["strict"]


def test_gold_against_itself_pairs_every_event(capsys):
    strict = _diff(capsys, ["diff", str(GENIA), str(GENIA), "--types", TYPES])
    assert strict["totals"]["correct"] == strict["totals"]["gold"] == 15   # 10 spans and 5 events


def test_perturbed_events_counted_by_hand(perturbed, capsys):
    strict = _diff(capsys, ["diff", str(GENIA), perturbed, "--types", TYPES])
    rows = {t: (r["correct"], r["partial"], r["missing"], r["spurious"]) for t, r in strict["by_label"].items()}
    assert rows == {"Protein": (4, 1, 0, 0),               # T1 partial
                    "Binding": (1, 1, 0, 0),               # trigger T7; E2 partial through T1
                    "Gene_expression": (1, 0, 1, 0),       # trigger T8; E3 missing
                    "Negative_regulation": (4, 1, 1, 1)}   # 3 triggers and E4; E1 partial through E2; E5 moved
    totals = strict["totals"]
    assert (totals["gold"], totals["pred"], totals["correct"], totals["partial"]) == (15, 14, 10, 3)


def test_without_types_events_are_left_out_with_a_warning(perturbed, capsys):
    assert main(["diff", str(GENIA), perturbed, "--output", "json"]) == 0
    captured = capsys.readouterr()
    assert "spanless annotations left out" in captured.err and "--types" in captured.err
    assert json.loads(captured.out)["measures"]["strict"]["totals"]["gold"] == 10


def test_qa_compares_them_too(perturbed, capsys):
    assert main(["qa", str(GENIA), perturbed, "--types", TYPES, "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["measures"]["strict"]["totals"]["correct"] == 10


def test_the_types_pointed_to_must_be_compared():
    t = A("Protein", 0, 3)
    rel = A("Rel", attributes={"arg": t})
    with pytest.raises(OptionError, match="Rel annotations point to Protein annotations.*add Protein to --types"):
        annotation_diff([t, rel], [t, rel], types=["Rel"])


def test_sets_lists_and_features_of_relations():
    a, b, c = A("E", 0, 2), A("E", 4, 6), A("E", 8, 9)
    a2, b2, c2 = A("E", 0, 2), A("E", 4, 6), A("E", 8, 9)
    keys = [a, b, c, A("Eq", attributes={"members": frozenset({a, b})}), A("Seq", attributes={"items": (a, c)}),
            A("R", attributes={"x": a, "kind": "cause"})]
    resps = [a2, b2, c2, A("Eq", attributes={"members": frozenset({b2, a2})}),   # a set: order does not matter
             A("Seq", attributes={"items": (c2, a2)}),                             # a list: it does
             A("R", attributes={"x": a2, "kind": "effect"})]
    got = annotation_diff(keys, resps, types=["E", "Eq", "Seq", "R"], features=["kind"])
    assert (got["Eq"].counts.correct, got["Seq"].counts.correct, got["Seq"].counts.missing) == (1, 0, 1)
    assert [r.outcome for r in got["R"].rows] == ["mismatch"]     # arguments correct, feature differs
    assert annotation_diff(keys, resps, types=["E", "R"])["R"].counts.correct == 1   # features ignored by default


def test_adjudicate_refuses_relations_and_says_why(tmp_path, capsys):
    out = str(tmp_path / "adj.jsonl")
    assert main(["adjudicate", str(GENIA), str(GENIA), "--types", TYPES, "-o", out]) == 2
    assert "cannot be adjudicated" in capsys.readouterr().err
    assert main(["adjudicate", str(GENIA), str(GENIA), "--types", "Protein", "-o", out]) == 0
