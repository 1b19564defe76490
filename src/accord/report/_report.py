"""The :class:`Report` object returned by :func:`accord.score`."""

from __future__ import annotations

import math
from typing import Any

from ..match.engine import DocumentAlignment
from ..tally import Counts, Tally

__all__ = ["Report"]


class Report:
    """Counts and rates of one comparison.

    Attributes
    ----------
    totals : Counts
        All labels over all documents.
    by_label : dict of str to Counts
    by_document : dict of str to Counts
    by_document_label : dict of str to dict of str to Counts
    aggregations : dict of str to Counts
        Score-profile aggregation rows.
    decompositions : dict of str to dict of str to Counts
        ``label -> subset -> counts`` for attribute and partition decompositions.
    alignments : list of DocumentAlignment
        Every item and its outcome, for details and error analysis.
    units : dict of str to UnitScores
        Token, pseudo-token and character scores, when asked for (:mod:`accord.units`).
    """

    def __init__(self, tally: Tally, alignments: list[DocumentAlignment], *, beta: float = 1.0,
                 zero_division: str = "zero", options: dict[str, Any] | None = None):
        self.tally = tally
        self.alignments = alignments
        self.beta = beta
        self.zero_division = zero_division
        self.options = dict(options or {})
        self.repairs: list[dict[str, Any]] = []
        """Invalid tag transitions repaired while reading (one entry per file; see RepairWarning)."""
        labels = sorted(tally.labels)
        self.totals = tally.total()
        self.by_label = {lbl: tally.counts(lbl) for lbl in labels}
        self.by_document = {doc: tally.total(doc) for doc in tally.docs}
        self.by_document_label = {doc: {lbl: Counts.from_array(arr) for lbl, arr in sorted(rows.items())
                                        if lbl in tally.labels}
                                  for doc, rows in tally.docs.items()}
        self.aggregations = {name: tally.counts(name) for name in tally.aggregations}
        self.decompositions = {lbl: {sub: tally.counts(f"{lbl}|{sub}") for sub in sorted(subs)}
                               for lbl, subs in sorted(tally.decompositions.items())}
        self.units: dict[str, Any] = {}

    def rates(self, counts: Counts) -> tuple[float, float, float]:
        """Precision, recall and F-beta of a count block under this report's options."""
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

    def macro(self) -> dict[str, float | None]:
        """Unweighted means over labels of precision, recall and F (NaN rates are skipped)."""
        if not self.by_label:
            return {"precision": None, "recall": None, "f1": None}
        cols = list(zip(*(self.rates(c) for c in self.by_label.values())))
        out: dict[str, float | None] = {}
        for name, values in zip(("precision", "recall", "f1"), cols):
            vals = [v for v in values if not math.isnan(v)]
            out[name] = sum(vals) / len(vals) if vals else None
        return out

    def block(self, counts: Counts) -> dict[str, Any]:
        """The JSON count block of ``counts``."""
        return counts.to_dict(self.beta, self.zero_division)

    def to_dict(self) -> dict[str, Any]:
        """The JSON contract (see the README, "Output")."""
        b = self.block
        return {
            "totals": b(self.totals),
            "macro": self.macro(),
            "by_label": {k: b(v) for k, v in self.by_label.items()},
            "by_document": {k: b(v) for k, v in self.by_document.items()},
            "by_document_label": {d: {k: b(v) for k, v in rows.items()} for d, rows in self.by_document_label.items()},
            "aggregations": {k: b(v) for k, v in self.aggregations.items()},
            "decompositions": {lbl: {s: b(c) for s, c in subs.items()} for lbl, subs in self.decompositions.items()},
            "options": self.options,
            "repairs": self.repairs,
        } | ({"units": self._units_dict()} if self.units else {})

    def _units_dict(self) -> dict[str, Any]:
        from .units_report import units_dict
        return units_dict(self.units, self.beta, self.zero_division)

    def to_frame(self) -> Any:
        """The label rows and the total as a pandas DataFrame (needs ``pandas``)."""
        try:
            import pandas as pd
        except ImportError:  # pragma: no cover - depends on the environment
            from ..errors import OptionError
            raise OptionError("Report.to_frame needs pandas: pip install 'accord[pandas]'") from None
        rows = [{"label": k, **self.block(v)} for k, v in self.by_label.items()]
        rows.append({"label": "ALL", **self.block(self.totals)})
        return pd.DataFrame(rows).set_index("label")

    def __repr__(self) -> str:
        p, r, f = self.rates(self.totals)
        return (f"<Report {len(self.by_document)} documents: gold {self.totals.gold}, pred {self.totals.pred}, "
                f"match {self.totals.match}; P={p:.4f} R={r:.4f} F={f:.4f}>")
