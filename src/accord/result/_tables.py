"""Named tables of a result: what a mode shows beyond its measures (coverage classes, a confusability matrix, the
rows of a details file), as a name, a caption, column names and rows of cells, so that a renderer draws any mode's
extra tables without knowing the mode."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ResultTable"]


@dataclass(frozen=True)
class ResultTable:
    """One table a mode fills when it measures.

    Parameters
    ----------
    name : str
        What the table is (``"coverage classes"``, ``"token confusability"``, ``"details"``).
    columns : tuple of str
        The column names (empty for a note, or for a table that stands for a measure).
    rows : iterable of sequences
        The cells of each row, one per column (numbers, text or ``None``); a details table may give them lazily.
    caption : str, optional
        The title a renderer shows above it.
    note : str, optional
        A sentence shown instead of the table (why it was not built), by itself when it has no columns.
    measure : str, optional
        The name of one of the result's measures: the table stands for that measure, drawn by its kind.
    first : int
        How many leading columns hold names or text (the others hold numbers).
    styles : tuple
        A style per row (``None``, ``"bold"``...), or empty.
    sections : tuple of int
        The rows before which a renderer draws a separating line.
    """

    name: str
    columns: tuple[str, ...] = ()
    rows: Iterable[Sequence[Any]] = ()
    caption: str | None = None
    note: str | None = None
    measure: str | None = None
    first: int = 1
    styles: tuple[str | None, ...] = ()
    sections: tuple[int, ...] = field(default=())

    def records(self) -> Iterator[dict[str, Any]]:
        """The rows as dicts keyed by the column names (a details file's lines)."""
        for row in self.rows:
            yield dict(zip(self.columns, row))
