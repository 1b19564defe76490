"""The integer program that ends γ's column generation: a set partitioning over listed tuples.

:func:`cover_program` hands HiGHS (:func:`~accord.agreement._alignment_base.mip`) the partitioning of the units by
the tuples listed by reduced-cost fixing, with a time limit taken from γ's budget rather than a fixed one. The
program is solved to optimality (a relative gap of 0) or reported as not solved. (Starting HiGHS from the best
cover known was tried and left out: on dense units it made HiGHS slower, 43 against 26 CPU-s on a sample of
3 x 1,000.)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ._alignment_base import mip

__all__ = ["CoverResult", "cover_program"]


@dataclass(frozen=True)
class CoverResult:
    """What :func:`cover_program` found: ``chosen`` the columns of the optimal cover when ``solved``."""

    solved: bool
    chosen: np.ndarray
    message: str


def cover_program(cost: np.ndarray, matrix: Any, seconds: float) -> CoverResult:
    """The cover of least ``cost`` of the rows of the 0/1 ``matrix`` (units x columns): each row covered once.

    Parameters
    ----------
    cost
        One cost a column.
    matrix
        A SciPy sparse matrix, units x columns, of ones.
    seconds
        HiGHS's time limit (seconds of its clock); past it the program is reported as not solved.

    Returns
    -------
    CoverResult
        ``solved`` only when HiGHS proved the cover optimal (a relative gap of 0).
    """
    cost = np.asarray(cost, dtype=float)
    result = mip(cost, matrix, np.arange(len(cost)), max(float(seconds), 1e-3))
    if result.status != 0 or result.x is None:
        return CoverResult(False, np.zeros(0, dtype=np.int64), str(result.message))
    return CoverResult(True, np.flatnonzero(result.x > 0.5), "optimal")
