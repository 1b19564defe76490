"""The terminal tables of ``accord score --match clueval``: every level, the first by label, then the result's
tables (the coverage classes)."""

from __future__ import annotations

from typing import Any

__all__ = ["render_clueval"]


def render_clueval(result: Any, console: Any = None) -> None:
    """Every level (the chosen one first, in bold), the chosen level by label, then the result's tables
    (:attr:`accord.result.Result.tables`: the coverage classes)."""
    from .result_table import render_result
    from .result_tables import render_tables
    from .table import TableConsole

    console = console or TableConsole()
    render_result(result, console)
    render_tables(result, console)
