"""Token, pseudo-token and character scores on the terminal, and the confusability cells."""

from __future__ import annotations

from typing import Any

from ..units import UnitScores
from .table import percent

__all__ = ["render_units", "confusability_rows"]

_NULL = "null"


def _name(label: str | None) -> str:
    return _NULL if label is None else label


def confusability_rows(scores: UnitScores) -> tuple[list[str], list[str], dict[tuple[str, str], int]]:
    """Predicted labels (rows), gold labels (columns), both sorted with ``null`` last, and the cells."""
    cells = {(_name(p), _name(g)): n for (p, g), n in (scores.confusability or {}).items()}
    names = sorted({x for key in cells for x in key if x != _NULL} | set(scores.labels)) + [_NULL]
    return names, names, cells


def render_units(report: Any, console: Any) -> None:
    """A table per unit (labels, counts, P/R/F, MAT's accuracies) and the confusability matrix."""
    from .table import new_table, print_table

    measures = report.unit_measures()
    for unit, scores in report.units.items():
        if scores.skipped:
            console.print(f"[yellow]by {unit}: not scored: {scores.skipped}[/yellow]")
            continue
        m = measures[unit]
        total = m.totals()
        t = new_table(f"by {unit} ({total['test_units']:,} test {unit}s)",
                      ["label", "match", "g.clash", "p.clash", "missing", "spurious", "P %", "R %", "F %",
                       "tag-sens. acc %", "tag-blind acc %"])
        rows = list(m.by_label().items()) + [(None, total)]
        for lbl, b in rows:
            if lbl is None:
                t.add_section()
            t.add_row("ALL" if lbl is None else lbl, *(str(b[k]) for k in ("match", "gold_clash", "pred_clash",
                                                                          "missing", "spurious")),
                      percent(b["precision"]), percent(b["recall"]), percent(b["f1"]),
                      percent(b["tag_sensitive_accuracy"]), percent(b["tag_blind_accuracy"]),
                      style="bold" if lbl is None else None)
        print_table(console, t)
        if scores.confusability is not None:
            names, cols, cells = confusability_rows(scores)
            matrix = new_table(f"{unit} confusability (rows: predicted, columns: gold)",
                               [""] + [f"{c} (gold)" for c in cols])
            for r in names:
                matrix.add_row(f"{r} (pred)", *(str(cells.get((r, c), 0)) for c in cols))
            print_table(console, matrix)
        elif scores.confusability_note:
            console.print(f"[yellow]{unit} confusability not built: {scores.confusability_note}[/yellow]")
