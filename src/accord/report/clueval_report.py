"""Outputs of ``accord score --match clueval``: the lenient levels as a table, JSON and CSV."""

from __future__ import annotations

import csv
import io
from typing import Any

from .serialize import json_text
from ..clueval import CLASS_NAMES, LEVELS, ClueEvaluation
from .table import percent

__all__ = ["clueval_dict", "clueval_json", "clueval_csv", "render_clueval", "CLUEVAL_CSV_COLUMNS"]

CLUEVAL_CSV_COLUMNS = ("level", "leniency", "mode", "scope", "key", "gold", "pred", "gold_hits", "pred_hits",
                       "false_negatives", "false_positives", "precision", "recall", "f1")


def _mode(labelled: bool) -> str:
    return "labelled" if labelled else "unlabelled"


def clueval_dict(ev: ClueEvaluation, level: int, labelled: bool) -> dict[str, Any]:
    """Everything: the chosen level first, every level and mode by label and document, the class counts."""
    b, z = ev.beta, ev.zero_division
    levels: dict[str, Any] = {}
    for lvl, lab in ev.levels():
        levels.setdefault(str(lvl), {"name": LEVELS[lvl - 1]})[_mode(lab)] = {
            "total": ev.counts(lvl, lab).to_dict(b, z),
            "by_label": {k: c.to_dict(b, z) for k, c in ev.counts(lvl, lab, "label").items()},
            "by_document": {k: c.to_dict(b, z) for k, c in ev.counts(lvl, lab, "document").items()},
        }
    return {
        "match": "clueval",
        "leniency": level,
        "leniency_name": LEVELS[level - 1],
        "mode": _mode(labelled),
        "total": ev.counts(level, labelled).to_dict(b, z),
        "levels": levels,
        "classes": {
            "gold": {"total": ev.class_counts("gold"), "by_label": ev.class_counts("gold", "label")},
            "pred": {"total": ev.class_counts("pred"), "by_label": ev.class_counts("pred", "label")},
        },
        "options": {"beta": b, "zero_division": z},
    }


def clueval_json(ev: ClueEvaluation, level: int, labelled: bool) -> str:
    """:func:`clueval_dict` as JSON text (undefined rates as ``null``)."""
    return json_text(clueval_dict(ev, level, labelled), indent=2)


def clueval_csv(ev: ClueEvaluation) -> str:
    """One row per level, mode and scope (total, each label, each document)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CLUEVAL_CSV_COLUMNS)
    for lvl, lab in ev.levels():
        scopes = [("total", "<all>", ev.counts(lvl, lab))]
        scopes += [("label", k, c) for k, c in ev.counts(lvl, lab, "label").items()]
        scopes += [("document", k, c) for k, c in ev.counts(lvl, lab, "document").items()]
        for scope, key, c in scopes:
            d = c.to_dict(ev.beta, ev.zero_division)
            w.writerow([lvl, LEVELS[lvl - 1], _mode(lab), scope, key] +
                       ["" if d[k] is None else d[k] for k in CLUEVAL_CSV_COLUMNS[5:]])
    return buf.getvalue()



def render_clueval(ev: ClueEvaluation, level: int, labelled: bool, console: Any = None) -> None:
    """Three tables: the chosen level by label, all levels side by side, the coverage classes."""
    from rich.console import Console
    from rich.table import Table

    console = console or Console()
    f_name = "F1" if ev.beta == 1 else f"F{ev.beta:g}"
    title = f"leniency {level} ({LEVELS[level - 1]}), {_mode(labelled)}"
    t = Table(title=title, show_edge=False, header_style="bold")
    for col in ("label", "gold", "pred", "R hits", "P hits", "FN", "FP", "P %", "R %", f"{f_name} %"):
        t.add_column(col, justify="left" if col == "label" else "right", no_wrap=True)

    def add(table: Table, name: str, c: Any, style: str | None = None) -> None:
        p, r, f = c.rates(ev.beta, ev.zero_division)
        table.add_row(name, *map(str, (c.gold, c.pred, c.gold_hits, c.pred_hits, c.missed, c.unsupported)),
                      percent(p), percent(r), percent(f), style=style)

    for name, c in ev.counts(level, labelled, "label").items():
        add(t, name, c)
    t.add_section()
    add(t, "ALL", ev.counts(level, labelled), "bold")
    console.print(t)

    lv = Table(title="all levels, labelled (lab) and unlabelled (unl), %", show_edge=False, header_style="bold")
    lv.add_column("level", no_wrap=True)
    for mode in ("lab", "unl"):
        for col in ("P", "R", f_name):
            lv.add_column(f"{mode} {col}", justify="right", no_wrap=True)
    for lvl in range(1, 5):
        cells = []
        for lab in (True, False):
            cells.extend(percent(x) for x in ev.counts(lvl, lab).rates(ev.beta, ev.zero_division))
        lv.add_row(f"{lvl} {LEVELS[lvl - 1]}", *cells, style="bold" if lvl == level else None)
    console.print(lv)

    ct = Table(title="coverage classes (recall: gold spans; precision: predicted spans)", show_edge=False,
               header_style="bold")
    ct.add_column("side", no_wrap=True)
    for name in CLASS_NAMES:
        ct.add_column(name, justify="right", no_wrap=True)
    ct.add_column("total", justify="right", no_wrap=True)
    for side, label in (("gold", "gold"), ("pred", "predicted")):
        counts = ev.class_counts(side)
        ct.add_row(label, *(str(counts[k]) for k in CLASS_NAMES), str(sum(counts.values())))
    console.print(ct)
