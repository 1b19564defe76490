"""Cells of the CSV and TSV files accord writes for spreadsheets: text from the data never reads as a formula.

A spreadsheet opening a CSV file runs a cell that begins with ``=``, ``+``, ``-`` or ``@`` as a formula (and
some read a leading tab or carriage return the same way), so a label such as ``=cmd|' /C calc'!A0`` in an
annotation file would run on the reader's machine. As OWASP advises ("CSV injection"), :func:`text_cell` puts a
single quote before such a text cell; the spreadsheet shows the text and runs nothing. A cell that is a number
(``-0.5``, ``+3``, ``-1e-05``: accord's own numbers, also when formatted as text) is left as it is, and so are
numbers given as numbers. Readers of these files who want the data's text back remove the quote: a cell that
begins with ``'`` followed by one of ``= + - @``, tab or carriage return was escaped.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

__all__ = ["text_cell", "row_cells", "FORMULA_START", "SpreadsheetDictWriter", "SpreadsheetWriter"]

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet reads as the start of a formula."""

_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|[+-]?(?:inf|nan|Infinity|NaN)")


def text_cell(value: Any) -> Any:
    """``value`` for a spreadsheet cell: a text that would start a formula gets a leading ``'``; anything else
    (numbers, text that is a number, other text) is returned unchanged."""
    if isinstance(value, str) and value.startswith(FORMULA_START) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


def row_cells(values: Iterable[Any]) -> list[Any]:
    """:func:`text_cell` of every value of a row."""
    return [text_cell(v) for v in values]


if TYPE_CHECKING:
    _DictWriter = csv.DictWriter[str]
else:
    _DictWriter = csv.DictWriter     # not subscriptable before Python 3.12


def _breaks_a_line(cells: Iterable[Any]) -> bool:
    """Whether a cell holds a line break: Python 3.11's writer quotes ``\r`` only when it is in the line terminator,
    and a spreadsheet reads an unquoted one as the end of the row (its next piece a new row, unescaped)."""
    return any(isinstance(c, str) and ("\r" in c or "\n" in c) for c in cells)


class SpreadsheetDictWriter(_DictWriter):
    """:class:`csv.DictWriter` whose cells pass through :func:`text_cell`; a row holding a line break in a cell is
    written with every cell quoted."""

    def __init__(self, f: Any, fieldnames: Any, *args: Any, **kwds: Any):
        super().__init__(f, fieldnames, *args, **kwds)
        self._quoted = csv.writer(f, *args[2:3], **{**{k: v for k, v in kwds.items() if k not in (
            "restval", "extrasaction")}, "quoting": csv.QUOTE_ALL})

    def writerow(self, rowdict: Mapping[str, Any]) -> Any:
        cells = {k: text_cell(v) for k, v in rowdict.items()}
        if _breaks_a_line(cells.values()):
            # DictWriter's own row builder (typeshed does not list it)
            return self._quoted.writerow(self._dict_to_list(cells))   # type: ignore[attr-defined]
        return super().writerow(cells)

    def writerows(self, rowdicts: Iterable[Mapping[str, Any]]) -> None:
        for row in rowdicts:
            self.writerow(row)


class SpreadsheetWriter:
    """:func:`csv.writer` whose cells pass through :func:`text_cell`; a row holding a line break in a cell is
    written with every cell quoted."""

    def __init__(self, fh: Any, **options: Any):
        self._writer = csv.writer(fh, **options)
        self._quoted = csv.writer(fh, **{**options, "quoting": csv.QUOTE_ALL})

    def writerow(self, row: Iterable[Any]) -> Any:
        cells = row_cells(row)
        return (self._quoted if _breaks_a_line(cells) else self._writer).writerow(cells)

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)
