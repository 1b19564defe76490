"""JSON-lines records for the structured metrics: each kind, and bad input named by file, line and document."""

from __future__ import annotations

import json

import pytest

from accord.errors import FormatError
from accord.formats.records.records import Mention, read_records


def _write(tmp_path, *objs):
    p = tmp_path / "r.jsonl"
    p.write_text("".join(json.dumps(o) + "\n" for o in objs))
    return p


def test_each_kind_is_converted(tmp_path):
    p = _write(tmp_path, {
        "id": "d1",
        "relations": [{"type": "Works_For", "subj": [0, 1], "obj": {"start": 4, "end": 5}}],
        "dependencies": [{"gov": 2, "dep": 1, "rel": "nsubj"}],
        "events": [{"trigger": {"mention": [3, 3], "type": "Attack"},
                    "arguments": [{"mention": [0, 1], "role": "Attacker"}]}],
        "entities": [{"role": "Victim", "mentions": ["the mayor", [7, 8]]}],
        "nary_relations": [{"args": [{"role": "Method", "mentions": [[0, 2]]}]}],
        "templates": [{"type": "bombing", "fillers": [{"slot": "Target", "value": ["the bridge", "it"]},
                                                      {"slot": "Stage", "value": "accomplished"}]}],
    }, {"doc_key": "d2"})
    rel = read_records(p, "relations")
    assert rel["d1"] == [{"type": "Works_For", "subj": Mention(0, 1), "obj": Mention(4, 5)}] and rel["d2"] == []
    ev = read_records(p, "events")["d1"][0]
    assert ev["trig"] == {"mention": Mention(3, 3), "type": "Attack"}
    assert ev["args"] == [{"mention": Mention(0, 1), "role": "Attacker"}]
    assert read_records(p, "entities")["d1"] == [{"role": "Victim", "entity": ("the mayor", Mention(7, 8))}]
    assert read_records(p, "nary_relations")["d1"][0]["args"][0]["mentions"] == (Mention(0, 2),)
    tpl = read_records(p, "templates")["d1"][0]
    assert tpl["fillers"][0]["value"] == ("the bridge", "it") and tpl["fillers"][1]["value"] == "accomplished"
    assert read_records(p, "dependencies")["d1"] == [{"gov": 2, "dep": 1, "rel": "nsubj"}]


@pytest.mark.parametrize("obj,kind,message", [
    ({"relations": []}, "relations", r"r.jsonl:1: expected a string 'id'"),
    ({"id": "d", "relations": [{"type": "X", "subj": [3, 1], "obj": [0, 0]}]}, "relations",
     r"r.jsonl:1: document 'd', relations 0 subj: expected a mention"),
    ({"id": "d", "relations": [{"subj": [0, 1], "obj": [0, 0]}]}, "relations", r"relations 0: missing 'type'"),
    ({"id": "d", "events": [{"trigger": {"mention": [0, 0], "type": "A"}, "arguments": {}}]}, "events",
     r"events 0 arguments: expected a list"),
    ({"id": "d", "templates": [{"type": "T", "fillers": [{"slot": "S", "value": [1, 2]}]}]}, "templates",
     r"templates 0 filler 0: a list value is an entity's mention strings"),
    ({"id": "d", "entities": "x"}, "entities", r"entities: expected a list"),
])
def test_bad_records(tmp_path, obj, kind, message):
    with pytest.raises(FormatError, match=message):
        read_records(_write(tmp_path, obj), kind)


def test_duplicate_document_and_unknown_kind(tmp_path):
    p = _write(tmp_path, {"id": "d"}, {"id": "d"})
    with pytest.raises(FormatError, match="r.jsonl:2: document 'd' appears twice"):
        read_records(p, "relations")
    with pytest.raises(FormatError, match="unknown record kind 'frames'"):
        read_records(p, "frames")
