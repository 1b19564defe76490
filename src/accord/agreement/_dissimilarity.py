"""The dissimilarity of two units for γ (Mathet, Widlöcher & Métivier 2015, section 4.3).

Two units ``u`` and ``v`` (segments ``[s, e)`` of lengths ``l``, categories ``c``) differ by

.. math::

    d(u, v) = \\alpha\\, d_{pos}(u, v) + \\beta\\, d_{cat}(u, v),

    d_{pos}(u, v) = \\left(\\frac{|s_u - s_v| + |e_u - e_v|}{l_u + l_v}\\right)^2 \\Delta_\\varnothing,
    \\qquad d_{cat}(u, v) = D[c_u, c_v]\\, \\Delta_\\varnothing,

and a unit differs from the empty unit by :math:`\\Delta_\\varnothing` (``delta_empty``). ``D`` is
the categorical distance matrix, 0 on its diagonal and within [0, 1]: by default 1 between
different categories (pygamma-agreement's ``AbsoluteCategoricalDissimilarity``), or the
normalised Levenshtein distance of the names, the distance of numeric categories, or a matrix the
user gives. The defaults (α = β = Δ∅ = 1) are those of pygamma-agreement's
``CombinedCategoricalDissimilarity`` and of the paper's software.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .._support.io import read_text
from ..errors import FormatError, OptionError

__all__ = ["Dissimilarity", "categorical_matrix", "CATEGORICAL_KINDS"]

CATEGORICAL_KINDS = ("absolute", "levenshtein", "numerical")
"""The categorical distances by name (or a CSV file of ``category, category, distance`` rows)."""


@dataclass(frozen=True)
class Dissimilarity:
    """γ's combined dissimilarity: ``alpha`` · positional + ``beta`` · categorical, empty unit at ``delta_empty``.

    ``matrix`` is the categorical distance between the categories (in the order of the continua's
    sorted categories); ``None`` is the absolute distance (0 when equal, 1 otherwise).
    """

    alpha: float = 1.0
    beta: float = 1.0
    delta_empty: float = 1.0
    matrix: np.ndarray | None = None

    def __post_init__(self) -> None:
        for name in ("alpha", "beta", "delta_empty"):
            value = getattr(self, name)
            if not (np.isfinite(value) and value >= 0):
                raise OptionError(f"the dissimilarity's {name} must be a finite number >= 0, got {value}")
        if self.delta_empty == 0:
            raise OptionError("delta_empty must be > 0: it is the cost of leaving a unit unaligned")

    def positional(self, s1: np.ndarray, e1: np.ndarray, s2: np.ndarray, e2: np.ndarray) -> np.ndarray:
        """:math:`d_{pos}` of paired arrays (units of positive length)."""
        ratio = (np.abs(s1 - s2) + np.abs(e1 - e2)) / ((e1 - s1) + (e2 - s2))
        return ratio * ratio * self.delta_empty

    def categorical(self, c1: np.ndarray, c2: np.ndarray) -> np.ndarray:
        """:math:`d_{cat}` of paired arrays of category indices."""
        if self.matrix is None:
            return (c1 != c2) * self.delta_empty
        return self.matrix[c1, c2] * self.delta_empty

    def pairs(self, s1: np.ndarray, e1: np.ndarray, c1: np.ndarray, s2: np.ndarray, e2: np.ndarray,
              c2: np.ndarray) -> np.ndarray:
        """:math:`d(u, v)` of paired arrays."""
        return self.alpha * self.positional(s1, e1, s2, e2) + self.beta * self.categorical(c1, c2)

    def position_radius(self, bound: float) -> float:
        """The largest ``(|Δs| + |Δe|) / (l_u + l_v)`` of two units whose dissimilarity may be ``<= bound``
        (infinite when the position does not count)."""
        if self.alpha == 0:
            return float("inf")
        return float(np.sqrt(bound / (self.alpha * self.delta_empty)))

    def to_dict(self, categories: Sequence[str] = ()) -> dict[str, object]:
        out: dict[str, object] = {"alpha": self.alpha, "beta": self.beta, "delta_empty": self.delta_empty}
        if self.matrix is not None:
            out["categorical"] = {a: {b: float(self.matrix[i, j]) for j, b in enumerate(categories)}
                                  for i, a in enumerate(categories)}
        return out


def _levenshtein(a: str, b: str) -> int:
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


def categorical_matrix(kind: str | Path | None, categories: Sequence[str]) -> np.ndarray | None:
    """The categorical distance matrix over ``categories`` for ``kind``.

    ``absolute`` (or ``None``): none (0 when equal, 1 otherwise). ``levenshtein``: the edit
    distance of the names divided by the longer name's length plus one (pygamma-agreement's
    ``LevenshteinCategoricalDissimilarity``). ``numerical``: categories are numbers, distance
    ``|a - b|`` divided by the largest such distance when it exceeds 1 (its
    ``NumericalCategoricalDissimilarity``). A path: a CSV file of ``category, category,
    distance`` rows (symmetric; each pair of different categories once, in either order; values
    in [0, 1]).
    """
    if kind is None or kind == "absolute":
        return None
    n = len(categories)
    matrix = np.zeros((n, n))
    if kind == "levenshtein":
        for i, a in enumerate(categories):
            for j in range(i):
                b = categories[j]
                matrix[i, j] = matrix[j, i] = _levenshtein(a, b) / max(len(a) + 1, len(b) + 1)
        return matrix / max(1.0, matrix.max(initial=0.0))
    if kind == "numerical":
        try:
            values = np.array([float(c) for c in categories])
        except ValueError:
            bad = next(c for c in categories if not _is_number(c))
            raise OptionError(f"the numerical categorical dissimilarity needs numeric categories; {bad!r} is not "
                              "a number") from None
        matrix = np.abs(values[:, None] - values[None, :])
        return matrix / max(1.0, matrix.max(initial=0.0))
    return _matrix_file(Path(kind), categories)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _matrix_file(path: Path, categories: Sequence[str]) -> np.ndarray:
    if not path.exists():
        raise OptionError(f"the categorical dissimilarity must be one of {', '.join(CATEGORICAL_KINDS)} or a CSV "
                          f"file of 'category,category,distance' rows; {str(path)!r} is neither")
    index = {c: i for i, c in enumerate(categories)}
    n = len(categories)
    matrix = np.full((n, n), np.nan)
    np.fill_diagonal(matrix, 0.0)
    text = read_text(path)
    delimiter = "\t" if path.suffix.lower() == ".tsv" else ","
    for line, row in enumerate(csv.reader(text.splitlines(), delimiter=delimiter), 1):
        cells = [c.strip() for c in row]
        if not any(cells):
            continue
        if len(cells) != 3:
            raise FormatError(f"{len(cells)} cells, expected category, category, distance", path=path, line=line)
        a, b, value = cells
        try:
            d = float(value)
        except ValueError:
            if line == 1:
                continue          # a header
            raise FormatError(f"the distance {value!r} is not a number", path=path, line=line) from None
        if not 0.0 <= d <= 1.0:
            raise FormatError(f"the distance {d:g} is outside [0, 1]", path=path, line=line)
        if a not in index or b not in index:
            continue              # a category the annotators did not use
        i, j = index[a], index[b]
        if i == j and d != 0:
            raise FormatError(f"the distance of {a!r} to itself must be 0, got {d:g}", path=path, line=line)
        if not np.isnan(matrix[i, j]) and matrix[i, j] != d:
            raise FormatError(f"{a!r}, {b!r} is given twice with different distances", path=path, line=line)
        matrix[i, j] = matrix[j, i] = d
    missing = np.argwhere(np.isnan(matrix))
    if len(missing):
        i, j = missing[0]
        raise FormatError(f"no distance between {categories[i]!r} and {categories[j]!r} ({len(missing) // 2} pairs "
                          "of categories the annotators used are missing)", path=path)
    return matrix
