"""GATE's Corpus QA "present in every document / set / type" lists in ``accord qa`` (issue 44, item 11; user guide
10.3: "present in every document" reduces the sets, "present in every selected set" the types, "present in every
selected type" the features), on two GATE XML documents whose sets, types and features are listed by hand below."""

import json
import warnings

from tests.result.contract import checked

from accord import qa
from accord.cli import main
from accord.diff._present import merge_present
from accord.formats.text.gate import write_gate_sets
from accord.model import Document
from accord.model import make_annotation as A

TEXT = "Ann met Bob in Paris for Acme."
# d1: sets (default), Key, Resp, Extra; d2: (default), Key, Resp -> sets in every document: (default), Key, Resp
# Key: PER {gender, kind}, LOC {kind}; Resp: PER {kind}, ORG {kind} -> types in both sets: PER only
SETS = {
    "d1": {"": [], "Key": [A("PER", 0, 3, {"gender": "f"}), A("LOC", 15, 20, {"kind": "city"})],
           "Resp": [A("PER", 0, 3, {"kind": "given"}), A("ORG", 25, 29, {"kind": "firm"})], "Extra": [A("X", 0, 3)]},
    "d2": {"": [], "Key": [A("PER", 8, 11, {"kind": "given"})], "Resp": [A("PER", 8, 11)]},
}


def _corpus(tmp_path):
    folder = tmp_path / "gate"
    folder.mkdir()
    for doc, sets in SETS.items():
        write_gate_sets(Document(doc, (), text=TEXT), sets, folder / f"{doc}.xml")
    return folder


def test_the_lists_by_hand(tmp_path, capsys):
    folder = str(_corpus(tmp_path))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")     # the types left out (LOC, ORG) are named in a warning
        present = qa(folder, folder, key_set="Key", response_set="Resp").present
    assert present["document"]["key"] == present["document"]["response"] == ["", "Key", "Resp"]
    assert present["set"] == {"both": ["PER"], "key": ["LOC", "PER"], "response": ["ORG", "PER"]}
    # the compared type PER: gender (key d1) and kind (response d1, key d2), on either side
    assert present["type"] == {"every": ["gender", "kind"], "by_type": {"PER": ["gender", "kind"]}}
    # every type compared: LOC {kind}, ORG {kind}, PER {gender, kind} -> only kind in all three
    assert main(["qa", folder, folder, "--key-set", "Key", "--response-set", "Resp", "--all-types", "--output",
                 "json"]) == 0
    out = checked(capsys.readouterr().out)["present_in_every"]
    assert out["type"] == {"every": ["kind"], "by_type": {"LOC": ["kind"], "ORG": ["kind"], "PER": ["gender", "kind"]}}
    assert (out["document"]["key_set"], out["document"]["response_set"]) == ("Key", "Resp")
    assert main(["qa", folder, folder, "--key-set", "Key", "--response-set", "Resp"]) == 0
    table = capsys.readouterr().out
    assert "annotation sets in every key document" in table and "(default), Key, Resp" in table


def test_other_formats_have_no_sets_and_diff_no_lists(tmp_path, capsys):
    gold = tmp_path / "g.jsonl"
    gold.write_text(json.dumps({"id": "d", "text": TEXT, "annotations": [{"label": "PER", "start": 0, "end": 3}]})
                    + "\n", encoding="utf-8")
    assert main(["qa", str(gold), str(gold), "--output", "json"]) == 0
    present = checked(capsys.readouterr().out)["present_in_every"]
    assert present["document"]["key"] is None and present["set"]["both"] == ["PER"]
    assert main(["diff", str(gold), str(gold), "--output", "json"]) == 0
    assert "present_in_every" not in checked(capsys.readouterr().out)


def test_merged_runs(tmp_path):
    a = {"document": {"key": ["", "Key"], "response": None, "key_set": "Key", "response_set": ""},
         "set": {"both": ["PER"], "key": ["PER"], "response": ["PER"]},
         "type": {"every": ["kind"], "by_type": {"PER": ["kind"]}}}
    b = {"document": {"key": ["Key"], "response": None, "key_set": "Key", "response_set": ""},
         "set": {"both": [], "key": ["LOC"], "response": ["PER"]},
         "type": {"every": [], "by_type": {"LOC": []}}}
    m = merge_present(a, b)
    assert m["document"]["key"] == ["Key"] and m["document"]["response"] is None
    assert m["set"] == {"both": ["PER"], "key": ["LOC", "PER"], "response": ["PER"]}
    assert m["type"] == {"every": [], "by_type": {"PER": ["kind"], "LOC": []}}
