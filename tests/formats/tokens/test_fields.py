"""The array field layout equals ``[line.split() for line in text.splitlines()]`` on any text."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accord.formats.tokens._fields import field_layout
from accord.model._text_fields import code_points

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
    from accord.formats.tokens import _fields

    saved = _fields.BLOCK
    _fields.BLOCK = 5
    try:
        f = field_layout(text)
    finally:
        _fields.BLOCK = saved
    assert from_layout(text, f) == per_line(text)
    assert len(f.line_starts) == f.nlines


# -- the first plain line, told without laying out the text (issue 33: a file of one column is an error at once)

def _first_plain_line_by_split(text, skip):
    """The reference: str.splitlines and str.split."""
    for i, line in enumerate(text.splitlines()):
        fields = line.split()
        if not fields:
            continue
        if fields[0].startswith("#"):
            return None
        if fields[0] != skip:
            return i, min(len(fields), 2)
    return None


FIELD_WORDS = st.sampled_from(["a", "-D", "-D", "#x", "Ü", "b"])


@settings(max_examples=500, deadline=None)
@given(st.lists(st.one_of(ALPHABET, ASCII, FIELD_WORDS), max_size=40).map("".join))
def test_first_plain_line_equals_split(text):
    from accord.formats.tokens._fields import first_plain_line

    assert first_plain_line(text, "-D") == _first_plain_line_by_split(text, "-D")


@pytest.mark.timing
def test_first_plain_line_of_a_huge_line_is_quick():
    import time

    from accord.formats.tokens._fields import WINDOW, first_plain_line

    start = time.monotonic()
    assert first_plain_line("a" * (64 << 20), "-DOCSTART-") == (0, 1)
    assert first_plain_line(" " * (16 << 20) + "a b", "-DOCSTART-") == (0, 2)
    assert time.monotonic() - start < 3
    # a text that is not ASCII is looked at within a window: past it, the whole file decides
    assert first_plain_line("ä" * (WINDOW + 10), "-DOCSTART-") is None
    assert first_plain_line("ä B\n" + "ä" * (WINDOW + 10), "-DOCSTART-") == (0, 2)


def test_a_column_file_of_one_column_is_refused_before_it_is_laid_out(tmp_path, monkeypatch):
    import pytest

    from accord.errors import FormatError
    from accord.formats.tokens import _fields, conll

    def never(*args, **kwargs):
        raise AssertionError("the whole text was laid out")

    monkeypatch.setattr(conll, "column_layout", never)
    p = tmp_path / "one.conll"
    p.write_text("\n-DOCSTART-\n\n" + "token\n" * 100_000)
    facts = {}
    with pytest.raises(FormatError, match=r"one\.conll:4: expected a token and at least one tag column, found one "
                                          r"column"):
        conll.read_conll(p, facts=facts)
    assert facts["columns"] == 1
    # a '#' line first: a comment or a token, which only the whole file tells (laid out as before)
    p.write_text("# x O\ntoken\n")
    with pytest.raises(AssertionError, match="laid out"):
        conll.read_conll(p)
    assert _fields.first_plain_line("# x O\ntoken\n", "-DOCSTART-") is None


def test_the_whitespace_and_line_break_tables_are_pythons():
    """The tables are written out (not computed at import): they must equal str.isspace and str.splitlines."""
    from accord.formats.tokens import _fields

    limit = _fields._LIMIT
    assert _fields._WHITESPACE.tolist() == [chr(c).isspace() for c in range(limit)] + [False]
    assert _fields._LINE_BREAK.tolist() == [len(f"a{chr(c)}a".splitlines()) == 2 for c in range(limit)] + [False]
    assert not any(chr(c).isspace() for c in range(limit, 0x110000))   # nothing above the limit was clipped


# -- the column layout (issue 43): plain column files laid out from their whitespace, only the columns asked for

PLAIN = st.sampled_from(list("ab-#Ü") + [" ", "\t", "\n", "\n", "\n\n", "\xa0", "\u3000", "\r"])


def _check_columns(text, f):
    import numpy as np

    want = per_line(text)
    assert from_layout(text, f) == want
    assert len(f.line_starts) == f.nlines == len(want)
    for column in range(3):
        lines = np.asarray([i for i, fields in enumerate(want) if len(fields) > column], dtype=np.int64)
        if len(lines):
            starts, ends = f.field(lines, column)
            assert [text[s:e] for s, e in zip(starts.tolist(), ends.tolist())] == \
                [want[i][column] for i in lines.tolist()]


@settings(max_examples=400)
@given(st.lists(st.one_of(ALPHABET, ASCII, PLAIN), max_size=60).map("".join))
def test_column_layout_equals_per_line_split(text):
    from accord.formats.tokens._fields import column_layout

    _check_columns(text, column_layout(text))
    _check_columns(text, field_layout(text))


@settings(max_examples=300)
@given(st.lists(st.one_of(st.lists(st.sampled_from(["a", "bb", "Ü中", "#", "-DOCSTART-", "B-PER"]), max_size=4)
                          .map(" ".join), st.sampled_from([" ", "\t", " \t "])), max_size=12).map("\n".join),
       st.booleans())
def test_plain_column_files_take_the_plain_layout(text, newline):
    """A file of plain lines (one space between fields, none at their ends; lines of whitespace only) is laid out
    as plain, equal to split."""
    from accord.formats.tokens._fields import PlainLayout, column_layout

    text += "\n" if newline else ""
    f = column_layout(text)
    assert isinstance(f, PlainLayout) or not text
    _check_columns(text, f)


def test_column_layout_hand_example():
    from accord.formats.tokens._fields import PlainLayout, column_layout

    text = "EU B-ORG\n\nrejects\tO\n-DOCSTART- O"
    f = column_layout(text)
    assert isinstance(f, PlainLayout)
    assert f.widths.tolist() == [2, 0, 2, 2] and f.line_starts.tolist() == [0, 9, 10, 20]
    assert f.field([0, 2, 3], 1)[0].tolist() == [3, 18, 31]
    assert not isinstance(column_layout("EU  B-ORG\n"), PlainLayout)      # two spaces: every field laid out
    assert not isinstance(column_layout("EU B-ORG\r\n"), PlainLayout)
    assert not isinstance(column_layout("EU B-ORG \n"), PlainLayout)
    # a line of whitespace only between sentences (as Flair writes) is a blank line of a plain file
    f = column_layout("EU B-ORG\n \t\nrejects O\n \n")
    assert isinstance(f, PlainLayout) and f.widths.tolist() == [2, 0, 2, 0]
    assert f.field([2], 1)[0].tolist() == [20]
