"""γ's documents aligned in several processes (``accord agree --unitizing gamma --jobs N``).

An alignment never joins two documents, and γ's expected disorder is the mean of the optimal alignments of random
continua, each drawn as a document of its own. With ``--jobs N``,
:func:`~accord.agreement._alignment.best_alignment` cuts a continua of several documents (the observed documents,
a batch of samples) into groups of whole documents of about as many units each: one group a process, or a multiple
of that where the candidates per unit say a group would list more than
:data:`~accord.agreement._alignment.GROUP_CANDIDATES` (dense units go one document a group; sparse ones are listed
together in one pass, as one process does). For the samples, the candidates per unit are those the observed
continuum listed (:data:`CANDIDATES_PER_UNIT`: a random continuum is seldom denser); for the observed documents,
those of the first one, aligned first in this process. :func:`align_apart` aligns the groups in a pool of processes
(:func:`accord.parallel.runner`) by the same function as in one process, so every figure equals that of one process
(a group too large to list together is aligned document by document, as in one process). One document (the observed
continuum of one text) is aligned in this process.

Time limit. γ's exact alignments share one budget of CPU seconds (:func:`~accord.agreement._colgen.time_budget`).
Each process of the pool may spend what was left of it when the pool started, counted on its own CPU; then the CPU
of the busiest process is taken from what is left. The wait is bounded as in one process; the CPU of all the
processes together may reach ``N`` times the limit. A piece refused ends the pool at once (the other processes are
stopped), as a refusal ends one process's work.

Memory grows with ``N``: each process holds the candidates of the group it aligns (up to about
:data:`~accord.agreement._alignment.GROUP_CANDIDATES` of them, or one dense document's) besides the command's own.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

__all__ = ["ALIGNMENT_JOBS", "CANDIDATES_PER_UNIT", "alignment_jobs", "align_apart"]

ALIGNMENT_JOBS: ContextVar[int] = ContextVar("accord_gamma_jobs", default=1)
"""The processes :func:`align_apart` may run at once (1: this process)."""

CANDIDATES_PER_UNIT: ContextVar[float | None] = ContextVar("accord_gamma_candidates_per_unit", default=None)
"""Set while γ's samples are aligned: the candidate alignments listed per unit of the observed continuum (infinite
when it was too dense to list), which sizes the groups of samples (None: the first document's, aligned first); in
one process, a batch it says holds more than :data:`~accord.agreement._alignment_base.MAX_CANDIDATES` is aligned
document by document at once, without a listing of it all tried and refused first."""

P = TypeVar("P")
A = TypeVar("A")

_WORKER_START: list[Any] = [None, 0.0]
"""In a worker of the pool: the pool it serves (a token) and this process's CPU time when its first task began."""


@contextmanager
def alignment_jobs(jobs: int) -> Iterator[None]:
    """Within the block, :func:`align_apart` runs in up to ``jobs`` processes, never more than the cores this process
    may run on (one core: this process, exactly as ``jobs=1``)."""
    if jobs > 1:
        from ..parallel._run import usable_cores

        jobs = min(jobs, usable_cores())
    token = ALIGNMENT_JOBS.set(max(1, int(jobs)))
    try:
        yield
    finally:
        ALIGNMENT_JOBS.reset(token)


def align_apart(align: Callable[[P, Any, str], A], pieces: Sequence[P], diss: Any, what: str) -> list[A]:
    """``[align(piece, diss, what) for piece in pieces]``, in a pool of :data:`ALIGNMENT_JOBS` processes when it is
    above 1 and there are two pieces or more (see the module docstring for the time limit).

    Raises
    ------
    AlignmentError
        As ``align`` does: the first piece refused (in order of completion) ends the others, their processes
        stopped.
    """
    jobs = ALIGNMENT_JOBS.get()
    if jobs <= 1 or len(pieces) < 2:
        return [align(piece, diss, what) for piece in pieces]
    from ..parallel import runner
    from ._colgen import _BUDGET

    budget = _BUDGET.get()
    left = None if budget is None else budget[0] - time.process_time()
    limit = None if budget is None else budget[1]
    pool = os.urandom(8)
    tasks = [(align, piece, diss, what, pool, left, limit) for piece in pieces]
    with runner(jobs, label="aligning γ's continua") as run:
        done = run.map(_in_worker, tasks)
    if budget is not None:
        busiest: dict[int, float] = {}
        for _, pid, spent in done:
            busiest[pid] = max(busiest.get(pid, 0.0), spent)
        _BUDGET.set((budget[0] - max(busiest.values(), default=0.0), budget[1]))
    return [alignment for alignment, _, _ in done]


def _in_worker(task: tuple[Any, ...]) -> tuple[Any, int, float]:
    """One piece aligned in a worker of the pool: the alignment, this process's id and the CPU it has spent on the
    pool's tasks so far."""
    from ._colgen import _BUDGET

    align, piece, diss, what, pool, left, limit = task
    if _WORKER_START[0] != pool:
        _WORKER_START[:] = [pool, time.process_time()]
    started = float(_WORKER_START[1])
    jobs = ALIGNMENT_JOBS.set(1)        # (a worker starts no pool of its own)
    budget = _BUDGET.set(None if left is None else (started + left, limit))
    try:
        alignment = align(piece, diss, what)
    finally:
        _BUDGET.reset(budget)
        ALIGNMENT_JOBS.reset(jobs)
    return alignment, os.getpid(), time.process_time() - started
