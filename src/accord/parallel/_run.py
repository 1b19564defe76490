"""Where shards run: in this process, in a pool of processes (``--jobs N``) or on a Dask cluster (``--dask``)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import partial
from typing import Any, TypeVar

from ..errors import OptionError
from ._dask_worker import in_dask_worker
from ._runner import Runner

__all__ = ["resolve_jobs", "usable_cores", "check_address", "Runner", "runner", "STREAM", "SHOWN", "SENTENCES",
           "streamed", "sentence_policy", "collected"]

STREAM: ContextVar[bool] = ContextVar("accord_stream", default=False)
"""Set by a command that scores in one process as ``--jobs`` does (``accord report``): the inputs are cut into shards
read and scored one after the other in this process, so that only one shard's documents are alive at a time; an
input that cannot be cut is read whole, without a warning (nothing was asked of the shards)."""


SHOWN: ContextVar[set[tuple[type, str]] | None] = ContextVar("accord_shown_warnings", default=None)
"""Set by a command that scores several systems against one gold file in shards (``accord report``): the warnings
the shards gave that were shown already (a gold file's repairs), shown once as reading the gold file once shows
them."""


SENTENCES: ContextVar[str] = ContextVar("accord_sentences", default="keep")
"""What the shards' count tables keep of their sentences (the sub-units ``--resample sentences`` draws; a few cells
per sentence, the only part of the count tables that grows with the tokens): ``keep`` (the default: a result of
:func:`accord.score`, which may be bootstrapped later), ``drop`` (a command whose outputs never resample sentences:
no ``--bootstrap``, or ``--resample documents``) or ``auto`` (``--resample auto``, which resamples sentences only
below :data:`accord.stats._units.AUTO_DOCUMENTS` documents: dropped once the comparison holds that many). Set by
the commands (:func:`sentence_policy`)."""


def sentence_policy(bootstrap: bool, resample: str | None) -> str:
    """The :data:`SENTENCES` policy of a command: ``bootstrap``, whether it resamples (intervals or paired tests);
    ``resample``, its ``--resample`` (None: ``auto``)."""
    if not bootstrap or resample == "documents":
        return "drop"
    return "keep" if resample == "sentences" else "auto"


def streamed() -> bool:
    """Whether this block scores in one process shard by shard (:data:`STREAM`)."""
    return STREAM.get()

CONNECT_TIMEOUT = 20
"""Seconds to wait for a Dask scheduler before ``--dask ADDRESS`` is an error."""

T = TypeVar("T")
R = TypeVar("R")


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


def _in_process(fn: Callable[[T], R], items: Sequence[T]) -> list[R]:
    return [fn(x) for x in items]


@contextmanager
def runner(jobs: int = 1, dask: Any = None, *, label: str = "scoring shards") -> Iterator[Runner]:
    """A :class:`Runner` for the block (``label``: what the progress bar of its processes says it does).

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
        from concurrent.futures import ProcessPoolExecutor, as_completed

        from .._support.progress import track

        processes = min(workers, len(items))
        if processes <= 1:
            return _in_process(fn, items)
        pool = ProcessPoolExecutor(max_workers=processes, mp_context=multiprocessing.get_context(_start_method()))
        try:
            futures = [pool.submit(fn, x) for x in items]
            for ended in track(as_completed(futures), label, total=len(futures), min_items=2):
                ended.result()          # the first failure, in order of completion, is raised here
        except BaseException:   # a worker's failure or an interrupt: the other tasks are neither waited for nor run on
            _stop(pool)
            raise
        pool.shutdown(wait=True)
        return [f.result() for f in futures]
    yield Runner(workers, submit, f"{workers} processes")


def _stop(pool: Any) -> None:
    """End a pool of processes whose work is no longer wanted: the tasks not begun cancelled, the processes running
    one stopped (else the interpreter would wait for them at its exit)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()


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
    from ._dask_address import check_distributed

    check_distributed()
    if isinstance(dask, str) and dask and dask != "local":    # (distributed imported while the scan runs)
        yield from _address_runner(dask)
        return
    from distributed import Client, LocalCluster

    if isinstance(dask, Client):
        yield _client_runner(dask)
        return
    if not isinstance(dask, str) or not dask:
        raise OptionError(f"--dask takes a scheduler address (tcp://host:8786) or local, not {dask!r}")
    if dask == "local":
        import logging

        from dask import config as dask_config

        logging.getLogger("distributed").setLevel(logging.ERROR)   # no banner of the cluster on standard error
        with dask_config.set({**LOCAL_CONFIG, **_local_start()}), LocalCluster(
                n_workers=max(2, min(jobs, usable_cores())), threads_per_worker=1, processes=True, host="127.0.0.1",
                dashboard_address=None, scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                silence_logs=logging.ERROR) as cluster, Client(cluster) as client:
            yield _client_runner(client)


def _address_runner(dask: str) -> Iterator[Runner]:
    """The runner of ``--dask ADDRESS`` (see :mod:`accord.parallel._dask_address`), its client closed after."""
    from ._dask_address import AddressRunner

    address = check_address(dask)
    run = AddressRunner(address, partial(_open_client, address), _start_method() == "fork")
    try:
        yield run
    finally:
        run.close()


def _open_client(address: str) -> tuple[Any, Runner]:
    """A ``distributed.Client`` connected to the scheduler at ``address`` and the runner of its tasks; an
    :class:`OptionError` when it cannot be reached within :data:`CONNECT_TIMEOUT` seconds."""
    from distributed import Client

    try:
        client = Client(address, timeout=CONNECT_TIMEOUT)
    except (OSError, ValueError, TypeError) as exc:   # distributed's own errors of an address it cannot use
        raise OptionError(f"--dask {address}: cannot reach the scheduler ({exc})") from None
    return client, _client_runner(client)


LOCAL_CONFIG = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.worker.memory.monitor-interval": "1s",
}
"""Dask's settings for the cluster of ``--dask local``, which lives as long as one command and which nobody watches:
no statistical profile of the tasks (a stack sample every 10 ms), and the event loops' health check, the system
monitor (the dashboard's graphs) and the memory monitor every second or so instead of every 20, 500 and 100 ms. An
idle cluster of two workers spent 0.084 CPU-s a second with Dask's defaults, 0.013 with these (a command's cluster
spends that during the whole run: the scheduler's work and the client's wait are idle time for it). The HTTP server
of the scheduler (its health and metrics routes; no dashboard) listens on a free port of 127.0.0.1, not on 8787,
which another cluster may hold (distributed then warned that the port was in use)."""


def _local_start() -> dict[str, str]:
    """How the nannies of ``--dask local`` start their workers: by ``fork`` where the platform has it (Linux), so
    that a worker begins with this process's modules (distributed, numpy, accord) instead of importing them again, as
    Dask's default ``spawn`` makes it do; ``spawn`` elsewhere. Starting a cluster of two workers took 1.3 CPU-s in
    the worker processes with ``spawn``, 0.12 with ``fork`` (and 4.7 against 1.5 s wall), measured on this machine.
    The command's process forks before any thread of accord's runs (the progress display starts with the shards)."""
    return {"distributed.worker.multiprocessing-method": _start_method()}


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
    """A :class:`Runner` of the tasks on the cluster of a connected ``distributed.Client``."""
    def submit(fn: Callable[[T], R], items: Sequence[T]) -> list[R]:
        return collected(client, client.map(partial(in_dask_worker, fn, os.getcwd()), list(items), pure=False))
    workers = max(1, len(client.scheduler_info().get("workers", {})))
    return Runner(workers, submit, f"the Dask cluster at {client.scheduler.address}")


BATCHES = 8
"""Into how many batches :func:`collected` gathers the results of a map at most."""


def collected(client: Any, futures: list[Any]) -> list[Any]:
    """The results of ``futures`` in their order, gathered from the workers in batches of about 1/:data:`BATCHES`
    of them as their tasks end (Dask's ``as_completed``), each future let go once gathered, so that the cluster
    forgets its result while other tasks run.

    ``client.gather`` of all the futures at the end fetched every result only after the last task had ended, with
    the workers idle meanwhile (0.25 s of 13.4 at 10 M tokens, measured on a loaded machine); a gather per result
    as it ends cost about 3 ms of CPU time across the client, the scheduler and the workers (200 tasks: 0.45 CPU-s
    more in the cluster and 0.17 in the client than one gather). In batches, the last batch alone is fetched after
    the last task. The first failed task raises its error, and the tasks not yet ended are cancelled."""
    from distributed import as_completed

    index = {future.key: k for k, future in enumerate(futures)}
    results: list[Any] = [None] * len(futures)
    batch = max(1, -(-len(futures) // BATCHES))
    ended: list[Any] = []
    left = len(futures)
    try:
        for future in as_completed(futures, loop=client.loop):
            ended.append(future)
            if len(ended) >= batch or len(ended) == left:
                for done, result in zip(ended, client.gather(ended)):
                    k = index[done.key]
                    results[k] = result
                    futures[k] = None
                left -= len(ended)
                ended.clear()
            future = done = None    # (the last ones too, while the next is awaited)
    except BaseException:   # a task's error or an interrupt: the other tasks are not waited for
        client.cancel([f for f in futures if f is not None])
        raise
    return results
