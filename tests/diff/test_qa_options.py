"""Corpus QA's niceties (issue 18.8): the types both sets have by default, GATE's measure names, two betas in one
table. Counts by hand."""

import json

import pytest

import accord
from accord.cli import main
from accord.diff import parse_measure
from accord.diff._counts import DiffCounts
from accord.errors import AccordWarning, OptionError

TEXT = "Ann met Bob at Acme in Rome."


def write(path, spans):
    anns = [{"label": lbl, "start": TEXT.index(w), "end": TEXT.index(w) + len(w)} for lbl, w in spans]
    path.write_text(json.dumps({"id": "d", "text": TEXT, "annotations": anns}) + "\n")
    return path


@pytest.fixture
def sides(tmp_path):
    key = write(tmp_path / "key.jsonl", [("Person", "Ann"), ("Person", "Bob"), ("Org", "Acme"), ("Date", "Rome")])
    resp = write(tmp_path / "resp.jsonl", [("Person", "Ann"), ("Org", "Acme"), ("Org", "Rome"), ("Loc", "Rome")])
    return key, resp


def test_types_both_sets_have_by_default(sides):
    key, resp = sides
    with pytest.warns(AccordWarning, match="only in the key: Date; only in the response: Loc.*--all-types"):
        qa = accord.qa(key, resp)
    # Person: 1 correct, 1 missing; Org: Acme correct, Rome spurious; Date and Loc left out
    cd = qa.source
    assert list(cd.types) == ["Org", "Person"]
    assert (cd.counts().correct, cd.counts().missing, cd.counts().spurious) == (2, 1, 1)
    every = accord.qa(key, resp, all_types=True).source
    assert set(every.types) == {"Date", "Loc", "Org", "Person"}
    assert (every.counts().missing, every.counts().spurious) == (2, 2)
    # the Annotation Diff keeps every type
    assert set(accord.gate_diff(key, resp).source.types) == {"Date", "Loc", "Org", "Person"}


def test_no_common_type_compares_every_type_with_a_warning(tmp_path):
    key = write(tmp_path / "k.jsonl", [("Person", "Ann")])
    resp = write(tmp_path / "r.jsonl", [("Org", "Acme")])
    with pytest.warns(AccordWarning, match="no annotation type in common.*every type is compared"):
        cd = accord.qa(key, resp).source
    assert set(cd.types) == {"Org", "Person"} and (cd.counts().missing, cd.counts().spurious) == (1, 1)


def test_gate_measure_names():
    assert parse_measure("F1.0-score strict") == "strict@1"
    assert parse_measure("F0.5-score lenient BDM") == "lenient-bdm@0.5"
    assert parse_measure("f0.5-score average") == "average@0.5"
    with pytest.raises(OptionError, match="F1.0-score strict"):
        parse_measure("F-score strict")
    # c 2, p 1, m 1, s 2: strict P 2/5, R 2/4; F0.5 = 1.25 P R / (0.25 P + R) by hand
    c = DiffCounts(correct=2, partial=1, missing=1, spurious=2)
    p, r = 2 / 5, 2 / 4
    assert c.f("strict@0.5", beta=1.0) == pytest.approx(1.25 * p * r / (0.25 * p + r))
    assert c.f("strict", beta=1.0) == pytest.approx(2 * p * r / (p + r))


def test_two_betas_in_one_table(sides, capsys):
    key, resp = sides
    assert main(["qa", str(key), str(resp), "--measures", "F1.0-score strict,F0.5-score strict",
                 "--output", "json"]) == 0
    captured = capsys.readouterr()
    assert "only in the key: Date" in captured.err
    out = json.loads(captured.out)
    assert list(out["measures"]) == ["strict@1", "strict@0.5"]
    # micro over Org and Person: c 2, m 1, s 1: P 2/3, R 2/3 -> every F is 2/3
    f1 = out["measures"]["strict@1"]["totals"]["f1"]
    f05 = out["measures"]["strict@0.5"]["totals"]["f1"]
    assert f1 == pytest.approx(2 / 3) and f05 == pytest.approx(2 / 3)
    assert main(["qa", str(key), str(resp), "--measures", "F1.0-score strict,F0.5-score lenient", "--by",
                 "type"]) == 0
    table = capsys.readouterr().out
    assert "F1.s" in table and "F0.5.l" in table
