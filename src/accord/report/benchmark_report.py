"""Outputs of ``accord benchmark``: the before/after table and the changed annotations on the terminal, drawn from
the rows the benchmark computes (:func:`accord.diff._views.benchmark_view`,
:func:`accord.diff._views.below_threshold`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["render_benchmark", "render_below_threshold", "benchmark_section", "benchmark_html"]

_FIGURES = ("precision", "recall", "f")


def _arrow(before: float, after: float) -> Any:
    from rich.text import Text

    text = f"{before:.4f} → {after:.4f}"
    if after > before + 1e-12:
        return Text(text, style="green")
    if after < before - 1e-12:
        return Text(text, style="red")
    return text


def render_benchmark(view: Mapping[str, Any], console: Any = None) -> None:
    """The before → after table (green better, red worse), the table over the corpus, then the changed annotations
    (``view``: :func:`accord.diff._views.benchmark_view`)."""
    from rich.text import Text

    from .table import TableConsole, new_table, print_table

    console = console or TableConsole()
    measure, beta = view["measure"], view["beta"]
    extra, extra_names = _extra(view)
    t = new_table(f"{measure} measure, before → after", ["Document", "Type", "Precision", "Recall", f"F{beta:g}",
                                                          *extra_names, "Fixed", "Broken"], first=2)
    rows = view["rows"]
    for i, r in enumerate(rows):
        if i == len(rows) - 1:
            t.add_section()
        t.add_row(r["document"], r["type"], *(_arrow(r["before"][k], r["after"][k]) for k in _FIGURES),
                  *(_lower_better(r["before"][k], r["after"][k]) for k in extra),
                  str(r["fixed"]), str(r["broken"]), style="bold" if i == len(rows) - 1 else None)
    print_table(console, t)
    _render_corpus(view["corpus"], beta, console, view)
    if view["changes"]:
        c = new_table("annotations that changed", ["Document", "Type", "Side", "Span", "Text", "Before", "After",
                                                   ""], first=8)
        for r in view["changes"]:
            colour = "green" if r["direction"] == "fixed" else "red"
            c.add_row(r["document"], r["type"], r["side"], f"{r['start']}-{r['end']}", r["text"] or "",
                      r["before"], r["after"], Text(r["direction"], style=colour))
        print_table(console, c)


def _extra(view: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    """The error rate and false positives columns the view asks for: their keys and headers."""
    keys, names = [], []
    if view.get("error_rate"):
        keys.append("error_rate")
        names.append("Error rate")
    if view.get("fp_per"):
        keys.append("false_positives")
        names.append(f"FP/{view['fp_per']}")
    return keys, names


def _lower_better(before: float, after: float) -> Any:
    """``before → after`` for a figure where lower is better (green when it fell)."""
    from rich.text import Text

    text = f"{before:.4f} → {after:.4f}"     # (NaN, a document without tokens or sentences: uncoloured)
    if after < before - 1e-12:
        return Text(text, style="green")
    if after > before + 1e-12:
        return Text(text, style="red")
    return text


def _render_corpus(rows: list[dict[str, Any]], beta: float, console: Any,
                   view: Mapping[str, Any] | None = None) -> None:
    from .table import new_table, print_table

    extra, extra_names = _extra(view or {})
    t = new_table("over the corpus, by type (before → after)", ["Type", "Correct", "Partial", "Missing", "Spurious",
                                                                 "Precision", "Recall", f"F{beta:g}", *extra_names])
    for i, r in enumerate(rows):
        b, a = r["before"], r["after"]
        counts = [f"{b[k]} → {a[k]}" if k in b else "" for k in ("correct", "partial", "missing", "spurious")]
        if i == len(rows) - 2:
            t.add_section()
        t.add_row(r["type"], *counts, *(_arrow(b[k], a[k]) for k in _FIGURES),
                  *(_lower_better(b[k], a[k]) for k in extra),
                  style="bold" if i == len(rows) - 2 else ("italic" if i == len(rows) - 1 else None))
    print_table(console, t)


def render_below_threshold(rows: list[dict[str, Any]], threshold: float, console: Any) -> None:
    from .table import new_table, print_table

    t = new_table(f"annotations of the document types whose precision or recall is below {threshold:g} (after)",
                  ["Document", "Type", "P", "R", "Outcome", "Side", "Span", "Text"], first=8)
    for r in rows:
        t.add_row(r["document"], r["type"], f"{r['precision']:.4f}", f"{r['recall']:.4f}", r["outcome"], r["side"],
                  f"{r['start']}-{r['end']}", r["text"])
    if rows:
        print_table(console, t)
    else:
        console.print(f"no document type is below {threshold:g} in precision and recall")


def _cell(before: float, after: float, lower_better: bool = False) -> dict[str, str]:
    """A ``before → after`` cell of the page, ``better`` or ``worse`` as the terminal's green and red."""
    change = ""
    if after > before + 1e-12:
        change = "worse" if lower_better else "better"
    elif after < before - 1e-12:
        change = "better" if lower_better else "worse"
    return {"text": f"{before:.4f} → {after:.4f}", "change": change}


def benchmark_section(view: Mapping[str, Any], below: list[dict[str, Any]] | None = None,
                      threshold: float | None = None) -> str:
    """The HTML of the tables :func:`render_benchmark` and :func:`render_below_threshold` print: the figures by
    document and type, the corpus table by type with the micro row and the macro average over documents, the
    changed annotations (fixed and broken) and, with ``threshold``, the annotations below it (``view``:
    :func:`accord.diff._views.benchmark_view`; ``below``: :func:`accord.diff._views.below_threshold`)."""
    from ._csp import page_environment

    extra, extra_names = _extra(view)
    rows = []
    for i, r in enumerate(view["rows"]):
        cells = [_cell(r["before"][k], r["after"][k]) for k in _FIGURES]
        cells += [_cell(r["before"][k], r["after"][k], lower_better=True) for k in extra]
        rows.append({"document": r["document"], "type": r["type"], "cells": cells, "fixed": r["fixed"],
                     "broken": r["broken"], "total": i == len(view["rows"]) - 1})
    corpus = []
    for i, r in enumerate(view["corpus"]):
        b, a = r["before"], r["after"]
        cells = [_cell(b[k], a[k]) for k in _FIGURES] + [_cell(b[k], a[k], lower_better=True) for k in extra]
        corpus.append({"type": r["type"], "cells": cells, "total": i >= len(view["corpus"]) - 2,
                       "counts": [f"{b[k]} → {a[k]}" if k in b else ""
                                  for k in ("correct", "partial", "missing", "spurious")]})
    template = page_environment().get_template("_benchmark.html")
    return template.render(measure=view["measure"], beta=f"{view['beta']:g}", extra_names=extra_names, rows=rows,
                           corpus=corpus, changes=view["changes"], below=below or [],
                           threshold=None if threshold is None else f"{threshold:g}")


def benchmark_html(page: str, section: str) -> str:
    """The two runs' page (:func:`accord.report.html_report.report_html`) with the benchmark's tables
    (:func:`benchmark_section`) first, under the page's menu, and a link to them in the menu."""
    head, sep, rest = page.partition("</nav>\n")
    if not sep:
        raise ValueError("the report page has no menu to put the benchmark's tables under")
    head = head.replace("<nav>", '<nav><a href="#benchmark">Corpus Benchmark</a>', 1)
    return head + sep + section + "\n" + rest
