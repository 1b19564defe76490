"""Where the whitespace-separated fields of a text are, by array operations and without making a string.

``[line.split() for line in text.splitlines()]`` costs a list and a Python call per line and a
string per field; on a column file of a million tokens that is most of the reading time and
memory. Here the text is viewed as an array of code points (one byte each when the text is
ASCII), and line breaks and field boundaries are found with numpy: the result is, for every
field, its start and end offset in the text, and for every line its first field and its number
of fields. Strings are made only for the fields a caller asks for (:class:`~accord.model._text_fields.TextFields`).
Line breaks and whitespace are exactly those of ``str.splitlines`` and ``str.split`` (tables
built from the running Python).
"""

from __future__ import annotations

import re
from typing import NamedTuple

import numpy as np

from ...model._text_fields import code_points

__all__ = ["Layout", "field_layout", "first_plain_line"]

# every whitespace and line-break code point lies below U+3001; clip larger ones to a False slot
_LIMIT = 0x3001
# the code points that str.isspace and str.splitlines take, written out (computing them at import cost a twentieth of
# a one-token accord score); tests/formats/tokens/test_fields.py checks them against Python's own
_WHITESPACE_POINTS = (0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x1C, 0x1D, 0x1E, 0x1F, 0x20, 0x85, 0xA0, 0x1680,
                      *range(0x2000, 0x200B), 0x2028, 0x2029, 0x202F, 0x205F, 0x3000)
_LINE_BREAK_POINTS = (0x0A, 0x0B, 0x0C, 0x0D, 0x1C, 0x1D, 0x1E, 0x85, 0x2028, 0x2029)
_WHITESPACE = np.zeros(_LIMIT + 1, dtype=bool)
_WHITESPACE[list(_WHITESPACE_POINTS)] = True
_LINE_BREAK = np.zeros(_LIMIT + 1, dtype=bool)
_LINE_BREAK[list(_LINE_BREAK_POINTS)] = True
_CR, _LF = 0x0D, 0x0A


class Layout(NamedTuple):
    """The fields of a text.

    Field ``k`` is ``text[starts[k]:ends[k]]``; line ``i`` (0-based, numbered as
    ``str.splitlines``) holds ``widths[i]`` fields, the first of which is field ``first[i]``
    (meaningful where ``widths[i] > 0``), and begins at character ``line_starts[i]``.
    """

    starts: np.ndarray
    ends: np.ndarray
    widths: np.ndarray
    first: np.ndarray
    line_starts: np.ndarray

    @property
    def nlines(self) -> int:
        return len(self.widths)

    def line_text(self, text: str, line: int) -> str:
        """Line ``line`` of ``text`` without its line break, as ``str.splitlines`` gives it."""
        start = int(self.line_starts[line])
        end = int(self.line_starts[line + 1]) if line + 1 < self.nlines else len(text)
        return text[start:end].splitlines()[0] if end > start else ""

    def line_fields(self, text: str, line: int) -> list[str]:
        """The fields of one line, as strings."""
        k = int(self.first[line])
        return [text[int(s):int(e)] for s, e in zip(self.starts[k:k + int(self.widths[line])],
                                                    self.ends[k:k + int(self.widths[line])])]


BLOCK = 1 << 22
"""Characters examined at a time: the masks of a block are a few bytes a character, whatever the file's size."""


def field_layout(text: str, codes: np.ndarray | None = None) -> Layout:
    """Find the lines and the whitespace-separated fields of ``text`` (``codes``: its :func:`code_points`)."""
    if not text:
        empty = np.zeros(0, dtype=np.int64)
        return Layout(empty, empty, empty, empty, empty)
    if codes is None:
        codes = code_points(text)
    crlf = _CR in codes and _LF in codes
    offset_type = np.int32 if len(codes) < 2**31 - 1 else np.int64   # half the memory for files below 2 GB
    columns: tuple[list[np.ndarray], ...] = ([], [], [], [])
    lo = 0
    while lo < len(text):
        # blocks end just after a line feed, so that no field or line break straddles two of them
        cut = text.find("\n", lo + BLOCK) if len(text) - lo > BLOCK else -1
        hi = len(text) if cut < 0 else cut + 1
        for column, part in zip(columns, _block_layout(codes[lo:hi], lo, crlf)):
            column.append(part.astype(offset_type))
        lo = hi
    # one column at a time, each block's part released once joined: the peak is the result and one column
    starts, ends, widths, line_starts = (_join(column) for column in columns)
    first = np.zeros(len(widths), dtype=offset_type)
    np.cumsum(widths[:-1], out=first[1:])
    return Layout(starts, ends, widths, first, line_starts)


def _join(parts: list[np.ndarray]) -> np.ndarray:
    joined = parts[0] if len(parts) == 1 else np.concatenate(parts)
    parts.clear()
    return joined


def _block_layout(codes: np.ndarray, offset: int, crlf: bool
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Field starts and ends, line widths and line starts of one block (offsets into the whole text)."""
    space, brk = _classes(codes)
    ends_with_break = bool(brk[-1])
    if crlf:   # "\r\n" is one line break
        brk[1:] &= ~((codes[1:] == _LF) & (codes[:-1] == _CR))
    ink = ~space
    start_mask = ink.copy()
    start_mask[1:] &= space[:-1]
    end_mask = ink
    end_mask[:-1] &= space[1:]
    del space
    starts = np.flatnonzero(start_mask)
    del start_mask
    ends = np.flatnonzero(end_mask) + 1
    del end_mask
    breaks = np.flatnonzero(brk)
    del brk
    # fields before each line break: the fields of the lines up to it
    bounds = [np.zeros(1, dtype=np.int64), np.searchsorted(starts, breaks)]
    if not ends_with_break:
        bounds.append(np.array([len(starts)], dtype=np.int64))
    widths = np.diff(np.concatenate(bounds))
    after = breaks + 1
    if crlf:
        pair = after < len(codes)
        pair[pair] = (codes[breaks[pair]] == _CR) & (codes[after[pair]] == _LF)
        after[pair] += 1
    line_starts = np.concatenate([np.zeros(1, dtype=np.int64), after])[:len(widths)]
    return starts + offset, ends + offset, widths, line_starts + offset


def _classes(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Whitespace and line-break masks of code points."""
    if codes.dtype == np.uint8:
        # ASCII: space, tab, LF and CR by comparisons; the table only when other control characters occur
        space = codes <= 32
        common = (codes == 32) | (codes == 10) | (codes == 9) | (codes == 13)
        if not np.array_equal(space, common):
            return _WHITESPACE[codes], _LINE_BREAK[codes]
        return common, (codes == 10) | (codes == 13)
    clipped = np.minimum(codes, _LIMIT)
    return _WHITESPACE[clipped], _LINE_BREAK[clipped]



_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
"""The line breaks of ``str.splitlines`` (``\\r\\n`` is one)."""
_ASCII_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e"
_ASCII_SPACES = _ASCII_BREAKS + " \t\x1f"
_BREAK = re.compile(f"[{_BREAKS}]")
_SPACE = re.compile(r"\s")
_INK = re.compile(r"\S")
WINDOW = 1 << 20
"""Characters of a text that is not ASCII examined by :func:`first_plain_line` (its searches are slower)."""


def _find_any(text: str, chars: str, start: int, end: int) -> int:
    """The first offset in ``[start, end)`` of one of ``chars`` in ASCII text, or ``end``: one byte search per
    character, each bounded by the best so far."""
    for c in chars:
        k = text.find(c, start, end)
        if k != -1:
            end = k
    return end


def first_plain_line(text: str, skip: str) -> tuple[int, int] | None:
    """``(line, fields)`` of the first line of ``text`` that is not blank and whose first field is not ``skip``
    (``-DOCSTART-``), with ``fields`` 1 or 2 (two or more); ``None`` when a line beginning with ``#`` comes first
    (a comment or a token, which only the whole file tells), when there is no such line, or when a text that is
    not ASCII does not tell within its first :data:`WINDOW` characters.

    It looks at the lines before it and at two fields of it, at the speed of a byte search, never at the rest of
    the text: a column reader checks the file's first token line before laying out the whole file (1 GB of a single
    column is an error at once, not after gigabytes of arrays). Lines are numbered from 0 as ``str.splitlines``
    numbers them.
    """
    ascii_text = text.isascii()     # (known without a look at the text)
    limit = len(text) if ascii_text else min(len(text), WINDOW)

    def find(pattern: re.Pattern[str], chars: str, start: int, end: int) -> int:
        if ascii_text:
            return _find_any(text, chars, start, end)
        m = pattern.search(text, start, end)
        return end if m is None else m.start()

    pos, line = 0, 0
    while pos < limit:
        end = find(_BREAK, _ASCII_BREAKS, pos, limit)
        if end == limit and limit < len(text):
            return None     # a line longer than the window
        ink = _INK.search(text, pos, end)
        if ink is not None:
            first = ink.start()
            if text[first] == "#":
                return None
            field_end = find(_SPACE, _ASCII_SPACES, first, end)
            if text[first:field_end] != skip:
                return line, 2 if _INK.search(text, field_end, end) is not None else 1
        if end >= len(text):
            return None
        pos = end + 2 if text.startswith("\r\n", end) else end + 1
        line += 1
    return None
