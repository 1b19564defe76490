"""Rows of named metrics (coreference, Smatch): terminal table, JSON and CSV.

The JSON is ``{"metrics": {NAME: BLOCK}, "by_document": {DOC: {NAME: BLOCK}}}`` where a
BLOCK holds ``recall``, ``precision``, ``f1`` (fractions) and the metric's raw counts.
The CSV has one row per document and metric, the corpus as document ``<all>``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from typing import Any

from .serialize import json_text

__all__ = ["metric_rows_json", "metric_rows_csv", "render_metric_table"]

Block = Mapping[str, float]


def metric_rows_json(totals: Mapping[str, Block], by_document: Mapping[str, Mapping[str, Block]],
                     extra: Mapping[str, Any] | None = None) -> str:
    out: dict[str, Any] = {"metrics": dict(totals), "by_document": {d: dict(v) for d, v in by_document.items()}}
    out.update(extra or {})
    return json_text(out, indent=2, sort_keys=False)


def metric_rows_csv(totals: Mapping[str, Block], by_document: Mapping[str, Mapping[str, Block]]) -> str:
    keys: list[str] = []
    for block in totals.values():
        keys.extend(k for k in block if k not in keys)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["document", "metric", *keys])
    for doc, rows in [("<all>", totals), *by_document.items()]:
        for name, block in rows.items():
            w.writerow([doc, name, *(block.get(k, "") for k in keys)])
    return buf.getvalue()


def render_metric_table(totals: Mapping[str, Block], console: Any = None, title: str | None = None,
                        counts: tuple[str, ...] = ()) -> None:
    """A table of metrics with recall, precision and F1 in percent (two decimals) and chosen counts."""
    from rich.console import Console
    from rich.table import Table

    console = console or Console()
    table = Table(title=title, show_edge=False, header_style="bold")
    table.add_column("metric", no_wrap=True)
    short = {"recall_num": "R num", "recall_den": "R den", "precision_num": "P num", "precision_den": "P den",
             "test_triples": "test", "gold_triples": "gold"}
    for col in counts:
        table.add_column(short.get(col, col), justify="right", no_wrap=True)
    for col in ("R %", "P %", "F1 %"):
        table.add_column(col, justify="right", no_wrap=True)
    for name, b in totals.items():
        table.add_row(name, *(f"{b.get(c, 0):.6g}" for c in counts),
                      *(f"{100 * b[k]:.2f}" for k in ("recall", "precision", "f1")))
    console.print(table)
