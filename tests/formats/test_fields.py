"""The array field splitter equals ``[line.split() for line in text.splitlines()]`` on any text."""

from hypothesis import given, settings
from hypothesis import strategies as st

from accord.formats._fields import split_fields

# whitespace and line breaks of every kind str.split and str.splitlines know, plus ordinary letters
ALPHABET = st.sampled_from(list("ab-Ü中") + [" ", "\t", "\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x1f",
                                             "\x85", "\xa0", "\u2028", "\u2029", "\u3000", "\u200b"])


def per_line(text):
    return [line.split() for line in text.splitlines()]


def from_fields(f):
    return [f.fields[f.first[i]:f.first[i] + f.widths[i]] for i in range(f.nlines)]


@settings(max_examples=300)
@given(st.lists(ALPHABET, max_size=60).map("".join))
def test_equals_per_line_split(text):
    f = split_fields(text)
    assert from_fields(f) == per_line(text)
    assert len(f.field_line) == len(f.fields)


def test_hand_example():
    text = "EU B-ORG\r\n\r\nrejects\tO\n-DOCSTART- O\n"
    f = split_fields(text)
    assert f.nlines == 4
    assert f.widths.tolist() == [2, 0, 2, 2]
    assert [f.fields[i] for i in f.first[[0, 2]] + 1] == ["B-ORG", "O"]
