"""γ's documents aligned in several processes (``agreement/_alignment_jobs.py``, ``--jobs``): the same figures and
alignment as one process, the work done in other processes, and the time limit shared as its docstring says."""

from __future__ import annotations

import math
import os
import time

import numpy as np
import pytest

from accord.agreement import _alignment
from accord.agreement._alignment_jobs import ALIGNMENT_JOBS, CANDIDATES_PER_UNIT, align_apart, alignment_jobs
from accord.agreement._colgen import _BUDGET, time_budget
from accord.agreement._continua import continua_from_rows
from accord.agreement._dissimilarity import Dissimilarity
from accord.agreement._gamma import gamma_tables
from accord.parallel._run import usable_cores

from .test_gamma import dense_rows

two_cores = pytest.mark.skipif(usable_cores() < 2, reason="a pool of processes needs two cores here")


def _pid(piece, diss, what):
    return piece, os.getpid(), ALIGNMENT_JOBS.get()


def _burn(seconds, diss, what):
    """Spend ``seconds`` of CPU; the budget this process sees, and its CPU time when done."""
    begun = time.process_time()
    while time.process_time() - begun < seconds:
        pass
    return _BUDGET.get(), time.process_time()


def _refuse(piece, diss, what):
    if piece == 2:
        raise _alignment.AlignmentError(f"{what}: piece {piece} refused")
    return piece


@two_cores
def test_pieces_are_aligned_in_other_processes_in_order():
    pieces = list(range(7))
    assert align_apart(_pid, pieces, None, "") == [(p, os.getpid(), 1) for p in pieces]     # one process: here
    with alignment_jobs(2):
        done = align_apart(_pid, pieces, None, "")
    assert [p for p, _, _ in done] == pieces
    assert os.getpid() not in {pid for _, pid, _ in done}
    assert {jobs for _, _, jobs in done} == {1}          # a worker starts no pool of its own
    with alignment_jobs(2):
        assert align_apart(_pid, [5], None, "") == [(5, os.getpid(), 2)]     # one piece: no pool


@two_cores
def test_a_refusal_in_a_worker_reaches_the_caller():
    with alignment_jobs(2), pytest.raises(_alignment.AlignmentError, match="random continuum: piece 2 refused"):
        align_apart(_refuse, [0, 1, 2, 3], None, "random continuum")


@two_cores
def test_each_worker_may_spend_what_was_left_and_the_busiest_counts():
    """Four pieces of 0.15 CPU-s in two processes: each process's deadline is its CPU at its first piece plus what
    was left of the limit; afterwards what is left shrinks by the CPU of the busiest process (at least two pieces:
    0.3 s), not by the 0.6 s of all of them."""
    with time_budget(50.0):
        deadline, limit = _BUDGET.get()
        left = deadline - time.process_time()
        with alignment_jobs(2):
            done = align_apart(_burn, [0.15] * 4, None, "")
        for (worker_deadline, worker_limit), ended in done:
            assert worker_limit == limit == 50.0
            assert worker_deadline <= ended - 0.15 + left + 0.05        # from the process's start, not per piece
            assert worker_deadline >= left - 0.05
        taken = deadline - _BUDGET.get()[0]
        assert 0.3 - 0.02 <= taken < 0.55        # the busiest process's two or three pieces, not the four's 0.6
    assert _BUDGET.get() is None


@two_cores
def test_gamma_in_two_processes_has_the_figures_of_one(monkeypatch):
    """Samples too many to list together (the limit lowered so that a batch of 3 x 60 dense units is refused) are
    aligned one by one, here in two processes: every table and the observed alignment are equal to one process's."""
    monkeypatch.setattr(_alignment, "MAX_CANDIDATES", 20_000)
    units = continua_from_rows(dense_rows(60, 300.0, seed=3))
    calls = _count_pieces(monkeypatch)
    one, alignment = gamma_tables(units, samples=6)
    assert calls and sum(calls) >= 6       # the samples went document by document
    two, alignment_two = gamma_tables(units, samples=6, jobs=2)
    for name in ("observed", "expected", "observed_cat", "expected_cat", "observed_k", "expected_k"):
        assert np.array_equal(getattr(one, name), getattr(two, name), equal_nan=True), name
    assert np.array_equal(alignment.units, alignment_two.units)
    assert np.array_equal(alignment.disorder, alignment_two.disorder)
    assert one.values()["gamma"] == two.values()["gamma"]


def _documents(count: int, per: int, annotators: int):
    """``count`` documents of sparse units (``per`` items each), of sizes that differ."""
    from ._units import sparse_rows

    rows = []
    for k in range(count):
        rows += [(a, f"doc{k}", s, e, c) for a, _, s, e, c in sparse_rows(per + 7 * k, annotators, seed=k)]
    return continua_from_rows(rows)


def test_document_groups_cover_every_unit_once_in_order():
    units = _documents(7, 20, 3)
    starts = units.document_slices()
    for begin in (0, 1, 5):
        for count in (1, 2, 3, 4, 7, 20):
            groups = _alignment._document_groups(units, count, begin)
            assert 1 <= len(groups) <= min(count, 7 - begin)
            assert groups[0][0].start == starts[begin].start and groups[0][1] == begin
            assert groups[-1][0].stop == len(units) and groups[-1][2] == 7
            for (rows, _, stop), (after, next_first, _) in zip(groups, groups[1:]):
                assert rows.stop == after.start and stop == next_first
            for rows, first, stop in groups:          # whole documents
                assert set(units.document[rows]) == set(range(first, stop))
    sizes = [g[0].stop - g[0].start for g in _alignment._document_groups(units, 2)]
    assert len(sizes) == 2 and max(sizes) < 0.75 * len(units)


def test_groups_are_sized_by_the_first_documents_candidates(monkeypatch):
    """Sparse documents go in few groups (at least one a process), dense ones one by one: the first document's
    candidates per unit times the other units, over :data:`GROUP_CANDIDATES`."""
    seen: list[list[int]] = []

    def record(align, pieces, diss, what):
        seen.append([len(piece.documents) for piece in pieces])
        with alignment_jobs(1):                   # (as in a worker)
            return [align(piece, diss, what) for piece in pieces]

    monkeypatch.setattr(_alignment, "align_apart", record)
    sparse = _documents(9, 20, 3)
    with alignment_jobs(2):
        together = _alignment.best_alignment(sparse, Dissimilarity())
    assert len(seen) == 1 and len(seen[0]) == 2 and sum(seen[0]) == 8     # the first here, the 8 others in 2
    alone = _alignment.best_alignment(sparse, Dissimilarity())
    assert np.array_equal(together.units, alone.units) and np.array_equal(together.document, alone.document)
    monkeypatch.setattr(_alignment, "GROUP_CANDIDATES", 10)
    seen.clear()
    with alignment_jobs(2):
        _alignment.best_alignment(sparse, Dissimilarity())
    assert seen == [[1] * 8]
    seen.clear()
    for per_unit, groups in ((math.inf, [[1] * 9]), (0.001, [[6, 3]])):   # γ's samples: the observed continuum's
        token = CANDIDATES_PER_UNIT.set(per_unit)                          # (inf: too dense to list), no first
        try:                                                               # document aligned apart
            with alignment_jobs(2):
                _alignment.best_alignment(sparse, Dissimilarity())
        finally:
            CANDIDATES_PER_UNIT.reset(token)
        assert seen == groups                     # (two groups of about as many units: the documents grow)
        seen.clear()


@two_cores
def test_documents_and_listed_batches_in_groups_have_the_figures_of_one_process(monkeypatch):
    """Several observed documents, and batches of samples listed together (sparse units of 4 annotators), aligned
    in groups of documents in two processes: the tables and the alignment of one process."""
    units = _documents(6, 25, 4)
    calls = _count_pieces(monkeypatch)
    one, alignment = gamma_tables(units, samples=8, seed=2)
    assert not calls                                            # one process: every batch listed whole
    two, alignment_two = gamma_tables(units, samples=8, seed=2, jobs=2)
    assert len(calls) >= 2 and all(c >= 2 for c in calls)      # the observed documents, then the samples
    for name in ("observed", "expected", "observed_cat", "expected_cat", "observed_k", "expected_k"):
        assert np.array_equal(getattr(one, name), getattr(two, name), equal_nan=True), name
    for name in ("units", "disorder", "document"):
        assert np.array_equal(getattr(alignment, name), getattr(alignment_two, name)), name
    assert alignment.candidates == alignment_two.candidates     # (which size the batches of samples)


def _sleep_or_refuse(piece, diss, what):
    if piece == "refuse":
        raise _alignment.AlignmentError(f"{what}: refused at once")
    time.sleep(piece)
    return piece


@two_cores
def test_a_refusal_stops_the_other_processes_at_once():
    """The refused piece is the second to start and the first to end: it is raised then, not after the 4 s of the
    first, and the process running that one is stopped (the interpreter would wait for it at exit)."""
    import multiprocessing

    begun = time.perf_counter()
    with alignment_jobs(2), pytest.raises(_alignment.AlignmentError, match="refused at once"):
        align_apart(_sleep_or_refuse, [4.0, "refuse", 4.0, 4.0], None, "a sample")
    assert time.perf_counter() - begun < 3.0
    deadline = time.perf_counter() + 2.0
    while multiprocessing.active_children() and time.perf_counter() < deadline:
        time.sleep(0.05)
    assert not multiprocessing.active_children()


def test_one_core_is_one_process(monkeypatch):
    """On one usable core ``jobs=2`` is ``jobs=1``: no pool, no time counted twice."""
    from accord.parallel import _run

    monkeypatch.setattr(_run, "usable_cores", lambda: 1)
    with time_budget(50.0), alignment_jobs(2):
        assert ALIGNMENT_JOBS.get() == 1
        deadline = _BUDGET.get()[0]
        assert align_apart(_pid, [1, 2], None, "") == [(1, os.getpid(), 1), (2, os.getpid(), 1)]
        assert _BUDGET.get()[0] == deadline


def _with_empty_documents():
    """Units in the first document only, then two documents without any (and one more with units in the middle
    case)."""
    from ._units import sparse_rows

    rows = [(a, "d0", s, e, c) for a, _, s, e, c in sparse_rows(30, 3, seed=1)]
    middle = rows + [(a, "d2", s, e, c) for a, _, s, e, c in sparse_rows(20, 3, seed=2)]
    return (continua_from_rows(rows, documents=["d0", "d1", "d2"]),
            continua_from_rows(middle, documents=["d0", "d1", "d2", "d3"]))


@two_cores
@pytest.mark.parametrize("case", [0, 1])
def test_documents_without_units_are_aligned_as_in_one_process(case):
    units = _with_empty_documents()[case]
    one, alignment = gamma_tables(units, samples=4)
    two, alignment_two = gamma_tables(units, samples=4, jobs=2)
    for name in ("observed", "expected", "observed_cat", "expected_cat"):
        assert np.array_equal(getattr(one, name), getattr(two, name), equal_nan=True), name
    assert np.array_equal(alignment.units, alignment_two.units)


@two_cores
def test_two_annotators_over_the_pair_limit_are_refused_as_in_one_process(monkeypatch):
    """Two annotators: one assignment over every document, refused as a whole past the limit of pairs; groups of
    documents would each pass it, so two processes do not cut them."""
    from ._units import sparse_rows

    rows = [(a, f"d{k}", s, e, c) for k in range(4) for a, _, s, e, c in sparse_rows(40, 2, seed=k)]
    units = continua_from_rows(rows)
    pairs = len(_alignment.candidate_alignments(units, Dissimilarity())[0])
    monkeypatch.setattr(_alignment, "MAX_CANDIDATES", pairs // 3)
    for jobs in (1, 2):
        with pytest.raises(_alignment.AlignmentError):
            gamma_tables(units, samples=2, jobs=jobs)


@two_cores
def test_a_component_given_up_over_several_documents_is_aligned_document_by_document(monkeypatch):
    """The pricing over a listed component gives up (no round allowed): with several documents each is aligned
    apart (then by column generation), in one process as in groups, so the work counted, which sizes γ's batches of
    samples, is the same."""
    from accord.agreement import _sifting

    monkeypatch.setattr(_alignment, "SIFT_CANDIDATES", 5)
    monkeypatch.setattr(_sifting, "MAX_SIFT_ROUNDS", 0)
    rows = [(a, f"d{k}", s, e, c) for k in range(3) for a, _, s, e, c in dense_rows(25, 40.0, seed=k)]
    units = continua_from_rows(rows)
    _apart_in_one_process_and_in_groups(monkeypatch, units, 3)


@two_cores
def test_a_crowded_frontier_over_several_documents_aligns_each_apart(monkeypatch):
    """Past the dynamic program's total of partial covers in one call, the components still open would go to the
    integer program, and which ones depends on what else the call holds; over several documents each document is
    aligned apart instead, in one process as in groups: the same alignment and work counted."""
    from accord.agreement import _frontier

    units = _documents(4, 30, 4)
    monkeypatch.setattr(_frontier, "MAX_FRONTIER_TOTAL", 50)
    _apart_in_one_process_and_in_groups(monkeypatch, units, 4)
    one_document = units.take_documents(units.document_slices()[0], 0, 1)
    tuples, disorder = _alignment.candidate_alignments(one_document, Dissimilarity())
    comp = _alignment._components(tuples)
    with pytest.raises(_frontier.FrontierCrowded):
        _frontier.solve_frontier(tuples, disorder, comp, one_document, 1.0, stop_when_crowded=True)
    _, hard = _frontier.solve_frontier(tuples, disorder, comp, one_document, 1.0)
    assert hard.any()                             # (without it: the open components to the integer program)


def _apart_in_one_process_and_in_groups(monkeypatch, units, documents: int) -> None:
    """One process aligns the ``documents`` of ``units`` apart (one call of ``_by_document``), and two processes
    give the same alignment and work counted."""
    calls = _calls_of(monkeypatch, "_by_document", lambda units, diss, what, slices: len(slices))
    alone = _alignment.best_alignment(units, Dissimilarity())
    assert calls == [documents]
    with alignment_jobs(2):
        grouped = _alignment.best_alignment(units, Dissimilarity())
    for name in ("units", "disorder", "document"):
        assert np.array_equal(getattr(alone, name), getattr(grouped, name)), name
    assert alone.candidates == grouped.candidates


def _count_pieces(monkeypatch) -> list[int]:
    """The number of pieces of every call of ``align_apart`` from now on (the list filled as they come)."""
    return _calls_of(monkeypatch, "align_apart", lambda align, pieces, diss, what: len(pieces))


def _calls_of(monkeypatch, name: str, size) -> list[int]:
    """``size(*arguments)`` of every call of ``_alignment.<name>`` from now on (the list filled as they come)."""
    calls: list[int] = []
    original = getattr(_alignment, name)

    def counting(*args):
        calls.append(size(*args))
        return original(*args)

    monkeypatch.setattr(_alignment, name, counting)
    return calls
