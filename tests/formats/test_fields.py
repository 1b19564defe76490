"""The array field layout equals ``[line.split() for line in text.splitlines()]`` on any text."""

from hypothesis import given, settings
from hypothesis import strategies as st

from accord._text_fields import code_points
from accord.formats._fields import field_layout

# whitespace and line breaks of every kind str.split and str.splitlines know, plus ordinary letters
ALPHABET = st.sampled_from(list("ab-Ü中") + [" ", "\t", "\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x1f",
                                             "\x85", "\xa0", "\u2028", "\u2029", "\u3000", "\u200b", "\x00"])
ASCII = st.sampled_from(list("ab-#") + [" ", "\t", "\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x1f", "\x00"])


def per_line(text):
    return [line.split() for line in text.splitlines()]


def from_layout(text, f):
    return [f.line_fields(text, i) for i in range(f.nlines)]


@settings(max_examples=300)
@given(st.lists(ALPHABET, max_size=60).map("".join))
def test_equals_per_line_split(text):
    f = field_layout(text)
    assert from_layout(text, f) == per_line(text)
    assert f.widths.sum() == len(f.starts) == len(f.ends) == len(text.split())


@settings(max_examples=300)
@given(st.lists(ASCII, max_size=60).map("".join))
def test_ascii_equals_per_line_split(text):
    """ASCII text takes the byte path (comparisons, the table only for rare control characters)."""
    assert code_points(text).dtype.itemsize == 1
    f = field_layout(text)
    assert from_layout(text, f) == per_line(text)
    lines = text.splitlines()
    for i, line in enumerate(lines):   # each line begins where splitlines says
        assert text[f.line_starts[i]:].startswith(line)


def test_hand_example():
    text = "EU B-ORG\r\n\r\nrejects\tO\n-DOCSTART- O\n"
    f = field_layout(text)
    assert f.nlines == 4
    assert f.widths.tolist() == [2, 0, 2, 2]
    assert f.line_starts.tolist() == [0, 10, 12, 22]
    assert [text[f.starts[k]:f.ends[k]] for k in f.first[[0, 2]] + 1] == ["B-ORG", "O"]


@settings(max_examples=300)
@given(st.lists(ALPHABET, max_size=80).map("".join))
def test_small_blocks_join_seamlessly(text):
    """A long text is examined a block at a time (cut after a line feed): the layout is the same."""
    from accord.formats import _fields

    saved = _fields.BLOCK
    _fields.BLOCK = 5
    try:
        f = field_layout(text)
    finally:
        _fields.BLOCK = saved
    assert from_layout(text, f) == per_line(text)
    assert len(f.line_starts) == f.nlines
