"""Where the whitespace-separated fields of a text are, by array operations and without making a string.

``[line.split() for line in text.splitlines()]`` costs a list and a Python call per line and a
string per field; on a column file of a million tokens that is most of the reading time and
memory. Here the text is viewed as an array of code points (one byte each when the text is
ASCII), and line breaks and field boundaries are found with numpy: the result is, for every
field, its start and end offset in the text, and for every line its first field and its number
of fields. Strings are made only for the fields a caller asks for (:class:`~accord._text_fields.TextFields`).
Line breaks and whitespace are exactly those of ``str.splitlines`` and ``str.split`` (tables
built from the running Python).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["Layout", "field_layout", "code_points"]

# every whitespace and line-break code point lies below U+3001; clip larger ones to a False slot
_LIMIT = 0x3001
_WHITESPACE = np.array([chr(c).isspace() for c in range(_LIMIT)] + [False], dtype=bool)
_LINE_BREAK = np.array([len(f"a{chr(c)}a".splitlines()) == 2 for c in range(_LIMIT)] + [False], dtype=bool)
_CR, _LF = 0x0D, 0x0A


def code_points(text: str) -> np.ndarray:
    """The code points of ``text``: uint8 for ASCII text (no copy beyond the encoding), uint32 otherwise."""
    if text.isascii():
        return np.frombuffer(text.encode("ascii"), dtype=np.uint8)
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)


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

    def line_fields(self, text: str, line: int) -> list[str]:
        """The fields of one line, as strings."""
        k = int(self.first[line])
        return [text[int(s):int(e)] for s, e in zip(self.starts[k:k + int(self.widths[line])],
                                                    self.ends[k:k + int(self.widths[line])])]


def field_layout(text: str, codes: np.ndarray | None = None) -> Layout:
    """Find the lines and the whitespace-separated fields of ``text`` (``codes``: its :func:`code_points`)."""
    if not text:
        empty = np.zeros(0, dtype=np.int64)
        return Layout(empty, empty, empty, empty, empty)
    if codes is None:
        codes = code_points(text)
    space, brk = _classes(codes)
    ends_with_break = bool(brk[-1])
    if "\r\n" in text:   # one line break, not two
        brk[1:] &= ~((codes[1:] == _LF) & (codes[:-1] == _CR))
    ink = ~space
    start_mask = ink.copy()
    start_mask[1:] &= space[:-1]
    end_mask = ink
    end_mask[:-1] &= space[1:]
    starts = np.flatnonzero(start_mask)
    ends = np.flatnonzero(end_mask) + 1
    del start_mask, end_mask, ink, space
    line_of_char = np.cumsum(brk, dtype=np.int32 if len(codes) < 2**31 else np.int64)
    nlines = int(line_of_char[-1]) + (0 if ends_with_break else 1)
    widths = np.bincount(line_of_char[starts], minlength=nlines)
    del line_of_char
    first = np.zeros(nlines, dtype=np.int64)
    np.cumsum(widths[:-1], out=first[1:])
    breaks = np.flatnonzero(brk)
    after = breaks + 1
    crlf = after < len(codes)
    crlf[crlf] = (codes[breaks[crlf]] == _CR) & (codes[after[crlf]] == _LF)
    after[crlf] += 1
    line_starts = np.concatenate([np.zeros(1, dtype=np.int64), after])[:nlines]
    return Layout(starts, ends, widths, first, line_starts)


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
