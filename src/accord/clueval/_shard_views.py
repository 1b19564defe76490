"""The span views of the report page, made from a shard's documents (in the worker) and from the systems' merged
views (in the caller): CLUEval's evaluation of the spans, kept as the light records of
:mod:`accord.parallel._views`, which the runner carries without importing this mode."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..parallel._views import (
    LightEvaluation,
    RowColumns,
    ShardViews,
    _compact,
    _length,
    _relative,
    merge_views,
)

__all__ = ["shard_views", "views_of"]


def shard_views(result: Any, level: int, labelled: bool) -> ShardViews:
    """The span views of a shard's result (with its corpora, in the worker), or one holding the ``note`` of why the
    page has none (as :func:`accord.clueval._browser.span_views` words it)."""
    from ..clueval._browser import error_rows
    from ..clueval._confusion import span_confusion
    from ..clueval._context import context_pieces
    from ..clueval._evaluate import evaluate_spans
    from ..errors import AccordError

    empty = np.zeros(0, dtype=np.int64)

    def noted(note: str) -> ShardViews:
        return ShardViews([], [], [], (empty,) * 4, (empty,) * 4, RowColumns.of(()), {},
                          np.zeros((1, 1), dtype=np.int64), note)

    if result.mode == "clueval" and result.source is not None:
        ev = result.source
    elif result.corpora is None:
        return noted("the result holds no corpora (a merged result, or not from accord score); the error browser "
                     "and the confusion matrix need them")
    else:
        try:
            ev = evaluate_spans(*result.corpora, allow_missing=result.options.get("allow_missing"))
        except AccordError as e:
            return noted(f"{e}. The error browser and the confusion matrix need spans that do not overlap within a "
                         "side.")
    rows = error_rows(ev, level, labelled)
    bases = np.asarray([d.base for d in ev.documents], dtype=np.int64)
    ends = np.append(bases[1:] - 1, max([int(bases[-1]) if len(bases) else 0] + [
        int(t.end.max()) for t in (ev.gold, ev.pred) if len(t)] + [
        int(bases[-1]) + _length(ev.documents[-1].document) if len(bases) else 0])) if len(bases) else bases
    texts: dict[tuple[str, int, int], Any] = {}
    by_id = {d.id: d for d in ev.documents}
    for r in rows:
        key = (r.document, *r.context)
        if key not in texts:
            pieces, tokens = context_pieces(by_id[r.document].document, *r.context)
            texts[key] = (_compact(pieces), True) if tokens else (str(pieces), False)
    return ShardViews(list(ev.labels), [d.id for d in ev.documents], (ends - bases).tolist(),
                      _relative(ev.gold, bases), _relative(ev.pred, bases), RowColumns.of(rows), texts,
                      span_confusion(ev).counts)


def views_of(systems: Mapping[str, Any], level: int = 1, labelled: bool = True) -> dict[str, Any] | None:
    """The page's span views (as :func:`accord.clueval._browser.span_views` gives them) from the systems' merged
    shard views (``result.shard_views``; a system scored whole has its own made from its corpora), or None for
    systems of aligned strings (their notes need the documents: :func:`~accord.clueval._browser.span_views`)."""
    from ..clueval._browser import error_browser_data, error_changes

    evaluations: dict[str, LightEvaluation] = {}
    for name, result in systems.items():
        if (result.options.get("alignment") or {}).get("align") is not None:
            return None     # (the notes of aligned strings need the documents: the page of one process)
        light = getattr(result, "shard_views", None)
        if light is None:   # scored whole (an input that cannot be cut): its views from its corpora
            light = merge_views([shard_views(result, level, labelled)], ())
        if isinstance(light, str):
            return {"note": f"{name}: {light}"}
        evaluations[name] = light
    rows: dict[str, Any] = {name: ev.rows for name, ev in evaluations.items()}   # (LightRows: as ErrorRows)
    data = error_browser_data(evaluations, level=level, labelled=labelled, rows=rows)  # type: ignore[arg-type]
    confusions = {name: {"labels": [*ev.labels, "none"], "counts": ev.confusion.tolist()}
                  for name, ev in evaluations.items()}
    return {"note": None, "confusions": confusions, "browser": data,
            "changes": [c.to_dict() for c in error_changes(rows)]}
