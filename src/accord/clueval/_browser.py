"""The data of the error browser: every CLUEval error row of one or more systems, compact and columnar; and the span
views of the report page (each system's evaluation, confusion counts, error rows and changes against the first).

The browser (``accord/report/templates/_error_browser.html``) is rendered by the page's script from this data, one
page of rows at a time, so that a page over a corpus of a million tokens stays small and opens at once: each context
(the sentence or window around an error, :data:`accord.clueval._errors.CONTEXT_WINDOW`) is stored once, with
the gold spans and every system's predicted spans that fall in it, and each error row points to its context.

Layout of :func:`error_browser_data` (every list of one group has one entry per row or per context):

``systems, labels, classes, documents``
    the names the codes below refer to (``classes``: CLUEval's coverage classes, ``FN`` and ``FP`` for an
    error with nothing on the other side);
``context_document, context_start``
    the document code and the first token (or character) of each context;
``context_text``
    its tokens joined by single spaces (a list of tokens where a token holds a space or is empty), or its
    characters as one string when the document's spans are character offsets (``context_chars`` is 1);
``context_gold``, ``context_pred``
    the spans in the context, flat ``[start, end, label, start, end, label, ...]`` relative to the
    context's start and clipped to it; ``context_pred`` holds one such list per system;
``row_system, row_kind, row_class, row_label, row_context, row_start, row_end``
    each error: its system, ``0`` for a false negative (a gold span that is no hit, shown in the gold line)
    or ``1`` for a false positive (a predicted span, shown in the system's line), its class, label and its
    span relative to its context;
``row_new``, ``row_fixed_by``
    against the first system (:func:`error_changes`): ``row_new`` is 1 for an error of a later system that
    the first system does not make (the later system *broke* the item); ``row_fixed_by`` is, for an error of
    the first system, the bit mask of the later systems that do not make it (``1 << s`` for system ``s``:
    they *fixed* it); 0 elsewhere;
``notes``, ``row_note``
    only on the page of a system of generated output (strings aligned to the gold text,
    :func:`alignment_notes`): the notes shown under a false positive's span (an unaligned string and why, or
    the string a fuzzily aligned span was placed from and its similarity), and each row's note (-1: none).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..match.coverage import CLASS_NAMES
from ._context import context_pieces
from ._errors import ErrorRow, error_table
from ._evaluate import ClueEvaluation

__all__ = ["ERROR_CLASSES", "ErrorChanges", "add_notes", "alignment_notes", "error_browser_data", "error_changes",
           "error_rows", "span_notes", "span_views"]

MAX_COMPARED_SYSTEMS = 52
"""Systems the browser's fixed-by masks can tell apart (exact integers in JavaScript)."""

ERROR_CLASSES = CLASS_NAMES[:-1] + ("FN", "FP")
"""The class names of error rows: a coverage class, or FN/FP when nothing of the other side overlaps."""


def error_rows(ev: ClueEvaluation, level: int = 1, labelled: bool = True, only: str | None = None) -> list[ErrorRow]:
    """False negatives and false positives of one evaluation (``only``: ``"fn"`` or ``"fp"``), interleaved by
    position: by document, start, longer spans first, FN before FP."""
    rows: list[ErrorRow] = []
    for side, kind in (("gold", "fn"), ("pred", "fp")):
        if only in (None, kind):
            rows.extend(error_table(ev, side, level, labelled))
    order = {d.id: k for k, d in enumerate(ev.documents)}
    return sorted(rows, key=lambda r: (order[r.document], r.start, -r.end, r.kind))


def _error_key(row: ErrorRow) -> tuple[str, str, int, int, str]:
    """What makes two systems' errors the same error: a gold span missed (FN) or a predicted span (FP), by
    document, extent and label."""
    return (row.kind, row.document, row.start, row.end, row.label)


@dataclass(frozen=True)
class ErrorChanges:
    """One system's errors against the first system's, as GATE's Corpus Benchmark counts them.

    ``fixed``: errors of the first system this one does not make (a gold span it finds where the first missed
    it, a spurious span of the first it does not predict); ``broken``: errors of this system the first does
    not make. Both by kind (``FN``, ``FP``) and by label.
    """

    system: str
    fixed: dict[str, int]
    broken: dict[str, int]
    fixed_by_label: dict[str, int]
    broken_by_label: dict[str, int]

    def to_dict(self) -> dict[str, Any]:
        return {"system": self.system, "fixed": self.fixed, "broken": self.broken,
                "fixed_by_label": self.fixed_by_label, "broken_by_label": self.broken_by_label}


def error_changes(rows: Mapping[str, Sequence[ErrorRow]]) -> list[ErrorChanges]:
    """The fixed and broken errors of every system after the first against the first (see
    :class:`ErrorChanges`)."""
    systems = list(rows)
    if len(systems) < 2:
        return []
    first = {_error_key(r) for r in rows[systems[0]]}
    out = []
    for name in systems[1:]:
        mine = {_error_key(r) for r in rows[name]}
        fixed, broken = first - mine, mine - first
        out.append(ErrorChanges(
            name, {k: sum(key[0] == k for key in fixed) for k in ("FN", "FP")},
            {k: sum(key[0] == k for key in broken) for k in ("FN", "FP")},
            dict(sorted(Counter(key[4] for key in fixed).items())),
            dict(sorted(Counter(key[4] for key in broken).items()))))
    return out


def _context_text(doc: Any, a: int, b: int) -> tuple[Any, int]:
    """The context's pieces as the browser stores them (tokens joined by spaces, a list where a token holds a
    space or is empty, characters as one string), and whether they are characters."""
    pieces, tokens = context_pieces(doc, a, b)
    if not tokens:
        return pieces, 1
    if any(not t or " " in t for t in pieces):
        return list(pieces), 0
    return " ".join(pieces), 0


def _spans_in(table: Any, label_codes: np.ndarray, lo_axis: np.ndarray, hi_axis: np.ndarray) -> list[list[int]]:
    """For each axis extent ``[lo, hi)``: the spans of a sorted, disjoint span table inside or across it, flat
    ``[start, end, label, ...]`` relative to ``lo`` and clipped to the extent."""
    first = np.searchsorted(table.end, lo_axis, side="right")
    last = np.maximum(np.searchsorted(table.start, hi_axis, side="left"), first)
    starts = table.start.tolist()
    ends = table.end.tolist()
    labels = label_codes[table.label].tolist() if len(table) else []
    out = []
    for lo, hi, i, j in zip(lo_axis.tolist(), hi_axis.tolist(), first.tolist(), last.tolist()):
        flat: list[int] = []
        for k in range(i, j):
            flat += (max(starts[k], lo) - lo, min(ends[k], hi) - lo, labels[k])
        out.append(flat)
    return out


def error_browser_data(evaluations: Mapping[str, ClueEvaluation], *, level: int = 1, labelled: bool = True,
                       rows: Mapping[str, Sequence[ErrorRow]] | None = None) -> dict[str, Any]:
    """The browser's data for each system's evaluation against the same gold standard.

    Parameters
    ----------
    evaluations : mapping of str to ClueEvaluation
        System name -> its CLUEval evaluation (the gold side the same in all).
    level, labelled
        Which spans are hits (:meth:`ClueEvaluation.hits`).
    rows : mapping of str to sequence of ErrorRow, optional
        The rows to show for each system (default: :func:`error_rows` of its evaluation).
    """
    systems = list(evaluations)
    labels = sorted({name for ev in evaluations.values() for name in ev.labels})
    label_index = {name: k for k, name in enumerate(labels)}
    class_index = {name: k for k, name in enumerate(ERROR_CLASSES)}
    documents: dict[str, int] = {}
    contexts: dict[tuple[str, int, int], int] = {}
    context_rows: list[tuple[int, int, int, int]] = []   # (system, document index in its ev, start, end)
    columns: dict[str, list[Any]] = {k: [] for k in ("system", "kind", "class", "label", "context", "start", "end",
                                                     "new", "fixed_by")}
    if rows is None:
        rows = {name: error_rows(ev, level, labelled) for name, ev in evaluations.items()}
    keys = [{_error_key(r) for r in rows[name]} for name in systems[:MAX_COMPARED_SYSTEMS]]
    for s, (name, ev) in enumerate(evaluations.items()):
        doc_index = {d.id: k for k, d in enumerate(ev.documents)}
        for r in rows[name]:
            key_of_row = _error_key(r)
            new = int(0 < s < len(keys) and key_of_row not in keys[0])
            fixed_by = 0
            if s == 0:
                for t in range(1, len(keys)):
                    if key_of_row not in keys[t]:
                        fixed_by |= 1 << t
            columns["new"].append(new)
            columns["fixed_by"].append(fixed_by)
            a, b = r.context
            key = (r.document, a, b)
            c = contexts.get(key)
            if c is None:
                c = contexts[key] = len(context_rows)
                documents.setdefault(r.document, len(documents))
                context_rows.append((s, doc_index[r.document], a, b))
            for column, value in (("system", s), ("kind", 0 if r.kind == "FN" else 1),
                                  ("class", class_index[r.klass]), ("label", label_index[r.label]),
                                  ("context", c), ("start", r.start - a), ("end", r.end - a)):
                columns[column].append(value)
    out: dict[str, Any] = {"systems": systems, "labels": labels, "classes": list(ERROR_CLASSES),
                           "documents": list(documents), "level": level, "labelled": labelled}
    out["context_document"] = [documents[key[0]] for key in contexts]
    out["context_start"] = [key[1] for key in contexts]
    texts, chars = [], []
    for s, d, a, b in context_rows:
        text, is_chars = _context_text(evaluations[systems[s]].documents[d].document, a, b)
        texts.append(text)
        chars.append(is_chars)
    out["context_text"], out["context_chars"] = texts, chars
    creator = np.array([s for s, _, _, _ in context_rows], dtype=np.int64)
    gold: list[list[int]] = [[] for _ in context_rows]
    out["context_pred"] = []
    for s, ev in enumerate(evaluations.values()):
        # each context's extent on this evaluation's axis; a document this system was not paired on has none
        bases = {d.id: d.base for d in ev.documents}
        present = [key[0] in bases for key in contexts]
        lo = np.array([bases.get(key[0], 0) + key[1] for key in contexts], dtype=np.int64)
        hi = np.array([bases.get(key[0], 0) + key[2] for key in contexts], dtype=np.int64)
        codes = np.array([label_index[n] for n in ev.labels], dtype=np.int64)
        pred = _spans_in(ev.pred, codes, lo, hi)
        out["context_pred"].append([p if ok else [] for p, ok in zip(pred, present)])
        mine = np.flatnonzero(creator == s)
        for k, spans in zip(mine.tolist(), _spans_in(ev.gold, codes, lo[mine], hi[mine])):
            gold[k] = spans
    out["context_gold"] = gold
    out.update({f"row_{k}": v for k, v in columns.items()})
    return out


def span_views(systems: Mapping[str, Any], level: int = 1, labelled: bool = True) -> dict[str, Any]:
    """The span views of the report page: each system's CLUEval evaluation (its own for ``--match clueval``, else
    one of its corpora at ``level``), its confusion counts (``confusions``: gold labels, then ``none``, by rows,
    against the predicted ones, :func:`~accord.clueval.span_confusion`), the error browser's data
    (:func:`error_browser_data`) and the changes against the first system (:func:`error_changes`). ``note`` says
    why they are missing when they cannot be built (merged results, overlapping spans)."""
    from ..errors import AccordError
    from ._confusion import span_confusion
    from ._evaluate import evaluate_spans

    evaluations = {}
    for name, result in systems.items():
        if (result.options.get("alignment") or {}).get("align") == "none":
            return {"note": f"{name}: its strings were compared without alignment (--align none) and have no place "
                            "in the text; the error browser and the confusion matrix show spans in their context"}
        if result.mode == "clueval" and result.source is not None:
            evaluations[name] = result.source
            continue
        if result.corpora is None:
            return {"note": f"{name}: the result holds no corpora (a merged result, or not from accord score); "
                            "the error browser and the confusion matrix need them"}
        try:
            evaluations[name] = evaluate_spans(*result.corpora, allow_missing=result.options.get("allow_missing"))
        except AccordError as e:
            return {"note": f"{name}: {e}. The error browser and the confusion matrix need spans that do not "
                            "overlap within a side."}
    rows = {name: error_rows(ev, level, labelled) for name, ev in evaluations.items()}
    data = error_browser_data(evaluations, level=level, labelled=labelled, rows=rows)
    alignment_notes(systems, data)
    confusions = {}
    for name, ev in evaluations.items():
        confusion = span_confusion(ev)
        confusions[name] = {"labels": [*confusion.labels, "none"], "counts": confusion.counts.tolist()}
    return {"note": None, "confusions": confusions, "browser": data,
            "changes": [c.to_dict() for c in error_changes(rows)]}


_RELATION_REASON = "an end is not among the aligned entities"
"""The reason of an unaligned relation in the alignment summary (it has no span: no row of the browser)."""


def _document_length(doc: Any) -> int:
    return len(doc.text) if doc.text is not None else len(doc.tokens or ())


def _system_notes(result: Any) -> dict[tuple[str, int, int], str]:
    """The notes of one system's predicted spans (:func:`span_notes` of its result)."""
    if result.corpora is None:
        return {}
    return span_notes(result.options.get("alignment"), *result.corpora)


def span_notes(summary: Mapping[str, Any] | None, gold: Any, pred: Any) -> dict[tuple[str, int, int], str]:
    """The notes of a system's predicted spans after its strings were aligned (``summary``, the alignment summary;
    ``gold`` and ``pred`` the corpora scored), by (document, start, end): its unaligned strings (standing past their
    document's end, in the order the summary lists them) and its fuzzily aligned ones."""
    summary = summary or {}
    if summary.get("align") not in ("exact", "fuzzy"):
        return {}
    listed: dict[str, list[dict[str, Any]]] = {}
    for u in summary.get("unaligned_listed") or ():
        if u.get("reason") != _RELATION_REASON:
            listed.setdefault(u["document"], []).append(u)
    notes: dict[tuple[str, int, int], str] = {}
    for doc in pred.values():
        g = gold.get(doc.id)
        length = _document_length(g) if g is not None else 0
        past = sorted((a for a in doc.annotations if a.start is not None and a.end is not None and a.start > length),
                      key=lambda a: a.start)
        mine = listed.get(doc.id, [])
        for k, a in enumerate(past):
            u = mine[k] if k < len(mine) else None
            notes[(doc.id, a.start, a.end)] = (f"unaligned \u201c{u['text']}\u201d: {u['reason']}"
                                               if u is not None and (u["label"] == a.label or (
                                                   u.get("kind") == "argument" and a.label == "Argument")) else
                                               "unaligned: a string not placed on the text (past those listed)")
    for f in summary.get("fuzzy_listed") or ():
        start, end = f["placed"]
        notes[(f["document"], start, end)] = (f"placed fuzzily from \u201c{f['text']}\u201d "
                                              f"(similarity {f['similarity']:.2f})")
    return notes


def alignment_notes(systems: Mapping[str, Any], data: dict[str, Any]) -> None:
    """Add to the browser's ``data`` the notes of the systems' generated output (``notes`` and ``row_note``, see
    the module docstring), read from each result's alignment summary (``result.options["alignment"]``); nothing
    when no system's strings were aligned."""
    add_notes(data, [_system_notes(result) for result in systems.values()])


def add_notes(data: dict[str, Any], per_system: Sequence[Mapping[tuple[str, int, int], str]]) -> None:
    """Add to the browser's ``data`` each system's notes of its predicted spans (:func:`span_notes`), by row."""
    if not any(per_system):
        return
    notes: list[str] = []
    index: dict[str, int] = {}
    row_note = []
    documents, context_document, context_start = data["documents"], data["context_document"], data["context_start"]
    for s, kind, c, start, end in zip(data["row_system"], data["row_kind"], data["row_context"], data["row_start"],
                                      data["row_end"]):
        note = per_system[s].get((documents[context_document[c]], context_start[c] + start,
                                  context_start[c] + end)) if kind == 1 else None
        if note is None:
            row_note.append(-1)
            continue
        row_note.append(index.setdefault(note, len(notes)))
        if row_note[-1] == len(notes):
            notes.append(note)
    data["notes"], data["row_note"] = notes, row_note
