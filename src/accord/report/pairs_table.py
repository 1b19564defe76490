"""The pairs mode's terminal table (``accord score``): labels, aggregations, decompositions, all labels, the macro
mean, and the result's tables after it (the units' measures and confusability matrices), all drawn from the
result's measures and tables."""

from __future__ import annotations

import math
from typing import Any

from .result_tables import render_tables
from .table import RATES, TableConsole, new_table, percent, print_table, row_interval

__all__ = ["render_table"]


def _rates(block: Any) -> tuple[float, float, float]:
    """Precision, recall and F of a block, NaN where undefined."""
    return tuple(math.nan if block[k] is None else block[k] for k in RATES)  # type: ignore[return-value]


def render_table(result: Any, console: Any = None, title: str | None = None) -> None:
    """Print the corpus rows of the main measure: labels, aggregations, decompositions, all labels and the macro
    mean; then the result's tables (:attr:`accord.result.Result.tables`).

    Rates are percentages with two decimals, as conlleval and seqscore print them.
    """
    console = console or TableConsole()
    main = result.main
    beta = main.kind.beta
    groups = main.groups()
    decompositions, aggregations = groups.get("decompositions", {}), groups.get("aggregations", {})
    totals = result.totals
    f_name = "F1" if beta == 1 else f"F{beta:g}"
    clashes = totals.gold_clash or totals.pred_clash
    columns = ["gold", "pred", "match"] + (["g.clash", "p.clash"] if clashes else []) + ["missing", "spurious"]
    profile = result.options.get("profile")
    if profile and profile != "strict":    # strict is the default of column files: said only when it is not
        title = f"{title} (profile {profile})" if title else f"profile {profile}"
    table = new_table(title, ["label"] + columns + ["P %", "R %", f"{f_name} %"])
    measure = next(iter(result.measures))

    def add(name: str, counts: Any, row: tuple, style: str | None = None) -> None:
        p, r, f = _rates(counts)
        cells = [counts.gold, counts.pred, counts.match] + (
            [counts.gold_clash, counts.pred_clash] if clashes else []) + [counts.missing, counts.spurious]
        rates = [percent(x, row_interval(result, measure, row, k)) for x, k in zip((p, r, f), RATES)]
        table.add_row(name, *map(str, cells), *rates, style=style)

    for lbl, counts in result.by_label.items():
        add(lbl, counts, ("label", lbl))
        for sub, c in decompositions.get(lbl, {}).items():
            add(f"  {lbl} [{sub}]", c, ("decomposition", lbl, sub), "dim")
    for name, c in aggregations.items():
        add(f"{name} (aggregate)", c, ("aggregation", name), "italic")
    table.add_section()
    add("ALL", totals, ("all",), "bold")
    macro = result.macro()
    table.add_row("macro", *([""] * len(columns)), *(percent(macro[k], row_interval(result, measure, ("macro",), k))
                                                     for k in RATES), style="dim")
    print_table(console, table)
    render_tables(result, console)
