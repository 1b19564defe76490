"""The HTML page of an adjudication queue (``accord adjudicate A B C --queue-html``): each disagreement with every
annotator's answer and a tick box per candidate label, saving the ``decisions.csv`` that ``--decisions`` reads
(as the diff page does for two sides, :mod:`accord.report.diff_report`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["queue_html"]


def queue_html(columns: Sequence[str], rows: Sequence[Mapping[str, Any]], *, key: Sequence[str],
               annotators: Sequence[str], reliability: Mapping[str, float], reliability_measure: str,
               summary: str, command: str, title: str = "Adjudication queue") -> str:
    """A self-contained page of the queue (``columns`` and ``rows`` as
    :func:`accord.adjudicate._queue.span_queue` or ``item_queue`` make them; ``key``: the identifying columns)."""
    from ._csp import page_environment

    shown = [c for c in columns if c not in ("choice", "gold_start", "gold_end")]
    page_rows = []
    for r in rows:
        answers = [str(r.get(a, "")) for a in annotators]
        labels = []
        for cell in answers:
            for part in cell.split("; "):
                label = part.rsplit(" ", 1)[0] if " " in part and part.rsplit(" ", 1)[1][:1].isdigit() else part
                if label and label not in labels:
                    labels.append(label)
        chosen = [x for x in str(r.get("choice", "")).split("|") if x and x != "none"]
        page_rows.append({"cells": {c: "" if r.get(c) is None else r.get(c) for c in columns},
                          "status": r.get("status", ""), "candidates": labels + [x for x in chosen if x not in labels],
                          "chosen": chosen})
    env = page_environment()
    return env.get_template("queue.html").render(
        title=title, summary=summary, key=list(key), shown=shown, rows=page_rows, command=command,
        statuses=sorted({r["status"] for r in page_rows}), reliability_measure=reliability_measure,
        reliability=[(a, "n/a" if reliability[a] != reliability[a] else f"{reliability[a]:.4f}") for a in annotators])
