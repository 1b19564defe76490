"""The cells of a unit's confusability matrix, in the order every output lists them."""

from __future__ import annotations

from ._counts import UnitScores

__all__ = ["confusability_rows"]

_NULL = "null"


def _name(label: str | None) -> str:
    return _NULL if label is None else label


def confusability_rows(scores: UnitScores) -> tuple[list[str], list[str], dict[tuple[str, str], int]]:
    """Predicted labels (rows), gold labels (columns), both sorted with ``null`` last, and the cells."""
    cells = {(_name(p), _name(g)): n for (p, g), n in (scores.confusability or {}).items()}
    names = sorted({x for key in cells for x in key if x != _NULL} | set(scores.labels)) + [_NULL]
    return names, names, cells
