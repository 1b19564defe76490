"""The terminal table (rich)."""

from __future__ import annotations

from typing import Any

from ._report import Report

__all__ = ["render_table", "percent"]


def percent(x: float | None) -> str:
    """A rate as a percentage with two decimals (conlleval's and seqscore's way), ``—`` when undefined."""
    return "—" if x is None or x != x else f"{100 * x:.2f}"


def render_table(report: Report, console: Any = None, title: str | None = None) -> None:
    """Print the corpus rows: labels, aggregations, decompositions, all labels and the macro mean.

    Rates are percentages with two decimals, as conlleval and seqscore print them.
    """
    from rich.console import Console
    from rich.table import Table

    console = console or Console()
    f_name = "F1" if report.beta == 1 else f"F{report.beta:g}"
    table = Table(title=title, show_edge=False, header_style="bold")
    clashes = report.totals.gold_clash or report.totals.pred_clash
    columns = ["gold", "pred", "match"] + (["g.clash", "p.clash"] if clashes else []) + ["missing", "spurious"]
    table.add_column("label", no_wrap=True)
    for col in columns + ["P %", "R %", f"{f_name} %"]:
        table.add_column(col, justify="right", no_wrap=True)

    def add(name: str, counts: Any, style: str | None = None) -> None:
        p, r, f = report.rates(counts)
        cells = [counts.gold, counts.pred, counts.match] + (
            [counts.gold_clash, counts.pred_clash] if clashes else []) + [counts.missing, counts.spurious]
        table.add_row(name, *map(str, cells), percent(p), percent(r), percent(f), style=style)

    for lbl, counts in report.by_label.items():
        add(lbl, counts)
        for sub, c in report.decompositions.get(lbl, {}).items():
            add(f"  {lbl} [{sub}]", c, "dim")
    for name, c in report.aggregations.items():
        add(f"{name} (aggregate)", c, "italic")
    table.add_section()
    add("ALL", report.totals, "bold")
    macro = report.macro()
    table.add_row("macro", *([""] * len(columns)), percent(macro["precision"]), percent(macro["recall"]),
                  percent(macro["f1"]), style="dim")
    console.print(table)
    if report.units:
        from .units_report import render_units
        render_units(report.units, report.beta, report.zero_division, console)
