"""JSON and CSV renderings of a report."""

from __future__ import annotations

import csv
import io
import json
import math

import numpy as np

from ._report import Report

__all__ = ["to_json", "to_csv", "json_text", "CSV_COLUMNS"]

CSV_COLUMNS = ("document", "row", "label", "subset", "gold", "pred", "match", "gold_clash", "pred_clash",
               "missing", "spurious", "precision", "recall", "f1")


def _finite(value: object) -> object:
    """``value`` with every NaN or infinite float replaced by ``None`` (JSON has no NaN)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    if isinstance(value, np.generic):
        return _finite(value.item())
    return value


def json_text(obj: object, indent: int | None = 2, **options: object) -> str:
    """Every JSON output of accord: standard JSON, an undefined rate (NaN) written as ``null``."""
    return json.dumps(_finite(obj), indent=indent, ensure_ascii=False, allow_nan=False, **options)


def to_json(report: Report, indent: int | None = 2) -> str:
    """The report as JSON text (NaN rates are written as ``null``)."""
    return json_text(report.to_dict(), indent=indent)


def to_csv(report: Report) -> str:
    """One CSV row per (document or ``<all>``) x (label, aggregation, decomposition, ``<all>``); with
    token, pseudo-token or character scores, their rows follow (``row`` names the unit)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)

    def row(doc: str, kind: str, label: str, subset: str, counts) -> None:  # noqa: ANN001
        blk = report.block(counts)
        w.writerow([doc, kind, label, subset] + [_fmt(blk[c]) for c in CSV_COLUMNS[4:]])

    tally = report.tally
    for doc in list(tally.docs) + [None]:
        name = "<all>" if doc is None else doc
        for lbl in sorted(tally.labels):
            c = tally.counts(lbl, doc)
            if doc is None or c.gold or c.pred:
                row(name, "label", lbl, "", c)
            for sub in sorted(tally.decompositions.get(lbl, ())):
                row(name, "decomposition", lbl, sub, tally.counts(f"{lbl}|{sub}", doc))
        for agg in tally.aggregations:
            row(name, "aggregation", agg, "", tally.counts(agg, doc))
        row(name, "all", "<all>", "", tally.total(doc))
    if report.units:
        from .units_report import units_csv_rows
        w.writerows(units_csv_rows(report.units, report.beta, report.zero_division, CSV_COLUMNS))
    return buf.getvalue()


def _fmt(v: object) -> object:
    return "" if v is None else v
