"""Outputs of ``accord score --match semeval``: the four SemEval-2013 schemas as a table, JSON and CSV."""

from __future__ import annotations

import csv
import io
from typing import Any

from .serialize import json_text
from ..semeval import SCHEMAS, SemEvalResult
from .table import percent

__all__ = ["semeval_dict", "semeval_json", "semeval_csv", "render_semeval", "SEMEVAL_CSV_COLUMNS"]

SEMEVAL_CSV_COLUMNS = ("schema", "scope", "key", "correct", "incorrect", "partial", "missed", "spurious",
                       "correct_act", "incorrect_act", "partial_act", "possible", "actual", "precision", "recall",
                       "f1")


def semeval_dict(result: SemEvalResult) -> dict[str, Any]:
    """Every schema: the overall counts, by label and by document."""
    b, z = result.beta, result.zero_division
    return {"match": "semeval", "options": {"beta": b, "zero_division": z}, "schemas": {
        schema: {"total": result.counts(schema).to_dict(b, z),
                 "by_label": {k: c.to_dict(b, z) for k, c in result.counts(schema, "label").items()},
                 "by_document": {k: c.to_dict(b, z) for k, c in result.counts(schema, "document").items()}}
        for schema in SCHEMAS}}


def semeval_json(result: SemEvalResult) -> str:
    return json_text(semeval_dict(result), indent=2)


def semeval_csv(result: SemEvalResult) -> str:
    """One row per schema and scope (total, each label, each document)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(SEMEVAL_CSV_COLUMNS)
    for schema in SCHEMAS:
        scopes = [("total", "<all>", result.counts(schema))]
        scopes += [("label", k, c) for k, c in result.counts(schema, "label").items()]
        scopes += [("document", k, c) for k, c in result.counts(schema, "document").items()]
        for scope, key, c in scopes:
            d = c.to_dict(result.beta, result.zero_division)
            w.writerow([schema, scope, key] + ["" if d[k] is None else d[k] for k in SEMEVAL_CSV_COLUMNS[3:]])
    return buf.getvalue()



def render_semeval(result: SemEvalResult, console: Any = None) -> None:
    """The four schemas overall, then strict and partial by label."""
    from rich.console import Console
    from rich.table import Table

    console = console or Console()
    f_name = "F1" if result.beta == 1 else f"F{result.beta:g}"
    headers = ("COR", "INC", "PAR", "MIS", "SPU", "POS", "ACT", "P %", "R %", f"{f_name} %")

    def table(title: str, first: str) -> Table:
        t = Table(title=title, show_edge=False, header_style="bold")
        t.add_column(first, no_wrap=True)
        for h in headers:
            t.add_column(h, justify="right", no_wrap=True)
        return t

    def cells(c: Any) -> list[str]:
        p, r, f = c.rates(result.beta, result.zero_division)
        return [str(x) for x in (c.correct, c.incorrect, c.partial, c.missed, c.spurious, c.possible, c.actual)
                ] + [percent(p), percent(r), percent(f)]

    overall = table("SemEval-2013 schemas (optimal one-to-one pairing)", "schema")
    for schema in SCHEMAS:
        overall.add_row(schema, *cells(result.counts(schema)))
    console.print(overall)
    for schema in ("strict", "partial"):
        t = table(f"{schema}, by label (COR, INC, PAR, MIS on the gold label; ACT on the predicted label)", "label")
        for label, c in result.counts(schema, "label").items():
            t.add_row(label, *cells(c))
        console.print(t)
