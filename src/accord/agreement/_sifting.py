"""The exact cover of one large component whose candidates are listed, by column generation over the list.

Where sparse units of many annotators join into one long component (8 annotators × 200 units: over 600,000
candidate unitary alignments), neither the dynamic program along the continuum (:mod:`._frontier`) nor one
linear program over every candidate is fast. The candidates are listed all the same (about a second), so the
column generation of :mod:`._colgen` can price them by one sparse product instead of growing tuples from the
pairs: the restricted master (HiGHS, kept between rounds) starts from the singletons and, for every unit, its two
tuples of least reduced cost when each unit is worth a share of ``Δ∅``; each round, for every unit, the two tuples
through it of most negative reduced cost ``rc = c - Aᵀπ`` are added, until none is negative: the master's value
is then the linear relaxation's optimum over every candidate.

Bound and proof. For any duals ``π``, every exact cover costs at least

.. math:: LB = \\sum_u \\pi_u + \\sum_u \\min\\Bigl(0, \\min_{t:\\, \\mathrm{first}(t) = u} rc(t)\\Bigr)

(each unit is the first unit of at most one tuple of a cover), and a cover using a tuple ``t`` costs at least
``LB + rc(t)``. The relaxation's tuples above one half and an integer program over the units they leave give a
cover of cost ``UB``. Every cover of cost at most ``LB + τ`` uses only tuples with ``rc <= τ``: the exact cover over
those (and the tuples of the best cover so far, so that one exists), split into its components (dynamic programming
along the continuum, else an integer program each), costs ``U``; when ``U <= LB + τ`` it is optimal, else ``τ``
grows fourfold, to ``U - LB`` at most (then it is optimal). ``τ`` starts at ``Δ∅ / 20`` (a quarter of ``UB - LB`` if
less): the tuples within it are few, and the cover they give is usually the optimum, or bounds the next ``τ``.

Refusals. More than :data:`MAX_SIFT_ROUNDS` rounds, more than :data:`MAX_SIFT_FIXED` tuples within ``τ``, or γ's
CPU budget for its exact alignments spent (:func:`~accord.agreement._colgen.time_budget`, which this counts in): an
:class:`~accord.agreement._alignment_base.AlignmentError` (the caller then turns to column generation from the
pairs, :mod:`._colgen`). Nothing is approximated.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from ._alignment_base import AlignmentError, mip, rank_table

__all__ = ["MAX_SIFT_FIXED", "MAX_SIFT_ROUNDS", "SIFT_CANDIDATES", "solve_listed"]

SIFT_CANDIDATES = 200_000
"""A component with more listed candidates than this is solved by :func:`solve_listed` (fewer: one linear program
over all of them, :func:`accord.agreement._alignment._solve`)."""

MAX_SIFT_ROUNDS = 200
"""Rounds of pricing before the component is left to column generation from the pairs."""

MAX_SIFT_FIXED = 300_000
"""The most tuples within ``τ`` of the bound that the exact cover may be sought over."""

_PER_UNIT = 2
_START = (0.2, 0.4)
_FIRST_TAU = 0.05


class _ByUnit:
    """The tuples through each unit (an incidence read unit by unit), to find each unit's best tuples by one
    gather and one reduction instead of a sort."""

    def __init__(self, by_column: Any):
        self.tuples = by_column.indices                  # a CSC incidence: tuples unit by unit
        self.unit = np.repeat(np.arange(by_column.shape[1], dtype=np.int32), np.diff(by_column.indptr))

    def best(self, score: np.ndarray, below: float, per_unit: int) -> np.ndarray:
        """Indices of the ``per_unit`` tuples of least ``score`` through each unit, among those scoring below
        ``below``."""
        entries = np.flatnonzero((score < below)[self.tuples])
        if not len(entries):
            return np.zeros(0, dtype=np.int64)
        tuples, unit = self.tuples[entries], self.unit[entries]
        values = score[tuples]
        starts = np.flatnonzero(np.r_[True, unit[1:] != unit[:-1]])
        group = np.cumsum(np.r_[True, unit[1:] != unit[:-1]]) - 1
        picked = []
        for _ in range(per_unit):
            least = np.minimum.reduceat(values, starts)
            at = np.flatnonzero((values == least[group]) & (values < below))
            if not len(at):
                break
            at = at[np.r_[True, unit[at][1:] != unit[at][:-1]]]     # the first of each unit
            picked.append(tuples[at])
            values[at] = np.inf
        return np.unique(np.concatenate(picked)) if picked else np.zeros(0, dtype=np.int64)


def solve_listed(tuples: np.ndarray, disorder: np.ndarray,
                 exact: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> tuple[np.ndarray, int]:
    """Indices of the candidates of an exact cover of their units at least total disorder (one component whose
    candidates, singletons included, are ``tuples``; see the module docstring), and how many tuples the linear and
    integer programs weighed (the master's columns and the tuples within ``τ``). ``exact(tuples, disorder)`` gives
    the indices of an exact cover at least cost of the units of a subset of the candidates (any number of
    components).

    Raises
    ------
    AlignmentError
        The pricing did not converge within :data:`MAX_SIFT_ROUNDS`, or more than :data:`MAX_SIFT_FIXED` tuples
        are within ``τ`` of the bound.
    """
    from scipy import sparse

    from ._colgen import _BUDGET, _Master

    budget = _BUDGET.get()
    deadline = budget[0] if budget is not None else float("inf")

    real = tuples >= 0
    size = real.sum(axis=1)
    renumber, m = rank_table(tuples[real])              # the units renumbered 0..m-1 in order (np.unique's)
    local = np.where(real, renumber[np.maximum(tuples, 0)], -1).astype(np.int32)
    del renumber
    # the incidence built as rows of units (each tuple's members in the order of its columns), its indices then
    # sorted in each row if they are not already
    indptr = np.zeros(len(tuples) + 1, dtype=np.int32)     # (at most MAX_CANDIDATES tuples of n units)
    np.cumsum(size, out=indptr[1:])
    incidence = sparse.csr_array((np.ones(int(indptr[-1])), local[real], indptr),
                                 shape=(len(tuples), m))
    incidence.sort_indices()
    first = local[np.arange(len(tuples)), np.argmax(real, axis=1)]
    by_first = np.argsort(first, kind="stable")
    first_starts = np.flatnonzero(np.r_[True, first[by_first][1:] != first[by_first][:-1]])
    by_unit = _ByUnit(incidence.tocsc())

    def bound(pi: np.ndarray, reduced: np.ndarray) -> float:
        per_first = np.minimum.reduceat(reduced[by_first], first_starts)
        return float(pi.sum() + np.minimum(per_first, 0.0).sum())

    master = _Master(m)
    in_master = np.zeros(len(tuples), dtype=bool)
    order: list[np.ndarray] = []

    def add(rows: np.ndarray) -> None:
        rows = rows[~in_master[rows]]
        if len(rows):
            in_master[rows] = True
            order.append(rows)
            master.add(local[rows], disorder[rows])

    add(np.flatnonzero(size == 1))
    for share in _START:          # good tuples when every unit is worth a share of the empty unit
        reduced = disorder - incidence @ np.full(m, share * float(disorder[size == 1].max(initial=1.0)))
        add(by_unit.best(reduced, 0.0, _PER_UNIT))
    best, best_reduced = float("-inf"), disorder.copy()
    value = float("inf")
    for _ in range(MAX_SIFT_ROUNDS):
        if time.process_time() > deadline:
            raise AlignmentError("γ's time limit for its exact alignments passed during the pricing")
        value, pi = master.solve()
        reduced = disorder - incidence @ pi
        lower = bound(pi, reduced)
        if lower > best:
            best, best_reduced = lower, reduced
        tol = 1e-9 * max(1.0, abs(value))
        negative = np.flatnonzero(reduced < -tol)
        if not len(negative) or best >= value - tol:
            break
        add(by_unit.best(reduced, -tol, _PER_UNIT))
    else:
        raise AlignmentError(f"the pricing of the listed candidates did not converge in {MAX_SIFT_ROUNDS} rounds")
    columns = np.concatenate(order)
    primal = master.primal()
    tol = 1e-9 * max(1.0, abs(best))
    if primal is not None:
        pick = columns[primal > 0.5]
        covered = np.bincount(local[pick][real[pick]], minlength=m)
        if (np.abs(primal - np.round(primal)) < 1e-6).all() and (covered == 1).all() and \
                float(disorder[pick].sum()) <= best + tol:
            return np.sort(pick), len(columns)      # an integral optimum of the relaxation: optimal
        taken = pick if (covered <= 1).all() else pick[:0]
    else:
        taken = columns[:0]
    cover = _cover_around(taken, columns, local, real, disorder, m)
    upper = float(disorder[cover].sum())
    tau = min((upper - best) / 4, _FIRST_TAU * float(disorder[size == 1].max(initial=1.0)))
    weighed = len(columns)
    while upper - best > tol:
        if time.process_time() > deadline:
            raise AlignmentError("γ's time limit for its exact alignments passed before the proof")
        within = np.union1d(np.flatnonzero(best_reduced <= tau + tol), cover)
        if len(within) > MAX_SIFT_FIXED:
            raise AlignmentError(f"{len(within):,} listed candidates within {tau:.6g} of the bound, more than "
                                 f"{MAX_SIFT_FIXED:,}")
        found = within[exact(tuples[within], disorder[within])]
        weighed += len(within)
        cost = float(disorder[found].sum())
        if cost < upper:
            cover, upper = found, cost
        if upper <= best + tau + tol:      # every cover within tau of the bound was weighed
            break
        tau = min(upper - best, 4 * tau)
    return np.sort(cover), weighed


def _cover_around(taken: np.ndarray, columns: np.ndarray, local: np.ndarray, real: np.ndarray,
                  disorder: np.ndarray, m: int) -> np.ndarray:
    """An exact cover: the disjoint tuples ``taken``, and the units they leave covered by an integer program over
    the master's ``columns`` that touch only those units (their singletons at worst)."""
    from scipy import sparse

    covered = np.zeros(m, dtype=bool)
    covered[local[taken][real[taken]]] = True
    if covered.all():
        return taken
    rows = local[columns]
    touches = np.where(rows >= 0, covered[np.maximum(rows, 0)], False).any(axis=1)
    free = columns[~touches]
    free_units = np.flatnonzero(~covered)
    renumber = np.full(m, -1, dtype=np.int64)
    renumber[free_units] = np.arange(len(free_units))
    cand, col = np.nonzero(real[free])
    matrix = sparse.csc_array((np.ones(len(cand)), (renumber[local[free][cand, col]], cand)),
                              shape=(len(free_units), len(free)))
    result = mip(disorder[free], matrix, np.arange(len(free)))
    if result.status == 0 and result.x is not None:
        return np.concatenate([taken, free[result.x > 0.5]])
    singles = free[real[free].sum(axis=1) == 1]         # the singletons of the units left: a cover all the same
    return np.concatenate([taken, singles])
