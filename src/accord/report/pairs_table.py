"""The pairs mode's terminal table (``accord score``): labels, aggregations, decompositions, all labels, the macro
mean, and the units' tables after it."""

from __future__ import annotations

from typing import Any

from ._report import Report
from .table import RATES, TableConsole, new_table, percent, print_table, row_interval
from .units_report import render_units

__all__ = ["render_table"]


def render_table(report: Report, console: Any = None, title: str | None = None) -> None:
    """Print the corpus rows: labels, aggregations, decompositions, all labels and the macro mean.

    Rates are percentages with two decimals, as conlleval and seqscore print them.
    """
    console = console or TableConsole()
    f_name = "F1" if report.beta == 1 else f"F{report.beta:g}"
    clashes = report.totals.gold_clash or report.totals.pred_clash
    columns = ["gold", "pred", "match"] + (["g.clash", "p.clash"] if clashes else []) + ["missing", "spurious"]
    profile = report.options.get("profile")
    if profile and profile != "strict":    # strict is the default of column files: said only when it is not
        title = f"{title} (profile {profile})" if title else f"profile {profile}"
    table = new_table(title, ["label"] + columns + ["P %", "R %", f"{f_name} %"])

    def add(name: str, counts: Any, row: tuple, style: str | None = None) -> None:
        p, r, f = report.rates(counts)
        cells = [counts.gold, counts.pred, counts.match] + (
            [counts.gold_clash, counts.pred_clash] if clashes else []) + [counts.missing, counts.spurious]
        rates = [percent(x, row_interval(report, "pairs", row, k)) for x, k in zip((p, r, f), RATES)]
        table.add_row(name, *map(str, cells), *rates, style=style)

    for lbl, counts in report.by_label.items():
        add(lbl, counts, ("label", lbl))
        for sub, c in report.decompositions.get(lbl, {}).items():
            add(f"  {lbl} [{sub}]", c, ("decomposition", lbl, sub), "dim")
    for name, c in report.aggregations.items():
        add(f"{name} (aggregate)", c, ("aggregation", name), "italic")
    table.add_section()
    add("ALL", report.totals, ("all",), "bold")
    macro = report.macro()
    table.add_row("macro", *([""] * len(columns)), *(percent(macro[k], row_interval(report, "pairs", ("macro",), k))
                                                     for k in RATES), style="dim")
    print_table(console, table)
    if report.units:
        render_units(report, console)
