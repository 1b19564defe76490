"""Outputs of ``accord diff`` and ``accord qa``: the Corpus QA tables on the terminal (tables of the result,
:attr:`accord.result.Result.tables`) and the HTML diff view, drawn from the view the GATE modes compute
(:func:`accord.diff._views.diff_view`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["render_qa", "diff_html"]


def render_qa(table: Any, console: Any = None) -> None:
    """One Corpus QA table of a result (a :class:`~accord.result.ResultTable`, ``by type`` or ``by document``) on
    the terminal: counts, P/R/F per measure, macro and micro rows."""
    from .result_tables import draw_table
    from .table import TableConsole

    draw_table(table, console or TableConsole())


def diff_html(view: Mapping[str, Any], title: str = "Annotation Diff") -> str:
    """A self-contained page: the Corpus QA summary and, per document and type, the key and response annotations
    side by side, colour coded by outcome, with a filter by outcome (``view``: :func:`accord.diff._views.diff_view`)."""
    from ._csp import page_environment

    env = page_environment()   # scripts allowed by their hashes
    template = env.get_template("diff.html")
    return template.render(title=title, **view)
