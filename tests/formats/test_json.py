"""JSON parsing and declarative shape checks, and the shapes of MAT JSON and accord's JSON lines."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accord.errors import FormatError
from accord.formats import read as read_corpus
from accord.formats._json import (
    INTEGER,
    MAX_DEPTH,
    NUMBER,
    STRING,
    ListOf,
    Nullable,
    Object,
    OneOf,
    _exact_depth,
    _nesting_depth,
    check,
    parse_json,
)


def test_parse_refuses_nan_and_infinity():
    for text in ('{"a": NaN}', "[Infinity]", "-Infinity"):
        with pytest.raises(FormatError, match="not valid JSON"):
            parse_json(text)


def test_parse_refuses_deep_nesting_without_recursion():
    deep = "[" * 100_000 + "]" * 100_000
    with pytest.raises(FormatError, match=f"nested 100000 levels deep; accord reads at most {MAX_DEPTH}"):
        parse_json(deep, path="x.json")
    ok = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert parse_json(ok) is not None


def test_depth_ignores_brackets_inside_strings():
    # 300 brackets inside a string (with escaped quotes around) are not nesting
    text = json.dumps({"s": '\\"' + "[" * 300 + '"'})
    assert parse_json(text)["s"].endswith('"')


def test_syntax_error_names_line_and_column():
    with pytest.raises(FormatError, match=r"x\.jsonl:4: not valid JSON \(Expecting value at column 7\)"):
        parse_json('{"a": }', path="x.jsonl", line=4)


SHAPE = Object({"id": STRING, "n": INTEGER, "w": NUMBER,
                "spans": ListOf(ListOf(INTEGER, 2, 2)),
                "meta": Nullable(Object({})),
                "v": OneOf((STRING, Object({"ref": STRING}, required=("ref",), closed=True)))},
               required=("id",))


@pytest.mark.parametrize("value, message", [
    ({}, r'\$: expected an object with "id"; "id" is missing'),
    ({"id": 3}, r"\$\.id: expected a string, got an integer"),
    ({"id": "a", "n": True}, r"\$\.n: expected an integer, got a boolean"),
    ({"id": "a", "w": "1"}, r"\$\.w: expected a number, got a string"),
    ({"id": "a", "spans": [[0, 1], [2]]}, r"\$\.spans\[1\]: expected an array of 2 of integers, got an array of 1"),
    ({"id": "a", "spans": [[0, "x"]]}, r"\$\.spans\[0\]\[1\]: expected an integer, got a string"),
    ({"id": "a", "meta": []}, r"\$\.meta: expected an object or null, got an array"),
    ({"id": "a", "v": {"ref": "T1", "x": 1}}, r"\$\.v: expected a string or an object"),
    ([], r"\$: expected an object"),
])
def test_check_reports_first_violation_by_path(value, message):
    with pytest.raises(FormatError, match=message):
        check(value, SHAPE)


def test_check_accepts_valid_value():
    check({"id": "a", "n": 1, "w": 0.5, "spans": [[0, 1]], "meta": None, "v": {"ref": "T1"}}, SHAPE)


def test_check_is_iterative_on_deep_values():
    value: list = []
    for _ in range(50_000):
        value = [value]
    nested = OneOf((INTEGER,), name="an integer")
    with pytest.raises(FormatError, match=r"expected an integer"):
        check(value, ListOf(nested))


def _mat(tmp_path, doc) -> str:
    p = tmp_path / "d.json"
    p.write_text(json.dumps(doc), encoding="utf-8")
    return str(p)


GOOD_MAT = {"signal": "John ran.", "version": 2, "metadata": {},
            "asets": [{"type": "PER", "hasSpan": True, "attrs": [{"name": "kind", "type": "string"}],
                       "annots": [[0, 4, "NAM"]]}]}


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(version=True), r"\$\.version: expected"),
    (lambda d: d["asets"][0].update(annots=[[True, False, "x"]]), r"\$\.asets\[0\]\.annots\[0\]\[0\]"),
    (lambda d: d["asets"][0].update(attrs={"kind": "string"}), r"\$\.asets\[0\]\.attrs: expected an array"),
    (lambda d: d.update(asets={"PER": []}), r"\$\.asets: expected an array"),
    (lambda d: d.update(metadata=["x"]), r"\$\.metadata: expected an object"),
    (lambda d: d.update(metadata="x"), r"\$\.metadata: expected an object"),
    (lambda d: d.update(signal=None), r"\$\.signal: expected a string"),
    (lambda d: d["asets"][0]["annots"][0].__setitem__(2, {"a": 1}), r"\$\.asets\[0\]\.annots\[0\]\[2\]"),
])
def test_mat_json_shapes(tmp_path, change, message):
    doc = json.loads(json.dumps(GOOD_MAT))
    change(doc)
    with pytest.raises(FormatError, match=r"d\.json: " + message):
        read_corpus(_mat(tmp_path, doc), "mat-json")


def test_mat_json_good_document_reads(tmp_path):
    corpus = read_corpus(_mat(tmp_path, GOOD_MAT), "mat-json")
    (ann,) = corpus.documents[0].annotations
    assert (ann.label, ann.start, ann.end, ann.attributes["kind"]) == ("PER", 0, 4, "NAM")


def _jsonl(tmp_path, *docs) -> str:
    p = tmp_path / "d.jsonl"
    p.write_text("".join(json.dumps(d) + "\n" for d in docs), encoding="utf-8")
    return str(p)


@pytest.mark.parametrize("doc, message", [
    ({"id": "a", "tokens": [["John"], ["ran"]]}, r"d\.jsonl:1: \$\.tokens\[0\]: expected a string, got an array"),
    ({"id": "a", "text": "x", "sentences": "0 1"}, r"\$\.sentences: expected an array"),
    ({"id": "a", "metadata": ["x"]}, r"\$\.metadata: expected an object or null, got an array"),
    ({"id": "a", "annotations": [{"label": "X", "start": 0, "end": 1, "attributes": {"s": {"set": [[1]]}}}]},
     r"\$\.annotations\[0\]\.attributes\.s"),
    ({"id": "a", "annotations": [{"label": "X", "start": "0", "end": 1}]},
     r"\$\.annotations\[0\]\.start: expected an integer or null, got a string"),
    ({"id": 7}, r"\$\.id: expected a string, got an integer"),
])
def test_jsonl_shapes(tmp_path, doc, message):
    with pytest.raises(FormatError, match=message):
        read_corpus(_jsonl(tmp_path, doc), "jsonl")


def test_jsonl_error_names_line(tmp_path):
    with pytest.raises(FormatError, match=r"d\.jsonl:2: "):
        read_corpus(_jsonl(tmp_path, {"id": "a"}, {"id": "b", "tokens": "John ran"}), "jsonl")


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='[]{}"\\ab,:', max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(alphabet='[]{}"\\a', max_size=3), inner,
                                                                  max_size=3),
    max_leaves=60)


def _depth_of(value) -> int:
    if isinstance(value, list):
        return 1 + max(map(_depth_of, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(_depth_of, value.values()), default=0)
    return 0


@settings(max_examples=300, deadline=None)
@given(_JSON_VALUES, st.integers(0, 300))
def test_nesting_depth_counts_brackets_outside_strings(value, wrap):
    # strings full of brackets, quotes and backslashes; wrapped deep enough to pass the cheap bound
    text = "[" * wrap + json.dumps(value) + "]" * wrap
    depth = wrap + _depth_of(value)
    got = _nesting_depth(text)
    assert _exact_depth(text) == depth
    if text.count("[") + text.count("{") <= MAX_DEPTH:   # the cheap bound: within the limit, not exact
        assert depth <= got <= MAX_DEPTH
    else:
        assert got == depth
