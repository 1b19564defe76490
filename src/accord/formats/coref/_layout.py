"""The lines of a CoNLL-2012 file that coreference reads, found with arrays on the file's bytes.

Coreference needs, of each line, whether it is blank, whether its first field begins with ``#`` (a
``#begin document``, ``#end document`` or comment line) and where its last field (the chain column) is;
not the other fields. :func:`coref_lines` finds those for a text whose only blanks and line breaks are
spaces, tabs and line feeds (what CoNLL-2012 files hold) from the positions of line feeds, spaces and
tabs, without laying out every field; any other text (a carriage return, a no-break space ...), or a
line ending in more than a few blanks, is laid out field by field by
:func:`accord.formats.tokens._fields.field_layout`. Both give the same
:class:`~accord.formats.coref._bulk.CorefLines` (``tests/formats/coref/test_layout.py``).
"""

from __future__ import annotations

import numpy as np

from ...model._text_fields import code_points
from ._bulk import CorefLines

__all__ = ["coref_lines"]

_TAB, _LF, _SPACE, _HASH, _DASH, _UNDERSCORE = 9, 10, 32, ord("#"), ord("-"), ord("_")
_STEPS = 8
"""Blanks at the end of a line stepped over with arrays (LitBank's files end every line with a tab); a line ending
in more is laid out by the general reader."""
_FIELD_STEPS = 24
_WIDE_BLANK = np.zeros(0x3002, dtype=bool)
_WIDE_BLANK[[0x85, 0xA0, 0x1680, *range(0x2000, 0x200B), 0x2028, 0x2029, 0x202F, 0x205F, 0x3000]] = True
"""The characters beyond ASCII that :meth:`str.split` or :meth:`str.splitlines` takes for a blank or a line break
(``tests/formats/coref/test_layout.py`` checks them against Python's); larger code points are clipped to the last,
False, slot."""
"""Characters of a chain column stepped over with arrays; a longer column is searched by :meth:`str.rfind`."""


def coref_lines(text: str) -> CorefLines:
    """The lines of ``text`` that matter to coreference (see :class:`~accord.formats.coref._bulk.CorefLines`)."""
    codes = code_points(text)
    fast = _ascii_lines(text, codes)
    return fast if fast is not None else _laid_out_lines(text, codes)


def _ascii_lines(text: str, codes: np.ndarray) -> CorefLines | None:
    """:class:`CorefLines` of a text whose only whitespace and line breaks are spaces, tabs and line feeds (its
    other characters of any kind), or None."""
    if not len(codes):
        return None
    control = codes < _SPACE
    if np.count_nonzero(control) != np.count_nonzero(codes == _TAB) + np.count_nonzero(codes == _LF):
        return None     # a carriage return, a form feed ...: str.splitlines and str.split say more than tab and LF
    if codes.dtype != np.uint8 and np.any(_WIDE_BLANK[np.minimum(codes[codes > 126], len(_WIDE_BLANK) - 1)]):
        return None     # a no-break space, a line separator ...
    breaks = np.flatnonzero(codes == _LF)
    n = len(codes)
    # line i runs from line_start[i] to line_end[i] (its line feed, or the end of the text); str.splitlines has no
    # empty last line after a final line feed
    line_end = breaks if codes[-1] == _LF else np.append(breaks, n)
    line_start = np.empty(len(line_end), dtype=np.int64)
    line_start[0] = 0
    line_start[1:] = line_end[:-1] + 1
    # the last character of each line that is not blank (before the line's start: a blank line)
    last = line_end - 1
    stepping = np.flatnonzero(last >= line_start)
    stepping = stepping[_blank(codes[last[stepping]])]
    for _ in range(_STEPS):
        if not len(stepping):
            break
        last[stepping] -= 1
        stepping = stepping[last[stepping] >= line_start[stepping]]
        stepping = stepping[_blank(codes[last[stepping]])]
    if len(stepping):
        return None
    filled_mask = last >= line_start
    every_line = bool(filled_mask.all())     # no blank line: no selection to make
    if every_line:
        filled, first = np.arange(len(last), dtype=np.int64), line_start
    else:
        filled = np.flatnonzero(filled_mask)
        last, first = last[filled], line_start[filled]
    head = codes[first]
    leading = np.flatnonzero(_blank(head))
    if len(leading):
        # a line that begins with blanks: its first field is found past them (rare; one search a line)
        for k in leading.tolist():
            start, end = int(first[k]), int(last[k]) + 1
            first[k] = end - len(text[start:end].lstrip(" \t"))
        head = codes[first]
    hashed = head == _HASH
    marks = filled[hashed]
    tokens = np.flatnonzero(~hashed)
    token_lines, t_last = (tokens if every_line else filled[tokens]), last[tokens]
    # the chain column: a one-character field '-' or '_' is no mention; else it runs from after the last blank
    # before its last character (within the line)
    final = codes[t_last]
    before = codes[t_last - 1]     # (the text's last character for the first: it is a line feed or a blank then)
    plain = ((final == _DASH) | (final == _UNDERSCORE)) & (_blank(before) | (before == _LF) | (t_last == 0))
    mention = np.flatnonzero(~plain)
    m_last = t_last[mention]
    chain_start = _field_starts(text, codes, first[tokens[mention]], m_last)
    offset_type = np.int32 if n < 2**31 - 1 else np.int64
    mark_text = [text[s:e + 1] for s, e in zip(first[hashed].tolist(), last[hashed].tolist())]
    return CorefLines(text, codes, marks, mark_text, token_lines, chain_start.astype(offset_type),
                      (m_last + 1).astype(offset_type), mention)


def _blank(c: np.ndarray) -> np.ndarray:
    """Whether each code is a space or a tab."""
    blank: np.ndarray = (c == _SPACE) | (c == _TAB)
    return blank


def _field_starts(text: str, codes: np.ndarray, line_first: np.ndarray, field_last: np.ndarray) -> np.ndarray:
    """Where the fields ending at ``field_last`` (not blank) begin: after the last blank before them, not before
    ``line_first``. Stepped back with arrays a few characters at a time (chain columns are short); the fields
    still longer are searched one by one."""
    start = field_last.copy()
    active = np.arange(len(start))
    for _ in range(_FIELD_STEPS):
        before = start[active] - 1
        going = before >= line_first[active]
        going[going] = ~_blank(codes[before[going]])
        active = active[going]
        if not len(active):
            return start
        start[active] -= 1
    for k in active.tolist():     # long fields: the last blank before them, by a search of the line
        lo, hi = int(line_first[k]), int(start[k])
        blank_at = max(text.rfind(" ", lo, hi), text.rfind("\t", lo, hi))
        start[k] = blank_at + 1 if blank_at >= 0 else lo
    return start


def _laid_out_lines(text: str, codes: np.ndarray) -> CorefLines:
    """:class:`CorefLines` from the layout of every field (any text)."""
    from ..tokens._fields import field_layout

    f = field_layout(text, codes)
    lines = np.flatnonzero(f.widths > 0)
    head = f.first[lines]
    hashed = codes[f.starts[head]] == ord("#")
    marks = lines[hashed]          # '#begin document', '#end document' and other comments
    token_lines = lines[~hashed]
    last = head[~hashed] + f.widths[token_lines] - 1
    chain_start, chain_end = f.starts[last], f.ends[last]
    plain = (chain_end - chain_start == 1) & ((codes[chain_start] == ord("-")) | (codes[chain_start] == ord("_")))
    mention = np.flatnonzero(~plain)
    mark_text = [f.line_text(text, int(i)).strip() for i in marks.tolist()]
    return CorefLines(text, codes, marks, mark_text, token_lines, chain_start[mention], chain_end[mention], mention)
