"""Column generation for γ's alignment of dense units (``accord.agreement._colgen``) against optima found apart:
HiGHS's integer program over every candidate (``scipy.optimize.milp``), an exhaustive search written here for small
cases, and pygamma-agreement's observed disorders of the dense benchmark (``benchmarks/bench_gamma.py --dense``,
written down from its run)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from accord.agreement import _alignment
from accord.agreement._alignment import best_alignment, candidate_alignments
from accord.agreement._colgen import dense_alignment, solve_dense
from accord.agreement._continua import continua_from_rows
from accord.agreement._dissimilarity import Dissimilarity


def dense_rows(n: int, annotators: int = 3, seed: int | None = None, stretch: float = 100.0):
    """The dense units of ``benchmarks/bench_gamma.py --dense`` (``write_dense``: seed ``n``, the same draws)."""
    rng = np.random.default_rng(n if seed is None else seed)
    rows = []
    for a in range(annotators):
        start = np.round(rng.uniform(0, stretch, n))
        length = np.maximum(1, np.round(rng.uniform(1, stretch / 4, n)))
        category = rng.choice(list("abcd"), n)
        rows += [(f"A{a}", "d", float(s), float(s + ln), str(c)) for s, ln, c in zip(start, length, category)]
    return list(dict.fromkeys(rows))


def _milp_optimum(units, diss=None) -> float:
    """The least total disorder: HiGHS's integer program over every candidate (to a zero gap)."""
    from scipy import sparse
    from scipy.optimize import Bounds, LinearConstraint, milp

    tuples, disorder = candidate_alignments(units, diss or Dissimilarity())
    cand, col = np.nonzero(tuples >= 0)
    used, row = np.unique(tuples[cand, col], return_inverse=True)
    assert len(used) == len(units)
    matrix = sparse.csc_array((np.ones(len(cand)), (row, cand)), shape=(len(used), len(tuples)))
    result = milp(disorder, integrality=np.ones(len(tuples)), bounds=Bounds(0, 1),
                  constraints=LinearConstraint(matrix, 1, 1), options={"mip_rel_gap": 0.0})
    assert result.status == 0
    return float(result.fun)


def _exhaustive(units, diss) -> float:
    """The least total disorder over every partition into tuples of at most one unit an annotator (no candidates'
    tests: every tuple), by trying every partner set for the lowest unit left."""
    from functools import cache
    from itertools import product

    n = units.n_annotators
    pairs_n = n * (n - 1) / 2

    def cost(members: tuple[int, ...]) -> float:
        total = 0.0
        for i in range(n):
            for j in range(i + 1, n):
                u, v = members[i], members[j]
                if u < 0 or v < 0:
                    total += diss.delta_empty
                else:
                    total += float(diss.pairs(units.start[[u]], units.end[[u]], units.category[[u]],
                                              units.start[[v]], units.end[[v]], units.category[[v]])[0])
        return total / pairs_n

    @cache
    def least(left: frozenset) -> float:
        if not left:
            return 0.0
        lowest = min(left)
        own = int(units.annotator[lowest])
        choices = [[-1] + [u for u in left if units.annotator[u] == a and u != lowest] if a != own else [lowest]
                   for a in range(n)]
        best = np.inf
        for members in product(*choices):
            taken = frozenset(u for u in members if u >= 0)
            best = min(best, cost(tuple(members)) + least(left - taken))
        return best

    return least(frozenset(range(len(units))))


def _check_cover(units, tuples) -> None:
    members = tuples[tuples >= 0]
    assert np.array_equal(np.sort(members), np.arange(len(units)))
    for a in range(units.n_annotators):
        column = tuples[:, a]
        assert (units.annotator[column[column >= 0]] == a).all()


@pytest.mark.parametrize("n, seed, stretch", [(12, 1, 60.0), (20, 2, 80.0), (25, 3, 60.0), (30, 4, 80.0),
                                              (30, 1, 80.0), (25, 22, 60.0)])
def test_dense_components_match_highs_over_every_candidate(n, seed, stretch):
    """Dense units over one stretch (among them the cases whose relaxation over all candidates is fractional, see
    test_gamma.test_fractional_relaxations_are_solved_exactly): the same least disorder as HiGHS's integer program
    over every candidate, and an exact cover of the units."""
    units = continua_from_rows(dense_rows(n, seed=seed, stretch=stretch))
    tuples, disorder, info = solve_dense(units, Dissimilarity(), "test")
    _check_cover(units, tuples)
    assert disorder.sum() == pytest.approx(_milp_optimum(units), rel=1e-9)
    assert info.lower_bound <= disorder.sum() + 1e-9
    assert info.columns < len(candidate_alignments(units, Dissimilarity())[0]) + len(units)


@pytest.mark.parametrize("alpha, delta", [(3.0, 1.0), (1.0, 0.5), (0.5, 2.0)])
def test_other_weights_match_highs(alpha, delta):
    """Another positional weight and cost of the empty unit: the same optimum as the integer program."""
    diss = Dissimilarity(alpha=alpha, delta_empty=delta)
    units = continua_from_rows(dense_rows(20, seed=7, stretch=70.0))
    tuples, disorder, _ = solve_dense(units, diss)
    _check_cover(units, tuples)
    assert disorder.sum() == pytest.approx(_milp_optimum(units, diss), rel=1e-9)


@settings(max_examples=25, deadline=None)
@given(st.integers(3, 4), st.lists(st.tuples(st.integers(0, 3), st.integers(0, 12), st.integers(1, 6),
                                              st.sampled_from("ab")), min_size=2, max_size=7),
       st.sampled_from([0.5, 1.0, 2.0]))
def test_small_cases_match_an_exhaustive_search(annotators, drawn, alpha):
    """Up to 7 units of 3 or 4 annotators: the optimum of every partition (an exhaustive search written here, with
    no candidates' tests) equals the column generation's."""
    rows = list(dict.fromkeys((f"A{a % annotators}", "d", float(s), float(s + ln), c) for a, s, ln, c in drawn))
    rows += [(f"A{a}", "d", 50.0 + a, 52.0 + a, "a") for a in range(annotators)]     # every annotator has a unit
    units = continua_from_rows(rows)
    diss = Dissimilarity(alpha=alpha)
    tuples, disorder, _ = solve_dense(units, diss)
    _check_cover(units, tuples)
    assert disorder.sum() == pytest.approx(_exhaustive(units, diss), rel=1e-9, abs=1e-12)


# pygamma-agreement 0.5.9's observed disorders of the dense benchmark (benchmarks/README.md, γ section: the same
# units, its MIP over the full product of the annotators' units)
PYGAMMA_DENSE = {20: 0.89302, 40: 0.74575, 80: 0.51051, 100: 0.47899}


@pytest.mark.parametrize("n", [20, 40, pytest.param(80, marks=pytest.mark.slow), 100])
def test_the_dense_benchmark_has_pygammas_observed_disorder(n):
    """The dense generator of benchmarks/bench_gamma.py at 3 x 20 ... 3 x 100: the observed disorder (total over
    units per annotator) is pygamma-agreement's to its five printed digits and, at 3 x 20 and 3 x 40, HiGHS's
    integer program over every candidate."""
    units = continua_from_rows(dense_rows(n))
    tuples, disorder, _ = solve_dense(units, Dissimilarity())
    _check_cover(units, tuples)
    observed = disorder.sum() / (len(units) / 3)
    assert round(observed, 5) == PYGAMMA_DENSE[n]
    if n <= 40:
        assert disorder.sum() == pytest.approx(_milp_optimum(units), rel=1e-9)


@pytest.mark.parametrize("refusal", ["listing", "component"])
def test_the_alignment_takes_column_generation_where_it_refused(monkeypatch, refusal):
    """Units too dense to list their candidates, or with a component of too many candidates, were refused (an
    AlignmentError); now best_alignment hands them to column generation, with the optimum of the integer program
    over every candidate and several documents kept apart. The refusals are forced on a small case."""
    rows = dense_rows(20, seed=5, stretch=60.0) + [(a, "e", float(s), float(s + 4), "a")
                                                   for a in ("A0", "A1", "A2") for s in (0, 30)]
    units = continua_from_rows(rows)
    expected = best_alignment(units, Dissimilarity())
    if refusal == "listing":
        def refuse(*args, **kwargs):
            raise _alignment.AlignmentError("too dense")
        monkeypatch.setattr(_alignment, "candidate_alignments", refuse)
    else:
        monkeypatch.setattr(_alignment, "MAX_LP_CANDIDATES", 50)
    got = best_alignment(units, Dissimilarity())
    _check_cover(units, got.units)
    assert got.disorder.sum() == pytest.approx(expected.disorder.sum(), rel=1e-9)
    for d in range(len(units.documents)):
        mine = got.document == d
        assert (units.document[got.units[mine][got.units[mine] >= 0]] == d).all()
        assert got.disorder[mine].sum() == pytest.approx(expected.disorder[expected.document == d].sum(), rel=1e-9)


def test_dense_alignment_splits_components():
    """Two far apart dense stretches in one document: solved apart (each its own component), the same optimum as
    the integer program over every candidate."""
    first = dense_rows(12, seed=8, stretch=40.0)
    second = [(a, d, s + 1000.0, e + 1000.0, c) for a, d, s, e, c in dense_rows(12, seed=9, stretch=40.0)]
    units = continua_from_rows(first + second)
    got = dense_alignment(units, Dissimilarity(), "", best_alignment)
    _check_cover(units, got.units)
    assert got.disorder.sum() == pytest.approx(_milp_optimum(units), rel=1e-9)


def test_one_budget_covers_the_observed_continuum_and_every_sample(monkeypatch):
    """γ's column generation spends one budget over the observed continuum and all its samples (the deadline each
    component is given is the same), not a fresh one a call: 31 calls of 120 CPU-s each were an hour before a
    refusal. Failed before: every call set its own deadline."""
    from accord.agreement import _colgen
    from accord.agreement._gamma import gamma_tables

    deadlines = []
    solve = _colgen.solve_dense

    def record(units, diss, what="", deadline=None, seconds=_colgen.COLGEN_SECONDS):
        deadlines.append((deadline, seconds))
        return solve(units, diss, what, deadline, seconds)

    monkeypatch.setattr(_colgen, "solve_dense", record)
    monkeypatch.setattr(_colgen, "DENSE_PAIRS", 0)              # every component through column generation

    def refuse(*args, **kwargs):                                 # and no candidates listed
        raise _alignment.AlignmentError("too dense")
    monkeypatch.setattr(_alignment, "candidate_alignments", refuse)
    units = continua_from_rows(dense_rows(12, seed=3, stretch=40.0))
    gamma_tables(units, samples=3, time_limit=50.0)
    assert len(deadlines) >= 2
    assert len(set(deadlines)) == 1 and deadlines[0][1] == 50.0


def test_the_time_limit_is_the_refusals_and_must_be_positive():
    """A time limit spent: the refusal names it and how to allow more; a limit of 0 or below, or not finite, is an
    OptionError (never a γ that stops at once or runs without end)."""
    from accord.agreement._alignment import AlignmentError
    from accord.agreement._gamma import gamma_tables
    from accord.errors import OptionError

    units = continua_from_rows(dense_rows(150, seed=0, stretch=100.0))
    with pytest.raises(AlignmentError, match=r"within 1e-06 CPU-s \(γ's time limit .*--time-limit"):
        gamma_tables(units, time_limit=1e-6)
    for bad in (0.0, -1.0, float("inf"), float("nan")):
        with pytest.raises(OptionError, match="--time-limit must be a positive number of seconds"):
            gamma_tables(units, time_limit=bad)


def test_the_last_integer_program_is_limited_by_gammas_budget_not_a_fixed_time(monkeypatch):
    """The integer program after reduced-cost fixing runs within what is left of γ's budget (``--time-limit``), not
    the listing path's fixed limit: on a loaded machine 3 x 1,000 was refused by HiGHS's 60 s while 60 CPU-s of the
    budget were left. Failed before: a tiny fixed limit refused 3 x 100 (a fractional relaxation)."""
    from accord.agreement import _alignment_base
    from accord.agreement._colgen import time_budget

    monkeypatch.setattr(_alignment_base, "MIP_SECONDS", 1e-4)
    units = continua_from_rows(dense_rows(100))
    with time_budget(120.0):
        got = dense_alignment(units, Dissimilarity(), "", best_alignment)
    _check_cover(units, got.units)
    assert round(got.disorder.sum() / (len(units) / 3), 5) == PYGAMMA_DENSE[100]


@st.composite
def _fixing_cases(draw):
    """A set partitioning of units 0..m-1 (every singleton and random tuples, costs on a grid), duals ``y`` on a
    grid, and the ``done`` of a first program."""
    m = draw(st.integers(2, 7))
    columns = [(u,) for u in range(m)]
    cost = [draw(st.integers(1, 8)) / 4 for _ in range(m)]
    for _ in range(draw(st.integers(1, 14))):
        members = tuple(sorted(draw(st.lists(st.integers(0, m - 1), min_size=2, max_size=3, unique=True))))
        if members not in columns:
            columns.append(members)
            cost.append(draw(st.integers(0, 10)) / 4)
    y = np.array([draw(st.integers(-2, 6)) / 8 for _ in range(m)])
    done = draw(st.integers(0, 12)) / 16
    return columns, np.array(cost), y, done


def _least_cover(columns, cost, allowed) -> float:
    from functools import cache

    m = 1 + max(u for col in columns for u in col)

    @cache
    def best(left: frozenset) -> float:
        if not left:
            return 0.0
        low = min(left)
        return min((cost[k] + best(left - set(col)) for k, col in enumerate(columns)
                    if allowed[k] and low in col and set(col) <= left), default=float("inf"))

    return best(frozenset(range(m)))


@settings(max_examples=200, deadline=None)
@given(_fixing_cases())
@example(([(0,), (1,), (0, 1)], np.array([0.75, 2.0, 2.5]), np.zeros(2), 0.3125))     # the pair past done
@example(([(0,), (1,), (0, 1)], np.array([0.75, 2.0, 2.5]), np.zeros(2), 2.375))      # and just past it
def test_the_second_program_of_reduced_cost_fixing_keeps_every_better_cover(case):
    """solve_dense's second integer program takes only the tuples within ``gap - done`` of the bound and those past
    ``done`` (``second_band``): its optimum, with the first program's, is the optimum over every tuple (exhaustive
    search here, under arbitrary duals and their Lagrangian bound). Fails when either part of the band is left out
    or widened the wrong way."""
    from accord.agreement._colgen import second_band

    columns, cost, y, done = case
    m = len(y)
    reduced = cost - np.array([y[list(col)].sum() for col in columns])
    first = np.array([min(col) for col in columns])
    terms = np.zeros(m)
    np.minimum.at(terms, first, reduced)
    bound = y.sum() + terms.sum()                          # the Lagrangian bound: every cover costs at least this
    singleton = np.array([len(col) == 1 for col in columns])
    optimum = _least_cover(columns, cost, np.ones(len(columns), dtype=bool))
    assert optimum >= bound - 1e-9
    upper = _least_cover(columns, cost, singleton | (reduced <= done))     # the first program
    gap = upper - bound
    if gap <= done:
        assert upper == pytest.approx(optimum)                 # the first program was enough
        return
    within = reduced <= gap + 1e-12                            # what the pricing lists for the second
    band = np.zeros(len(columns), dtype=bool)
    band[within] = second_band(reduced[within], done, gap)
    second = _least_cover(columns, cost, singleton | band)
    assert min(upper, second) == pytest.approx(optimum)


@pytest.mark.parametrize("n, seed, stretch", [(25, 3, 60.0), (30, 4, 80.0), (30, 1, 80.0), (25, 22, 60.0)])
def test_a_second_program_over_the_band_gives_highs_optimum(monkeypatch, n, seed, stretch):
    """With the first gap made tiny (every case takes a second integer program, over ``second_band``'s tuples
    only): the least disorder of HiGHS's integer program over every candidate."""
    from accord.agreement import _colgen

    calls = []
    band = _colgen.second_band

    def spy(*args, **kwargs):
        calls.append(args[0].size)
        return band(*args, **kwargs)

    monkeypatch.setattr(_colgen, "second_band", spy)
    monkeypatch.setattr(_colgen, "DIRECT_COLUMNS", 0)
    monkeypatch.setattr(_colgen, "_FIRST_TAU", 1e-7)
    units = continua_from_rows(dense_rows(n, seed=seed, stretch=stretch))
    tuples, disorder, _ = solve_dense(units, Dissimilarity(), "test")
    _check_cover(units, tuples)
    assert disorder.sum() == pytest.approx(_milp_optimum(units), rel=1e-9)
    assert calls
