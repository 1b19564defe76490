"""The assignment layer: its pairs without scipy (a row, a column, a small matrix solved by scipy's own steps) are
those scipy's Kuhn-Munkres gives the same objective, ties included."""

import numpy as np
import pytest
from scipy.optimize import linear_sum_assignment

from accord.match.assign import _tie_breaker, _unique_best, assign


def scipy_pairs(sim, prefer=None):
    """What assign did before it had a path of its own: Kuhn-Munkres on the objective, pairs of similarity 0 out."""
    rows, cols = linear_sum_assignment(sim + _tie_breaker(sim, prefer), maximize=True)
    keep = sim[rows, cols] > 0
    return rows[keep], cols[keep]


@pytest.mark.parametrize("scipy_loaded", [False, True])
@pytest.mark.parametrize("seed", range(4))
def test_small_matrices_pair_as_kuhn_munkres_does(seed, scipy_loaded, monkeypatch):
    if not scipy_loaded:    # as in a command that has not loaded scipy's solver: the small ones solved in Python
        import accord.match._lsap as lsap_module
        monkeypatch.setattr(lsap_module, "loaded", lambda: False)
    rng = np.random.default_rng(seed)
    without_scipy = 0
    for trial in range(1500):
        n, m = (int(x) for x in rng.integers(1, 6, size=2))
        if trial % 3 == 0:
            sim = rng.random((n, m))
        elif trial % 3 == 1:     # few values: many ties
            sim = rng.integers(0, 3, size=(n, m)) / 2.0
        else:
            sim = np.round(rng.random((n, m)) * 4) / 4 * (rng.random((n, m)) < 0.6)
        prefer = rng.random((n, m)) < 0.3 if trial % 2 else None
        objective = sim + _tie_breaker(sim, prefer)
        ours = assign(sim, prefer=prefer)
        theirs = scipy_pairs(sim, prefer)
        if _unique_best(objective) is not None:
            without_scipy += 1
            assert all(np.array_equal(a, b) for a, b in zip(ours, theirs)), (sim, ours, theirs)
        else:     # larger, or scipy loaded: scipy decides in both
            assert all(np.array_equal(a, b) for a, b in zip(ours, theirs))
    assert without_scipy > (1000 if not scipy_loaded else 250)


def test_a_row_or_column_of_equal_cells_takes_the_first_as_scipy_does():
    row = np.array([[0.5, 0.75, 0.75, 0.0]])
    assert [c.tolist() for c in assign(row)] == [[0], [1]]
    assert [c.tolist() for c in scipy_pairs(row)] == [[0], [1]]
    column = row.T
    assert [c.tolist() for c in assign(column)] == [[1], [0]]
    assert [c.tolist() for c in scipy_pairs(column)] == [[1], [0]]


def test_hand_counted_two_by_three():
    # rows 0 and 1 both like column 0 most; the best total (0.9 + 0.8 = 1.7) gives column 0 to row 1
    sim = np.array([[0.6, 0.9, 0.0], [0.8, 0.1, 0.0]])
    rows, cols = assign(sim)
    assert (rows.tolist(), cols.tolist()) == ([0, 1], [1, 0])


def test_nothing_positive_pairs_nothing():
    rows, cols = assign(np.zeros((1, 3)))
    assert len(rows) == len(cols) == 0
