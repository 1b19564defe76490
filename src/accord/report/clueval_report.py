"""The terminal tables of ``accord score --match clueval``: every level, the first by label, the coverage classes."""

from __future__ import annotations

from typing import Any

from ..clueval import CLASS_NAMES

__all__ = ["render_clueval"]

def render_clueval(result: Any, console: Any = None) -> None:
    """Every level (the chosen one first, in bold), the chosen level by label, the coverage classes."""
    from .result_table import render_result
    from .table import TableConsole, new_table, print_table

    console = console or TableConsole()
    render_result(result, console)
    ct = new_table("coverage classes (recall: gold spans; precision: predicted spans)",
                   ["side", *CLASS_NAMES, "total"])
    for side, label in (("gold", "gold"), ("pred", "predicted")):
        counts = result.class_counts(side)
        ct.add_row(label, *(str(counts[k]) for k in CLASS_NAMES), str(sum(counts.values())))
    print_table(console, ct)
