"""accord structured on annotation files: brat events (BioNLP-ST) and doccano relations, counted by hand."""

import json
import shutil

import pytest

import accord
from accord.errors import OptionError
from tests.conftest import DATA

GENIA = DATA / "bionlp-st-ge"
DOCCANO = DATA / "doccano" / "relation_extraction.jsonl"


def test_bionlp_events_by_hand(tmp_path):
    pred = tmp_path / "pred"
    pred.mkdir()
    shutil.copy(GENIA / "PMID-10364260.txt", pred)
    ann = (GENIA / "PMID-10364260.ann").read_text()
    (pred / "PMID-10364260.ann").write_text(ann.replace("E2\tBinding:T7 Theme:T1", "E2\tBinding:T7 Theme:T2"))
    result = accord.structured_metrics(GENIA, pred, ["event-trigger", "event-argument"])
    # five events, all triggers kept: trigger F1 1.0; five Theme arguments (E1's is the event E2, standing for
    # its trigger T7), one moved from T1 to T2: 4 of 5 on each side
    assert result.source[0]["event-trigger"].total.f1 == 1.0
    argument = result.source[0]["event-argument"]
    assert argument.total.f1 == pytest.approx(0.8)


def test_doccano_relations_by_hand(tmp_path):
    obj = json.loads(DOCCANO.read_text())
    obj["relations"][1]["type"] = "foundedAt"        # ORG -> Larry Page: foundedBy becomes foundedAt
    (tmp_path / "pred.jsonl").write_text(json.dumps(obj) + "\n")
    # both files are doccano exports (.jsonl): read through the annotation model, not as accord's records
    result = accord.structured_metrics(DOCCANO, tmp_path / "pred.jsonl", ["relation", "relation-boundaries"])
    assert result.source[0]["relation"].total.f1 == pytest.approx(2 / 3)       # 2 of 3 typed relations
    assert result.source[0]["relation-boundaries"].total.f1 == 1.0              # the argument pairs all match


def test_a_file_without_the_kind_is_named():
    with pytest.raises(OptionError, match="neither .* has any; they hold events"):
        accord.structured_metrics(GENIA, GENIA, ["relation"])
