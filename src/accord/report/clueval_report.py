"""Outputs of ``accord score --match clueval``: the lenient levels as a table, JSON and CSV."""

from __future__ import annotations

import csv
import io
from typing import Any

from .serialize import json_text
from ..clueval import CLASS_NAMES, LEVELS, ClueEvaluation

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



def render_clueval(result: Any, console: Any = None) -> None:
    """Every level (the chosen one first, in bold), the chosen level by label, the coverage classes."""
    from .result_table import render_result
    from .table import TableConsole, new_table, print_table

    console = console or TableConsole()
    render_result(result, console)
    ct = new_table("coverage classes (recall: gold spans; precision: predicted spans)",
                   ["side", *CLASS_NAMES, "total"])
    for side, label in (("gold", "gold"), ("pred", "predicted")):
        counts = result.class_counts(side)
        ct.add_row(label, *(str(counts[k]) for k in CLASS_NAMES), str(sum(counts.values())))
    print_table(console, ct)
