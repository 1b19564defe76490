"""The outcome counts of a one-to-one pairing (match, clashes, missing, spurious) as a small additive value: the pairs
mode's tally and MAT's units count into it (:mod:`accord.pairs`, :mod:`accord.units`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .prf import json_rate, precision_recall_f

__all__ = ["Counts"]

_FIELDS = ("match", "gold_clash", "pred_clash", "missing", "spurious")


@dataclass(frozen=True)
class Counts:
    """Additive outcome counts; ``gold`` and ``pred`` are derived, never stored."""

    match: int = 0
    gold_clash: int = 0
    pred_clash: int = 0
    missing: int = 0
    spurious: int = 0

    @property
    def gold(self) -> int:
        """Gold items: ``match + gold_clash + missing``."""
        return self.match + self.gold_clash + self.missing

    @property
    def pred(self) -> int:
        """Predicted items: ``match + pred_clash + spurious``."""
        return self.match + self.pred_clash + self.spurious

    def __add__(self, other: Counts) -> Counts:
        return Counts(*(getattr(self, f) + getattr(other, f) for f in _FIELDS))

    def rates(self, beta: float = 1.0, zero_division: str = "zero") -> tuple[float, float, float]:
        """Precision, recall and F-beta (see :mod:`accord.metrics.prf`)."""
        return precision_recall_f(self.match, self.gold, self.pred, beta=beta, zero_division=zero_division)

    def to_dict(self, beta: float = 1.0, zero_division: str = "zero") -> dict[str, Any]:
        """The JSON count block: counts and rates as fractions."""
        p, r, f = self.rates(beta, zero_division)
        return {"gold": self.gold, "pred": self.pred, "match": self.match, "gold_clash": self.gold_clash,
                "pred_clash": self.pred_clash, "missing": self.missing, "spurious": self.spurious,
                "precision": json_rate(p), "recall": json_rate(r), "f1": json_rate(f)}

    @classmethod
    def from_array(cls, arr: Iterable[int]) -> Counts:
        return cls(*(int(x) for x in arr))
