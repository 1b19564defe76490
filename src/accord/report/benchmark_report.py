"""Outputs of ``accord benchmark``: the before/after table, its CSV, and the changed annotations."""

from __future__ import annotations

import json
from typing import Any

from ..diff._benchmark import Benchmark

__all__ = ["render_benchmark", "change_rows"]

_FIGURES = ("precision", "recall", "f")


def change_rows(bench: Benchmark) -> list[dict[str, Any]]:
    """One dict per changed annotation: where, what, its outcome before and after, fixed or broken."""
    out = []
    for c in bench.changes:
        a = c.annotation
        text = bench.after.texts.get(c.document) or bench.before.texts.get(c.document)
        out.append({"document": c.document, "type": c.type, "side": c.side, "start": a.start, "end": a.end,
                    "text": text[a.start:a.end] if text is not None else None,  # type: ignore[index]
                    "features": json.dumps(dict(a.attributes), ensure_ascii=False, default=str),
                    "before": c.before, "after": c.after, "direction": c.direction})
    return out


def _arrow(before: float, after: float) -> str:
    text = f"{before:.4f} → {after:.4f}"
    if after > before + 1e-12:
        return f"[green]{text}[/green]"
    if after < before - 1e-12:
        return f"[red]{text}[/red]"
    return text


def render_benchmark(bench: Benchmark, measure: str, beta: float, console: Any = None) -> None:
    """The before → after table (green better, red worse), then the changed annotations."""
    from .table import TableConsole, new_table, print_table

    console = console or TableConsole()
    t = new_table(f"{measure} measure, before → after", ["Document", "Type", "Precision", "Recall", f"F{beta:g}",
                                                          "Fixed", "Broken"], first=2)
    rows = bench.rows(measure, beta)
    for i, r in enumerate(rows):
        if i == len(rows) - 1:
            t.add_section()
        t.add_row(r["document"], r["type"], *(_arrow(r["before"][k], r["after"][k]) for k in _FIGURES),
                  str(r["fixed"]), str(r["broken"]), style="bold" if i == len(rows) - 1 else None)
    print_table(console, t)
    if bench.changes:
        c = new_table("annotations that changed", ["Document", "Type", "Side", "Span", "Text", "Before", "After",
                                                   ""], first=8)
        for r in change_rows(bench):
            colour = "green" if r["direction"] == "fixed" else "red"
            c.add_row(r["document"], r["type"], r["side"], f"{r['start']}-{r['end']}", r["text"] or "",
                      r["before"], r["after"], f"[{colour}]{r['direction']}[/{colour}]")
        print_table(console, c)
