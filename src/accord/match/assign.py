"""The assignment layer: a similarity matrix and a constraint in, pairs out.

Every pairing in accord goes through :func:`assign`, whatever produced the similarities
(a MAT profile, span overlap, a structured metric). Only pairs with a positive
similarity are returned.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .._support.arrays import Bools, Floats, Int64s
from ..errors import OptionError
from . import _lsap
from ._constraints import CONSTRAINTS

__all__ = ["CONSTRAINTS", "assign", "assign_by_content", "assigned_total"]


TIE_TOLERANCE = 1e-9
"""Summed similarities closer than this (times the number of pairs) count as a tie in 1:1 assignment."""


def _tie_breaker(sim: Floats, prefer: Bools | None = None
                 ) -> Floats:
    """A bonus far below any real difference that settles ties the same way whichever side is rows.

    Among assignments with (nearly) the same summed similarity the one with more pairs wins,
    then the one with more exact matches (similarity 1.0). Both counts are properties of the
    assignment, not of the row order, so scoring A against B and B against A pick
    corresponding pairs, which Kuhn-Munkres alone does not guarantee.
    """
    n = min(sim.shape) + 1
    bonus = (sim >= 1.0).astype(float)
    if prefer is not None:
        bonus = (bonus + (prefer & (sim > 0))) / 2
    tie_breaker: Floats = TIE_TOLERANCE * ((sim > 0) + bonus / n)
    return tie_breaker


def assign(similarity: npt.ArrayLike, constraint: str = "1:1", prefer: Bools | None = None
           ) -> tuple[Int64s, Int64s]:
    """Pair the rows (gold items) and columns (predicted items) of a similarity matrix.

    Parameters
    ----------
    similarity : numpy.ndarray, shape (n_gold, n_pred)
        Non-negative similarities; 0 means "cannot pair".
    constraint : {"1:1", "N:1", "1:N", "N:N"}
        ``1:1``: each item in at most one pair, total similarity maximal
        (Kuhn-Munkres, :func:`scipy.optimize.linear_sum_assignment`); among tied
        assignments, more pairs and then more exact matches win (:func:`_tie_breaker`), and
        among those the pairs marked in ``prefer`` (a boolean matrix of the same shape; the
        engine marks items of equal content).
        ``N:1``: several gold items may share one predicted item; each gold item takes
        its most similar predicted item.
        ``1:N``: the mirror image; each predicted item takes its most similar gold item.
        ``N:N``: every pair with a positive similarity.

    Returns
    -------
    rows, cols : numpy.ndarray of int
        The paired indices, in increasing row order.
    """
    sim = np.asarray(similarity, dtype=float)
    if sim.ndim != 2:
        raise OptionError("similarity must be a 2-D matrix")
    if sim.size == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    if constraint == "1:1":
        objective = sim + _tie_breaker(sim, prefer)
        small = _unique_best(objective)
        if small is not None:
            rows, cols = small
        else:
            rows, cols = _lsap.solver()(objective, maximize=True)   # (without the import of scipy.optimize)
    elif constraint == "N:1":
        rows = np.arange(sim.shape[0])
        cols = sim.argmax(axis=1)
    elif constraint == "1:N":
        cols = np.arange(sim.shape[1])
        rows = sim.argmax(axis=0)
        order = np.lexsort((cols, rows))
        rows, cols = rows[order], cols[order]
    elif constraint == "N:N":
        rows, cols = np.nonzero(sim > 0)
    else:
        raise OptionError(f"unknown matching constraint {constraint!r}; expected one of {', '.join(CONSTRAINTS)}")
    keep = sim[rows, cols] > 0
    return rows[keep].astype(np.int64), cols[keep].astype(np.int64)


def _unique_best(objective: Floats) -> tuple[Int64s, Int64s] | None:
    """The assignment Kuhn-Munkres gives a small matrix, without the import of :mod:`scipy.optimize` (half a
    second) or its call. A single row or column: its first largest cell (what scipy's shortest augmenting path
    takes among equal cells). Otherwise, while scipy's solver is not loaded yet (:mod:`._lsap`), a matrix of at most
    :data:`~accord.match._small_assignment.PLAIN` cells is solved in plain Python by scipy's own steps
    (:func:`~accord.match._small_assignment.max_assignment`: the same pairs, ties included). None for a larger
    matrix, a value that is not finite, or once scipy is loaded (its call is then the cheaper): Kuhn-Munkres
    decides, as before."""
    n, m = objective.shape
    if n == 1 or m == 1:
        flat = objective.ravel()
        if not math.isfinite(float(flat.sum())):     # (scipy refuses a NaN, or finds no assignment)
            return None
        top = np.array([int(flat.argmax())], dtype=np.int64)
        zero = np.zeros(1, dtype=np.int64)
        return (zero, top) if n == 1 else (top, zero)
    from ._small_assignment import PLAIN, max_assignment

    if n * m > PLAIN or _lsap.loaded() or not math.isfinite(float(objective.sum())):
        return None
    return max_assignment(objective)


def assigned_total(m: Floats) -> float:
    """The summed similarity of the pairs :func:`assign` chooses in ``m`` (1:1).

    Matrices of at most two rows and two columns (an annotation attribute or two on each side, the usual case)
    are decided in closed form on the objective ``assign`` maximises (the similarities plus its tie-breaking
    bonus): the larger cell of one row or column, the larger diagonal of a 2 x 2 matrix. Larger ones go through
    ``assign``."""
    if m.size == 0:
        return 0.0
    if m.shape[0] <= 2 and m.shape[1] <= 2:
        objective = m + _tie_breaker(m)
        if m.shape[0] == 1 or m.shape[1] == 1:
            return float(m.flat[int(np.argmax(objective))])
        if objective[0, 0] + objective[1, 1] >= objective[0, 1] + objective[1, 0]:
            return float(m[0, 0] + m[1, 1])
        return float(m[0, 1] + m[1, 0])
    rows, cols = assign(m)
    return float(m[rows, cols].sum())


def assign_by_content(similarity: Floats, gold_keys: Sequence[Any], pred_keys: Sequence[Any]) -> tuple[Int64s, Int64s]:
    """One-to-one pairs of a block whose rows and columns are in content order, preferring among equal similarities
    the pairs of equal content keys (compared as integer codes: an outer comparison, not a loop over pairs).

    ``gold_keys`` and ``pred_keys`` are the rows' and the columns' content keys, in the block's order. The block is
    solved transposed when the gold side's keys sort after the predicted side's, so that a tie breaks the same way
    whichever side is the gold.
    """
    codes: dict[Any, int] = {}
    gc = np.array([codes.setdefault(k, len(codes)) for k in gold_keys], dtype=np.int64)
    pc = np.array([codes.setdefault(k, len(codes)) for k in pred_keys], dtype=np.int64)
    same = gc[:, None] == pc[None, :]
    if sorted(gold_keys) > sorted(pred_keys):
        cols, rows = assign(similarity.T, prefer=same.T)
    else:
        rows, cols = assign(similarity, prefer=same)
    return rows, cols
