"""The agreement page's disagreement browser: each disputed stretch of text with every annotator's spans side by
side, filtered by label and by annotator in the page (``templates/_disputes.html``), drawn from the result's
``disputes`` (:func:`accord.agreement._disputes.disputes_view`, which bounds their number)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["disputes_context"]


def _where(start: Any, end: Any) -> str:
    return f"{start}–{end}"


def disputes_context(disputes: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """What ``_disputes.html`` draws: the stretches as rows (one cell per annotator: its spans, or None where it
    does not hold the document), the filters' choices with their counts, and how many stretches are not listed."""
    if disputes is None:
        return None
    labels = disputes["labels"]
    annotators = disputes["annotators"]
    rows = []
    for s in disputes["stretches"]:
        cells = []
        for k, reading in enumerate(s["readings"]):
            spans = None if reading is None else [
                {"label": labels[label], "where": _where(a, b),
                 "text": None if (a, b) == (s["start"], s["end"]) else text} for a, b, label, text in reading]
            cells.append({"spans": spans, "odd": k in s["odd"], "hidden": s.get("hidden", [0] * len(annotators))[k]})
        rows.append({"document": s["document"], "where": _where(s["start"], s["end"]), "before": s["before"],
                     "text": s["text"], "after": s["after"],
                     "labels": " ".join(map(str, s["labels"])), "odd": " ".join(map(str, s["odd"])),
                     "cells": cells})
    return {"annotators": annotators, "labels": labels, "rows": rows, "disputed": disputes["disputed"],
            "of_items": disputes.get("unit") == "items",     # not "items": a dict method in a template
            "agreed": disputes["agreed"], "more": disputes["more"], "limit": disputes["limit"],
            "label_counts": [disputes["by_label"].get(label, 0) for label in labels],
            "annotator_counts": [disputes["by_annotator"].get(a, 0) for a in annotators],
            "text": any(s["text"] for s in disputes["stretches"])}
