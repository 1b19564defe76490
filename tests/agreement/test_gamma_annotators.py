"""γ with more annotators: the observed disorder of pygamma-agreement and of HiGHS's integer program over every
candidate, the candidates those of the definition (a brute force over the product of the annotators' units), and
5 x 500 units computed (a sample's cover problem was called infeasible by HiGHS's presolve)."""

from __future__ import annotations

import itertools
import logging
import warnings

import numpy as np
import pytest

from accord.agreement import _alignment
from accord.agreement._continua import continua_from_rows
from accord.agreement._dissimilarity import Dissimilarity
from accord.agreement._gamma import gamma_tables

from ._units import sparse_rows


def rows_of(n: int, annotators: int, seed: int, categories: str = "abcd"):
    """Sparse units: every annotator marks the same items with jittered boundaries, a tenth left out."""
    return sparse_rows(n, annotators, seed, categories)


@pytest.mark.parametrize("seed", range(3))
def test_five_annotators_observed_disorder_equals_pygamma(seed):
    pa = pytest.importorskip("pygamma_agreement")
    from pyannote.core import Segment

    logging.getLogger().setLevel(logging.ERROR)
    rows = rows_of(7, 5, seed)
    continuum = pa.Continuum()
    for a, _, s, e, c in rows:
        continuum.add(a, Segment(s, e), c)
    theirs = float(continuum.get_best_alignment(pa.CombinedCategoricalDissimilarity()).disorder)
    units = continua_from_rows(rows)
    ours = _alignment.best_alignment(units, Dissimilarity()).disorder.sum() / (len(units) / units.n_annotators)
    assert ours == pytest.approx(theirs, rel=2e-6)


def test_candidates_are_the_tuples_that_pass_both_tests_by_brute_force():
    """Every tuple of the product (one unit or none per annotator) whose members' summed dissimilarity stays within
    (C(n, 2) + k - 1) Δ and whose disorder within k Δ: exactly the candidates built (with partial tuples dropped as
    they grow)."""
    rows = rows_of(4, 5, seed=11, categories="ab")
    units = continua_from_rows(rows)
    diss = Dissimilarity()
    n, delta = units.n_annotators, diss.delta_empty
    pairs_n = n * (n - 1) // 2
    own = [[-1, *np.flatnonzero(units.annotator == a).tolist()] for a in range(n)]

    def d(u, v):
        return float(diss.pairs(units.start[[u]], units.end[[u]], units.category[[u]], units.start[[v]],
                                units.end[[v]], units.category[[v]])[0])

    expected = set()
    for t in itertools.product(*own):
        members = [u for u in t if u >= 0]
        k = len(members)
        if not k:
            continue
        sums = {u: sum(d(u, v) for v in members if v != u) for u in members}
        total = sum(sums.values()) / 2 + (pairs_n - k * (k - 1) // 2) * delta
        if k == 1 or (total <= k * pairs_n * delta * (1 + 1e-9)
                      and all(s <= (pairs_n + k - 1) * delta * (1 + 1e-9) + 1e-12 for s in sums.values())):
            expected.add(t)
    tuples, _ = _alignment.candidate_alignments(units, diss)
    assert {tuple(r) for r in tuples.tolist()} == expected
    assert len(expected) > 3 * len(units)            # tuples of several units among them


@pytest.mark.slow
def test_five_by_five_hundred_is_computed_exactly():
    """5 annotators x 500 units: one of the 30 samples' components (789 units) was refused ("the integer program of
    the alignment was not solved: The problem is infeasible"), a presolve failure of HiGHS; the observed disorder is
    that of HiGHS's integer program over every candidate."""
    from scipy import sparse
    from scipy.optimize import Bounds, LinearConstraint, milp

    units = continua_from_rows(rows_of(500, 5, seed=500))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tables, alignment = gamma_tables(units, samples=30)
    assert np.isfinite(tables.values()["gamma"])
    tuples, disorder = _alignment.candidate_alignments(units, Dissimilarity())
    real = tuples >= 0
    cand, col = np.nonzero(real)
    _, row = np.unique(tuples[cand, col], return_inverse=True)
    matrix = sparse.csr_array((np.ones(len(cand)), (row, cand)))
    mip = milp(disorder, integrality=np.ones(len(tuples)), bounds=Bounds(0, 1),
               constraints=LinearConstraint(matrix, 1, 1), options={"mip_rel_gap": 0.0})
    assert alignment.disorder.sum() == pytest.approx(mip.fun, rel=1e-9)


def test_what_the_solver_prints_on_standard_output_is_kept_out_of_it():
    """HiGHS's MIP printed ``HighsMipSolverData::transformNewIntegerFeasibleSolution tmpSolver.run();`` lines on the
    standard output (from C++, on the descriptor), ahead of ``--output json``'s document (5 x 500 units)."""
    import subprocess
    import sys

    code = ("import os\nfrom accord.agreement._alignment_base import quiet_stdout\nprint('before', flush=False)\n"
            "with quiet_stdout():\n    os.write(1, b'solver noise\\n')\nprint('after')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out == "before\nafter\n"
