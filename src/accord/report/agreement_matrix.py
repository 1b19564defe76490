"""The annotator-by-annotator agreement matrix (GATE guide 10.7) as one self-contained HTML page, drawn from the
matrix's data (:func:`accord.agreement._matrix.matrix_view`)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

__all__ = ["matrix_html", "matrix_context", "cell_colour"]


def cell_colour(value: float | None) -> str:
    """Background of a score: green at 1.0, white at 0.5, dark red at 0.0 (linear in between)."""
    if value is None or math.isnan(value):
        return "transparent"
    v = min(max(value, 0.0), 1.0)
    if v >= 0.5:
        return f"rgba(0,150,0,{(v - 0.5) * 2:.3f})"
    return f"rgba(150,0,0,{(0.5 - v) * 2:.3f})"


def matrix_context(view: Mapping[str, Any]) -> dict[str, Any]:
    """What ``_matrix.html`` draws: the matrix's data with the colour of every cell and average (by its micro F)."""
    grid = [(name, [None if cell is None else {**cell, "colour": cell_colour(cell["micro"])} for cell in row],
             {**avg, "colour": cell_colour(avg["micro"])}) for name, row, avg in view["grid"]]
    return {**view, "grid": grid, "colour": cell_colour}


def matrix_html(view: Mapping[str, Any], title: str = "Annotator agreement") -> str:
    """The annotator matrix (:func:`matrix_context`) as a page of its own."""
    from ._csp import page_environment

    env = page_environment()   # scripts allowed by their hashes
    return env.get_template("matrix.html").render(title=title, **matrix_context(view))
