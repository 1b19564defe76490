"""A result's tables on the terminal (:attr:`accord.result.Result.tables`): notes, tables of cells, and the
measures a table stands for, drawn by their kind (MAT's token, pseudo-token and character scores with their
accuracies; any other kind as its counts and P, R, F by label)."""

from __future__ import annotations

from typing import Any

from .table import percent

__all__ = ["draw_table", "render_measure", "render_tables", "render_units_measure"]


def render_units_measure(unit: str, measure: Any, console: Any) -> None:
    """A measure of MAT's units: labels, counts, P/R/F and MAT's accuracies."""
    from .table import new_table, print_table

    total = measure.totals()
    t = new_table(f"by {unit} ({total['test_units']:,} test {unit}s)",
                  ["label", "match", "g.clash", "p.clash", "missing", "spurious", "P %", "R %", "F %",
                   "tag-sens. acc %", "tag-blind acc %"])
    rows = list(measure.by_label().items()) + [(None, total)]
    for lbl, b in rows:
        if lbl is None:
            t.add_section()
        t.add_row("ALL" if lbl is None else lbl, *(str(b[k]) for k in ("match", "gold_clash", "pred_clash",
                                                                      "missing", "spurious")),
                  percent(b["precision"]), percent(b["recall"]), percent(b["f1"]),
                  percent(b["tag_sensitive_accuracy"]), percent(b["tag_blind_accuracy"]),
                  style="bold" if lbl is None else None)
    print_table(console, t)


def render_measure(name: str, measure: Any, console: Any, title: str | None = None, result: Any = None) -> None:
    """A measure a table stands for, by its kind: the units' table (:func:`render_units_measure`), or the kind's
    count columns and P, R, F by label, then all labels (with the intervals of ``result``'s bootstrap)."""
    if measure.kind.name == "units":
        render_units_measure(name, measure, console)
        return
    from .result_table import count_text
    from .table import RATES, new_table, print_table, row_interval

    columns = list(measure.kind.columns)
    t = new_table(title or name, ["label", *(h for h, _ in columns), "P %", "R %", "F %"])
    rows = list(measure.by_label().items()) + [(None, measure.totals())]
    for lbl, b in rows:
        if lbl is None:
            t.add_section()
        row = ("all",) if lbl is None else ("label", lbl)
        t.add_row("ALL" if lbl is None else lbl, *(count_text(b[k]) for _, k in columns),
                  *(percent(b.get(k), row_interval(result, name, row, k)) for k in RATES),
                  style="bold" if lbl is None else None)
    print_table(console, t)


def render_tables(result: Any, console: Any) -> None:
    """Every table of ``result`` in order: a note (in yellow), a measure the table stands for (drawn by its kind),
    or a table of cells under its caption."""
    measures = None
    for table in result.tables:
        if table.note is not None and not table.columns:
            console.print(f"[yellow]{table.note}[/yellow]")
            continue
        if table.measure is not None:
            measures = measures if measures is not None else result.csv_measures()
            render_measure(table.measure, measures[table.measure], console, table.caption, result)
            continue
        draw_table(table, console)


def draw_table(table: Any, console: Any) -> None:
    """One :class:`~accord.result.ResultTable` of cells under its caption, with its rows' styles and sections."""
    from .table import new_table, print_table

    t = new_table(table.caption, list(table.columns), first=table.first)
    sections = set(table.sections)
    for k, row in enumerate(table.rows):
        if k in sections:
            t.add_section()
        t.add_row(*row, style=table.styles[k] if table.styles else None)
    print_table(console, t)
