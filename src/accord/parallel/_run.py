"""Where shards run: in this process, in a pool of processes (``--jobs N``) or on a Dask cluster (``--dask``)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Protocol, TypeVar

from ..errors import OptionError

__all__ = ["resolve_jobs", "usable_cores", "check_address", "Runner", "runner", "STREAM", "SHOWN", "streamed"]

STREAM: ContextVar[bool] = ContextVar("accord_stream", default=False)
"""Set by a command that scores in one process as ``--jobs`` does (``accord report``): the inputs are cut into shards
read and scored one after the other in this process, so that only one shard's documents are alive at a time; an
input that cannot be cut is read whole, without a warning (nothing was asked of the shards)."""


SHOWN: ContextVar[set[tuple[type, str]] | None] = ContextVar("accord_shown_warnings", default=None)
"""Set by a command that scores several systems against one gold file in shards (``accord report``): the warnings
the shards gave that were shown already (a gold file's repairs), shown once as reading the gold file once shows
them."""


def streamed() -> bool:
    """Whether this block scores in one process shard by shard (:data:`STREAM`)."""
    return STREAM.get()

CONNECT_TIMEOUT = 20
"""Seconds to wait for a Dask scheduler before ``--dask ADDRESS`` is an error."""

T = TypeVar("T")
R = TypeVar("R")


class Submit(Protocol):
    """How a runner runs ``fn`` over ``items``: the results, in the items' order (generic in both)."""

    def __call__(self, fn: Callable[[T], R], items: Sequence[T], /) -> list[R]: ...


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system has one): ``--jobs auto``, and the
    most processes ``--jobs N`` starts (scoring is computation: a process beyond the cores only adds memory)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def resolve_jobs(jobs: int | str | None) -> int:
    """The number of processes ``--jobs`` asks for: a whole number >= 1, or ``auto`` (the cores this process may
    run on, :func:`usable_cores`)."""
    if jobs is None:
        return 1
    if isinstance(jobs, str):
        if jobs.strip().lower() == "auto":
            return usable_cores()
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

    def __init__(self, workers: int, submit: Submit, where: str):
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
    ``LocalCluster`` of ``jobs`` worker processes, at least 2 and at most the cores, one thread each); else at most
    ``jobs`` processes of the standard library's pool (see :func:`_start_method`), never more than the cores
    (:func:`usable_cores`) nor than the items of a :meth:`Runner.map` (each map starts its pool), or this process
    for ``jobs == 1``.
    """
    if dask is not None:
        with _dask_runner(dask, jobs) as run:
            yield run
        return
    workers = min(jobs, usable_cores())
    if workers <= 1:
        yield Runner(1, _in_process, "this process")
        return

    def submit(fn: Callable[[T], R], items: Sequence[T]) -> list[R]:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        from .._support.progress import track

        processes = min(workers, len(items))
        if processes <= 1:
            return _in_process(fn, items)
        pool = ProcessPoolExecutor(max_workers=processes, mp_context=multiprocessing.get_context(_start_method()))
        try:
            futures = [pool.submit(fn, x) for x in items]
            results = [f.result() for f in track(futures, "scoring shards", min_items=2)]
        except BaseException:   # a worker's failure or an interrupt: the other shards are not waited for
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        pool.shutdown(wait=True)
        return results
    yield Runner(workers, submit, f"{workers} processes")


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
        with LocalCluster(n_workers=max(2, min(jobs, usable_cores())), threads_per_worker=1, processes=True,
                          dashboard_address=None, silence_logs=logging.ERROR) as cluster, Client(cluster) as client:
            yield _client_runner(client)
        return
    address = check_address(dask)
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT)
    except (OSError, ValueError, TypeError) as exc:   # distributed's own errors of an address it cannot use
        raise OptionError(f"--dask {dask}: cannot reach the scheduler ({exc})") from None
    with client:
        yield _client_runner(client)


DASK_SCHEMES = ("tcp",)
"""The protocols of a scheduler address that ``--dask`` connects to (TLS and UCX need a security or transport
configuration: connect a ``distributed.Client`` in Python and pass it as ``client=``)."""


def check_address(address: str) -> str:
    """The address of a Dask scheduler as ``--dask`` takes it, ``[tcp://]HOST:PORT`` (an IPv6 host in brackets);
    an :class:`OptionError` saying what is wrong with any other, before a connection is tried."""
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address
    shown = f"--dask {address!r}"
    if scheme not in DASK_SCHEMES:
        raise OptionError(f"{shown}: the scheduler address must be tcp://HOST:PORT (or local), not {scheme}:// "
                          "(for TLS or UCX, pass a distributed.Client in Python as client=)")
    if rest.startswith("["):
        host, bracket, port = rest[1:].partition("]")
        if not bracket or not port.startswith(":"):
            raise OptionError(f"{shown}: an IPv6 address is [HOST]:PORT, such as tcp://[::1]:8786")
        port = port[1:]
    else:
        host, colon, port = rest.rpartition(":")
        if not colon:
            raise OptionError(f"{shown}: no port; the scheduler address is tcp://HOST:PORT, such as "
                              "tcp://scheduler:8786")
        if ":" in host:
            raise OptionError(f"{shown}: an IPv6 address is written in brackets, such as tcp://[::1]:8786")
    if not host or any(c.isspace() or c in "/@?#[]" for c in host):
        raise OptionError(f"{shown}: {host!r} is not a host name or address")
    if not (port.isascii() and port.isdigit() and 0 < int(port) < 65536):
        raise OptionError(f"{shown}: the port must be a number from 1 to 65535, not {port!r}")
    return f"tcp://{'[' + host + ']' if ':' in host else host}:{int(port)}"


def _client_runner(client: Any) -> Runner:
    def submit(fn: Callable[[T], R], items: Sequence[T]) -> list[R]:
        futures = client.map(fn, list(items), pure=False)
        return client.gather(futures)
    workers = max(1, len(client.scheduler_info().get("workers", {})))
    return Runner(workers, submit, f"the Dask cluster at {client.scheduler.address}")
