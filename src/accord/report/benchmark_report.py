"""Outputs of ``accord benchmark``: the before/after table, its CSV, and the changed annotations."""

from __future__ import annotations

import json
from typing import Any

from ..diff._benchmark import Benchmark
from ..diff._counts import DiffCounts
from ..diff._diff import CorpusDiff
from ..model import covered_text

__all__ = ["render_benchmark", "change_rows", "corpus_rows", "empty_type_rates", "below_threshold",
           "render_below_threshold"]

_FIGURES = ("precision", "recall", "f")


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


def _arrow(before: float, after: float) -> Any:
    from rich.text import Text

    text = f"{before:.4f} → {after:.4f}"
    if after > before + 1e-12:
        return Text(text, style="green")
    if after < before - 1e-12:
        return Text(text, style="red")
    return text


def render_benchmark(bench: Benchmark, measure: str, beta: float, console: Any = None) -> None:
    """The before → after table (green better, red worse), then the changed annotations."""
    from rich.text import Text

    from .table import TableConsole, new_table, print_table

    console = console or TableConsole()
    t = new_table(f"{measure} measure, before → after", ["Document", "Type", "Precision", "Recall", f"F{beta:g}",
                                                          "Fixed", "Broken"], first=2)
    rows = bench.rows(measure, beta)
    for i, r in enumerate(rows):
        if i == len(rows) - 1:
            t.add_section()
        t.add_row(r["document"], r["type"], *(_arrow(r["before"][k], r["after"][k]) for k in _FIGURES),
                  str(r["fixed"]), str(r["broken"]), style="bold" if i == len(rows) - 1 else None)
    print_table(console, t)
    _render_corpus(bench, measure, beta, console)
    if bench.changes:
        c = new_table("annotations that changed", ["Document", "Type", "Side", "Span", "Text", "Before", "After",
                                                   ""], first=8)
        for r in change_rows(bench):
            colour = "green" if r["direction"] == "fixed" else "red"
            c.add_row(r["document"], r["type"], r["side"], f"{r['start']}-{r['end']}", r["text"] or "",
                      r["before"], r["after"], Text(r["direction"], style=colour))
        print_table(console, c)


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


def _render_corpus(bench: Benchmark, measure: str, beta: float, console: Any) -> None:
    from .table import new_table, print_table

    t = new_table("over the corpus, by type (before → after)", ["Type", "Correct", "Partial", "Missing", "Spurious",
                                                                 "Precision", "Recall", f"F{beta:g}"])
    rows = corpus_rows(bench, measure, beta)
    for i, r in enumerate(rows):
        b, a = r["before"], r["after"]
        counts = [f"{b[k]} → {a[k]}" if k in b else "" for k in ("correct", "partial", "missing", "spurious")]
        if i == len(rows) - 2:
            t.add_section()
        t.add_row(r["type"], *counts, *(_arrow(b[k], a[k]) for k in _FIGURES),
                  style="bold" if i == len(rows) - 2 else ("italic" if i == len(rows) - 1 else None))
    print_table(console, t)


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


def render_below_threshold(rows: list[dict[str, Any]], threshold: float, console: Any) -> None:
    from .table import new_table, print_table

    t = new_table(f"annotations of the document types whose precision or recall is below {threshold:g} (after)",
                  ["Document", "Type", "P", "R", "Outcome", "Side", "Span", "Text"], first=8)
    for r in rows:
        t.add_row(r["document"], r["type"], f"{r['precision']:.4f}", f"{r['recall']:.4f}", r["outcome"], r["side"],
                  f"{r['start']}-{r['end']}", r["text"])
    if rows:
        print_table(console, t)
    else:
        console.print(f"no document type is below {threshold:g} in precision and recall")
