"""Per-document tables written from their counts (``accord.result._json_tables``): the text ``json_text`` writes
of the same result, byte for byte."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord.result import CorefKind, SmatchKind
from accord.result._json_tables import TableMarkers, block_texts, json_text_tables
from accord.result._json_text import json_text
from accord.result._kinds import ClueKind, GateKind, PairsKind, RecordsKind
from accord.result._result import Result

_NUMBER = st.one_of(st.integers(-3, 10**6).map(float), st.floats(allow_nan=True, allow_infinity=True),
                    st.sampled_from([0.0, -0.0, 0.1, 1e-7, 1e16, 2.5]))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["coref", "blanc", "corefud-blanc", "smatch", "pairs", "records", "clue", "gate", "gate-bdm"]),
       st.integers(1, 6),
       st.data())
def test_block_texts_are_the_encoders(kind_name, rows, data):
    """Each block's text equals the JSON writer's text of the block ``Kind.blocks`` makes (NaN, infinities and
    -0.0 among the counts; derived counts, integer fields)."""
    kind = {"coref": CorefKind(), "blanc": CorefKind(blanc=True), "corefud-blanc": CorefKind(True, "corefud"),
            "smatch": SmatchKind(), "pairs": PairsKind(), "records": RecordsKind(), "clue": ClueKind(),
            "gate": GateKind("lenient"), "gate-bdm": GateKind("average-bdm", error_rate=True)}[kind_name]
    counts = np.array(data.draw(st.lists(st.lists(_NUMBER, min_size=len(kind.fields), max_size=len(kind.fields)),
                                         min_size=rows, max_size=rows)), dtype=np.float64)
    with np.errstate(all="ignore"):
        expected = [json_text(block) for block in kind.blocks(counts)]
        got = block_texts(kind, counts)
    assert got == expected      # (CLUEval's blocks: the same columns in another order)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 40), st.integers(0, 3), st.integers(0, 5)), min_size=1, max_size=60),
       st.lists(st.sampled_from(["d", "é\"x", "a\\b", "%s", "{", "}, {", "\u2028", "n"]), min_size=1, max_size=40,
                unique=True),
       st.booleans())
def test_coref_json_equals_the_writers(mentions, names, drop):
    """``accord coref``'s JSON of any corpus (document names with quotes, backslashes, braces and ``%``) equals
    ``json_text`` of its dict."""
    key: dict = {n: {} for n in names}
    response: dict = {n: {} for n in names}
    for k, (start, length, entity) in enumerate(mentions):
        side = key if k % 3 else response
        side[names[k % len(names)]].setdefault(entity, []).append((start, start + length))
        if k % 5 == 0:      # a mention of both sides
            response[names[k % len(names)]].setdefault(entity // 2, []).append((start, start + length))
    key = {d: list(v.values()) for d, v in key.items()}
    response = {d: list(v.values()) for d, v in response.items()}
    if drop:
        response.pop(names[0])
    result = accord.coref(key, response, allow_missing="empty")
    assert result.to_json() == json_text(result.to_dict()) == Result.to_json(result)
    assert json.loads(result.to_json())["measures"]["muc"]["by_document"].keys() == set(names)


def test_many_documents_and_the_golden_layout(monkeypatch):
    """2,000 generated documents: the same text as the general writer, which nests the tables at depth 3 (written
    from the counts, not by the fallback)."""
    from accord.result import _json_tables

    monkeypatch.setattr(_json_tables.TableMarkers, "resolved", lambda self, value: pytest.fail("fell back"))
    rng = np.random.default_rng(5)
    key = {f"doc{k}": [[(int(s), int(s))] for s in rng.choice(200, 20, replace=False)] for k in range(2000)}
    response = {d: [[m for e in v[:10] for m in e]] + v[10:] for d, v in key.items()}
    result = accord.coref(key, response)
    text = result.to_json()
    assert text == json_text(result.to_dict())
    assert '\n      "by_document": {\n        "doc0": {"gold": 20, ' in text


def test_markers_in_any_object():
    markers = TableMarkers()
    kind = CorefKind()
    counts = np.array([[3, 2, 1, 2, 1, 2], [0, 0, 0, 0, 0, 0]], dtype=np.float64)
    obj = {"a": [1, {"t": markers.add(["x", "y"], kind, counts)}], "b": markers.add(["x", "y"]),
           "c": markers.add([])}
    expected = {"a": [1, {"t": {"x": kind.blocks(counts)[0], "y": kind.blocks(counts)[1]}}],
                "b": {"x": {}, "y": {}}, "c": {}}
    assert json_text_tables(obj, markers) == json_text(expected)    # (a marker on one line with "t": as written)
    markers = TableMarkers()
    obj = {"a": [1, {"t": markers.add(["x", "y"], kind, counts), "u": [[]]}], "b": markers.add(["x", "y"]),
           "c": markers.add([])}
    expected["a"][1]["u"] = [[]]
    assert json_text_tables(obj, markers) == json_text(expected)    # (every marker alone on its line)
    assert math.isclose(json.loads(json_text_tables(obj, markers))["a"][1]["t"]["x"]["recall"], 0.5)


def test_an_unknown_marker_is_an_error():
    markers = TableMarkers()
    markers.add(["x"])
    with pytest.raises(ValueError, match="marker"):
        json_text_tables({"a": 1}, markers)
