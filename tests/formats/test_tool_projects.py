"""Project layouts of brat (a folder per annotator), doccano (USER.jsonl files), Label Studio and Prodigy as
accord agree's annotators. The brat layout is checked against bratiaa's published agreement on its own example
project and test project (../shared/corpora/outside3b/bratiaa; bratiaa's tests/bratiaa/test_agree*.py)."""

import json
import statistics

import pytest

import accord
from accord.cli import main
from accord.errors import AccordError
from accord.formats.projects import detect, find_annotators

from ..conftest import SHARED

BRATIAA = SHARED / "corpora" / "outside3b" / "bratiaa"


def _need(path):
    if not path.exists():
        pytest.skip(f"{path} is not here (../shared/corpora)")
    return path


def _pairs(result):
    return result.span.to_dict()["pairs"]


def test_bratiaa_example_project_equals_bratiaa():
    """bratiaa's instance-based F1: per annotator pair, exact (label, offsets) matches over all documents; the mean
    and (population) SD over the six pairs of Lisa, Maria, Max and Peter (bratiaa's test_agree_regression.py).
    Before: the folder was not an input of accord agree (one INPUT: a ratings table)."""
    project = _need(BRATIAA / "example-project")
    assert detect(project).name == "brat"
    result = accord.agree(project, span_measure="strict")
    assert list(result.inputs) == ["Lisa", "Maria", "Max", "Peter"]
    pairs = _pairs(result)
    f1 = [p["totals"]["f1"] for p in pairs]
    assert len(f1) == 6
    assert statistics.mean(f1) == pytest.approx(0.8903501)
    assert statistics.pstdev(f1) == pytest.approx(0.0526314)
    for label, mean, sd in zip(["LOC", "MISC", "ORG", "PER"], [0.8191061, 0.84004593, 0.9059579, 0.93782234],
                               [0.13102913, 0.08971284, 0.05325575, 0.03875493]):
        values = [p["by_label"][label]["f1"] for p in pairs]
        assert (statistics.mean(values), statistics.pstdev(values)) == pytest.approx((mean, sd), abs=1e-6)
    documents = sorted(pairs[0]["by_document"])
    means = [0.79807203, 0.89395898, 0.90550807, 0.90580505, 0.93571596, 0.90673964, 0.87339767]
    assert documents == sorted(f"esp.train-doc-{n}" for n in (100, 1400, 29, 423, 46, 503, 896))
    for doc, mean in zip(sorted(documents, key=lambda d: d + ".ann"), means):   # bratiaa sorts 'x.ann' names
        assert statistics.mean(p["by_document"][doc]["f1"] for p in pairs) == pytest.approx(mean, abs=1e-6)


def test_bratiaa_agree_2_equals_bratiaa(capsys):
    project = _need(BRATIAA / "agree-2")
    assert main(["agree", str(project), "--annotators", "ann2,ann1", "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out["inputs"]) == ["ann2", "ann1"]
    (pair,) = out["span_agreement"]["pairs"]
    assert pair["totals"]["f1"] == pytest.approx(0.787878, rel=1e-4)       # bratiaa's test_agree.py


def test_brat_layout_by_hand(tmp_path):
    """Two annotators, one document in a subfolder: a/x/d1 and b/x/d1; a third file only a has is left out."""
    for who, lines in (("a", ["T1\tPER 0 5\tAlice", "T2\tLOC 17 22\tParis"]), ("b", ["T1\tPER 0 5\tAlice"])):
        (tmp_path / who / "x").mkdir(parents=True)
        (tmp_path / who / "x" / "d1.txt").write_text("Alice met Bob in Paris.")
        (tmp_path / who / "x" / "d1.ann").write_text("\n".join(lines) + "\n")
    (tmp_path / "a" / "d2.txt").write_text("Rome.")
    (tmp_path / "a" / "d2.ann").write_text("T1\tLOC 0 4\tRome\n")
    (tmp_path / "annotation.conf").write_text("[entities]\nPER\nLOC\n")
    with pytest.warns(UserWarning, match="'d2' .not by b."):
        found = find_annotators(tmp_path)
    assert list(found) == ["a", "b"] and list(found["a"]) == ["x/d1"]
    result = accord.agree(tmp_path)
    assert result.totals["items"] == 2 and result.totals["coefficients"]["observed_agreement"] == 0.5


def test_a_brat_folder_of_documents_is_not_a_project(tmp_path):
    (tmp_path / "d.ann").write_text("")
    (tmp_path / "d.txt").write_text("")
    for who in ("a", "b"):
        (tmp_path / who).mkdir()
        (tmp_path / who / "d.ann").write_text("")
    assert detect(tmp_path) is None
    assert detect(tmp_path / "a") is None


def test_doccano_export_of_users(tmp_path):
    """doccano without collaborative annotation exports USER.jsonl per member: each file an annotator."""
    texts = ["good", "bad", "so so"]
    for who, classes in (("alice", ["pos", "neg", "neu"]), ("bob", ["pos", "neg", "pos"])):
        (tmp_path / f"{who}.jsonl").write_text("".join(
            json.dumps({"id": k, "text": t, "label": [c]}) + "\n" for k, (t, c) in enumerate(zip(texts, classes), 1)))
    assert detect(tmp_path).name == "doccano"
    result = accord.agree(tmp_path)
    assert list(result.inputs) == ["alice", "bob"]
    assert result.totals["items"] == 3 and result.totals["coefficients"]["observed_agreement"] == pytest.approx(2 / 3)
    with pytest.raises(AccordError, match="no annotator 'carol'"):
        accord.agree(tmp_path, annotators=["alice", "carol"])


def test_a_ratings_table_is_no_project(tmp_path):
    table = tmp_path / "r.csv"
    table.write_text("a,b\nx,x\ny,x\n")
    assert detect(table) is None
    assert accord.agree(table).totals["items"] == 2


def test_a_brat_project_of_too_many_entries_is_refused_before_reading(tmp_path):
    from accord.errors import FormatError
    from accord.formats.text.brat import annotator_folders

    for n in range(5):
        (tmp_path / f"a{n}").mkdir()
        (tmp_path / f"a{n}" / "x.ann").write_text("T1\tX 0 1\tx\n")
    with pytest.raises(FormatError, match="more than 3 entries in this project: refused before reading"):
        annotator_folders(tmp_path, 3)
    with pytest.raises(FormatError, match="more than 8 entries"):
        annotator_folders(tmp_path, 8)            # 5 folders + 5 files
    assert list(annotator_folders(tmp_path, 10)) == [f"a{n}" for n in range(5)]


def test_a_project_annotators_sources_are_its_files():
    """The result's inputs name each annotator's files in the export (they said ``<Corpus>``): bratiaa's example
    project holds 7 documents per annotator, ``<annotator>/<document>.ann``."""
    project = BRATIAA / "example-project"
    _need(project)
    inputs = accord.agree(project).to_dict()["inputs"]
    assert sorted(inputs) == ["Lisa", "Maria", "Max", "Peter"]
    for name, block in inputs.items():
        assert block["documents"] == 7 and len(block["sources"]) == 7
        assert all(s.startswith(f"{name}/") and s.endswith(".ann") for s in block["sources"])
