"""Error tables: one row per false negative and false positive, with the other side's spans over it."""

import pytest

from accord.clueval import error_table, evaluate_spans
from accord.errors import OptionError
from accord.model import Attributes, Corpus, Document, make_annotation

WORDS = "the New York City council met in Paris on Monday with Anna Maria Schmidt and Bob".split()


def doc(spans, meta=None):
    return Corpus([Document("d", tuple(make_annotation(l, s, e) for l, s, e in spans), tokens=tuple(WORDS),
                            sentences=((0, 10), (10, len(WORDS))), metadata=Attributes(meta or {}))])


GOLD = doc([("LOC", 1, 4),        # New York City: tiled by New York + City (tiling)
            ("LOC", 7, 8),        # Paris: predicted as ORG (exact, label error)
            ("PER", 11, 14),      # Anna Maria Schmidt: overlapped by "with Anna" + "Maria Schmidt and"
            ("PER", 15, 16)],     # Bob: missed entirely (FN)
           {"cpos": 100, "token_ids": tuple(f"w{i}" for i in range(len(WORDS)))})
PRED = doc([("LOC", 1, 3), ("LOC", 3, 4), ("ORG", 7, 8), ("PER", 10, 12), ("PER", 12, 15),
            ("DATE", 9, 10)])     # Monday: nothing in gold (FP)


def rows(side, level=1, labelled=True):
    return error_table(evaluate_spans(GOLD, PRED), side, level, labelled)


def test_false_negative_rows_for_each_class():
    fn = rows("gold")
    assert [(r.klass, r.text, r.label) for r in fn] == [
        ("tiling", "New York City", "LOC"), ("exact", "Paris", "LOC"),
        ("overlap", "Anna Maria Schmidt", "PER"), ("FN", "Bob", "PER")]
    tiling = fn[0]
    assert tiling.other_text == "New York City" and tiling.other_labels == "LOC|LOC"
    assert (tiling.start, tiling.end, tiling.cpos, tiling.token_ids) == (1, 4, (101, 103), ("w1", "w3"))
    assert (tiling.other_start, tiling.other_end, tiling.other_cpos) == (1, 4, (101, 103))
    over = fn[2]
    assert over.other_text == "with Anna Maria Schmidt and" and over.other_token_ids == ("w10", "w14")
    assert fn[1].other_labels == "ORG"
    bob = fn[3]
    assert bob.others == () and bob.other_start is None and bob.other_token_ids is None
    # the context is the sentence of the span
    assert bob.context == (10, 16) and tiling.context == (0, 10)


def test_false_positive_rows_and_partial_class():
    fp = rows("pred")
    # New York and City are each inside the gold span (superset class, a miss at level 1); ORG Paris is a
    # label error; "with Anna" and "Maria Schmidt and" overlap the gold span partly; Monday has no gold span
    assert [(r.klass, r.text) for r in fp] == [
        ("superset", "New York"), ("superset", "City"), ("exact", "Paris"), ("FP", "Monday"),
        ("partial", "with Anna"), ("partial", "Maria Schmidt and")]
    assert fp[4].other_text == "Anna Maria Schmidt" and fp[4].kind == "FP"


def test_more_lenient_levels_leave_fewer_rows():
    assert [r.text for r in rows("gold", 3)] == ["Paris", "Anna Maria Schmidt", "Bob"]
    assert [r.text for r in rows("gold", 4, labelled=False)] == ["Bob"]
    # a gap between the other spans makes a partial row: "with Anna" ... "Schmidt"
    pred = doc([("PER", 10, 12), ("PER", 13, 14)])
    fn = error_table(evaluate_spans(GOLD, pred), "gold", 4, False)
    anna = [r for r in fn if r.text == "Anna Maria Schmidt"][0]
    assert anna.klass == "partial" and anna.other_text == "with Anna … Schmidt"


def test_side_is_checked():
    with pytest.raises(OptionError, match="side must be"):
        error_table(evaluate_spans(GOLD, PRED), "both")
