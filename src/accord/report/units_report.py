"""Token, pseudo-token and character scores in the report: JSON block, CSV rows, terminal tables."""

from __future__ import annotations

from typing import Any

from ..units import UnitScores, accuracies
from .table import percent

__all__ = ["units_dict", "units_csv_rows", "render_units", "confusability_rows"]

_NULL = "null"


def _name(label: str | None) -> str:
    return _NULL if label is None else label


def confusability_rows(scores: UnitScores) -> tuple[list[str], list[str], dict[tuple[str, str], int]]:
    """Predicted labels (rows), gold labels (columns), both sorted with ``null`` last, and the cells."""
    cells = {(_name(p), _name(g)): n for (p, g), n in (scores.confusability or {}).items()}
    names = sorted({x for key in cells for x in key if x != _NULL} | set(scores.labels)) + [_NULL]
    return names, names, cells


def _row(scores: UnitScores, label: str | None, beta: float, zero_division: str,
         document: str | None = None) -> dict[str, Any]:
    counts = scores.counts(label, document)
    test = scores.test_size(document)
    return {"test_units": test, **counts.to_dict(beta, zero_division), **accuracies(counts, test)}


def units_dict(units: dict[str, UnitScores], beta: float, zero_division: str) -> dict[str, Any]:
    """One block per unit: totals and labels with MAT's accuracies, per document, the confusability cells."""
    out: dict[str, Any] = {}
    for unit, scores in units.items():
        if scores.skipped:
            out[unit] = {"skipped": scores.skipped}
            continue
        block: dict[str, Any] = {
            "totals": _row(scores, None, beta, zero_division),
            "by_label": {lbl: _row(scores, lbl, beta, zero_division) for lbl in scores.labels},
            "by_document": {doc: _row(scores, None, beta, zero_division, doc) for doc in scores.by_document},
        }
        if scores.confusability is not None:
            block["confusability"] = [{"pred": p, "gold": g, "count": n}
                                      for (p, g), n in sorted(confusability_rows(scores)[2].items())]
        elif scores.confusability_note:
            block["confusability_skipped"] = scores.confusability_note
        out[unit] = block
    return out


def units_csv_rows(units: dict[str, UnitScores], beta: float, zero_division: str,
                   columns: tuple[str, ...]) -> list[list[Any]]:
    """Rows for the report CSV: ``row`` is the unit, one row per document and label plus ``<all>``."""
    rows = []
    for unit, scores in units.items():
        if scores.skipped:
            continue
        for doc in list(scores.by_document) + [None]:
            for lbl in scores.labels + [None]:
                block = _row(scores, lbl, beta, zero_division, doc)
                rows.append(["<all>" if doc is None else doc, unit, "<all>" if lbl is None else lbl, ""] +
                            ["" if block[c] is None else block[c] for c in columns[4:]])
    return rows



def render_units(units: dict[str, UnitScores], beta: float, zero_division: str, console: Any) -> None:
    """A table per unit (labels, counts, P/R/F, MAT's accuracies) and the confusability matrix."""
    from rich.table import Table

    for unit, scores in units.items():
        if scores.skipped:
            console.print(f"[yellow]by {unit}: not scored: {scores.skipped}[/yellow]")
            continue
        t = Table(title=f"by {unit} ({scores.test_size():,} test {unit}s)", show_edge=False, header_style="bold")
        for col in ("label", "match", "g.clash", "p.clash", "missing", "spurious", "P %", "R %", "F %",
                    "tag-sens. acc %", "tag-blind acc %"):
            t.add_column(col, justify="left" if col == "label" else "right", no_wrap=True)
        for lbl in scores.labels + [None]:
            b = _row(scores, lbl, beta, zero_division)
            if lbl is None:
                t.add_section()
            t.add_row("ALL" if lbl is None else lbl, *(str(b[k]) for k in ("match", "gold_clash", "pred_clash",
                                                                          "missing", "spurious")),
                      percent(b["precision"]), percent(b["recall"]), percent(b["f1"]),
                      percent(b["tag_sensitive_accuracy"]), percent(b["tag_blind_accuracy"]),
                      style="bold" if lbl is None else None)
        console.print(t)
        if scores.confusability is not None:
            rows, cols, cells = confusability_rows(scores)
            m = Table(title=f"{unit} confusability (rows: predicted, columns: gold)", show_edge=False,
                      header_style="bold")
            m.add_column("")
            for c in cols:
                m.add_column(f"{c} (gold)", justify="right", no_wrap=True)
            for r in rows:
                m.add_row(f"{r} (pred)", *(str(cells.get((r, c), 0)) for c in cols))
            console.print(m)
        elif scores.confusability_note:
            console.print(f"[yellow]{unit} confusability not built: {scores.confusability_note}[/yellow]")
