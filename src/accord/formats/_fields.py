"""Whitespace-separated fields of a whole text, with the line each field is on, by array operations.

``[line.split() for line in text.splitlines()]`` costs a list and a Python call per line;
on a 300k-line column file that is most of the reading time. Here the text is viewed as
an array of code points, line breaks and field starts are found with numpy, and the
fields themselves come from one ``text.split()``. Line breaks and whitespace are exactly
those of ``str.splitlines`` and ``str.split`` (tables built from the running Python), so
the result equals the per-line split, which is also the fallback should the two ever
disagree.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["Fields", "split_fields"]

# every whitespace and line-break code point lies below U+3001; clip larger ones to a False slot
_LIMIT = 0x3001
_WHITESPACE = np.array([chr(c).isspace() for c in range(_LIMIT)] + [False], dtype=bool)
_LINE_BREAK = np.array([len(f"a{chr(c)}a".splitlines()) == 2 for c in range(_LIMIT)] + [False], dtype=bool)


class Fields(NamedTuple):
    """The fields of a text.

    ``fields[k]`` is on line ``field_line[k]`` (0-based, numbered as ``str.splitlines``);
    ``widths[i]`` is the number of fields on line ``i`` and ``first[i]`` the index in
    ``fields`` of that line's first field (meaningful where ``widths[i] > 0``).
    """

    fields: list[str]
    field_line: np.ndarray
    widths: np.ndarray
    first: np.ndarray

    @property
    def nlines(self) -> int:
        return len(self.widths)


def split_fields(text: str) -> Fields:
    """Split ``text`` into lines and whitespace-separated fields in one pass of array operations."""
    if not text:
        empty = np.zeros(0, dtype=np.int64)
        return Fields([], empty, empty, empty)
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    clipped = np.minimum(codes, _LIMIT)
    space = _WHITESPACE[clipped]
    brk = _LINE_BREAK[clipped]
    ends_with_break = bool(brk[-1])
    # "\r\n" is one line break
    brk[1:] &= ~((codes[1:] == 0x0A) & (codes[:-1] == 0x0D))
    starts = ~space
    starts[1:] &= space[:-1]
    start_pos = np.flatnonzero(starts)
    fields = text.split()
    if len(fields) != len(start_pos):  # cannot happen with tables from this Python; stay correct anyway
        return _split_per_line(text)
    line_of_char = np.cumsum(brk)
    field_line = line_of_char[start_pos]
    nlines = int(line_of_char[-1]) + (0 if ends_with_break else 1)
    widths = np.bincount(field_line, minlength=nlines)
    first = np.zeros(nlines, dtype=np.int64)
    np.cumsum(widths[:-1], out=first[1:])
    return Fields(fields, field_line, widths, first)


def _split_per_line(text: str) -> Fields:
    rows = [line.split() for line in text.splitlines()]
    widths = np.fromiter(map(len, rows), dtype=np.int64, count=len(rows))
    field_line = np.repeat(np.arange(len(rows)), widths)
    first = np.zeros(len(rows), dtype=np.int64)
    np.cumsum(widths[:-1], out=first[1:])
    return Fields([f for r in rows for f in r], field_line, widths, first)
