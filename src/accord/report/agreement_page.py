"""``accord agree --html``: the agreement coefficients with their intervals, beside the annotator matrix.

One self-contained page (the shared layout of every accord page): the coefficients of the whole input (pairwise
ones as their mean over pairs, each pair's value listed), with the bootstrap interval of each when the result was
bootstrapped over items; specific agreement per category; the coefficients of each document; and, for
annotation sets, the matrix of pairwise F between annotators (:mod:`accord.report.agreement_matrix`, from the
matrix's data that the agreement mode computes: :func:`accord.agreement._matrix.matrix_view`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .agreement_matrix import cell_colour, matrix_context
from .agreement_table import COEFFICIENT_NAMES

__all__ = ["agreement_html"]


def _number(v: Any) -> str:
    return "n/a" if v is None else f"{v:.4f}"


def _coefficients(coefficients: dict[str, Any], ci: dict[str, Any], level: str | None) -> list[dict[str, Any]]:
    rows = []
    for name, v in coefficients.items():
        label = COEFFICIENT_NAMES.get(name, name)
        if name == "krippendorff_alpha" and level:
            label += f" ({level})"
        value = v["mean"] if isinstance(v, dict) else v
        interval = ci.get(name)
        rows.append({"name": name, "label": label, "value": _number(value), "colour": cell_colour(value),
                     "ci": None if not interval or None in interval else f"[{interval[0]:.3f}, {interval[1]:.3f}]",
                     "pairs": [(f"{p['raters'][0]} ~ {p['raters'][1]}", _number(p["value"]))
                               for p in (v.get("pairs", []) if isinstance(v, dict) else [])]})
    return rows


def agreement_html(result: Any, matrix: Mapping[str, Any] | None = None, title: str = "Annotator agreement") -> str:
    """The page of an agreement result (its coefficients, totals, documents, options and inputs), with the annotator
    matrix when ``matrix`` (the matrix's data, :func:`accord.agreement._matrix.matrix_view`) is given."""
    from ._csp import page_environment

    totals = result.totals
    ci = result.ci or {}
    level = totals.get("krippendorff_level")
    coefficients = _coefficients(totals["coefficients"], ci, level)
    documents = []
    for doc, summary in result.by_document.items():
        coefs = summary.get("coefficients", summary)
        documents.append({"document": doc, "items": summary.get("items"),
                          "values": {name: (v["mean"] if isinstance(v, dict) else v) for name, v in coefs.items()}})
    columns = list(totals["coefficients"])
    specific = None
    if "specific_agreement" in totals:
        pos, neg = totals["specific_agreement"]["positive"], totals["specific_agreement"]["negative"]
        pos, neg = pos.get("mean", pos), neg.get("mean", neg)
        specific = [(repr(c) if c == "" else c, _number(pos.get(c)), _number(neg.get(c)))
                    for c in totals.get("categories", [])]
    context = matrix_context(matrix) if matrix is not None else {}
    env = page_environment()   # scripts allowed by their hashes
    env.globals["colour"] = cell_colour
    return env.get_template("agreement.html").render(
        title=title, coefficients=coefficients, totals=totals, options=result.options, inputs=result.inputs,
        documents=documents, columns=columns, coefficient_names=COEFFICIENT_NAMES, specific=specific,
        has_matrix=matrix is not None, number=_number, **context)
