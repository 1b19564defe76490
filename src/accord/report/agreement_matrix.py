"""The annotator-by-annotator agreement matrix (GATE guide 10.7) as one self-contained HTML page."""

from __future__ import annotations

import math
from typing import Any

from ..agreement._spans import SpanAgreement

__all__ = ["matrix_html", "matrix_context", "cell_colour"]


def cell_colour(value: float | None) -> str:
    """Background of a score: green at 1.0, white at 0.5, dark red at 0.0 (linear in between)."""
    if value is None or math.isnan(value):
        return "transparent"
    v = min(max(value, 0.0), 1.0)
    if v >= 0.5:
        return f"rgba(0,150,0,{(v - 0.5) * 2:.3f})"
    return f"rgba(150,0,0,{(0.5 - v) * 2:.3f})"


def _anchor(a: str, b: str) -> str:
    return "pair-" + "".join(c if c.isalnum() else "_" for c in f"{a}--{b}")


def matrix_context(sa: SpanAgreement, measure: str = "strict", beta: float = 1.0) -> dict[str, Any]:
    """What ``_matrix.html`` draws: each cell the pair's F (micro over documents and types; macro, the mean over
    documents, beside it), linking to the pair's per-document and per-type counts; an average column per
    annotator (mean of its cells) and the mean over pairs."""
    names = list(sa.annotators)
    grid: list[list[dict[str, Any] | None]] = []
    averages = []
    for a in names:
        row: list[dict[str, Any] | None] = []
        micro, macro = [], []
        for b in names:
            if a == b:
                row.append(None)
                continue
            mi, ma = sa.f(a, b, measure, beta, "micro"), sa.f(a, b, measure, beta, "macro")
            micro.append(mi)
            macro.append(ma)
            key = (a, b) if (a, b) in sa.cells else (b, a)
            row.append({"micro": mi, "macro": ma, "colour": cell_colour(mi), "anchor": _anchor(*key)})
        grid.append(row)
        averages.append({"micro": sum(micro) / len(micro), "macro": sum(macro) / len(macro),
                         "colour": cell_colour(sum(micro) / len(micro))})
    details = []
    for a, b in sa.pairs:
        docs = []
        for d, by_type in sa.cells[(a, b)].items():
            docs.append({"document": d, "total": sa.counts(a, b, document=d),
                         "types": [(t, c) for t, c in by_type.items() if c.keys or c.responses]})
        details.append({"a": a, "b": b, "anchor": _anchor(a, b), "total": sa.counts(a, b), "documents": docs})
    return {"names": names, "grid": list(zip(names, grid, averages)), "details": details, "measure": measure,
            "beta": beta, "mean": sa.mean_over_pairs(measure, beta), "types": sa.types,
            "feature": sa.to_dict(measure, beta)["feature"], "colour": cell_colour}


def matrix_html(sa: SpanAgreement, measure: str = "strict", beta: float = 1.0,
                title: str = "Annotator agreement") -> str:
    """The annotator matrix (:func:`matrix_context`) as a page of its own."""
    from ._csp import page_environment

    env = page_environment()   # scripts allowed by their hashes
    return env.get_template("matrix.html").render(title=title, **matrix_context(sa, measure, beta))
