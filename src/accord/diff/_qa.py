"""Corpus QA tables (guide 10.3): one row per type or per document, with micro and macro rows."""

from __future__ import annotations

import math
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
    error_rate: bool = False
    """Whether the table shows each measure's error rate, ``1 - precision`` (GATE's user guide 10.1.3)."""
    fp_per: str | None = None
    """``token`` or ``sentence``: the table shows the false positives per token or sentence (10.8)."""
    constants: tuple[int, ...] = ()
    """With ``fp_per``: each row's tokens or sentences (a type's: the whole corpus's; a document's: its own)."""
    total: int = 0
    """With ``fp_per``: the corpus's tokens or sentences (the micro row's constant)."""

    def false_positives(self) -> tuple[list[float], float, float]:
        """Spurious / constant of each row, their mean (the macro row) and the micro row's (NaN for a zero
        constant; the mean leaves NaN out)."""
        per = [c.spurious / n if n else math.nan for (_, c), n in zip(self.rows, self.constants)]
        kept = [x for x in per if x == x]
        return per, (sum(kept) / len(kept) if kept else math.nan), (
            self.micro.spurious / self.total if self.total else math.nan)


def qa_table(diff: CorpusDiff, by: str = "type", measures: tuple[str, ...] = ("strict", "lenient", "average"),
             beta: float = 1.0, *, error_rate: bool = False, fp_per: str | None = None) -> QATable:
    """Corpus QA's table: ``by="type"`` (each type micro over documents) or ``"document"``
    (each document micro over types); with ``error_rate`` and ``fp_per`` (``diff.constants`` counted) GATE's error
    rate and false positives per token or sentence."""
    if by not in QA_BY:
        raise OptionError(f"--by must be type or document (or both, comma-separated); got {by!r}")
    measures = tuple(parse_measure(m) for m in measures)
    names = diff.types if by == "type" else diff.documents
    rows = tuple((n, diff.counts(type=n) if by == "type" else diff.counts(document=n)) for n in names)
    micro = DiffCounts()
    for _, c in rows:
        micro = micro + c
    macro = {m: mean_measures([c for _, c in rows], m, beta) for m in measures}
    constants: tuple[int, ...] = ()
    total = 0
    if fp_per is not None:
        total = sum(diff.constants[d] for d in diff.documents)
        constants = tuple(total if by == "type" else diff.constants[n] for n in names)
    return QATable(by, rows, micro, macro, measures, beta, error_rate, fp_per, constants, total)
