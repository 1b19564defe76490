"""Corpus QA tables (guide 10.3): one row per type or per document, with micro and macro rows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import OptionError
from ._counts import DiffCounts, mean_measures, parse_measure
from ._diff import CorpusDiff

__all__ = ["QA_BY", "QATable", "qa_table", "qa_summary"]

QA_BY = ("type", "document")


@dataclass(frozen=True)
class QATable:
    """Rows of counts by type or by document, their micro sum and the macro means.

    ``macro[measure]`` is ``(precision, recall, f)``, each the unweighted mean over the
    rows; a row with nothing on either side scores 1.0 (the differ's convention) and
    counts in the mean, as in GATE's Corpus QA. ``micro`` is the sum of every row's counts.
    """

    by: str
    rows: tuple[tuple[str, DiffCounts], ...]
    micro: DiffCounts
    macro: dict[str, tuple[float, float, float]]
    measures: tuple[str, ...]
    beta: float


def qa_table(diff: CorpusDiff, by: str = "type", measures: tuple[str, ...] = ("strict", "lenient", "average"),
             beta: float = 1.0) -> QATable:
    """Corpus QA's table: ``by="type"`` (each type micro over documents) or ``"document"``
    (each document micro over types)."""
    if by not in QA_BY:
        raise OptionError(f"--by must be type or document (or both, comma-separated); got {by!r}")
    measures = tuple(parse_measure(m) for m in measures)
    names = diff.types if by == "type" else diff.documents
    rows = tuple((n, diff.counts(type=n) if by == "type" else diff.counts(document=n)) for n in names)
    micro = DiffCounts()
    for _, c in rows:
        micro = micro + c
    macro = {m: mean_measures([c for _, c in rows], m, beta) for m in measures}
    return QATable(by, rows, micro, macro, measures, beta)


def _block(c: DiffCounts, measures: tuple[str, ...], beta: float) -> dict[str, Any]:
    return c.to_dict(measures, beta)


def qa_summary(diff: CorpusDiff, measures: tuple[str, ...] = ("strict", "lenient", "average"),
               beta: float = 1.0) -> dict[str, Any]:
    """The JSON form: micro totals, macro means by type and by document, and every cell.

    ``{"totals", "macro_by_type", "macro_by_document", "by_type", "by_document",
    "by_document_type", "options"}``; each block holds the counts (``correct``,
    ``partial``, ``missing``, ``spurious``, ``keys``, ``responses``) and, per measure,
    ``precision``, ``recall`` and ``f``.
    """
    measures = tuple(parse_measure(m) for m in measures)
    by_type = qa_table(diff, "type", measures, beta)
    by_doc = qa_table(diff, "document", measures, beta)

    def macro(t: QATable) -> dict[str, Any]:
        return {m: dict(zip(("precision", "recall", "f"), t.macro[m])) for m in measures}

    return {
        "totals": _block(by_type.micro, measures, beta),
        "macro_by_type": macro(by_type),
        "macro_by_document": macro(by_doc),
        "by_type": {n: _block(c, measures, beta) for n, c in by_type.rows},
        "by_document": {n: _block(c, measures, beta) for n, c in by_doc.rows},
        "by_document_type": {d: {t: _block(td.counts, measures, beta) for t, td in types.items()}
                             for d, types in diff.diffs.items()},
        "options": {**diff.options, "measures": list(measures), "beta": beta},
    }
