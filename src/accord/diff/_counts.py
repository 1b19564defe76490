"""Correct, partial, missing and spurious counts and GATE's strict, lenient and average measures."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..errors import OptionError, TallyError
from ..metrics.gate_measures import BDM_MEASURES, MEASURES, parse_measure, split_measure

__all__ = ["DiffCounts", "MEASURES", "BDM_MEASURES", "parse_measure", "split_measure", "mean_measures"]

def _f(p: float, r: float, beta: float) -> float:
    b2 = beta * beta
    den = b2 * p + r
    return 0.0 if den == 0 else (b2 + 1) * p * r / den


@dataclass(frozen=True)
class DiffCounts:
    """The outcome counts of an Annotation Diff; they add up over types and documents (micro).

    ``correct`` (c): coextensive and compatible pairs; ``partial`` (p): overlapping,
    compatible pairs that are not coextensive; ``missing`` (m): keys in no such pair;
    ``spurious`` (s): responses in no such pair. A coextensive or overlapping pair with
    incompatible features counts one missing and one spurious, as in GATE. So the number of
    keys is ``K = c + p + m`` and of responses ``R = c + p + s``.

    Measures (GATE's ``AnnotationDiffer``; guide 10.1.2, formulas 10.5 to 10.7):

    - strict: ``P = c / R``, ``R = c / K``;
    - lenient: ``P = (c + p) / R``, ``R = (c + p) / K``;
    - average: the mean of strict and lenient, ``P = (c + p/2) / R``, ``R = (c + p/2) / K``;
    - ``F_beta = (1 + beta^2) P R / (beta^2 P + R)``, 0 when ``P = R = 0``; the average
      F is the mean of the strict and lenient F, not F of the averaged P and R.

    With no responses precision is 1.0, with no keys recall is 1.0 (so two empty sets
    score 1.0 throughout), as GATE's differ reports them.

    ``bdm`` (B) is the credit missing keys earned from coextensive spurious responses of a
    close concept (:mod:`accord.diff._bdm`); the BDM measures are GATE's Corpus QA ones
    (``gate.util.OntologyMeasures``):

    - strict-bdm: ``P = (B + c) / (c + s)``, ``R = (B + c) / (c + m)``;
    - lenient-bdm: ``P = (B + c + p) / (c + s)``, ``R = (B + c + p) / (c + m)``;
    - average-bdm: the mean of the two (P, R and F alike);

    1.0 where a denominator is 0. The denominators leave partial matches out, as GATE's
    do, so a lenient BDM figure can exceed 1 when there are partial matches.
    """

    correct: int = 0
    partial: int = 0
    missing: int = 0
    spurious: int = 0
    bdm: float = 0.0

    def __post_init__(self) -> None:
        if min(self.correct, self.partial, self.missing, self.spurious) < 0:
            raise TallyError(f"negative diff counts: {self}")
        if not 0 <= self.bdm <= self.missing + 1e-9:
            raise TallyError(f"BDM credit {self.bdm} outside [0, missing = {self.missing}]")

    @property
    def keys(self) -> int:
        """``K = c + p + m``."""
        return self.correct + self.partial + self.missing

    @property
    def responses(self) -> int:
        """``R = c + p + s``."""
        return self.correct + self.partial + self.spurious

    def __add__(self, other: DiffCounts) -> DiffCounts:
        return DiffCounts(self.correct + other.correct, self.partial + other.partial,
                          self.missing + other.missing, self.spurious + other.spurious, self.bdm + other.bdm)

    def precision(self, measure: str = "strict") -> float:
        """Precision under ``strict``, ``lenient``, ``average`` or a BDM measure."""
        return self._ratio(measure.partition("@")[0], self.responses, self.correct + self.spurious)

    def recall(self, measure: str = "strict") -> float:
        """Recall under ``strict``, ``lenient``, ``average`` or a BDM measure."""
        return self._ratio(measure.partition("@")[0], self.keys, self.correct + self.missing)

    def _ratio(self, measure: str, total: int, bdm_denominator: int) -> float:
        # total: R (precision) or K (recall); the BDM measures divide by c + s or c + m instead
        if measure in BDM_MEASURES:
            return self._bdm_ratio(measure, bdm_denominator)
        return 1.0 if total == 0 else self._credit(measure) / total

    def f(self, measure: str = "strict", beta: float = 1.0) -> float:
        """F-beta (the measure's own beta when it has one: ``strict@0.5``); for ``average`` (``average-bdm``) the
        mean of the strict and lenient F-beta."""
        measure, beta = split_measure(measure, beta)
        if measure == "average":
            return (self.f("strict", beta) + self.f("lenient", beta)) / 2
        if measure == "average-bdm":
            return (self.f("strict-bdm", beta) + self.f("lenient-bdm", beta)) / 2
        return _f(self.precision(measure), self.recall(measure), beta)

    def _bdm_ratio(self, measure: str, denominator: int) -> float:
        if measure == "average-bdm":
            return (self._bdm_ratio("strict-bdm", denominator) + self._bdm_ratio("lenient-bdm", denominator)) / 2
        if denominator == 0:
            return 1.0
        credit = self.bdm + self.correct + (self.partial if measure == "lenient-bdm" else 0)
        return credit / denominator

    def _credit(self, measure: str) -> float:
        if measure == "strict":
            return float(self.correct)
        if measure == "lenient":
            return float(self.correct + self.partial)
        if measure == "average":
            return self.correct + self.partial / 2
        raise OptionError(f"unknown measure {measure!r}; expected one of {', '.join(MEASURES)}")

    def to_dict(self, measures: tuple[str, ...] = MEASURES, beta: float = 1.0) -> dict[str, Any]:
        """Counts and, per measure, ``{"precision", "recall", "f"}``."""
        out: dict[str, Any] = {"correct": self.correct, "partial": self.partial, "missing": self.missing,
                               "spurious": self.spurious, "keys": self.keys, "responses": self.responses}
        if any(m in BDM_MEASURES for m in measures):
            out["bdm"] = self.bdm
        for m in measures:
            out[m] = {"precision": self.precision(m), "recall": self.recall(m), "f": self.f(m, beta)}
        return out


def mean_measures(rows: list[DiffCounts], measure: str, beta: float) -> tuple[float, float, float]:
    """Macro average: the unweighted mean of P, R and F over rows (NaN without rows)."""
    if not rows:
        return (math.nan, math.nan, math.nan)
    n = len(rows)
    return (sum(r.precision(measure) for r in rows) / n, sum(r.recall(measure) for r in rows) / n,
            sum(r.f(measure, beta) for r in rows) / n)

