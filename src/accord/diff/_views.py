"""What the GATE modes show beyond their measures, as data for the renderers: Corpus QA tables
(:class:`~accord.result.ResultTable` for the terminal, plain rows for the diff page), the diff page's annotations side
by side, and the Corpus Benchmark's rows (per document and type, over the corpus, the changed annotations, the
annotations below a threshold)."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from typing import Any

from ..model import covered_text
from ..result import ResultTable
from ._benchmark import Benchmark
from ._counts import DiffCounts, split_measure
from ._diff import CorpusDiff
from ._qa import QATable, qa_table

__all__ = ["SYMBOLS", "qa_result_table", "qa_view", "diff_view", "diff_details", "change_rows", "corpus_rows",
           "empty_type_rates", "below_threshold", "benchmark_view", "anchor_id", "text_context", "CONTEXT",
           "DOCUMENT_SHOWN"]

SYMBOLS = {"correct": "=", "partial": "~", "mismatch": "<>", "wrong": "?", "missing": "-?", "spurious": "?-"}
"""GATE's diff-view symbols for the row outcomes."""

_SHORT = {"strict": "s", "lenient": "l", "average": "a", "strict-bdm": "sB", "lenient-bdm": "lB",
          "average-bdm": "aB"}

_FIGURES = ("precision", "recall", "f")


def _has_bdm(measures: Iterable[str]) -> bool:
    return any(m.partition("@")[0].endswith("-bdm") for m in measures)


def _f4(x: float) -> str:
    return f"{x:.4f}"


def qa_result_table(table: QATable) -> ResultTable:
    """One Corpus QA table as the terminal shows it (``by type`` or ``by document``): counts, P/R/F per measure (and
    the BDM credit with a BDM measure), the macro row (mean of the rows) and the micro row (summed counts)."""
    bdm = _has_bdm(table.measures)
    columns = [table.by.capitalize(), "Match", "Only A", "Only B", "Overlap"] + (["BDM"] if bdm else [])
    for m in table.measures:
        kind, beta = split_measure(m, table.beta)
        s = _SHORT[kind]
        columns += [f"P.{s}", f"R.{s}", f"F{beta:g}.{s}"] + ([f"Err.{s}"] if table.error_rate else [])
    if table.fp_per is not None:
        columns += [f"{table.fp_per.capitalize()}s", f"FP/{table.fp_per}"]

    def measures(c: DiffCounts) -> list[str]:
        out = [f"{c.bdm:.3f}"] if bdm else []
        for m in table.measures:
            out += [_f4(c.precision(m)), _f4(c.recall(m)), _f4(c.f(m, table.beta))]
            out += [_f4(1.0 - c.precision(m))] if table.error_rate else []
        return out

    per, fp_macro, fp_micro = table.false_positives() if table.fp_per is not None else ([], 0.0, 0.0)

    def fp(k: int | None) -> list[str]:
        if table.fp_per is None:
            return []
        if k is None:
            return [str(table.total), _f4(fp_micro)]
        return [str(table.constants[k]), _f4(per[k])]

    rows: list[tuple[str, ...]] = [(name, str(c.correct), str(c.missing), str(c.spurious), str(c.partial),
                                    *measures(c), *fp(k)) for k, (name, c) in enumerate(table.rows)]
    macro: list[str] = []
    for m in table.measures:
        macro += [_f4(x) for x in table.macro[m]] + ([_f4(1.0 - table.macro[m][0])] if table.error_rate else [])
    n = len(rows)
    rows.append(("Macro summary", "", "", "", "", *([""] if bdm else []), *macro,
                 *(["", _f4(fp_macro)] if table.fp_per is not None else [])))
    c = table.micro
    rows.append(("Micro summary", str(c.correct), str(c.missing), str(c.spurious), str(c.partial), *measures(c),
                 *fp(None)))
    return ResultTable(f"by {table.by}", tuple(columns), rows, caption=f"by {table.by} (A = key, B = response)",
                       styles=(None,) * n + ("italic", "bold"), sections=(n,))


def _counts_view(c: DiffCounts, measures: tuple[str, ...], beta: float, error_rate: bool = False,
                 extra: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"correct": c.correct, "missing": c.missing, "spurious": c.spurious, "partial": c.partial,
            "rates": {m: (c.precision(m), c.recall(m), c.f(m, beta))
                      + ((1.0 - c.precision(m),) if error_rate else ()) for m in measures},
            "extra": extra}


def qa_view(table: QATable) -> dict[str, Any]:
    """A Corpus QA table as the diff page draws it: each row's counts and ``rates[measure] = (P, R, F)`` (and the
    error rate with ``table.error_rate``), ``extra`` (the constant and the false positives per token or sentence
    with ``table.fp_per``), the macro means and the micro row."""
    per, fp_macro, fp_micro = table.false_positives() if table.fp_per is not None else ([], 0.0, 0.0)

    def extra(k: int | None) -> tuple[str, ...]:
        if table.fp_per is None:
            return ()
        if k is None:
            return (str(table.total), _f4(fp_micro))
        return (str(table.constants[k]), _f4(per[k]))
    macro = {m: tuple(x) + ((1.0 - x[0],) if table.error_rate else ()) for m, x in table.macro.items()}
    return {"by": table.by, "rows": [(name, _counts_view(c, table.measures, table.beta, table.error_rate, extra(k)))
                                     for k, (name, c) in enumerate(table.rows)],
            "macro": macro, "macro_extra": ("", _f4(fp_macro)) if table.fp_per is not None else (),
            "micro": _counts_view(table.micro, table.measures, table.beta, table.error_rate, extra(None)),
            "error_rate": table.error_rate, "fp_per": table.fp_per}


def _features(attrs: Any) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in attrs.items())


def _side(ann: Any, text: str | None) -> dict[str, Any] | None:
    if ann is None:
        return None
    return {"start": ann.start, "end": ann.end, "text": covered_text(text, ann) if text is not None else "",
            "features": _features(ann.attributes), "id": ann.id}


CONTEXT = 100
"""Characters of document text shown on each side of a diff row's annotations (its "context")."""

CONTEXT_MIDDLE = 400
"""The most characters of the annotations' own extent a row's context shows: a longer extent shows its first and
last halves of this with the number of characters left out between them."""

DOCUMENT_SHOWN = 10_000
"""The most characters of a document's text that the diff page's "Show document" holds; the rest is counted
("N more characters")."""


def anchor_id(prefix: str, k: int, name: str) -> str:
    """A safe and unique HTML id for the ``k``-th item named ``name`` (a document id or type is data): the prefix,
    the index (unique) and up to 40 of the name's ASCII letters, digits, ``-`` and ``_`` (readable)."""
    slug = re.sub(r"[^A-Za-z0-9_-]+", "-", name)[:40].strip("-")
    return f"{prefix}-{k}" + (f"-{slug}" if slug else "")


def _mark(k: int, key: tuple[tuple[int, int], ...], response: tuple[tuple[int, int], ...]) -> str:
    a = any(x <= k < y for x, y in key)
    b = any(x <= k < y for x, y in response)
    return ("a" if a else "") + ("b" if b else "")


def text_context(text: str | None, key: Any, response: Any, around: int = CONTEXT,
                 middle: int = CONTEXT_MIDDLE) -> dict[str, Any] | None:
    """The document text around a diff row (``key``/``response``: annotations or ``None``): ``around`` characters
    before the first annotated character and after the last, cut into parts marked ``"a"`` (the key covers them),
    ``"b"`` (the response), ``"ab"`` (both) or ``""``; an extent longer than ``middle`` shows its first and last
    ``middle // 2`` characters, ``skipped`` counting those left out. ``before``/``after`` say whether text precedes
    or follows the window. ``None`` without a text or a spanned annotation."""
    if text is None:
        return None
    n = len(text)
    kp = tuple((min(x, n), min(y, n)) for x, y in key.pieces) if key is not None else ()
    rp = tuple((min(x, n), min(y, n)) for x, y in response.pieces) if response is not None else ()
    if not kp and not rp:
        return None
    s = min(x for x, _ in kp + rp)
    e = max(y for _, y in kp + rp)
    lo, hi = max(0, s - around), min(n, e + around)
    windows = [(lo, hi)] if e - s <= middle else [(lo, s + middle // 2), (e - middle // 2, hi)]
    cuts = sorted({c for x, y in kp + rp for c in (x, y)})
    parts = []
    for wlo, whi in windows:
        bounds = [wlo, *(c for c in cuts if wlo < c < whi), whi]
        parts.append([(text[x:y], _mark(x, kp, rp)) for x, y in zip(bounds, bounds[1:]) if y > x])
    skipped = windows[-1][0] - windows[0][1] if len(windows) == 2 else 0
    return {"parts": parts, "skipped": skipped, "before": lo > 0, "after": hi < n}


def _sections(diff: CorpusDiff) -> Iterable[dict[str, Any]]:
    type_anchors: dict[str, str] = {}
    for d, types in diff.diffs.items():
        text = diff.texts.get(d)
        for t, td in types.items():
            if not td.rows:
                continue
            first = t not in type_anchors
            if first:
                type_anchors[t] = anchor_id("type", len(type_anchors), t)
            yield {"document": d, "type": t, "counts": td.counts, "anchor": type_anchors[t] if first else None,
                   "rows": [{"outcome": r.outcome, "symbol": SYMBOLS[r.outcome], "key": _side(r.key, text),
                             "response": _side(r.response, text), "context": text_context(text, r.key, r.response)}
                            for r in td.rows]}


def _documents(diff: CorpusDiff, sections: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each document of the diff (every one, those without annotations too: the QA table's rows link to them),
    its anchor, the first :data:`DOCUMENT_SHOWN` characters of its text, how many more it has and its sections."""
    by_document: dict[str, list[dict[str, Any]]] = {}
    for s in sections:
        by_document.setdefault(s["document"], []).append(s)
    out = []
    for k, d in enumerate(diff.documents):
        text = diff.texts.get(d)
        out.append({"document": d, "anchor": anchor_id("doc", k, d),
                    "text": text[:DOCUMENT_SHOWN] if text is not None else None,
                    "length": len(text) if text is not None else 0,
                    "more": max(0, len(text) - DOCUMENT_SHOWN) if text is not None else 0,
                    "sections": by_document.get(d, [])})
    return out


def diff_view(diff: CorpusDiff, measures: tuple[str, ...], beta: float, *, error_rate: bool = False,
              fp_per: str | None = None) -> dict[str, Any]:
    """What the diff page (:func:`accord.report.diff_report.diff_html`) draws: the Corpus QA tables by type and by
    document (with GATE's error rate and false positives per token or sentence when asked), and per document (its
    anchor, which the QA table's rows link to, and its text, bounded) and type the key and response annotations side
    by side with their outcomes and the document text around them (:func:`text_context`)."""
    sections = list(_sections(diff))
    documents = _documents(diff, sections)
    return {"by_type": qa_view(qa_table(diff, "type", measures, beta, error_rate=error_rate, fp_per=fp_per)),
            "by_document": qa_view(qa_table(diff, "document", measures, beta, error_rate=error_rate, fp_per=fp_per)),
            "sections": sections, "documents": documents,
            "anchors": {"document": {x["document"]: x["anchor"] for x in documents},
                        "type": {s["type"]: s["anchor"] for s in sections if s["anchor"]}},
            "measures": measures, "beta": beta, "symbols": SYMBOLS, "options": diff.options,
            "error_rate": error_rate, "fp_per": fp_per, "document_shown": DOCUMENT_SHOWN, "context": CONTEXT}


def diff_details(diff: CorpusDiff) -> ResultTable:
    """The details of ``accord diff`` and ``accord qa`` (``--details``): one row per row of the Annotation Diff, its
    document, type and outcome, and each side's extent, text and features (JSON)."""
    rows = []
    for d, types in diff.diffs.items():
        text = diff.texts.get(d)
        for t, td in types.items():
            for r in td.rows:
                row: dict[str, Any] = {"document": d, "type": t, "outcome": r.outcome}
                for side, a in (("key", r.key), ("response", r.response)):
                    row[f"{side}_start"] = a.start if a is not None else None
                    row[f"{side}_end"] = a.end if a is not None else None
                    row[f"{side}_text"] = covered_text(text, a) if a is not None and text is not None else None
                    row[f"{side}_features"] = (json.dumps(dict(a.attributes), ensure_ascii=False, default=str)
                                               if a is not None else None)
                rows.append(row)
    columns = tuple(rows[0]) if rows else ("document", "type", "outcome")
    return ResultTable("details", columns, [tuple(r.values()) for r in rows],
                       caption="the Annotation Diff's rows", first=len(columns))


def change_rows(bench: Benchmark) -> list[dict[str, Any]]:
    """One dict per changed annotation: where, what, its outcome before and after, fixed or broken."""
    out = []
    for c in bench.changes:
        a = c.annotation
        text = bench.after.texts.get(c.document) or bench.before.texts.get(c.document)
        out.append({"document": c.document, "type": c.type, "side": c.side, "start": a.start, "end": a.end,
                    "text": text[a.start:a.end] if text is not None else None,
                    "features": json.dumps(dict(a.attributes), ensure_ascii=False, default=str),
                    "before": c.before, "after": c.after, "direction": c.direction})
    return out


def empty_type_rates(keys: int, responses: int) -> dict[str, float]:
    """The rates of a type in the benchmark's per-type table when it has no key or no response: GATE's Corpus
    Benchmark tool writes each rate as 0 when its denominator is 0 (``CorpusBenchmarkTool``'s statistics table,
    ``../shared/notes/gate-evaluation.md`` section 5), where the Annotation Diff gives 1.0; with no key or no
    response nothing is correct or partial, so P, R and F are all 0. Empty otherwise (the measure's own rates)."""
    return {"precision": 0.0, "recall": 0.0, "f": 0.0} if keys == 0 or responses == 0 else {}


def corpus_rows(bench: Benchmark, measure: str, beta: float) -> list[dict[str, Any]]:
    """Per type over the corpus (micro: summed counts; a type without key or response has P = R = F = 0, as in
    GATE's tool: :func:`empty_type_rates`), then every type (micro) and the macro average over documents (the
    mean of each document's figures over all its types), before and after."""
    def figures(c: DiffCounts) -> dict[str, Any]:
        return {"correct": c.correct, "partial": c.partial, "missing": c.missing, "spurious": c.spurious,
                "precision": c.precision(measure), "recall": c.recall(measure), "f": c.f(measure, beta)}

    def type_figures(c: DiffCounts) -> dict[str, Any]:
        return {**figures(c), **empty_type_rates(c.keys, c.responses)}

    def macro(diff: CorpusDiff) -> dict[str, Any]:
        docs = [diff.counts(document=d) for d in diff.documents]
        n = len(docs) or 1
        return {"precision": sum(c.precision(measure) for c in docs) / n,
                "recall": sum(c.recall(measure) for c in docs) / n, "f": sum(c.f(measure, beta) for c in docs) / n}
    rows = [{"type": t, "before": type_figures(bench.before.counts(type=t)),
             "after": type_figures(bench.after.counts(type=t))} for t in bench.before.types]
    rows.append({"type": "micro (all types)", "before": figures(bench.before.counts()),
                 "after": figures(bench.after.counts())})
    rows.append({"type": "macro over documents", "before": macro(bench.before), "after": macro(bench.after)})
    return rows


def below_threshold(bench: Benchmark, measure: str, threshold: float) -> list[dict[str, Any]]:
    """GATE's ``-verbose`` listing: for each (document, type) whose precision or recall after is below
    ``threshold``, its annotations that are not correct in the new run (missing, partial, spurious, mismatched)."""
    out = []
    for doc in bench.after.documents:
        text = bench.after.texts.get(doc)
        for typ, td in bench.after.diffs[doc].items():
            c = td.counts
            p, r = c.precision(measure), c.recall(measure)
            if p >= threshold and r >= threshold:
                continue
            for row in td.rows:
                if row.outcome == "correct":
                    continue
                for side, a in (("key", row.key), ("response", row.response)):
                    if a is None:
                        continue
                    out.append({"document": doc, "type": typ, "precision": p, "recall": r, "outcome": row.outcome,
                                "side": side, "start": a.start, "end": a.end,
                                "text": covered_text(text, a) if text is not None else ""})
    return out


def benchmark_view(bench: Benchmark, measure: str, beta: float, *, error_rate: bool = False,
                   fp_per: str | None = None) -> dict[str, Any]:
    """What the benchmark's terminal tables (:func:`accord.report.benchmark_report.render_benchmark`) draw: the rows
    by document and type (:meth:`Benchmark.rows`), the rows over the corpus and the changed annotations; with
    ``error_rate`` and ``fp_per`` (the diffs' ``constants`` counted) each side's ``error_rate`` and
    ``false_positives`` (spurious per token or sentence) too."""
    rows, corpus = bench.rows(measure, beta), corpus_rows(bench, measure, beta)
    if error_rate or fp_per is not None:
        _add_extra_rates(bench, rows, corpus, error_rate, fp_per)
    return {"rows": rows, "corpus": corpus, "changes": change_rows(bench), "measure": measure, "beta": beta,
            "error_rate": error_rate, "fp_per": fp_per}


def _add_extra_rates(bench: Benchmark, rows: list[dict[str, Any]], corpus: list[dict[str, Any]], error_rate: bool,
                     fp_per: str | None) -> None:
    """GATE's error rate (1 - precision) and false positives per constant (spurious / c) of each side of each
    row: a document's c is its own, a type's over the corpus and the corpus rows' the sum of all documents'."""
    def per(spurious: int, c: int) -> float:
        return spurious / c if c else math.nan

    for side, diff in (("before", bench.before), ("after", bench.after)):
        total = sum(diff.constants.get(d, 0) for d in diff.documents)
        for r in rows:
            figures = r[side]
            if error_rate:
                figures["error_rate"] = 1.0 - figures["precision"]
            if fp_per is not None:
                c = total if r["document"] == "<all>" else diff.constants[r["document"]]
                figures["false_positives"] = per(figures["spurious"], c)
        for r in corpus:
            figures = r[side]
            if error_rate:
                figures["error_rate"] = 1.0 - figures["precision"]
            if fp_per is not None:
                if r["type"] == "macro over documents":
                    docs = [per(diff.counts(document=d).spurious, diff.constants[d]) for d in diff.documents]
                    kept = [x for x in docs if x == x]
                    figures["false_positives"] = sum(kept) / len(kept) if kept else math.nan
                else:
                    figures["false_positives"] = per(figures["spurious"], total)
