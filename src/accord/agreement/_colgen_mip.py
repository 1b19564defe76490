"""The integer program that ends γ's column generation: a set partitioning over listed tuples.

:func:`cover_program` hands HiGHS (the copy SciPy ships, through its interface module) the partitioning of the
units by the tuples listed by reduced-cost fixing, with a time limit taken from γ's budget rather than a fixed
one, and optionally a cover to start from (its first incumbent; :mod:`._colgen` hands none: on dense units it made
HiGHS slower, 43 against 26 CPU-s on a sample of 3 x 1,000). Without that interface (an older SciPy) it is
:func:`scipy.optimize.milp`, without a start. Either way the program is solved to optimality (a relative gap of 0)
or reported as not solved.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ._alignment_base import quiet_stdout

__all__ = ["CoverResult", "cover_program"]


@dataclass(frozen=True)
class CoverResult:
    """What :func:`cover_program` found: ``chosen`` the columns of the optimal cover when ``solved``."""

    solved: bool
    chosen: np.ndarray
    message: str


def _core() -> Any:
    try:
        from scipy.optimize._highspy import _core as core  # type: ignore[import-not-found]
    except ImportError:                 # an older SciPy: milp, without a start
        return None
    return core


def cover_program(cost: np.ndarray, matrix: Any, start: np.ndarray | None, seconds: float) -> CoverResult:
    """The cover of least ``cost`` of the rows of the 0/1 ``matrix`` (units x columns): each row covered once.

    Parameters
    ----------
    cost
        One cost a column.
    matrix
        A SciPy sparse matrix, units x columns, of ones.
    start
        Indices of columns that form a cover (handed to HiGHS as its first incumbent), or None.
    seconds
        HiGHS's time limit (seconds of its clock); past it the program is reported as not solved.

    Returns
    -------
    CoverResult
        ``solved`` only when HiGHS proved the cover optimal (a relative gap of 0).
    """
    from scipy import sparse

    seconds = max(float(seconds), 1e-3)
    core = _core()
    if core is None:
        return _by_milp(cost, matrix, seconds)
    a = sparse.csc_array(matrix)
    a.sum_duplicates()
    a.sort_indices()
    m, k = a.shape
    with quiet_stdout():
        solved = _run(core, np.asarray(cost, dtype=float), a, m, k, start, seconds, presolve=True)
        if solved is None:              # HiGHS's presolve may call a feasible cover problem infeasible (scipy 1.17)
            solved = _run(core, np.asarray(cost, dtype=float), a, m, k, start, seconds, presolve=False)
    if solved is None:
        return CoverResult(False, np.zeros(0, dtype=np.int64), "HiGHS found no cover")
    return solved


def _run(core: Any, cost: np.ndarray, a: Any, m: int, k: int, start: np.ndarray | None, seconds: float,
         presolve: bool) -> CoverResult | None:
    """One run of HiGHS; None when it called the program infeasible."""
    highs = core._Highs()
    highs.setOptionValue("output_flag", False)
    highs.setOptionValue("mip_rel_gap", 0.0)
    highs.setOptionValue("time_limit", float(seconds))
    highs.setOptionValue("presolve", "on" if presolve else "off")
    lp = core.HighsLp()
    lp.num_col_, lp.num_row_ = k, m
    lp.a_matrix_.num_col_, lp.a_matrix_.num_row_ = k, m
    lp.a_matrix_.format_ = core.MatrixFormat.kColwise
    lp.a_matrix_.start_ = a.indptr.astype(np.int32)
    lp.a_matrix_.index_ = a.indices.astype(np.int32)
    lp.a_matrix_.value_ = np.ones(len(a.indices))
    lp.col_cost_ = cost
    lp.col_lower_ = np.zeros(k)
    lp.col_upper_ = np.ones(k)
    lp.row_lower_ = np.ones(m)
    lp.row_upper_ = np.ones(m)
    lp.integrality_ = [core.HighsVarType.kInteger] * k
    highs.passModel(lp)
    if start is not None and len(start):
        first = core.HighsSolution()
        values = np.zeros(k)
        values[np.asarray(start, dtype=np.int64)] = 1.0
        first.col_value = values.tolist()
        first.value_valid = True
        highs.setSolution(first)
    highs.run()
    status = highs.getModelStatus()
    name = str(status).rsplit(".", 1)[-1]
    if name == "kInfeasible":
        return None
    if name != "kOptimal":
        return CoverResult(False, np.zeros(0, dtype=np.int64), f"HiGHS stopped: {highs.modelStatusToString(status)}")
    x = np.asarray(highs.getSolution().col_value, dtype=float)
    return CoverResult(True, np.flatnonzero(x > 0.5), "optimal")


def _by_milp(cost: np.ndarray, matrix: Any, seconds: float) -> CoverResult:
    from scipy.optimize import Bounds, LinearConstraint, milp

    def run(presolve: bool) -> Any:
        return milp(cost, integrality=np.ones(len(cost), dtype=np.int64), bounds=Bounds(0, 1),
                    constraints=LinearConstraint(matrix, 1, 1),
                    options={"mip_rel_gap": 0.0, "presolve": presolve, "time_limit": seconds})

    with quiet_stdout():
        result = run(True)
        if result.status == 2:
            result = run(False)
    if result.status != 0 or result.x is None:
        return CoverResult(False, np.zeros(0, dtype=np.int64), str(result.message))
    return CoverResult(True, np.flatnonzero(result.x > 0.5), "optimal")
