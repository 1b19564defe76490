"""Outputs of ``accord diff`` and ``accord qa``: terminal tables, CSV and the HTML diff view."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..diff import CorpusDiff, DiffCounts
from ..diff._counts import split_measure
from ..diff._qa import QATable, qa_table
from ..model import covered_text
from .table import print_table

__all__ = ["render_qa", "diff_html", "SYMBOLS"]

SYMBOLS = {"correct": "=", "partial": "~", "mismatch": "<>", "wrong": "?", "missing": "-?", "spurious": "?-"}
"""GATE's diff-view symbols for the row outcomes."""

_SHORT = {"strict": "s", "lenient": "l", "average": "a", "strict-bdm": "sB", "lenient-bdm": "lB",
          "average-bdm": "aB"}


def _has_bdm(measures: Iterable[str]) -> bool:
    return any(m.partition("@")[0].endswith("-bdm") for m in measures)


def _f4(x: float) -> str:
    return f"{x:.4f}"


def render_qa(table: QATable, console: Any = None) -> None:
    """One Corpus QA table on the terminal: counts, P/R/F per measure, macro and micro rows."""
    from .table import TableConsole, new_table

    console = console or TableConsole()
    bdm = _has_bdm(table.measures)
    columns = [table.by.capitalize(), "Match", "Only A", "Only B", "Overlap"] + (["BDM"] if bdm else [])
    for m in table.measures:
        kind, beta = split_measure(m, table.beta)
        s = _SHORT[kind]
        columns += [f"P.{s}", f"R.{s}", f"F{beta:g}.{s}"]
    t = new_table(f"by {table.by} (A = key, B = response)", columns)

    def measures(c: DiffCounts) -> list[str]:
        out = [f"{c.bdm:.3f}"] if bdm else []
        for m in table.measures:
            out += [_f4(c.precision(m)), _f4(c.recall(m)), _f4(c.f(m, table.beta))]
        return out

    for name, c in table.rows:
        t.add_row(name, str(c.correct), str(c.missing), str(c.spurious), str(c.partial), *measures(c))
    t.add_section()
    macro = []
    for m in table.measures:
        macro += [_f4(x) for x in table.macro[m]]
    t.add_row("Macro summary", "", "", "", "", *([""] if bdm else []), *macro, style="italic")
    c = table.micro
    t.add_row("Micro summary", str(c.correct), str(c.missing), str(c.spurious), str(c.partial), *measures(c),
              style="bold")
    print_table(console, t)


def _features(attrs: Any) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in attrs.items())


def _side(ann: Any, text: str | None) -> dict[str, Any] | None:
    if ann is None:
        return None
    return {"start": ann.start, "end": ann.end, "text": covered_text(text, ann) if text is not None else "",
            "features": _features(ann.attributes), "id": ann.id}


def _sections(diff: CorpusDiff) -> Iterable[dict[str, Any]]:
    for d, types in diff.diffs.items():
        text = diff.texts.get(d)
        for t, td in types.items():
            if not td.rows:
                continue
            yield {"document": d, "type": t, "counts": td.counts,
                   "rows": [{"outcome": r.outcome, "symbol": SYMBOLS[r.outcome], "key": _side(r.key, text),
                             "response": _side(r.response, text)} for r in td.rows]}


def diff_html(diff: CorpusDiff, measures: tuple[str, ...], beta: float, title: str = "Annotation Diff") -> str:
    """A self-contained page: the Corpus QA summary and, per document and type, the key and
    response annotations side by side, colour coded by outcome, with a filter by outcome."""
    from ._csp import page_environment

    env = page_environment()   # scripts allowed by their hashes
    template = env.get_template("diff.html")
    return template.render(title=title, by_type=qa_table(diff, "type", measures, beta),
                           by_document=qa_table(diff, "document", measures, beta), sections=list(_sections(diff)),
                           measures=measures, beta=beta, symbols=SYMBOLS, options=diff.options)
