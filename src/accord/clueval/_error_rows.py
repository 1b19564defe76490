"""CLUEval's error rows for spreadsheets and the error page: one flat row per error, its context marked.

In the spreadsheet files the context column marks the problem span with 🟨 before its
first and after its last token, and every span of the other side with 🟦 the same way, so
tiles read as ``🟦New🟦 🟦York🟦``. A last, empty ``note`` column is left for the person
who goes through the errors.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..result import ResultTable
from ._context import context_pieces
from ._errors import ErrorRow
from ._evaluate import LEVELS, ClueEvaluation

__all__ = ["ERROR_COLUMNS", "PROBLEM_MARK", "OTHER_MARK", "error_dicts", "error_page_view", "errors_table",
           "marked_context"]

PROBLEM_MARK = "\U0001F7E8"   # 🟨 large yellow square
OTHER_MARK = "\U0001F7E6"     # 🟦 large blue square

ERROR_COLUMNS = ("kind", "class", "document", "label", "text", "start", "end", "cpos_start", "cpos_end",
                 "token_id_start", "token_id_end", "other_labels", "other_text", "other_start", "other_end",
                 "other_cpos_start", "other_cpos_end", "other_token_id_start", "other_token_id_end", "context",
                 "note")


def _tokens(ev: ClueEvaluation, row: ErrorRow) -> tuple[Sequence[str], bool]:
    """The pieces of a row's context (:func:`context_pieces`)."""
    return context_pieces(ev.document(row.document).document, *row.context)


def marked_context(ev: ClueEvaluation, row: ErrorRow) -> str:
    """The context with 🟨 around the problem span and 🟦 around each span of the other side."""
    pieces, tokens = _tokens(ev, row)
    a = row.context[0]
    out = []
    for k, piece in enumerate(pieces):
        i = a + k
        pre = (PROBLEM_MARK if i == row.start else "") + OTHER_MARK * sum(o.start == i for o in row.others)
        post = OTHER_MARK * sum(o.end == i + 1 for o in row.others) + (PROBLEM_MARK if i + 1 == row.end else "")
        out.append(pre + piece + post)
    return (" " if tokens else "").join(out)


def error_dicts(ev: ClueEvaluation, rows: Sequence[ErrorRow],
                notes: Mapping[tuple[str, int, int], str] | None = None) -> list[dict[str, Any]]:
    """One flat dict per row, keys :data:`ERROR_COLUMNS` (``note``: a false positive's note in ``notes``, by
    document, start and end: what an unaligned or fuzzily placed string of generated output was)."""
    notes = notes or {}
    out = []
    for r in rows:
        out.append({
            "kind": r.kind, "class": r.klass, "document": r.document, "label": r.label, "text": r.text,
            "start": r.start, "end": r.end, "cpos_start": r.cpos[0], "cpos_end": r.cpos[1],
            "token_id_start": r.token_ids[0] if r.token_ids else "",
            "token_id_end": r.token_ids[1] if r.token_ids else "",
            "other_labels": r.other_labels, "other_text": r.other_text,
            "other_start": "" if r.other_start is None else r.other_start,
            "other_end": "" if r.other_end is None else r.other_end,
            "other_cpos_start": r.other_cpos[0] if r.other_cpos else "",
            "other_cpos_end": r.other_cpos[1] if r.other_cpos else "",
            "other_token_id_start": r.other_token_ids[0] if r.other_token_ids else "",
            "other_token_id_end": r.other_token_ids[1] if r.other_token_ids else "",
            "context": marked_context(ev, r),
            "note": notes.get((r.document, r.start, r.end), "") if r.kind == "FP" else "",
        })
    return out


def errors_table(ev: ClueEvaluation, rows: Sequence[ErrorRow],
                 notes: Mapping[tuple[str, int, int], str] | None = None) -> ResultTable:
    """The rows as a table of :data:`ERROR_COLUMNS` (the TSV and CSV files of ``accord errors``)."""
    return ResultTable("errors", ERROR_COLUMNS, [tuple(d.values()) for d in error_dicts(ev, rows, notes)],
                       caption="CLUEval errors", first=len(ERROR_COLUMNS))


def error_page_view(ev: ClueEvaluation, rows: Sequence[ErrorRow], *, level: int = 1, labelled: bool = True,
                    system: str = "predicted",
                    notes: Mapping[tuple[str, int, int], str] | None = None) -> dict[str, Any]:
    """What the error page draws: the error browser's data over ``rows`` (:func:`~accord.clueval._browser.
    error_browser_data`), with the ``notes`` of the predicted spans of generated output
    (:func:`~accord.clueval._browser.span_notes`), the number of false negatives and false positives, the level
    and mode."""
    from ._browser import add_notes, error_browser_data

    data = error_browser_data({system: ev}, level=level, labelled=labelled, rows={system: rows})
    if notes:
        add_notes(data, [notes])
    return {"data": data,
            "counts": {k: sum(r.kind == k for r in rows) for k in ("FN", "FP")},
            "level": level, "level_name": LEVELS[level - 1], "mode": "labelled" if labelled else "unlabelled"}
