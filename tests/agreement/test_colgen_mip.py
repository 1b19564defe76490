"""The integer program that ends γ's column generation (``accord.agreement._colgen_mip.cover_program``) against an
exhaustive search of every partition written here: started from a cover, it still returns the optimum."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import sparse

from accord.agreement import _colgen_mip
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
def programs(draw: st.DrawFn) -> tuple[list[frozenset[int]], list[float], int, list[int]]:
    """Units 0..m-1, every singleton (a cover exists) and random sets of 2-3 units, costs on a grid; the start is
    a random exact cover (its columns' indices)."""
    m = draw(st.integers(2, 9))
    columns = [frozenset([u]) for u in range(m)]
    cost = [draw(st.integers(1, 12)) / 4 for _ in range(m)]
    for _ in range(draw(st.integers(0, 14))):
        members = frozenset(draw(st.lists(st.integers(0, m - 1), min_size=2, max_size=3, unique=True)))
        if members not in columns:
            columns.append(members)
            cost.append(draw(st.integers(0, 12)) / 4)
    # a start: columns picked greedily in a drawn order, singletons for what is left
    order = draw(st.permutations(range(m, len(columns))))
    covered: set[int] = set()
    start = []
    for k in order:
        if not columns[k] & covered:
            covered |= columns[k]
            start.append(k)
    start += [u for u in range(m) if u not in covered]
    return columns, cost, m, start


@settings(max_examples=60, deadline=None)
@given(programs(), st.booleans())
def test_the_cover_is_the_exhaustive_optimum(program, with_start):
    columns, cost, m, start = program
    result = cover_program(np.array(cost), _matrix(columns, m), np.array(start) if with_start else None, 30.0)
    assert result.solved
    chosen = [columns[k] for k in result.chosen]
    assert sorted(u for col in chosen for u in col) == list(range(m))          # an exact cover
    assert sum(cost[k] for k in result.chosen) == pytest.approx(_exhaustive(columns, cost, m), abs=1e-9)


def test_without_highs_interface_milp_gives_the_same_optimum(monkeypatch):
    """An older SciPy (no interface module): scipy.optimize.milp, the same optimum."""
    columns = [frozenset([0]), frozenset([1]), frozenset([2]), frozenset([0, 1]), frozenset([1, 2])]
    cost = [1.0, 1.0, 1.0, 0.5, 1.2]
    monkeypatch.setattr(_colgen_mip, "_core", lambda: None)
    result = cover_program(np.array(cost), _matrix(columns, 3), np.array([0, 1, 2]), 30.0)
    assert result.solved and sorted(result.chosen.tolist()) == [2, 3]


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
    result = cover_program(np.array(cost), _matrix(columns, m), np.arange(m), 1e-3)
    assert not result.solved and "time limit" in result.message.lower()
