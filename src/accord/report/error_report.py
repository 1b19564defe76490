"""Renderings of CLUEval's error tables: TSV/CSV for spreadsheets (a table of the rows,
:func:`accord.clueval._error_rows.errors_table`) and a self-contained HTML page (the error browser, over the data of
:func:`accord.clueval._error_rows.error_page_view`)."""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

from .._support.csv_cells import SpreadsheetDictWriter

__all__ = ["errors_delimited", "errors_html"]


def errors_delimited(table: Any, delimiter: str = "\t") -> str:
    """The rows of an error table (a :class:`~accord.result.ResultTable`) as TSV (``delimiter="\\t"``) or CSV,
    with a header row."""
    buf = io.StringIO()
    w = SpreadsheetDictWriter(buf, fieldnames=table.columns, delimiter=delimiter, lineterminator="\n")   # no formula
    w.writeheader()
    for d in table.records():
        w.writerow(d)
    return buf.getvalue()


def errors_html(view: Mapping[str, Any], *, title: str = "CLUEval errors", page_size: int = 100) -> str:
    """A self-contained page: the error browser (:mod:`accord.report.error_browser`) over the view's rows, drawn a
    page at a time from the data embedded in the page, with filters by kind, class, label and document."""
    from ._csp import page_environment
    from .error_browser import embedded_data

    data = view["data"]
    env = page_environment()   # scripts allowed by their hashes
    return env.get_template("errors.html").render(
        title=title, browser={"data": data, **dict(zip(("encoding", "json"), embedded_data(data))),
                              "page_size": page_size},
        counts=view["counts"], level=view["level"], level_name=view["level_name"], mode=view["mode"])
