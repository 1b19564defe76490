"""Terminal tables without rich when nothing needs rich: output that is not a terminal (a pipe, a file, ``-o``) gets
the same characters rich would write, from a few lines of plain Python, so a one-token ``accord score | cat`` does
not pay rich's import (a quarter of a numpy import). Anything the plain writer cannot draw character for character
(a table wider than the console, text rich reads as markup or draws wider than one cell a character, a styled
cell) goes to rich, imported then: the plain writer is an optimisation, never a second look.

:func:`.table.new_table` returns a :class:`RecordedTable` (the calls recorded; a rich table built from them the
first time anything else is asked of it), :func:`.table.print_table` asks :func:`plain_text` first when the console
is a :class:`PlainConsole`. ``tests/report/test_plain_table.py`` draws random tables both ways and compares.
"""

from __future__ import annotations

import os
import sys
import unicodedata
from collections.abc import Callable
from typing import Any

__all__ = ["RecordedTable", "PlainConsole", "escaped_controls", "plain_console_wanted", "plain_text", "plain_width"]

_HEAVY_HEAD = ("┃", "━", "╇", "│", "─", "┼")   # header divider, header rule and its joints, cell divider, section rule


def _one_cell(c: str) -> bool:
    """Whether rich draws ``c`` as one terminal cell with nothing else to it: printable ASCII, or a letter, digit,
    punctuation, symbol or space of the alphabetic blocks below U+1100, of general punctuation or of the arrows,
    that East Asian width does not make wide (checked against rich's ``cell_len`` for every code point in
    ``tests/report/test_plain_table.py``)."""
    o = ord(c)
    if 0x20 <= o < 0x7F:
        return True
    if not (0xA0 <= o < 0x1100 or 0x2010 <= o < 0x2028 or 0x2030 <= o < 0x205F or 0x2190 <= o < 0x2200):
        return False
    category = unicodedata.category(c)
    return (category[0] in "LNPS" or category == "Zs") and unicodedata.east_asian_width(c) in ("N", "Na", "A", "H")


def _simple(text: str) -> bool:
    """Text drawn as it is, one cell a character."""
    return all(map(_one_cell, text))


def _not_markup(text: str) -> bool:
    """A string rich draws as it is although it reads it as markup and emoji codes (no ``[``, no ``:``)."""
    return "[" not in text and ":" not in text and _simple(text)


def escaped_controls(value: str) -> str:
    """Text from the data with its control characters written as ``\\xNN`` (the data cannot drive the terminal):
    the text of :func:`.table.plain_cell` and of the plain writer's cells."""
    if any(unicodedata.category(c) == "Cc" for c in value):
        value = "".join(f"\\x{ord(c):02x}" if unicodedata.category(c) == "Cc" else c for c in value)
    return value


class RecordedTable:
    """The calls that build a table under accord's one policy (:func:`.table.new_table`), recorded; the rich table
    they describe is built the first time anything else is asked of it (``columns``, ``rows``, ``console.print``),
    so every renderer keeps using it as a rich table."""

    def __init__(self, title: str | None, build: Any):
        self.title = title
        self._build = build            # () -> an empty rich table with this title
        self._columns: list[tuple[str, dict[str, Any]]] = []
        self._rows: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
        self._rich: Any = None

    def add_column(self, header: str = "", **kwargs: Any) -> None:
        """rich's ``Table.add_column``."""
        if self._rich is not None:
            self._rich.add_column(header, **kwargs)
        else:
            self._columns.append((header, kwargs))

    def add_row(self, *cells: Any, **kwargs: Any) -> None:
        """rich's ``Table.add_row`` (string cells are text, not markup)."""
        if self._rich is not None:
            self._rich.add_row(*cells, **kwargs)
        else:
            self._rows.append((cells, kwargs))

    def add_section(self) -> None:
        """rich's ``Table.add_section``: a rule under the last row."""
        if self._rich is not None:
            self._rich.add_section()
        elif self._rows:
            cells, kwargs = self._rows[-1]
            self._rows[-1] = (cells, {**kwargs, "end_section": True})

    def rich(self) -> Any:
        """The rich table (built once; from then on every call goes to it)."""
        if self._rich is None:
            table = self._build()
            for header, kwargs in self._columns:
                table.add_column(header, **kwargs)
            for cells, kwargs in self._rows:
                table.add_row(*cells, **kwargs)
            self._rich = table
        return self._rich

    def __rich__(self) -> Any:
        return self.rich()

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.rich(), name)


def plain_text(table: RecordedTable, width: int, caption: str | None) -> str | None:
    """What rich writes for ``table`` (and the caption under it) on a console of ``width`` cells that is not a
    terminal, or None when the plain writer cannot tell (the table does not fit, or text it does not draw)."""
    if table._rich is not None or not table._columns or width < 1:
        return None
    headers = []
    for header, kwargs in table._columns:
        if set(kwargs) - {"justify", "no_wrap", "overflow"} or not isinstance(header, str) or not _not_markup(header):
            return None
        headers.append(header)
    rows: list[tuple[list[str], bool]] = []
    for cells, kwargs in table._rows:
        if set(kwargs) - {"style", "end_section"} or len(cells) > len(headers):
            return None
        if not all(isinstance(c, str) for c in cells):     # accord's own styled text, None, a renderable
            return None
        texts = [escaped_controls(c) for c in cells]
        if not all(map(_simple, texts)) or any(t != t.strip(" ") or "  " in t.strip(" ") for t in texts):
            return None
        rows.append((texts + [""] * (len(headers) - len(texts)), bool(kwargs.get("end_section"))))
    widths = [max([len(h)] + [len(r[k]) for r, _ in rows]) for k, h in enumerate(headers)]
    total = sum(w + 2 for w in widths) + len(widths) - 1
    if total > width or 0 in widths:
        return None
    title = table.title
    if title is not None and (not isinstance(title, str) or not _not_markup(title) or len(title) > total
                              or title != title.strip(" ") or "  " in title):
        return None
    caption_lines = _wrapped(caption, width) if caption else []
    if caption_lines is None:
        return None
    head, head_rule, head_joint, bar, rule, joint = _HEAVY_HEAD
    lines = []
    if title:
        left = (total - len(title)) // 2
        lines.append(" " * left + title + " " * (total - len(title) - left))
    lines.append(head.join(f" {h.ljust(w)} " for h, w in zip(headers, widths)))
    lines.append(head_joint.join(head_rule * (w + 2) for w in widths))
    for r, (texts, end_section) in enumerate(rows):
        lines.append(bar.join(f" {t.ljust(w)} " for t, w in zip(texts, widths)))
        if end_section and r < len(rows) - 1:
            lines.append(joint.join(rule * (w + 2) for w in widths))
    lines.extend(caption_lines)
    return "\n".join(lines) + "\n"


def _wrapped(text: str, width: int) -> list[str] | None:
    """The lines rich wraps ``text`` into at ``width`` cells (words of one-space gaps; a line keeps the space after
    its last word when that space fits), or None for text whose wrapping the plain writer does not follow (a word
    wider than the console, other spaces)."""
    if not _simple(text) or "\xa0" in text or text != text.strip(" ") or "  " in text:
        return None
    lines, line = [], ""
    for word in text.split(" "):
        if len(word) > width:
            return None
        if line and len(word) > width - len(line):
            lines.append(line[:width])
            line = ""
        line += word + " "
    lines.append(line[:-1])
    return lines


def plain_console_wanted(file: Any = None) -> bool:
    """Whether rich would draw on ``file`` (standard output when None) as on a file, not a terminal: no colours, no
    terminal forced by ``FORCE_COLOR`` or ``TTY_COMPATIBLE``, not Windows (rich's legacy console)."""
    if sys.platform == "win32" or any(os.environ.get(name) is not None for name in (
            "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "JUPYTER_COLUMNS", "JUPYTER_LINES")):
        return False
    isatty = getattr(file if file is not None else sys.stdout, "isatty", None)
    try:
        return isatty is not None and not isatty()
    except ValueError:
        return False


def plain_width() -> int:
    """The width rich gives a console that is not a terminal: ``COLUMNS``, else the size of the first terminal among
    standard input, output and error, else 80."""
    columns = os.environ.get("COLUMNS")
    if columns is not None and columns.isdigit():
        return int(columns)
    for fd in (0, 1, 2):
        try:
            width = os.get_terminal_size(fd).columns
        except (AttributeError, ValueError, OSError):
            continue
        return width or 80
    return 80


class PlainConsole:
    """A console for output that is not a terminal: a table the plain writer can draw is written as rich would
    write it (:func:`plain_text`); anything else goes to a rich console on the same file and width, made then."""

    def __init__(self, rich: Callable[..., Any], file: Any = None, width: int | None = None,
                 caption: str | None = None):
        self._make_rich = rich         # (file=, width=, caption=) -> a rich console (.table.TableConsole)
        self._file = file
        self._width = width
        self.table_caption = caption
        self._console: Any = None

    @property
    def width(self) -> int:
        """The console's width in cells (rich's for a file)."""
        return self._width if self._width is not None else plain_width()

    def write_plain(self, text: str) -> None:
        """Write text as rich writes a print: at once, then flush."""
        file = self._file if self._file is not None else sys.stdout
        file.write(text)
        file.flush()

    def rich_console(self) -> Any:
        """The rich console that draws what the plain writer does not."""
        if self._console is None:
            self._console = self._make_rich(file=self._file, width=self._width, caption=self.table_caption)
        return self._console

    def print(self, *objects: Any, **kwargs: Any) -> None:
        """rich's ``Console.print``."""
        self.rich_console().print(*objects, **kwargs)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.rich_console(), name)
