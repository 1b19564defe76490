"""Corpus QA tables (guide 10.3): one row per type or per document, with micro and macro rows."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import OptionError
from ._counts import DiffCounts, mean_measures, parse_measure
from ._diff import CorpusDiff

__all__ = ["QA_BY", "QATable", "qa_table"]

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
