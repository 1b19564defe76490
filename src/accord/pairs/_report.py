"""The :class:`Report` object returned by :func:`accord.score` (the pairs mode): its measures, the units' measures,
and the tables a renderer shows after them (the units' confusability matrices, the details' rows)."""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import numpy as np

from ..match.engine import DocumentAlignment
from ..result import ALL, Block, CountTable, Measure, PairsKind, Result, ResultTable, UnitsKind
from ._tally import Tally

__all__ = ["Report", "pairs_table"]


def pairs_table(tally: Tally) -> CountTable:
    """The count table of a tally: every document's total, label, aggregation and decomposition rows."""
    return tally.table()


def units_table(scores: Any) -> CountTable:
    """The count table of one unit (:class:`accord.units.UnitScores`): counts in units per label, and each
    document's test size on every row (MAT's accuracies of a label divide by the whole test size)."""
    labels = scores.labels
    cells: list[tuple[str, tuple[str, ...], list[Any]]] = []
    for doc, rows in scores.by_document.items():
        test = scores.test_units.get(doc, 0)
        total = np.zeros(5, dtype=np.int64)
        for lbl in labels:
            counts = np.asarray(rows.get(lbl, [0] * 5), dtype=np.int64)
            total += counts
            cells.append((doc, ("label", lbl), [*counts, test]))
        cells.append((doc, ALL, [*total, test]))
    return CountTable.build(UnitsKind.fields, cells, list(scores.by_document))


class Report(Result):
    """Counts and rates of one comparison in the pairs mode (``accord score``).

    Attributes
    ----------
    totals : Block
        All labels over all documents: ``gold, pred, match, gold_clash, pred_clash, missing,
        spurious, precision, recall, f1`` (also as attributes: ``report.totals.match``).
    by_label, by_document : dict of str to Block
    by_document_label : dict of str to dict of str to Block
    aggregations : dict of str to Block
        Score-profile aggregation rows.
    decompositions : dict of str to dict of str to Block
        ``label -> subset -> block`` for attribute and partition decompositions.
    alignments : list of DocumentAlignment
        Every item and its outcome, for details and error analysis.
    units : dict of str to UnitScores
        Token, pseudo-token and character scores, when asked for (:mod:`accord.units`).
    """

    def __init__(self, tally: Tally, alignments: list[DocumentAlignment], *, beta: float = 1.0,
                 zero_division: str = "zero", options: dict[str, Any] | None = None,
                 inputs: dict[str, Any] | None = None):
        kind = PairsKind(beta, zero_division)
        super().__init__("score", "pairs", {"pairs": Measure(kind, pairs_table(tally))}, nested=False,
                         options=options, inputs=inputs)
        self.tally: Tally | None = tally
        self.alignments = alignments
        self.beta, self.zero_division = beta, zero_division
        self.units: dict[str, Any] = {}

    def _merged_into(self, out: Result, other: Result) -> None:
        assert isinstance(out, Report) and isinstance(other, Report)
        out.tally = None
        out.alignments = self.alignments + other.alignments
        out.beta, out.zero_division = self.beta, self.zero_division
        out.units = {u: _merge_units(s, other.units[u]) for u, s in self.units.items()}

    def _reorder_extras(self, documents: list[str]) -> None:
        rank = {d: k for k, d in enumerate(documents)}
        self.alignments = sorted(self.alignments, key=lambda a: rank[a.doc_id])
        for scores in self.units.values():
            if not scores.skipped:
                scores.by_document = {d: scores.by_document[d] for d in documents if d in scores.by_document}
                scores.test_units = {d: scores.test_units[d] for d in documents if d in scores.test_units}

    @property
    def by_document_label(self) -> dict[str, dict[str, Block]]:
        return self.main.by_document_label()

    @property
    def aggregations(self) -> dict[str, Block]:
        return self.main.groups().get("aggregations", {})

    @property
    def decompositions(self) -> dict[str, dict[str, Block]]:
        return self.main.groups().get("decompositions", {})

    def rates(self, counts: Any) -> tuple[float, float, float]:
        """Precision, recall and F-beta of a block (NaN where undefined) under this report's options."""
        if isinstance(counts, dict):
            return tuple(math.nan if counts[k] is None else counts[k]  # type: ignore[return-value]
                         for k in ("precision", "recall", "f1"))
        return counts.rates(self.beta, self.zero_division)

    @property
    def precision(self) -> float:
        return self.rates(self.totals)[0]

    @property
    def recall(self) -> float:
        return self.rates(self.totals)[1]

    @property
    def f1(self) -> float:
        """F-beta of the totals (F1 unless ``beta`` was set)."""
        return self.rates(self.totals)[2]

    def block(self, counts: Any) -> dict[str, Any]:
        """The JSON count block of a :class:`~accord.pairs._tally.Counts` or a block."""
        if isinstance(counts, dict):
            return counts
        return counts.to_dict(self.beta, self.zero_division)

    def unit_measures(self) -> dict[str, Measure]:
        """The scored units as measures (skipped units left out)."""
        kind = UnitsKind(self.beta, self.zero_division)
        return {u: Measure(kind, units_table(s)) for u, s in self.units.items() if not s.skipped}

    _unit_markers: Any = None
    """While :meth:`marked_dict` writes a copy: the markers the units' per-document tables stand as."""

    def marked_dict(self, markers: Any) -> dict[str, Any]:
        """:meth:`Result.marked_dict`, the units' ``by_document`` and ``by_document_label`` tables as markers too
        (written from their count arrays, column by column, as the measures' own)."""
        import copy

        shell = copy.copy(self)
        shell._unit_markers = markers
        return super(Report, shell).marked_dict(markers)

    def extras_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.units:
            from ..units import confusability_rows

            measures = self.unit_measures()
            if self._unit_markers is not None:
                from ..result._result import _MarkedMeasure

                measures = {u: _MarkedMeasure(m.kind, m.table, self._unit_markers) for u, m in measures.items()}
            ci = self.ci or {}
            units: dict[str, Any] = {}
            for unit, scores in self.units.items():
                if scores.skipped:
                    units[unit] = {"skipped": scores.skipped}
                    continue
                block = measures[unit].to_dict(ci.get(unit))
                if scores.confusability is not None:
                    block["confusability"] = [{"pred": p, "gold": g, "count": n}
                                              for (p, g), n in sorted(confusability_rows(scores)[2].items())]
                elif scores.confusability_note:
                    block["confusability_skipped"] = scores.confusability_note
                units[unit] = block
            out["units"] = units
        return out

    def csv_measures(self) -> dict[str, Measure]:
        """The pairs measure, then each scored unit (``token``, ``pseudo-token``, ``character``)."""
        return {**self.measures, **self.unit_measures()}

    @property
    def tables(self) -> list[ResultTable]:
        """Per scored unit, in order: the unit's measure (or why it was not scored), then its confusability matrix
        (rows: predicted labels, columns: gold labels; or why it was not built)."""
        out = super().tables
        for unit, scores in self.units.items():
            if scores.skipped:
                out.append(ResultTable(f"by {unit}", note=f"by {unit}: not scored: {scores.skipped}"))
                continue
            out.append(ResultTable(f"by {unit}", measure=unit))
            if scores.confusability is not None:
                from ..units import confusability_rows

                names, cols, cells = confusability_rows(scores)
                out.append(ResultTable(
                    f"{unit} confusability", ("", *(f"{c} (gold)" for c in cols)),
                    [(f"{r} (pred)", *(str(cells.get((r, c), 0)) for c in cols)) for r in names],
                    caption=f"{unit} confusability (rows: predicted, columns: gold)"))
            elif scores.confusability_note:
                out.append(ResultTable(f"{unit} confusability",
                                       note=f"{unit} confusability not built: {scores.confusability_note}"))
        return out

    def details(self) -> ResultTable:
        """One row per pair and per unpaired item, in document order (:func:`~accord.pairs.detail_rows`)."""
        from ._details import DETAIL_COLUMNS, detail_rows

        return ResultTable("details", DETAIL_COLUMNS,
                           (tuple(r.values()) for r in detail_rows(self)), caption="why each item counted as it did")


def _merge_units(a: Any, b: Any) -> Any:
    from ..units import UnitScores

    out = UnitScores(a.unit)
    out.skipped = a.skipped or b.skipped
    if out.skipped:
        out.confusability = None
        return out
    out.by_document = {**a.by_document, **b.by_document}
    out.test_units = {**a.test_units, **b.test_units}
    if a.confusability is not None and b.confusability is not None:
        out.confusability = Counter(a.confusability) + Counter(b.confusability)
    else:
        out.confusability = None
        out.confusability_note = a.confusability_note or b.confusability_note
    return out
