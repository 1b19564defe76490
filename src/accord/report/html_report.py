"""One self-contained HTML page for one or more systems scored against the same gold standard.

The page holds a summary (P, R, F of every system and measure, with confidence intervals when the results were
bootstrapped, and the inputs and options), each system's labels and documents (sortable tables with bars) and,
with two or more systems, the paired comparisons with their significance marks. Everything is inline (CSS, JS);
the page makes no network request.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .agreement_matrix import cell_colour

__all__ = ["report_html"]


def _rate(block: Mapping[str, Any], key: str) -> dict[str, Any]:
    value = block.get(key)
    interval = (block.get("ci") or {}).get(key)
    return {"value": value, "text": "—" if value is None else f"{100 * value:.2f}",
            "ci": None if not interval or None in interval else f"[{100 * interval[0]:.1f}, {100 * interval[1]:.1f}]",
            "colour": cell_colour(value)}


def _rows(blocks: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [{"name": name, "gold": b.get("gold"), "pred": b.get("pred"),
             "rates": [_rate(b, k) for k in ("precision", "recall", "f1")]} for name, b in blocks.items()]


def report_html(systems: Mapping[str, Any], comparison: Any = None, title: str = "accord report") -> str:
    """The page of ``systems`` (name -> Result, all over the same documents) and their ``comparison``
    (:class:`accord.stats.ComparisonResult`, or None)."""
    from jinja2 import Environment, PackageLoader, select_autoescape

    sections = []
    summary = []
    for name, result in systems.items():
        data = result.to_dict()
        measures = data["measures"] if "measures" in data else {next(iter(result.measures)): data}
        for measure, m in measures.items():
            summary.append({"system": name, "measure": measure, "gold": m["totals"].get("gold"),
                            "pred": m["totals"].get("pred"),
                            "rates": [_rate(m["totals"], k) for k in ("precision", "recall", "f1")]})
        main_name, main = next(iter(measures.items()))
        sections.append({"system": name, "measure": main_name, "labels": _rows(main["by_label"]),
                         "macro": [_rate(main["macro"], k) for k in ("precision", "recall", "f1")],
                         "documents": _rows(main["by_document"]), "inputs": data["inputs"],
                         "options": data["options"]})
    comparisons = []
    if comparison is not None:
        for c in comparison.comparisons:
            alpha = comparison.options["alpha"]
            mark = "" if not c.significant else ("**" if c.p_adjusted < alpha / 5 else "*")
            comparisons.append({"a": c.a, "b": c.b, "measure": c.measure, "label": c.label or "ALL", "rate": c.rate,
                                "a_value": _rate({"v": c.a_value}, "v")["text"],
                                "b_value": _rate({"v": c.b_value}, "v")["text"],
                                "difference": "—" if c.difference is None else f"{100 * c.difference:+.2f}",
                                "p": "—" if c.p_value is None else f"{c.p_value:.4f}",
                                "p_adjusted": "—" if c.p_adjusted is None else f"{c.p_adjusted:.4f}",
                                "mark": mark, "significant": c.significant})
    env = Environment(loader=PackageLoader("accord.report", "templates"), autoescape=select_autoescape(["html"]))
    return env.get_template("report.html").render(
        title=title, summary=summary, sections=sections, comparisons=comparisons,
        comparison_options=comparison.options if comparison is not None else None)
