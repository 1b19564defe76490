"""The integer program that ends γ's column generation (``accord.agreement._colgen_mip.cover_program``) against an
exhaustive search of every partition written here."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import sparse

from accord.agreement._colgen_mip import cover_program


def _matrix(columns: list[frozenset[int]], m: int) -> sparse.csc_array:
    rows = [u for col in columns for u in sorted(col)]
    cols = [k for k, col in enumerate(columns) for _ in col]
    return sparse.csc_array((np.ones(len(rows)), (rows, cols)), shape=(m, len(columns)))


def _exhaustive(columns: list[frozenset[int]], cost: list[float], m: int) -> float:
    """The least cost of an exact cover: the lowest unit left is covered by each column holding it in turn."""

    @cache
    def best(left: frozenset[int]) -> float:
        if not left:
            return 0.0
        low = min(left)
        return min((cost[k] + best(left - col) for k, col in enumerate(columns) if low in col and col <= left),
                   default=float("inf"))

    return best(frozenset(range(m)))


@st.composite
def programs(draw: st.DrawFn) -> tuple[list[frozenset[int]], list[float], int]:
    """Units 0..m-1, every singleton (a cover exists) and random sets of 2-3 units, costs on a grid."""
    m = draw(st.integers(2, 9))
    columns = [frozenset([u]) for u in range(m)]
    cost = [draw(st.integers(1, 12)) / 4 for _ in range(m)]
    for _ in range(draw(st.integers(0, 14))):
        members = frozenset(draw(st.lists(st.integers(0, m - 1), min_size=2, max_size=3, unique=True)))
        if members not in columns:
            columns.append(members)
            cost.append(draw(st.integers(0, 12)) / 4)
    return columns, cost, m


@settings(max_examples=60, deadline=None)
@given(programs())
def test_the_cover_is_the_exhaustive_optimum(program):
    columns, cost, m = program
    result = cover_program(np.array(cost), _matrix(columns, m), 30.0)
    assert result.solved
    chosen = [columns[k] for k in result.chosen]
    assert sorted(u for col in chosen for u in col) == list(range(m))          # an exact cover
    assert sum(cost[k] for k in result.chosen) == pytest.approx(_exhaustive(columns, cost, m), abs=1e-9)


def test_a_time_limit_spent_is_not_solved():
    """A program HiGHS cannot finish within its limit is reported unsolved, never its incumbent as optimal."""
    rng = np.random.default_rng(0)
    m = 120
    columns = [frozenset([u]) for u in range(m)]
    cost = list(np.ones(m))
    while len(columns) < 6000:
        col = frozenset(rng.choice(m, size=3, replace=False).tolist())
        columns.append(col)
        cost.append(float(rng.uniform(0.5, 3.0)))
    result = cover_program(np.array(cost), _matrix(columns, m), 1e-3)
    assert not result.solved and "time limit" in result.message.lower()
