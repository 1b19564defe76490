"""Where shards run: in this process, in a pool of processes (``--jobs N``) or on a Dask cluster (``--dask``)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

from ..errors import OptionError

__all__ = ["resolve_jobs", "Runner", "runner"]

CONNECT_TIMEOUT = 20
"""Seconds to wait for a Dask scheduler before ``--dask ADDRESS`` is an error."""

T = TypeVar("T")
R = TypeVar("R")


def resolve_jobs(jobs: int | str | None) -> int:
    """The number of processes ``--jobs`` asks for: a whole number >= 1, or ``auto`` (the cores this process may
    run on)."""
    if jobs is None:
        return 1
    if isinstance(jobs, str):
        if jobs.strip().lower() == "auto":
            try:
                return max(1, len(os.sched_getaffinity(0)))
            except AttributeError:  # pragma: no cover - not on Linux
                return max(1, os.cpu_count() or 1)
        try:
            jobs = int(jobs)
        except ValueError:
            raise OptionError(f"--jobs must be a whole number >= 1 or auto; got {jobs!r}") from None
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise OptionError(f"--jobs must be a whole number >= 1 or auto; got {jobs!r}")
    return jobs


class Runner:
    """Runs a function over items and returns the results in the items' order.

    ``workers`` is the number of tasks that run at once (1 in this process).
    """

    def __init__(self, workers: int, submit: Callable[[Callable[[T], R], Sequence[T]], list[R]], where: str):
        self.workers, self._submit, self.where = workers, submit, where

    def map(self, fn: Callable[[T], R], items: Sequence[T]) -> list[R]:
        if not items:
            return []
        return self._submit(fn, items)


def _in_process(fn: Callable[[T], R], items: Sequence[T]) -> list[R]:
    return [fn(x) for x in items]


@contextmanager
def runner(jobs: int = 1, dask: Any = None) -> Iterator[Runner]:
    """A :class:`Runner` for the block.

    ``dask``: a ``distributed.Client``, the address of a scheduler (``tcp://host:8786``) or ``local`` (a
    ``LocalCluster`` of ``jobs`` worker processes, at least 2, one thread each); else ``jobs`` processes of the
    standard library's pool (see :func:`_start_method`), or this process for ``jobs == 1``.
    """
    if dask is not None:
        with _dask_runner(dask, jobs) as run:
            yield run
        return
    if jobs <= 1:
        yield Runner(1, _in_process, "this process")
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context(_start_method())) as pool:
        def submit(fn: Callable[[T], R], items: Sequence[T]) -> list[R]:
            from .._progress import track

            futures = [pool.submit(fn, x) for x in items]
            try:
                return [f.result() for f in track(futures, "scoring shards", min_items=2)]
            except BaseException:   # a worker's failure or an interrupt: the other shards are not waited for
                pool.shutdown(wait=False, cancel_futures=True)
                raise
        yield Runner(jobs, submit, f"{jobs} processes")


def _start_method() -> str:
    """``fork`` where the platform has it (Linux): a worker starts at once with the caller's modules, and a script
    that calls :func:`accord.score` needs no ``if __name__ == "__main__"`` guard; ``spawn`` elsewhere. The pool is
    started before any progress display, so no thread of accord's runs while it forks."""
    import multiprocessing
    import sys

    if sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods():
        return "fork"
    return "spawn"


@contextmanager
def _dask_runner(dask: Any, jobs: int) -> Iterator[Runner]:
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise OptionError("--dask needs dask.distributed: pip install 'accord[dask]'") from None
    if isinstance(dask, Client):
        yield _client_runner(dask)
        return
    if not isinstance(dask, str) or not dask:
        raise OptionError(f"--dask takes a scheduler address (tcp://host:8786) or local, not {dask!r}")
    if dask == "local":
        import logging

        logging.getLogger("distributed").setLevel(logging.ERROR)   # no banner of the cluster on standard error
        with LocalCluster(n_workers=max(2, jobs), threads_per_worker=1, processes=True, dashboard_address=None,
                          silence_logs=logging.ERROR) as cluster, Client(cluster) as client:
            yield _client_runner(client)
        return
    try:
        client = Client(dask, timeout=CONNECT_TIMEOUT)
    except OSError as exc:
        raise OptionError(f"--dask {dask}: cannot reach the scheduler ({exc})") from None
    with client:
        yield _client_runner(client)


def _client_runner(client: Any) -> Runner:
    def submit(fn: Callable[[T], R], items: Sequence[T]) -> list[R]:
        futures = client.map(fn, list(items), pure=False)
        return client.gather(futures)
    workers = max(1, len(client.scheduler_info().get("workers", {})))
    return Runner(workers, submit, f"the Dask cluster at {client.scheduler.address}")
