"""The brat reader (``accord.formats.text.brat``): hand-counted documents read by its fast paths (one read a file,
a ``.ann`` text of one-piece ``T`` lines read by passes of C code), and the texts they hand to the line loop."""

from __future__ import annotations

import pytest

from accord.errors import FormatError
from accord.formats import read
from accord.formats.text import brat

TEXT = "Ada Lovelace met Charles Babbage in London.\n"


def _folder(tmp_path, ann: str, text: str = TEXT, bom: bool = False):
    (tmp_path / "doc.txt").write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode())
    (tmp_path / "doc.ann").write_text(ann, encoding="utf-8")
    return tmp_path


def test_one_piece_lines_by_hand(tmp_path):
    """Three entities at offsets counted by hand (Ada Lovelace 0-12, Charles Babbage 17-32, London 36-42), the text
    with a byte-order mark (dropped), no last line feed: what the fast path gives."""
    ann = "T1\tPER 0 12\tAda Lovelace\nT2\tPER 17 32\tCharles Babbage\nT3\tLOC 36 42\tLondon"
    assert brat._one_piece_lines(ann, TEXT) is not None
    doc = read(_folder(tmp_path, ann, bom=True), "brat").documents[0]
    assert doc.id == "doc" and doc.text == TEXT
    assert [(a.label, a.start, a.end, a.id, dict(a.attributes), a.fragments) for a in doc.annotations] == [
        ("PER", 0, 12, "T1", {}, None), ("PER", 17, 32, "T2", {}, None), ("LOC", 36, 42, "T3", {}, None)]


@pytest.mark.parametrize("ann", [
    "T1\tPER 0 12\tAda Lovelace\n\nT2\tLOC 36 42\tLondon\n",        # a blank line
    "T1\tPER 0 12\tAda Lovelace\r\nT2\tLOC 36 42\tLondon\r\n",    # CRLF
    "T1\tPER  0 12\tAda Lovelace\n",                                # two spaces
    "T1\tPER 0 12\tAda Lovelace\tmore\n",                           # a fourth field
    "T1\tPER 0 12\n",                                               # no quote
    "T1\tP;ER 0 12\tAda Lovelace\n",                                # a ';' in the type
    "T1\tPER 0 3;4 12\tAda Lovelace\n",                             # pieces
    "T1\tPER 0 12\tAda Lovelace\nA1\tNeg T1\n",                     # an attribute
])
def test_other_texts_go_to_the_loop_and_read_the_same(tmp_path, ann):
    """Texts the fast path does not take: the line loop reads them, as before (Ada Lovelace at 0-12)."""
    assert brat._one_piece_lines(ann, TEXT) is None
    doc = read(_folder(tmp_path, ann), "brat").documents[0]
    assert (doc.annotations[0].label[-2:], doc.annotations[0].start, doc.annotations[0].end) == ("ER", 0, 12)


@pytest.mark.parametrize(("ann", "message"), [
    ("T1\tPER 0 12\tAda Lovelace\nT1\tLOC 36 42\tLondon\n", "T1"),
    ("T1\tPER 0 12\tAda Lovelacf\n", "doc.ann:1: T1 quotes 'Ada Lovelacf' but the text at 0-12 is 'Ada Lovelace'"),
    ("T1\tPER 0 12\tAda Lovelace\nT2\tLOC 36 45\tLondon\n", "doc.ann:2: T2 ends at 45, past the end of the text"),
    ("T1\tPER 12 0\tAda Lovelace\n", "doc.ann:1: bad offsets"),
    ("T1\tPER 5 4\t\n", "doc.ann:1: bad offsets"),    # (the empty quote is the text from 5 to 4)
])
def test_the_loop_names_what_is_wrong(tmp_path, ann, message):
    """An id twice, a quote that is not the text, an end past the text, offsets backwards: not taken by the fast
    path, named by the loop with its line."""
    assert brat._one_piece_lines(ann, TEXT) is None
    with pytest.raises(FormatError, match=None) as caught:
        read(_folder(tmp_path, ann), "brat")
    assert message in str(caught.value)


def test_a_file_the_fast_read_refuses_is_read_text_s_error(tmp_path):
    """A NUL byte in the text: the one-read path gives up and ``read_text`` names the byte."""
    folder = _folder(tmp_path, "T1\tPER 0 1\tA\n", text="A\0")
    assert brat._utf8_text(str(folder / "doc.txt")) is None
    with pytest.raises(FormatError, match="a NUL byte at byte 1"):
        read(folder, "brat")


def test_a_quote_across_any_line_break_goes_to_the_loop():
    """Every character ``str.splitlines`` breaks a line at (found by trying every code point, not from the reader's
    list): a ``T`` line quoting text across it is two lines to the loop, so the fast path leaves it to the loop."""
    breaks = [c for c in map(chr, range(0x110000)) if len(f"a{c}b".splitlines()) == 2]
    assert len(breaks) == 10 and set(breaks) <= set(brat._LINE_BREAKS)
    for c in breaks:
        text = f"ab{c}cd"
        assert brat._one_piece_lines(f"T1\tPER 1 4\tb{c}c\n", text) is None, repr(c)
        assert brat._one_piece_lines(f"T1\tPER 1 4\tb{c}c\nT2\tPER 0 1\ta\n", text) is None, repr(c)
    assert brat._one_piece_lines("T1\tPER 1 4\tb c\n", "ab cd") is not None
