"""What γ's exact solvers share: the compatible pairs of two annotators, the result of an alignment, HiGHS's
integer program and the error of an alignment out of reach (:mod:`._alignment` lists candidates,
:mod:`._colgen` generates them; both import this module, neither the other's internals both ways)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import AccordError
from ._continua import Continua
from ._dissimilarity import Dissimilarity

__all__ = ["ADVICE", "Alignment", "AlignmentError", "MAX_CANDIDATES", "MIP_SECONDS", "TOLERANCE", "mip",
           "pair_table", "quiet_stdout", "rank_table"]

MAX_CANDIDATES = 4_000_000
"""More compatible pairs, or candidate unitary alignments of three annotators (fewer of more), than
this in one call is refused before they are stored."""

MIP_SECONDS = 60.0
"""An integer program of one component not solved to optimality within this time is refused."""

TOLERANCE = 1e-9


class AlignmentError(AccordError):
    """The optimal alignment could not be computed (too many candidates, or the solver failed)."""


ADVICE = ("γ's exact alignment of so dense units is out of reach (the problem is NP-hard); raise the positional "
           "weight (--gamma-alpha) so that fewer units can align, split the document, or use --unitizing alpha-u, "
           "which needs no alignment")


@dataclass(frozen=True)
class Alignment:
    """Unitary alignments: ``units[i, a]`` is the unit (a row of the continua) of annotator ``a`` in the
    ``i``-th unitary alignment, or -1 for the empty unit; ``disorder[i]`` its disorder; ``document[i]`` its
    document."""

    units: np.ndarray
    disorder: np.ndarray
    document: np.ndarray
    candidates: int = 0
    """How many candidate unitary alignments were weighed (the work done)."""
    listed: int = 0
    """How many candidate unitary alignments were listed (0 where none was: column generation from the pairs)."""

    def __len__(self) -> int:
        return len(self.disorder)

    def document_totals(self, n_documents: int) -> np.ndarray:
        """The summed disorder of each document's unitary alignments."""
        return np.bincount(self.document, weights=self.disorder, minlength=n_documents)


def pair_table(units: Continua, a: int, b: int, diss: Dissimilarity, bound: float) -> tuple[np.ndarray, np.ndarray]:
    """The compatible pairs (u of annotator a, v of annotator b, same document, d(u, v) <= bound), as sorted
    codes ``u * N + v`` and their dissimilarities."""
    n_units = len(units)
    rows_a = np.flatnonzero(units.annotator == a)
    rows_b = np.flatnonzero(units.annotator == b)
    if not len(rows_a) or not len(rows_b):
        return np.zeros(0, dtype=np.int64), np.zeros(0)
    radius = diss.position_radius(bound)
    start, end, doc = units.start, units.end, units.document
    span = float(end.max() - start.min()) + 1.0
    key = doc * (2.0 * span) + (start - start.min())     # sorted by (document, start) within an annotator
    key_b = key[rows_b]
    doc_b = doc[rows_b]
    lengths_b = end[rows_b] - start[rows_b]
    length_a = end[rows_a] - start[rows_a]
    found_u: list[np.ndarray] = []
    found_v: list[np.ndarray] = []
    stored = 0
    buckets = np.floor(np.log2(lengths_b)).astype(np.int64)
    for bucket in np.unique(buckets):
        members = np.flatnonzero(buckets == bucket)
        longest = float(lengths_b[members].max())
        keys = key_b[members]
        # |s_u - s_v| <= radius * (l_u + l_v) is needed for (|ds| + |de|) / (l_u + l_v) <= radius
        width = radius * (length_a + longest)
        width = width * (1 + 1e-9) + 1e-9 * np.abs(key[rows_a]) + 1e-9
        lo = np.maximum(np.searchsorted(keys, key[rows_a] - width, side="left"),
                        np.searchsorted(doc_b[members], doc[rows_a], side="left"))
        hi = np.minimum(np.searchsorted(keys, key[rows_a] + width, side="right"),
                        np.searchsorted(doc_b[members], doc[rows_a], side="right"))
        counts = np.maximum(hi - lo, 0)
        total = int(counts.sum())
        if total == 0:
            continue
        stored += total
        if stored > MAX_CANDIDATES:
            raise AlignmentError(f"more than {MAX_CANDIDATES:,} pairs of units to compare between two annotators: "
                                 f"{ADVICE}")
        u = np.repeat(rows_a, counts)
        offsets = np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts)
        v = rows_b[members[np.repeat(lo, counts) + offsets]]
        found_u.append(u)
        found_v.append(v)
    if not found_u:
        return np.zeros(0, dtype=np.int64), np.zeros(0)
    u = np.concatenate(found_u)
    v = np.concatenate(found_v)
    d = diss.pairs(start[u], end[u], units.category[u], start[v], end[v], units.category[v])
    keep = d <= bound * (1 + TOLERANCE)
    codes = u[keep] * n_units + v[keep]
    order = np.argsort(codes, kind="stable")
    return codes[order], d[keep][order]


def rank_table(values: np.ndarray) -> tuple[np.ndarray, int]:
    """For non-negative integers ``values`` (unit ids, labels of components): a table whose entry ``v`` is the index of
    ``v`` among the distinct values in increasing order (``table[values]`` is ``np.unique``'s inverse, without its
    sort), and the number of distinct values."""
    seen = np.zeros(int(values.max()) + 1, dtype=np.int64)
    seen[values] = 1
    table = np.cumsum(seen) - 1
    return table, int(table[-1]) + 1


def mip(disorder: np.ndarray, matrix: Any, columns: np.ndarray, seconds: float = MIP_SECONDS) -> Any:
    """HiGHS's integer program over the ``columns`` of the cover ``matrix``, to optimality (a relative gap of 0)
    or its time limit, ``seconds`` of HiGHS's clock (``scipy.optimize.milp``'s result)."""
    from scipy.optimize import Bounds, LinearConstraint, milp

    def run(presolve: bool) -> Any:
        return milp(disorder[columns], integrality=np.ones(len(columns), dtype=np.int64), bounds=Bounds(0, 1),
                    constraints=LinearConstraint(matrix[:, columns], 1, 1),
                    options={"mip_rel_gap": 0.0, "presolve": presolve, "time_limit": seconds})

    with quiet_stdout():
        result = run(True)
        if result.status == 2:   # HiGHS's presolve may call a feasible cover problem infeasible (scipy 1.17)
            result = run(False)
    return result


@contextmanager
def quiet_stdout() -> Iterator[None]:
    """Standard output (the descriptor) sent to the null device: HiGHS's MIP prints debugging lines there from C++
    (``HighsMipSolverData::transformNewIntegerFeasibleSolution``), ahead of the JSON of ``--output json``."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):     # no descriptor (captured in memory): nothing to guard
        yield
        return
    sys.stdout.flush()
    saved = os.dup(fd)
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), fd)
        yield
    finally:
        os.dup2(saved, fd)
        os.close(saved)
