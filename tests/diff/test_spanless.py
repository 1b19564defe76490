"""The Annotation Diff and Corpus QA on corpora with relations: spanless annotations left out, with a warning,
unless their types are asked for."""

import json

import pytest
from tests.conftest import DATA

import accord
from accord.errors import AccordError, AccordWarning

RELATIONS = DATA / "doccano" / "relation_extraction.jsonl"


def test_relations_left_out_and_counted(tmp_path):
    obj = json.loads(RELATIONS.read_text())
    obj["entities"][3]["label"] = "ORG"          # Sergey Brin PERSON -> ORG
    (tmp_path / "pred.jsonl").write_text(json.dumps(obj) + "\n")
    with pytest.warns(AccordWarning, match=r"spanless annotations left out.*: foundedAt \(2\), foundedBy \(4\) \(name their types"):
        result = accord.qa(RELATIONS, tmp_path / "pred.jsonl")
    # by hand, per type: ORG 1 correct + 1 spurious, PERSON 1 correct + 1 missing, DATE 1 correct
    diff = result.source
    assert set(diff.types) == {"DATE", "ORG", "PERSON"}
    assert (diff.counts(type="ORG").correct, diff.counts(type="ORG").spurious) == (1, 1)
    assert (diff.counts(type="PERSON").correct, diff.counts(type="PERSON").missing) == (1, 1)
    assert diff.counts(type="DATE").correct == 1


def test_asking_for_a_spanless_type_compares_it_through_its_arguments(tmp_path):
    with pytest.raises(AccordError, match="foundedBy annotations point to ORG, PERSON annotations"):
        accord.qa(RELATIONS, RELATIONS, types=["foundedBy"])
    obj = json.loads(RELATIONS.read_text())
    obj["entities"][3]["label"] = "ORG"          # Sergey Brin PERSON -> ORG
    (tmp_path / "pred.jsonl").write_text(json.dumps(obj) + "\n")
    diff = accord.qa(RELATIONS, tmp_path / "pred.jsonl", types=["ORG", "PERSON", "DATE", "foundedAt", "foundedBy"]).source
    # by hand: foundedAt(Google, 1998) pairs; foundedBy(Google, Larry Page) pairs; foundedBy(Google, Sergey Brin)
    # does not (its PERSON argument is missing, the response's ORG argument spurious)
    assert diff.counts(type="foundedAt").correct == 1
    by = diff.counts(type="foundedBy")
    assert (by.correct, by.partial, by.missing, by.spurious) == (1, 0, 1, 1)
