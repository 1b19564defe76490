"""scipy's Kuhn-Munkres loaded from its extension's file (:mod:`accord.match._lsap`): the same pairs as
:func:`scipy.optimize.linear_sum_assignment`, ties included, without the import of :mod:`scipy.optimize`."""

import subprocess
import sys

import numpy as np
import pytest
from scipy.optimize import linear_sum_assignment

from accord.match import _lsap


def _matrices(seed):
    rng = np.random.default_rng(seed)
    for trial in range(300):
        n, m = (int(x) for x in rng.integers(1, 30, size=2))
        if trial % 3 == 0:
            yield rng.random((n, m))
        elif trial % 3 == 1:     # few values: many ties
            yield rng.integers(0, 3, size=(n, m)) / 2.0
        else:
            yield np.round(rng.random((n, m)) * 4) / 4 * (rng.random((n, m)) < 0.6)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("maximize", [True, False])
def test_the_function_from_the_file_pairs_as_scipy_optimize_does(seed, maximize):
    from_file = _lsap._from_file()
    assert from_file is not None, "scipy/optimize/_lsap not found: the fast path is not taken"
    for m in _matrices(seed):
        ours = from_file(m, maximize=maximize)
        theirs = linear_sum_assignment(m, maximize=maximize)
        assert all(np.array_equal(a, b) for a, b in zip(ours, theirs)), m


def test_a_fresh_command_pairs_without_importing_scipy_optimize():
    # a 3 x 3 matrix with a hand-counted best: rows 0, 1, 2 to columns 2, 0, 1 (0.9 + 0.8 + 0.7); above the plain
    # Python size, so that scipy's solver decides
    code = (
        "import sys, numpy as np\n"
        "from accord.match.assign import assign\n"
        "m = np.zeros((7, 7)); m[0, 2], m[1, 0], m[2, 1] = 0.9, 0.8, 0.7; m[0, 0] = 0.5\n"
        "rows, cols = assign(m)\n"
        "print(rows.tolist(), cols.tolist(), 'scipy.optimize' in sys.modules, 'scipy.optimize._lsap' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split("\n")[0] == "[0, 1, 2] [2, 0, 1] False True"


def test_without_the_file_the_ordinary_import_gives_the_solver(monkeypatch):
    monkeypatch.setattr(_lsap, "_SOLVER", [])
    monkeypatch.setattr(_lsap, "_from_file", lambda: None)
    assert _lsap.solver() is linear_sum_assignment
