"""pandas DataFrames of spans or of token tags given to accord.score, checked against hand counts."""

import pytest

import accord
from accord.errors import FormatError, OptionError
from accord.objects import as_corpus

pd = pytest.importorskip("pandas")


def test_span_frames_hand_count():
    gold = pd.DataFrame({"document": ["a", "a", "b"], "start": [0, 10, 3], "end": [5, 15, 8],
                         "label": ["PER", "LOC", "ORG"]})
    pred = pd.DataFrame({"document": ["a", "a", "b"], "start": [0, 10, 3], "end": [5, 14, 8],
                         "label": ["PER", "LOC", "PER"]})
    report = accord.score(gold, pred)
    # a: PER matches, LOC [10,15) vs [10,14) is not exact; b: ORG vs PER on one span
    assert (report.totals["gold"], report.totals["pred"], report.totals["match"]) == (3, 3, 1)
    assert set(report.by_document) == {"a", "b"}
    lenient = accord.score(gold, pred, profile="lenient")
    assert lenient.totals["match"] == 2


def test_other_columns_are_attributes_and_missing_values_left_out():
    frame = pd.DataFrame({"start": [0, 4], "end": [3, 6], "label": ["X", "Y"], "conf": [0.5, None]})
    anns = as_corpus(frame).documents[0].annotations
    assert anns[0].get("conf") == 0.5 and "conf" not in anns[1].attributes
    assert accord.score(frame, frame, attributes=["conf"]).totals["match"] == 2


def test_token_frames_with_sentences():
    frame = pd.DataFrame({"doc": ["d1"] * 5 + ["d2"] * 2, "sentence": [1, 1, 1, 2, 2, 1, 1],
                          "token": list("abcdefg"), "tag": ["B-PER", "I-PER", "O", "B-LOC", "I-LOC", "O", "B-X"]})
    corpus = as_corpus(frame)
    assert list(corpus) == ["d1", "d2"]
    assert corpus["d1"].sentences == ((0, 3), (3, 5))
    assert [(a.label, a.start, a.end) for a in corpus["d1"].annotations] == [("PER", 0, 2), ("LOC", 3, 5)]
    assert [(a.label, a.start, a.end) for a in corpus["d2"].annotations] == [("X", 1, 2)]
    assert corpus["d2"].tokens == ("f", "g")


def test_integer_tag_frames():
    frame = pd.DataFrame({"tag": [1, 2, 0]})
    corpus = as_corpus(frame, label_names=["O", "B-A", "I-A"])
    assert [(a.label, a.start, a.end) for a in corpus.documents[0].annotations] == [("A", 0, 2)]


@pytest.mark.parametrize("frame, message", [
    (pd.DataFrame({"x": [1]}), "expected the columns start, end, label"),
    (pd.DataFrame({"start": [3], "end": [1], "label": ["X"]}), r"row 1: span \[3, 1\)"),
    (pd.DataFrame({"start": ["a"], "end": [1], "label": ["X"]}), "row 1: start 'a' is not an integer offset"),
    (pd.DataFrame({"start": [0], "end": [1], "label": [None]}), "row 1: label None"),
    (pd.DataFrame({"tag": ["O", None]}), "row 2 has no tag"),
])
def test_bad_frames(frame, message):
    with pytest.raises(FormatError, match=message):
        as_corpus(frame)


def test_an_empty_frame_is_an_error():
    with pytest.raises(FormatError, match="an empty frame"):
        as_corpus(pd.DataFrame({"start": [], "end": [], "label": []}))


def test_tag_options_on_span_frames_are_refused():
    with pytest.raises(OptionError, match="scheme applies to tags"):
        as_corpus(pd.DataFrame({"start": [0], "end": [1], "label": ["X"]}), scheme="IOBES")


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from accord.errors import AccordError  # noqa: E402

_CELL = st.one_of(st.none(), st.integers(-3, 12), st.floats(allow_nan=True, allow_infinity=True),
                  st.sampled_from(["O", "B-X", "I-X", "X", "", "d1", "d2"]), st.booleans())


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([("start", "end", "label"), ("start", "end", "label", "document", "extra"),
                        ("tag",), ("document", "sentence", "token", "tag"), ("x", "y")]),
       st.integers(0, 6), st.data())
def test_any_frame_is_read_or_refused_with_an_accord_error(columns, rows, data):
    frame = pd.DataFrame({c: [data.draw(_CELL) for _ in range(rows)] for c in columns})
    try:
        corpus = as_corpus(frame)
    except AccordError:
        return
    for doc in corpus.documents:
        assert all(a.start <= a.end for a in doc.annotations)
        if doc.tokens is not None:
            assert all(0 <= a.start < a.end <= len(doc.tokens) for a in doc.annotations)
