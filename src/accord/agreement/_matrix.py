"""The annotator-by-annotator agreement matrix (GATE guide 10.7) as data: each pair's F, the averages, each pair's
counts by document and type, for :mod:`accord.report.agreement_matrix` to draw."""

from __future__ import annotations

from typing import Any

from ._spans import SpanAgreement

__all__ = ["matrix_view"]


def _anchor(a: str, b: str) -> str:
    return "pair-" + "".join(c if c.isalnum() else "_" for c in f"{a}--{b}")


def _figures(c: Any, measure: str, beta: float) -> dict[str, Any]:
    """A pair's counts and its P, R and F under ``measure``."""
    return {"correct": c.correct, "partial": c.partial, "missing": c.missing, "spurious": c.spurious,
            "precision": c.precision(measure), "recall": c.recall(measure), "f": c.f(measure, beta)}


def matrix_view(sa: SpanAgreement, measure: str = "strict", beta: float = 1.0) -> dict[str, Any]:
    """Each cell the pair's F (micro over documents and types; macro, the mean over documents, beside it), with the
    anchor of the pair's per-document and per-type counts (``details``: counts and P, R, F); an average per
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
            row.append({"micro": mi, "macro": ma, "anchor": _anchor(*key)})
        grid.append(row)
        averages.append({"micro": sum(micro) / len(micro), "macro": sum(macro) / len(macro)})
    details = []
    for a, b in sa.pairs:
        docs = []
        for d, by_type in sa.cells[(a, b)].items():
            docs.append({"document": d, "total": _figures(sa.counts(a, b, document=d), measure, beta),
                         "types": [(t, _figures(c, measure, beta)) for t, c in by_type.items()
                                   if c.keys or c.responses]})
        details.append({"a": a, "b": b, "anchor": _anchor(a, b), "total": _figures(sa.counts(a, b), measure, beta),
                        "documents": docs})
    return {"names": names, "grid": list(zip(names, grid, averages)), "details": details, "measure": measure,
            "beta": beta, "mean": sa.mean_over_pairs(measure, beta), "types": sa.types,
            "feature": sa.to_dict(measure, beta)["feature"]}
