"""The MAT JSON reader: the column-at-a-time path reads what the row-by-row path reads, and faults it leaves to
the row-by-row path are named there."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accord.errors import FormatError
from accord.formats._refs import build_annotations
from accord.formats.text.matjson import _annotations_in_bulk, _rows_one_by_one, read_mat_json
from accord.model import Annotation, is_aggregate


def _document(seed: int) -> dict:
    rng = random.Random(seed)
    signal = "x" * 60
    asets = []
    n_ids = 0
    for label in rng.sample(("PER", "LOC", "ORG"), rng.randint(1, 3)):
        has_id = rng.random() < 0.7
        attrs = rng.sample([{"name": "kind", "type": "string"}, "bare", {"name": "n", "type": "int"},
                            {"name": "ok", "type": "boolean", "aggregation": "none"}], rng.randint(0, 3))
        rows = []
        for _ in range(rng.randint(0, 6)):
            s = rng.randint(0, 55)
            row: list = [s, s + rng.randint(0, 5)]
            if has_id:
                n_ids += 1
                row.append(f"e{n_ids}" if rng.random() < 0.5 else n_ids)
            values = [rng.choice(("a", "b", None)) if a in ("bare",) or a.get("type") == "string" else
                      rng.choice((0, 7, None)) if a.get("type") == "int" else rng.choice((True, False, None))
                      for a in attrs]
            row.extend(values[:rng.randint(0, len(values))])    # trailing values may be left out
            rows.append(row)
        asets.append({"type": label, "hasID": has_id, "attrs": attrs, "annots": rows})
    targets = [r[2] for a in asets if a["hasID"] for r in a["annots"]]
    if targets:
        rel_rows = []
        for k in range(rng.randint(0, 5)):
            row = [f"r{k}"] if rng.random() < 0.5 else []
            row += [rng.choice(targets), rng.choice(targets + [None])]
            if rng.random() < 0.2 and rel_rows and rel_rows[0][0] == "r0":
                row[-1] = "r0"      # a relation pointing to a relation: left to the general path
            rel_rows.append(row)
        has_id = all(len(r) == 3 for r in rel_rows)
        rel_rows = [r if has_id else r[-2:] for r in rel_rows]
        asets.append({"type": "REL", "hasSpan": False, "hasID": has_id,
                      "attrs": [{"name": "arg1", "type": "annotation"}, {"name": "arg2", "type": "annotation"}],
                      "annots": rel_rows})
    rng.shuffle(asets)
    return {"signal": signal, "version": 2, "metadata": {}, "asets": asets}


def _described(annotations: tuple[Annotation, ...]) -> list:
    where = {id(a): k for k, a in enumerate(annotations)}

    def value(v):
        if isinstance(v, Annotation):
            return ("@", where[id(v)])
        if is_aggregate(v):
            return (type(v).__name__, sorted(map(repr, map(value, v))))
        return (type(v).__name__, v)

    return [(a.label, a.start, a.end, a.id, sorted((k, value(v)) for k, v in a.attributes.items()))
            for a in annotations]


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_bulk_reading_equals_reading_row_by_row(tmp_path_factory, seed):
    doc = _document(seed)
    p = tmp_path_factory.mktemp("m") / "d.json"
    p.write_text(json.dumps(doc), encoding="utf-8")
    try:
        expected = build_annotations(_rows_one_by_one(doc["asets"], doc["signal"], p), path=p, doc_id="d")
    except FormatError as exc:      # an id used twice by the generator: both paths refuse it alike
        with pytest.raises(FormatError) as got:
            read_mat_json(p)
        assert str(got.value) == str(exc)
        return
    bulk = _annotations_in_bulk(doc["asets"], len(doc["signal"]))
    if bulk is not None:
        assert _described(bulk) == _described(expected)
    assert _described(read_mat_json(p).documents[0].annotations) == _described(expected)


GOOD = {"signal": "John saw Mary.", "version": 2,
        "asets": [{"type": "PER", "hasID": True, "attrs": [{"name": "kind", "type": "string"}],
                   "annots": [[0, 4, "p1", "NAM"], [9, 13, "p2"]]},
                  {"type": "SAW", "hasSpan": False, "hasID": False,
                   "attrs": [{"name": "who", "type": "annotation"}, {"name": "whom", "type": "annotation"}],
                   "annots": [["p1", "p2"]]}]}


@pytest.mark.parametrize("change, message", [
    (lambda d: d["asets"][0]["annots"][1].__setitem__(2, "p1"), r"annotation id 'p1' is used twice"),
    (lambda d: d["asets"][1]["annots"][0].__setitem__(1, "p9"), r"points to unknown annotation id 'p9'"),
    (lambda d: d["asets"][1].update(hasID=True, annots=[["p2", "p1", "p2"]]), r"annotation id 'p2' is used twice"),
    (lambda d: d["asets"][0]["annots"][1].__setitem__(1, 99), r"\$\.asets\[0\]\.annots\[1\]: span \[9, 99\) does "
                                                              r"not lie in the signal \(14 characters\)"),
    (lambda d: d["asets"][0]["annots"][0].__setitem__(0, True), r"\$\.asets\[0\]\.annots\[0\]\[0\]: expected an "
                                                               r"integer character offset, got a boolean"),
    (lambda d: d["asets"][0]["annots"][0].__setitem__(3, 5), r"\$\.asets\[0\]\.annots\[0\]\[3\]: expected a "
                                                            r"string \(a string attribute\), got an integer"),
    (lambda d: d["asets"][0]["annots"].append([0, 4, "p3", "NAM", "extra"]), r"\$\.asets\[0\]\.annots\[2\]: "
                                                                           r"expected 3 to 4 values"),
    (lambda d: d["asets"][0]["annots"].append(7), r"\$\.asets\[0\]\.annots\[2\]: expected an array"),
    (lambda d: d["asets"][1]["annots"][0].__setitem__(0, 1.5), r"\$\.asets\[1\]\.annots\[0\]\[0\]: expected an "
                                                              r"annotation id"),
])
def test_faults_are_named_with_their_place(tmp_path, change, message):
    doc = json.loads(json.dumps(GOOD))
    change(doc)
    p = tmp_path / "d.json"
    p.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(FormatError, match=r"d\.json: .*" + message):
        read_mat_json(p)


def test_good_document_by_hand(tmp_path):
    p = tmp_path / "d.json"
    p.write_text(json.dumps(GOOD), encoding="utf-8")
    john, mary, saw = read_mat_json(p).documents[0].annotations
    assert (john.start, john.end, john.id, dict(john.attributes)) == (0, 4, "p1", {"kind": "NAM"})
    assert (mary.start, mary.end, dict(mary.attributes)) == (9, 13, {})
    assert saw.start is None and saw.attributes["who"] is john and saw.attributes["whom"] is mary
