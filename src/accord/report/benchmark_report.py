"""Outputs of ``accord benchmark``: the before/after table, its CSV, and the changed annotations."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from ..diff._benchmark import Benchmark
from .serialize import json_text

__all__ = ["render_benchmark", "benchmark_csv", "benchmark_json", "change_rows"]

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


def benchmark_json(bench: Benchmark, measure: str, beta: float) -> str:
    return json_text({"measure": measure, "beta": beta, "rows": bench.rows(measure, beta),
                       "changes": change_rows(bench)}, indent=2)


def benchmark_csv(bench: Benchmark, measure: str, beta: float) -> str:
    """One row per (document, type) and the total: counts and figures before and after."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    counts = ("correct", "partial", "missing", "spurious")
    w.writerow(["document", "type", *(f"{k}_{s}" for s in ("before", "after") for k in counts + _FIGURES),
                "fixed", "broken"])
    for r in bench.rows(measure, beta):
        w.writerow([r["document"], r["type"], *(r[s][k] for s in ("before", "after") for k in counts + _FIGURES),
                    r["fixed"], r["broken"]])
    return buf.getvalue()


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
