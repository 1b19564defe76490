"""The lines coreference reads of a CoNLL-2012 file, found on the bytes (``_layout._ascii_lines``), equal a plain
``str.splitlines``/``str.split`` reading of every line, and the general layout of every field."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accord.formats.coref import _layout
from accord.formats.coref._layout import _ascii_lines, _laid_out_lines, coref_lines
from accord.model._text_fields import code_points

LITBANK = Path(__file__).resolve().parents[3].parent / "shared" / "corpora" / "outside" / "coref_perl"


def plain_reading(text):
    """What coreference needs of each line, by str.splitlines and str.split: the marks' line numbers and stripped
    text, the token lines' numbers and last fields."""
    marks, mark_text, token_lines, chains = [], [], [], []
    for i, line in enumerate(text.splitlines()):
        fields = line.split()
        if not fields:
            continue
        if fields[0].startswith("#"):
            marks.append(i)
            mark_text.append(line.strip())
        else:
            token_lines.append(i)
            chains.append(fields[-1])
    return marks, mark_text, token_lines, chains


def as_read(text, lines):
    """The same from the reader's lines: a token line that is no mention has '-' or '_' for its chain."""
    chains = ["-_"] * len(lines.token_lines)
    for k, s, e in zip(lines.mention.tolist(), lines.chain_start.tolist(), lines.chain_end.tolist()):
        chains[k] = text[s:e]
    return lines.marks.tolist(), lines.mark_text, lines.token_lines.tolist(), chains


def plain_chains(reading):
    marks, mark_text, token_lines, chains = reading
    return marks, mark_text, token_lines, ["-_" if c in ("-", "_") else c for c in chains]


def same_lines(a, b):
    assert a.marks.tolist() == b.marks.tolist() and a.mark_text == b.mark_text
    assert a.token_lines.tolist() == b.token_lines.tolist() and a.before_mark == b.before_mark
    assert a.mention.tolist() == b.mention.tolist()
    assert a.chain_start.tolist() == b.chain_start.tolist() and a.chain_end.tolist() == b.chain_end.tolist()


_PIECES = st.sampled_from(["w", "x1", "#", "#begin", "document", "-", "_", "(1)", "(12", "3)", "(1)|(2", "((",
                           "(" + "1" * 30 + ")", " ", "  ", "\t", "\t\t", "\n", "\n", "\n\n", "wörd", "中",
                           "\xa0", "\u2028", "\r"])


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES, max_size=40).map("".join))
def test_byte_reading_equals_a_plain_reading(text):
    """Blank lines, lines of blanks, leading and trailing blanks, one-field lines, chain columns longer than the
    array steps: the same marks, token lines and chain columns as splitlines and split."""
    fast = _ascii_lines(text, code_points(text))
    if not text:
        assert fast is None
        return
    if fast is None:    # declined: another blank or line break than space, tab and LF, or many trailing blanks
        assert any(c in text for c in "\xa0\u2028\r") or any(
            line[-_layout._STEPS - 1:].isspace() for line in text.splitlines())
    if fast is not None:
        assert as_read(text, fast) == plain_chains(plain_reading(text))
        same_lines(fast, _laid_out_lines(text, code_points(text)))
    assert as_read(text, coref_lines(text)) == plain_chains(plain_reading(text))


@pytest.mark.parametrize("text", [
    "#begin document d\r\nw\t(1)\r\n#end document\r\n",     # CR LF: str.splitlines' line breaks
    "#begin document d\nw\x0b(1)\n#end document\n",         # a vertical tab: a line break for splitlines
    "#begin document d\nw\xa0(1)\n#end document\n",          # a no-break space
    "#begin document d\nw\t(1)\u2028w\t(2)\n#end document\n",   # a line separator
    "#begin document d\nw (1)" + " " * 20 + "\n#end document\n",    # more trailing blanks than the steps
])
def test_other_texts_are_laid_out_field_by_field(text):
    assert _ascii_lines(text, code_points(text)) is None
    assert as_read(text, coref_lines(text)) == plain_chains(plain_reading(text))


def test_blanks_beyond_ascii_are_pythons():
    """The characters beyond ASCII that the byte reading declines are those str.split or str.splitlines treat
    as blanks or line breaks (Python's own, counted here)."""
    python = {c for c in range(127, 0x110000) if chr(c).isspace() or len(f"a{chr(c)}a".splitlines()) > 1}
    assert set(np.flatnonzero(_layout._WIDE_BLANK).tolist()) == python


def test_text_beyond_ascii():
    text = "#begin document d\nwörd\t(1)\n中\t-\n—\t(2\nx\t2)\n#end document\n"
    fast = _ascii_lines(text, code_points(text))
    assert fast is not None and as_read(text, fast) == plain_chains(plain_reading(text))


def test_hand_example():
    text = "#begin document (a); part 000\n a 0 (1\t\n\nb\t-\t1)\n  \n# note \nc (2)|(3)\n#end document"
    lines = coref_lines(text)
    assert lines.marks.tolist() == [0, 5, 7] and lines.mark_text == ["#begin document (a); part 000", "# note",
                                                                     "#end document"]
    assert lines.token_lines.tolist() == [1, 3, 6] and lines.mention.tolist() == [0, 1, 2]
    assert as_read(text, lines)[3] == ["(1", "1)", "(2)|(3)"]
    assert lines.mention.tolist() == [0, 1, 2]


def test_litbank_files():
    """LitBank's CoNLL-2012 files (every line ends with a tab, the chain column then empty): the byte reading
    equals the general layout."""
    if not (LITBANK / "litbank_key.conll.gz").exists():
        pytest.skip(f"LitBank's files are not in {LITBANK}")
    for name in ("litbank_key.conll.gz", "litbank_resp.conll.gz"):
        text = gzip.decompress((LITBANK / name).read_bytes()).decode("utf-8")
        fast = _ascii_lines(text, code_points(text))
        assert fast is not None
        general = _laid_out_lines(text, code_points(text))
        same_lines(fast, general)
        assert np.count_nonzero(fast.mention) > 1000
