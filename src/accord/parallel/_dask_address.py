"""The runner of ``--dask ADDRESS``: the Dask client connects while the command's first short tasks run here.

A command that scores on a cluster first imports ``distributed`` and connects (about half a second of one core),
then plans: the planning scan (:func:`accord.parallel._plan.scan_marks`, a byte search of each column file for its
``-DOCSTART-`` lines) is a map of short tasks. Run one after the other, the two left both workers idle, and the scan
sent through the cluster cost a Dask round trip per 8 MiB range (38 tasks of 9 ms for 300 MB at 10 M tokens took
0.75 s of wall time, measured on a loaded machine). :class:`AddressRunner` instead hands a *light* map to a process
forked from the command, before ``distributed`` is imported (so before any of its threads exist), and imports and
connects meanwhile; once the client is ready, the tasks that process has not begun go to the cluster (unless it
would end them sooner: :data:`HANDOVER_SECONDS`). Every other map waits for the client and runs on the cluster, and
so does a light map in a process that has imported ``distributed`` already (a caller of :func:`accord.score` with
``client="tcp://..."``: connecting is then quick).
"""

from __future__ import annotations

import importlib.util
import multiprocessing
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from ..errors import OptionError
from ._runner import Runner

__all__ = ["AddressRunner", "check_distributed"]

T = TypeVar("T")
R = TypeVar("R")


def check_distributed() -> None:
    """An :class:`OptionError` when ``distributed`` is not installed, found without importing it."""
    if importlib.util.find_spec("distributed") is None:
        raise OptionError("--dask needs dask.distributed: pip install 'accord[dask]'")


HANDOVER_SECONDS = 0.1
"""The tasks a light map has not begun go to the cluster once it is connected, unless the forked process would end
them within about this time, at the pace it kept so far (a map sent to a cluster comes back after a few round trips:
3 ranges of the scan sent over took 0.19 s on a loaded machine, the forked process ended its last 0.15 s earlier)."""


def _slow_to_connect() -> bool:
    """Whether connecting begins with importing ``distributed`` (about half a second); in a process that has
    imported it already, connecting is quick and a light map runs on the cluster."""
    return "distributed" not in sys.modules


class AddressRunner(Runner):
    """Tasks on the Dask cluster whose scheduler is at ``address``, connected when first needed (its
    :attr:`workers`, or a map) by ``open_client`` (a connected ``distributed.Client`` and the runner of its tasks;
    an :class:`OptionError` when the scheduler cannot be reached); a light map (:meth:`map` with ``light=True``)
    begins in a process forked from this one while the client connects, where ``fork`` (the platform can fork).
    :meth:`close` closes the client."""

    def __init__(self, address: str, open_client: Callable[[], tuple[Any, Runner]], fork: bool):
        super().__init__(1, self._on_cluster, f"the Dask cluster at {address}")
        self.address, self.fork = address, fork
        self._open = open_client
        self.client: Any = None
        self._remote: Runner | None = None

    @property
    def workers(self) -> int:
        return self.connect().workers

    @workers.setter
    def workers(self, value: int) -> None:     # (Runner.__init__'s; the cluster's count is asked when connected)
        pass

    def workers_now(self) -> int:
        return self._remote.workers if self._remote is not None else 1

    def connect(self) -> Runner:
        """The runner of the connected client, connected the first time."""
        if self._remote is None:
            self.client, self._remote = self._open()
        return self._remote

    def _on_cluster(self, fn: Callable[[T], R], items: Sequence[T]) -> list[R]:
        return self.connect().map(fn, items)

    def map(self, fn: Callable[[T], R], items: Sequence[T], *, light: bool = False) -> list[R]:
        if not items:
            return []
        if light and self._remote is None and self.fork and _slow_to_connect():
            return self._here_while_connecting(fn, items)
        return self._on_cluster(fn, items)

    def _here_while_connecting(self, fn: Callable[[T], R], items: Sequence[T]) -> list[R]:
        """``fn`` over ``items`` in one process forked from this one (forked at the first submission, before the
        client's import starts any thread) while this one connects; the items it has not begun then go to the
        cluster, and so do those it did not end because it ended abruptly. The results in the items' order."""
        pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("fork"))
        try:
            started = time.monotonic()
            here: list[Future[R]] = [pool.submit(fn, x) for x in items]
            remote = self.connect()
            done = sum(future.done() for future in here)
            if not done or (len(here) - done) * (time.monotonic() - started) / done > HANDOVER_SECONDS:
                moved = [k for k, future in enumerate(here) if future.cancel()]
            else:   # (what is left ends here sooner than a map on the cluster returns)
                moved = []
            results: list[Any] = [None] * len(items)
            for k, result in zip(moved, remote.map(fn, [items[k] for k in moved]) if moved else ()):
                results[k] = result
            lost = []
            for k, future in enumerate(here):
                if not future.cancelled():
                    try:
                        results[k] = future.result()
                    except BrokenProcessPool:   # (the forked process ended abruptly: killed, out of memory)
                        lost.append(k)
            for k, result in zip(lost, remote.map(fn, [items[k] for k in lost]) if lost else ()):
                results[k] = result
        except BaseException:    # the connection's error, a task's or an interrupt: the process is not waited for
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        pool.shutdown(wait=True)
        return results

    def close(self) -> None:
        if self.client is not None:
            self.client.close()
