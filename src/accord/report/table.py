"""The terminal tables' one policy (rich): the console, a table's columns and widths, cells, rates as percentages.
The renderers of each result draw with these (:mod:`.pairs_table`, :mod:`.result_table`, ...)."""

from __future__ import annotations

import functools
from typing import Any

from .plain_table import PlainConsole, RecordedTable, escaped_controls, plain_text

__all__ = ["percent", "row_interval", "new_table", "print_table", "plain_cell", "TableConsole", "RATES"]

RATES = ("precision", "recall", "f1")


def _console_class() -> type:
    from rich.console import Console

    class _TableConsole(Console):
        """A console that remembers the caption its tables carry (the inputs, mode and documents)."""

        def __init__(self, *args: Any, caption: str | None = None, **kwargs: Any):
            super().__init__(*args, **kwargs)
            self.table_caption = caption

        def on_broken_pipe(self) -> None:
            """The reader went away (``| head``): the command line's caller ends quietly with status 0 (rich's own
            handler exits with status 1)."""
            raise BrokenPipeError(32, "Broken pipe")
    return _TableConsole


def TableConsole(*args: Any, caption: str | None = None, **kwargs: Any) -> Any:  # noqa: N802 - a class factory
    """A rich console whose tables are captioned with ``caption`` (rich imported on first use)."""
    return _console_class()(*args, caption=caption, **kwargs)


def plain_cell(value: str) -> Any:
    """A cell of text from the data, shown as it is: never read as rich markup (a label ``[red]X[/red]`` showed as
    ``X``), its control characters written as escapes (``\\x1b``: the data cannot drive the terminal)."""
    from rich.text import Text

    return Text(escaped_controls(value))


@functools.cache
def _table_class() -> type:
    from rich.table import Table

    class _PlainTable(Table):
        """A table whose string cells are text, not markup (:func:`plain_cell`); accord's own styled cells are
        given as ``rich.text.Text``."""

        def add_row(self, *renderables: Any, **kwargs: Any) -> None:
            super().add_row(*(plain_cell(r) if isinstance(r, str) else r for r in renderables), **kwargs)
    return _PlainTable


def new_table(title: str | None, columns: list[str], *, first: int = 1, text: tuple[int, ...] = ()) -> Any:
    """A table under accord's one policy: the first ``first`` columns (and those in ``text``) hold names or
    text (they wrap), every other column holds numbers, right-aligned and never cut; string cells are shown as
    they are (:func:`plain_cell`)."""
    table = RecordedTable(title, lambda: _table_class()(title=title, show_edge=False, header_style="bold"))
    for k, name in enumerate(columns):
        if k < first or k in text:
            table.add_column(name, overflow="fold")
        else:
            table.add_column(name, justify="right", no_wrap=True, overflow="ignore")
    return table


NAME_MIN = 10
"""Name columns wrap down to this width (or their longest word, if shorter) before a table stacks."""


def _cell_len(cell: Any) -> int:
    from rich.text import Text

    if isinstance(cell, str):
        return Text.from_markup(cell).cell_len
    return cell.cell_len if isinstance(cell, Text) else len(str(cell))


def _needed(table: Any, keep: list[int]) -> int:
    """The width ``keep``'s columns need with every number whole (name columns wrapped to NAME_MIN)."""
    total = 0
    for k in keep:
        c = table.columns[k]
        cells = [c.header, *c._cells]
        if c.no_wrap:
            total += max(_cell_len(x) for x in cells)
        else:
            words = [len(w) for x in cells for w in str(getattr(x, "plain", x)).split()] or [1]
            total += min(max(words), NAME_MIN)
    return total + 3 * len(keep)


def print_table(console: Any, table: Any) -> None:
    """Print a table whole: with the console's caption, and, when its numbers do not fit the width,
    stacked: the name columns repeated with as many number columns as fit, then the next ones.

    Number columns never wrap or shorten (each gets its widest cell as its minimum width); name
    columns wrap.
    """
    caption = getattr(console, "table_caption", None)
    if isinstance(table, RecordedTable):   # rich only when the plain writer cannot draw it (plain_table.py)
        if isinstance(console, PlainConsole):
            text = plain_text(table, console.width, caption)
            if text is not None:
                console.write_plain(text)
                return
            console = console.rich_console()
        table = table.rich()
    for c in table.columns:
        if c.no_wrap:
            c.min_width = max(_cell_len(x) for x in [c.header, *c._cells])
    width = console.width
    everything = list(range(len(table.columns)))
    if _needed(table, everything) <= width:
        console.print(table)
        _caption(console, caption)
        return
    names = [k for k, c in enumerate(table.columns) if not c.no_wrap]
    numbers = [k for k in everything if k not in names]
    groups: list[list[int]] = [[]]
    for k in numbers:
        if groups[-1] and _needed(table, names + groups[-1] + [k]) > width:
            groups.append([k])
        else:
            groups[-1].append(k)
    for g, group in enumerate(groups):
        console.print(_sub_table(table, names + group, first_part=g == 0, last_part=g == len(groups) - 1))
    _caption(console, caption)


def _caption(console: Any, caption: str | None) -> None:
    """The caption under a table (wrapped at the console's width)."""
    if caption:
        from rich.text import Text

        console.print(Text(caption, style="dim"))


def _sub_table(table: Any, keep: list[int], first_part: bool = True, last_part: bool = True) -> Any:
    from rich.table import Table

    sub = Table(title=table.title if first_part else None, caption=table.caption if last_part else None,
                caption_justify=table.caption_justify, show_edge=table.show_edge, header_style=table.header_style)
    for k in keep:
        c = table.columns[k]
        sub.add_column(c.header, justify=c.justify, no_wrap=c.no_wrap, overflow=c.overflow, style=c.style,
                       min_width=c.min_width)
    cells = [list(table.columns[k]._cells) for k in keep]
    for r, row in enumerate(table.rows):
        sub.add_row(*(col[r] for col in cells), style=row.style, end_section=row.end_section)
    return sub


def percent(x: float | None, interval: list | None = None) -> str:
    """A rate as a percentage with two decimals (conlleval's and seqscore's way), ``—`` when undefined;
    with a confidence interval, ``93.69 [93.1, 94.2]``."""
    text = "—" if x is None or x != x else f"{100 * x:.2f}"
    if interval is not None and interval[0] is not None and interval[1] is not None:
        text += f" [{100 * interval[0]:.1f}, {100 * interval[1]:.1f}]"
    return text


def row_interval(result: Any, measure: str, row: tuple, rate: str) -> list | None:
    """The confidence interval of ``rate`` in ``row`` of a measure of ``result`` (None without intervals)."""
    ci = (getattr(result, "ci", None) or {}).get(measure)
    if ci is None:
        return None
    if row == ("macro",):
        return ci["macro"].get(rate)
    return ci["rows"].get(row, {}).get(rate)
