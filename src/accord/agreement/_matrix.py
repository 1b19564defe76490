"""The annotator-by-annotator agreement matrix (GATE guide 10.7) as data: each pair's F, the averages, each pair's
counts by document and type, for :mod:`accord.report.agreement_matrix` to draw."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._spans import SpanAgreement

__all__ = ["annotator_view", "matrix_view", "page_views"]


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


def annotator_view(result: Any, matrix: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Each annotator's agreement with the others, one row per annotator, drawn from what the result holds:

    * the spans (or units) it marked, from the disputes (``result.disputes``) or the units' counts;
    * its mean F with the others (the matrix's average of its row, micro over documents and types), when ``matrix``;
    * each pairwise coefficient's mean over the pairs it is in (the totals' ``coefficients`` with ``pairs``);
    * every per-annotator figure the result holds (in its totals or its other parts, at any depth): a list of
      rows with an ``annotator`` (GATE's each annotator against the majority of the others: its P, R and F1) or a
      mapping keyed by the annotators (a reliability an aggregation reports, the agreement with a reference),
      numeric entries only;
    * the disputed stretches in which its spans are not the majority's (``result.disputes``).

    Returns ``{"columns": [(figure, how), ...], "rows": [(annotator, [value, ...]), ...]}`` (None where a figure
    does not apply to an annotator): ``figure`` a key of the result (a coefficient's name, ``spans``,
    ``against_majority``...), ``how`` what of it (``mean of its pairs``, ``f1``...)."""
    data = result.to_dict()
    totals = data["totals"]
    names = list(totals.get("raters") or totals.get("annotators") or [])
    columns: list[tuple[str, str]] = []
    values: dict[str, dict[tuple[str, str], Any]] = {n: {} for n in names}

    def put(column: tuple[str, str], name: str, value: Any) -> None:
        if column not in columns:
            columns.append(column)
        if name not in values:     # a set the coefficients keep apart (GATE's consensus) has its row of the matrix
            names.append(name)
            values[name] = {}
        values[name][column] = value

    disputes = getattr(result, "disputes", None)
    if disputes is not None:
        for n in names:
            put(("spans", ""), n, disputes["spans_by_annotator"].get(n))
    for key, v in totals.items():
        if key == "units_per_annotator" and isinstance(v, Mapping):
            for n in names:
                put(("units", ""), n, v.get(n))
    if matrix is not None:
        for n, _, avg in matrix["grid"]:
            put((f"F{matrix['beta']:g} ({matrix['measure']})", "mean of its row of the matrix"), n, avg["micro"])
    for coefficient, v in (totals.get("coefficients") or {}).items():
        if not (isinstance(v, Mapping) and v.get("pairs")):
            continue
        for n in names:
            mine = [p["value"] for p in v["pairs"] if n in p["raters"] and p["value"] is not None]
            put((coefficient, "mean of its pairs"), n, sum(mine) / len(mine) if mine else None)
    parts = [(k, v) for k, v in totals.items() if k not in ("coefficients", "units_per_annotator", "raters",
                                                            "annotators")]
    parts += [(k, v) for k, v in data.items() if k not in _RESULT_PARTS and k not in totals]
    for key, v in parts:
        _per_annotator(key, v, set(names), put)
    if disputes is not None:
        for n in names:
            put(("disputed stretches", "where its spans are not the majority's"), n, disputes["by_annotator"].get(n, 0))
    return {"columns": columns, "rows": [(n, [values[n].get(c) for c in columns]) for n in names]}


_RESULT_PARTS = ("schema_version", "generator", "command", "mode", "options", "inputs", "totals", "by_label",
                 "by_document", "span_agreement", "alignment")


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _leaves(v: Any, path: str = "") -> list[tuple[str, Any]]:
    """The numeric entries of a mapping, nested ones named by their path (``coefficients cohen_kappa``)."""
    if _is_number(v):
        return [(path, v)]
    if isinstance(v, Mapping):
        return [leaf for k, x in v.items() for leaf in _leaves(x, f"{path} {k}".strip())]
    return []


def _per_annotator(key: str, v: Any, names: set[str], put: Any, depth: int = 0) -> None:
    """The per-annotator figures within ``v``: rows with an ``annotator`` (their rates: their counts are in the
    result's own table), or a mapping keyed by annotators (each one's numeric entries), found at any depth."""
    if isinstance(v, list) and v and all(isinstance(r, Mapping) and r.get("annotator") in names for r in v):
        for r in v:
            for field, x in r.items():
                if field != "annotator" and isinstance(x, float):
                    put((key, field), r["annotator"], x)
    elif isinstance(v, Mapping) and v and set(v) <= names:
        for n, x in v.items():
            for field, y in _leaves(x):
                put((key, field), n, y)
    elif isinstance(v, Mapping) and depth < 3:
        for k, x in v.items():
            _per_annotator(key if k in ("annotators", "per_annotator") else f"{key} {k}", x, names, put, depth + 1)


def page_views(result: Any, measure: str = "strict", beta: float = 1.0) -> dict[str, Any]:
    """What the agreement page draws beyond the result's own figures: the annotator matrix (when the result holds
    the span agreement, ``result.source``) and each annotator's row (:func:`annotator_view`), as keyword arguments
    of :func:`accord.report.agreement_page.agreement_html`."""
    source = getattr(result, "source", None)
    matrix = matrix_view(source, measure, beta) if source is not None else None
    return {"matrix": matrix, "annotators": annotator_view(result, matrix)}
