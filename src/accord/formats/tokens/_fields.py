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

__all__ = ["Layout", "PlainLayout", "field_layout", "column_layout", "first_plain_line"]

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
        return _line_text(text, self.line_starts, line)

    def line_fields(self, text: str, line: int) -> list[str]:
        """The fields of one line, as strings."""
        k = int(self.first[line])
        return [text[int(s):int(e)] for s, e in zip(self.starts[k:k + int(self.widths[line])],
                                                    self.ends[k:k + int(self.widths[line])])]

    def field(self, lines: np.ndarray, column: int) -> tuple[np.ndarray, np.ndarray]:
        """Starts and ends of field ``column`` (0-based) of each of ``lines``, lines of more than ``column``
        fields."""
        at = self.first[lines] + column
        return self.starts[at], self.ends[at]


class PlainLayout(NamedTuple):
    """The fields of a text whose lines are plain: one whitespace character between two fields, none at the start
    or the end of a line, no ``\\r\\n`` (what most column files are). Only the whitespace is kept, not a start and
    an end for every field: a column of the lines one wants is read off it.

    ``spaces`` are the offsets of the whitespace characters of the text, followed by the text's length; line ``i``
    holds ``widths[i]`` fields, begins at character ``line_starts[i]``, and its first whitespace character (the
    end of its first field) is ``spaces[after[i]]``.
    """

    spaces: np.ndarray
    after: np.ndarray
    widths: np.ndarray
    line_starts: np.ndarray

    @property
    def nlines(self) -> int:
        return len(self.widths)

    def line_text(self, text: str, line: int) -> str:
        """Line ``line`` of ``text`` without its line break, as ``str.splitlines`` gives it."""
        return _line_text(text, self.line_starts, line)

    def line_fields(self, text: str, line: int) -> list[str]:
        """The fields of one line, as strings."""
        return self.line_text(text, line).split()

    def field(self, lines: np.ndarray, column: int) -> tuple[np.ndarray, np.ndarray]:
        """Starts and ends of field ``column`` (0-based) of each of ``lines``, lines of more than ``column``
        fields."""
        at = self.after[lines] + column
        ends = self.spaces[at]
        starts = self.line_starts[lines] if column == 0 else self.spaces[at - 1] + 1
        return starts, ends

    def fields(self, lines: np.ndarray, *columns: int) -> list[tuple[np.ndarray, np.ndarray]]:
        """:meth:`field` of several columns, each line's first whitespace looked up once and the end of a column
        used as the start of the next (a token and its tag: three gathers of the lines instead of five)."""
        base = self.after[lines]
        ends_of: dict[int, np.ndarray] = {}
        for column in sorted(set(columns)):
            ends_of[column] = self.spaces[base + column] if column else self.spaces[base]
        out = []
        for column in columns:
            if column == 0:
                starts = self.line_starts[lines]
            elif column - 1 in ends_of:
                starts = ends_of[column - 1] + 1
            else:
                starts = self.spaces[base + (column - 1)] + 1
            out.append((starts, ends_of[column]))
        return out


def _line_text(text: str, line_starts: np.ndarray, line: int) -> str:
    start = int(line_starts[line])
    end = int(line_starts[line + 1]) if line + 1 < len(line_starts) else len(text)
    return text[start:end].splitlines()[0] if end > start else ""


BLOCK = 1 << 22
"""Characters examined at a time when looking for whitespace: the mask of a block is a byte a character, whatever
the file's size."""


def field_layout(text: str, codes: np.ndarray | None = None) -> Layout:
    """Find the lines and the whitespace-separated fields of ``text`` (``codes``: its :func:`code_points`).

    One pass over the text finds its whitespace characters (a comparison a character, a table only for the few
    code points that could be whitespace); everything else is computed on their positions, a few per line: a field
    is a run of characters between two of them, a line ends at each of them that is a line break.
    """
    if not text:
        empty = np.zeros(0, dtype=np.int64)
        return Layout(empty, empty, empty, empty, empty)
    if codes is None:
        codes = code_points(text)
    ws, is_break, _ = _whitespace(codes)
    return _layout(len(codes), ws, is_break)


def column_layout(text: str, codes: np.ndarray | None = None) -> Layout | PlainLayout:
    """The layout of a column file: a :class:`PlainLayout` when its lines are plain, else :func:`field_layout`'s.

    Both tell the same lines, widths and fields (``tests/formats/tokens/test_fields.py`` checks them against
    ``str.splitlines`` and ``str.split``); the plain one costs a few operations per line instead of per field.
    """
    if not text:
        return field_layout(text)
    if codes is None:
        codes = code_points(text)
    n = len(codes)
    ws, is_break, crlf = _whitespace(codes)
    plain = None if crlf else _plain(n, ws, is_break)
    return plain if plain is not None else _layout(n, ws, is_break)


def _whitespace(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray, bool]:
    """The offsets of the whitespace characters, which of them are line breaks, and whether a ``\\r\\n`` occurs."""
    n = len(codes)
    offset_type = np.int32 if n < 2**31 - 2 else np.int64   # half the memory for files below 2 GB
    blocks = [_block_whitespace(codes[lo:lo + BLOCK], lo, offset_type) for lo in range(0, n, BLOCK)]
    ws = _join([b[0] for b in blocks])
    feeds = [b[2] for b in blocks if b[2] is not None]
    if len(feeds) == len(blocks):    # the common file: spaces and line feeds only
        return ws, _join(feeds), False
    values = _join([b[1] for b in blocks])
    del blocks
    is_break = _LINE_BREAK[values if codes.dtype == np.uint8 else np.minimum(values, _LIMIT)]
    cr = np.flatnonzero(values[:-1] == _CR)   # "\r\n" is one line break, at its "\n"
    cr = cr[(values[cr + 1] == _LF) & (ws[cr + 1] == ws[cr] + 1)]
    is_break[cr] = False
    return ws, is_break, len(cr) > 0


def _line_count(n: int, breaks: np.ndarray) -> int:
    """The lines of a text of ``n`` characters with line breaks at ``breaks``, as ``str.splitlines`` counts them."""
    return len(breaks) + (0 if len(breaks) and int(breaks[-1]) == n - 1 else 1)


def _layout(n: int, ws: np.ndarray, is_break: np.ndarray) -> Layout:
    """Every field of a text of ``n`` characters, from its whitespace (:func:`_whitespace`)."""
    offset_type = ws.dtype
    # the fields: the runs between two whitespace characters (or an end of the text) that are not empty
    bounds = np.empty(len(ws) + 2, dtype=offset_type)
    bounds[0], bounds[-1] = -1, n
    bounds[1:-1] = ws
    gap = np.flatnonzero(np.diff(bounds) > 1)
    starts = bounds[gap] + 1
    ends = bounds[gap + 1]
    del bounds
    breaks = ws[is_break]
    nlines = _line_count(n, breaks)
    # the line of a field: the line breaks before it
    before = np.zeros(len(ws) + 1, dtype=offset_type)
    np.cumsum(is_break, out=before[1:])
    widths = np.bincount(before[gap], minlength=nlines).astype(offset_type)
    del before, gap
    line_starts = np.zeros(nlines, dtype=offset_type)
    line_starts[1:] = breaks[:nlines - 1] + 1
    first = np.zeros(nlines, dtype=offset_type)
    np.cumsum(widths[:-1], out=first[1:])
    return Layout(starts, ends, widths, first, line_starts)


def _plain(n: int, ws: np.ndarray, is_break: np.ndarray) -> PlainLayout | None:
    """The :class:`PlainLayout` of a text of ``n`` characters from its whitespace, or None when a line that holds a
    field is not plain: two whitespace characters side by side in it, or one at its start or its end. (Lines of
    whitespace only, such as the ``" "`` some taggers write between sentences, are blank lines.)"""
    at_break = np.flatnonzero(is_break)
    nlines = len(at_break) + (0 if len(at_break) and int(ws[at_break[-1]]) == n - 1 else 1)
    ends = np.empty(nlines, dtype=ws.dtype)       # index in ws of each line's end (its break, or the text's end)
    ends[:len(at_break)] = at_break[:nlines]
    ends[len(at_break):] = len(ws)
    del at_break
    spaces = np.empty(len(ws) + 1, dtype=ws.dtype)
    spaces[:-1] = ws
    spaces[-1] = n
    after = np.zeros(nlines, dtype=ws.dtype)
    after[1:] = ends[:-1] + 1
    line_starts = np.zeros(nlines, dtype=ws.dtype)
    line_starts[1:] = spaces[ends[:-1]] + 1
    widths = ends - after
    blank = spaces[ends] - line_starts == widths     # every character of the line is whitespace (or it is empty)
    widths += 1
    widths[blank] = 0
    if len(ws):
        # whitespace next to whitespace, or first in the text, or last: only on blank lines (the line of the second
        # of two is the line that would start or end with whitespace, or hold two side by side)
        side = np.flatnonzero(np.diff(ws) == 1) + 1
        # two line breaks side by side close an empty line, which is blank: only the others are looked up
        side = side[~(is_break[side - 1] & is_break[side])]
        if ws[0] == 0:
            side = np.concatenate([[0], side])
        lines = np.searchsorted(ends, side)
        if ws[-1] == n - 1 and not is_break[-1]:
            lines = np.append(lines, nlines - 1)
        if len(lines) and not bool(blank[lines].all()):
            return None
    return PlainLayout(spaces, after, widths.astype(ws.dtype), line_starts)


def _join(parts: list[np.ndarray]) -> np.ndarray:
    joined = parts[0] if len(parts) == 1 else np.concatenate(parts)
    parts.clear()
    return joined


def _block_whitespace(codes: np.ndarray, offset: int, offset_type: type
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """The offsets (into the whole text) of the whitespace characters of one block, their code points, and which
    are line feeds when all are line feeds or spaces (else None)."""
    at = np.flatnonzero(codes <= 32)
    low = codes[at]
    if codes.dtype == np.uint8:   # (code_points gives one byte a character only for ASCII text)
        feed = low == 10
        if np.count_nonzero(feed) + np.count_nonzero(low == 32) == len(low):
            return (at + offset).astype(offset_type), low, feed
    if bool((low < 9).any()) or bool(((low > 13) & (low < 28)).any()):   # control characters that are not space
        keep = _WHITESPACE[low]
        at, low = at[keep], low[keep]
    if codes.dtype != np.uint8:
        high = np.flatnonzero(codes >= 0x85)
        high = high[_WHITESPACE[np.minimum(codes[high], _LIMIT)]]
        if len(high):
            at = np.sort(np.concatenate([at, high]))
            low = codes[at]
    return (at + offset).astype(offset_type), low, None


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
