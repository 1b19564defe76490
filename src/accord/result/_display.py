"""A result printed (``print(result)``) and shown in a notebook (``_repr_html_``): a title, a few lines about the
inputs and tables of figures, each figure with its confidence interval when the result has one.

Every result class (:class:`~accord.result.Result`, the comparison of systems, agreement) describes itself as a
:class:`Display`; :func:`as_text` and :func:`as_html` draw it. The HTML escapes every text (labels, file names and
system names come from the user's files).
"""

from __future__ import annotations

import html
import math
import numbers
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Display", "Table", "as_html", "as_text", "figure", "inputs_line", "MAX_ROWS"]

_NUMBER = re.compile(r"^(-?\d|—$|$)")

MAX_ROWS = 50
"""The rows a table shows at most (the rest counted in a last line: ``... and 12 more``)."""


@dataclass
class Table:
    """A table of a display: its caption, column names and rows of cells (text already formatted)."""

    caption: str
    header: Sequence[str]
    rows: list[list[str]] = field(default_factory=list)


@dataclass
class Display:
    """What a result shows of itself: a title line, note lines and tables."""

    title: str
    notes: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)


def figure(value: Any, interval: Sequence[Any] | None = None, digits: int = 4) -> str:
    """``0.7143`` or ``0.7143 [0.5000, 1.0000]``; ``—`` for an undefined value (None or NaN); integers as they
    are; a mapping with a ``mean`` (GATE's averaged coefficients) as its mean."""
    if isinstance(value, Mapping) and "mean" in value:
        value = value["mean"]
    if value is None or isinstance(value, bool) or not isinstance(value, numbers.Real):
        text = "—" if value is None else str(value)
    elif isinstance(value, numbers.Integral):
        text = str(int(value))
    elif math.isnan(value):
        text = "—"
    else:
        text = f"{value:.{digits}f}"
    if interval is not None and len(interval) == 2 and text != "—":
        lo, hi = (figure(x, digits=digits) for x in interval)
        text += f" [{lo}, {hi}]"
    return text


def inputs_line(inputs: Mapping[str, Any]) -> str:
    """``gold: a.conll (2 documents); pred: b.conll (2 documents)``: each side's sources, from a result's inputs."""
    parts = []
    for side, info in inputs.items():
        if not isinstance(info, Mapping):
            continue
        sources = [str(s) for s in info.get("sources", [])]
        shown = ", ".join(sources[:3]) + (f" and {len(sources) - 3} more" if len(sources) > 3 else "")
        documents = info.get("documents")
        count = f" ({documents} document{'s' if documents != 1 else ''})" if isinstance(documents, int) else ""
        parts.append(f"{side}: {shown or '(objects)'}{count}")
    return "; ".join(parts)


def _shown(rows: list[list[str]]) -> tuple[list[list[str]], int]:
    return rows[:MAX_ROWS], max(0, len(rows) - MAX_ROWS)


def as_text(display: Display) -> str:
    """The display as lines of text: the title, the notes, each table with aligned columns."""
    lines = [display.title, *display.notes]
    for table in display.tables:
        rows, more = _shown(table.rows)
        cells = [list(table.header), *rows]
        widths = [max(len(row[k]) for row in cells) for k in range(len(table.header))]
        numeric = [k > 0 and all(_NUMBER.match(row[k]) for row in rows) for k in range(len(table.header))]
        lines.append("")
        lines.append(table.caption)
        for row in cells:
            line = "  ".join((c.rjust(w) if numeric[k] else c.ljust(w)) for k, (c, w) in enumerate(zip(row, widths)))
            lines.append("  " + line.rstrip())
        if more:
            lines.append(f"  ... and {more} more")
    return "\n".join(lines)


def as_html(display: Display) -> str:
    """The display as an HTML fragment (a notebook's cell output): every text escaped."""
    e = html.escape
    out = [f'<div class="accord-result"><p><strong>{e(display.title)}</strong></p>']
    out += [f"<p>{e(note)}</p>" for note in display.notes]
    for table in display.tables:
        rows, more = _shown(table.rows)
        out.append(f"<table><caption>{e(table.caption)}</caption><thead><tr>")
        out += [f"<th>{e(h)}</th>" for h in table.header]
        out.append("</tr></thead><tbody>")
        for row in rows:
            out.append("<tr>" + "".join(f"<td>{e(c)}</td>" for c in row) + "</tr>")
        if more:
            out.append(f'<tr><td colspan="{len(table.header)}">... and {more} more</td></tr>')
        out.append("</tbody></table>")
    out.append("</div>")
    return "".join(out)
