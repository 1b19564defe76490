"""TextFields: a sequence of strings kept as offsets into a text, equal to the tuple of its strings; and
the vectorised grouping of equal fields (factorize_fields)."""

import pickle
from contextlib import contextmanager

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from accord.formats.tokens._fields import field_layout
from accord.model import _text_fields
from accord.model._text_fields import TextFields, code_points, factorize_fields

WORDS = st.lists(st.text(st.sampled_from(list("aAb-Ü中\x00") + ["\U0001f600"]), min_size=1, max_size=12),
                 max_size=30)


def fields_of(words, sep=" "):
    text = sep.join(words)
    f = field_layout(text)
    return TextFields(text, f.starts, f.ends), text


@settings(max_examples=200)
@given(WORDS, WORDS)
def test_equals_the_tuple_of_its_strings(a, b):
    a = [w for w in a if w.split() == [w]]
    b = [w for w in b if w.split() == [w]]
    fa, _ = fields_of(a)
    fb, _ = fields_of(b, sep="\t\t")
    assert list(fa) == a and len(fa) == len(a)
    assert fa == tuple(a) and tuple(a) == fa and fa == a
    assert (fa == fb) == (a == b)
    assert (fa != fb) == (a != b)
    diff = fa.first_difference(fb)
    expected = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    assert diff == (None if a == b else expected)
    if a:
        assert fa[len(a) // 2:] == a[len(a) // 2:]
        assert fa[-1] == a[-1]
        assert hash(fa) == hash(tuple(a))
    assert pickle.loads(pickle.dumps(fa)) == tuple(a)


@settings(max_examples=200)
@given(st.lists(st.sampled_from(["O", "B-PER", "I-PER", "B-X\x00", "B-X", "B-LONGER_THAN_EIGHT", "B-Ü中",
                                 "B-\U0001f600", "I-LONGER_THAN_EIGHT"]), max_size=50))
def test_factorize_groups_equal_strings_in_order_of_first_occurrence(tags):
    text = "\n".join(f"w {t}" for t in tags)
    f = field_layout(text)
    for chunk in (1 << 20, 3):   # code books carried from chunk to chunk
        with _chunks_of(chunk):
            distinct, index = factorize_fields(text, code_points(text), f.starts[1::2], f.ends[1::2])
        assert distinct == list(dict.fromkeys(tags))
        assert [distinct[i] for i in index.tolist()] == tags


@contextmanager
def _chunks_of(size):
    saved = _text_fields._CHUNK
    _text_fields._CHUNK = size
    try:
        yield
    finally:
        _text_fields._CHUNK = saved


def test_factorize_many_distinct_values():
    """More distinct values than the sample holds: every one found."""
    tags = [f"B-T{i % 5000}" for i in range(20000)]
    text = " ".join(tags)
    f = field_layout(text)
    distinct, index = factorize_fields(text, code_points(text), f.starts, f.ends)
    assert distinct == list(dict.fromkeys(tags))
    assert np.array_equal(index, np.arange(20000) % 5000)
