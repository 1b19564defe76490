"""The dynamic programming along the continuum (``accord.agreement._frontier``) against exact covers found apart:
an exhaustive search written here for small components, HiGHS's integer program (``scipy.optimize.milp``) for long
ones."""

from __future__ import annotations

import numpy as np
import pytest

from accord.agreement._alignment import _components, candidate_alignments
from accord.agreement._continua import continua_from_rows
from accord.agreement._dissimilarity import Dissimilarity
from accord.agreement._frontier import solve_frontier

from ._units import sparse_rows


def _units(n_items: int, annotators: int, seed: int, spread: float = 22.0):
    return continua_from_rows(sparse_rows(n_items, annotators, seed, "ab", gaps=(5, 2 * spread - 5), left_out=0.15))


def _exhaustive(tuples: np.ndarray, disorder: np.ndarray) -> float:
    """The least total disorder of an exact cover, by trying every candidate for the lowest uncovered unit."""
    from functools import cache

    sets = [frozenset(int(u) for u in row if u >= 0) for row in tuples]

    @cache
    def least(left: frozenset) -> float:
        if not left:
            return 0.0
        lowest = min(left)
        return min((float(d) + least(left - s) for s, d in zip(sets, disorder) if lowest in s and s <= left),
                   default=np.inf)

    return least(frozenset().union(*sets))


def _milp(tuples: np.ndarray, disorder: np.ndarray) -> float:
    from scipy import sparse
    from scipy.optimize import Bounds, LinearConstraint, milp

    cand, col = np.nonzero(tuples >= 0)
    used, row = np.unique(tuples[cand, col], return_inverse=True)
    matrix = sparse.csc_array((np.ones(len(cand)), (row, cand)), shape=(len(used), len(tuples)))
    result = milp(disorder, integrality=np.ones(len(tuples)), bounds=Bounds(0, 1),
                  constraints=LinearConstraint(matrix, 1, 1), options={"mip_rel_gap": 0.0})
    assert result.status == 0
    return float(result.fun)


def _check_cover(tuples: np.ndarray, picked: np.ndarray) -> None:
    members = tuples[picked][tuples[picked] >= 0]
    assert len(members) == len(set(members.tolist())) == len(np.unique(tuples[tuples >= 0]))


@pytest.mark.parametrize("seed", range(8))
def test_small_components_match_an_exhaustive_search(seed):
    units = _units(4, 3 + seed % 2, seed, spread=8.0)            # close items: components of several items
    tuples, disorder = candidate_alignments(units, Dissimilarity())
    comp = _components(tuples)
    picked, hard = solve_frontier(tuples, disorder, comp, units, 1.0)
    assert not hard.any()
    _check_cover(tuples, picked)
    expected = sum(_exhaustive(tuples[comp == c], disorder[comp == c]) for c in np.unique(comp))
    assert float(disorder[picked].sum()) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("annotators, seed, spread", [(3, 1, 10.0), (4, 2, 12.0), (5, 3, 16.0)])
def test_long_components_match_the_integer_program(annotators, seed, spread, monkeypatch):
    import accord.agreement._frontier as frontier

    monkeypatch.setattr(frontier, "MAX_FRONTIER_STATES", 10**6)   # solved here whatever the states
    units = _units(60, annotators, seed, spread)                 # long chains: far more than 62 units
    tuples, disorder = candidate_alignments(units, Dissimilarity())
    comp = _components(tuples)
    sizes = [len(np.unique(tuples[comp == c][tuples[comp == c] >= 0])) for c in np.unique(comp)]
    assert max(sizes) > 62
    picked, hard = solve_frontier(tuples, disorder, comp, units, 1.0)
    assert not hard.any()
    _check_cover(tuples, picked)
    assert float(disorder[picked].sum()) == pytest.approx(_milp(tuples, disorder), abs=1e-7)


def test_a_crowded_component_is_left_to_the_integer_program(monkeypatch):
    import accord.agreement._frontier as frontier

    units = _units(40, 4, 5, spread=6.0)
    tuples, disorder = candidate_alignments(units, Dissimilarity())
    comp = _components(tuples)
    monkeypatch.setattr(frontier, "MAX_FRONTIER_STATES", 1)
    picked, hard = solve_frontier(tuples, disorder, comp, units, 1.0)
    assert hard.any()
    assert not np.isin(picked, np.flatnonzero(hard)).any()      # nothing chosen in a component it gave up


@pytest.mark.parametrize("relabel", [lambda c: c - 1, lambda c: c * 1000 - 7, lambda c: 10 ** 9 - c])
def test_any_labels_of_components_give_the_same_covers(relabel):
    """Components labelled by any integers (negative, far apart, as a caller may number them) give the covers and
    costs of scipy's labels 0, 1, ...: the least total disorder of each checked against the exhaustive search."""
    units = _units(6, 3, seed=5)
    tuples, disorder = candidate_alignments(units, Dissimilarity())
    comp = _components(tuples)
    picked, hard = solve_frontier(tuples, disorder, comp, units, 1.0)
    again, hard_again = solve_frontier(tuples, disorder, relabel(comp), units, 1.0)
    assert not hard.any() and np.array_equal(hard, hard_again)
    assert np.array_equal(np.sort(picked), np.sort(again))
    assert disorder[picked].sum() == pytest.approx(_exhaustive(tuples, disorder), rel=1e-12)
