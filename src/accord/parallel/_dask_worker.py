"""A task of accord's in a Dask worker: run in the command's working directory, with the C heap, the collector
and the clocks of one process while it runs, and the worker's own settings given back once it stays idle."""

from __future__ import annotations

import gc
import os
import threading
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["IDLE_SECONDS", "PAUSED_CLOCKS", "in_dask_worker"]

T = TypeVar("T")
R = TypeVar("R")

_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
"""``mallopt`` parameters (glibc's ``malloc.h``)."""

_HEAP_FOR_TASK = {_M_TRIM_THRESHOLD: 128 << 20, _M_MMAP_THRESHOLD: 32 << 20}
"""glibc's heap thresholds while a task runs: the ceilings its own dynamic thresholds reach (an array of up to 32 MiB
reuses freed heap memory instead of a fresh ``mmap`` whose pages the kernel zeroes again)."""

_GLIBC_DEFAULT = 128 * 1024
"""glibc's trim and mmap thresholds when an environment variable fixed them and left the other unset."""


class _Tasks:
    """The accord tasks running in this worker process: how many, in which directory, and the worker's own; whether
    the process is set for them (heap thresholds, collector) and the setting to restore once it stays idle."""

    def __init__(self) -> None:
        self.changed = threading.Condition()
        self.running = 0
        self.directory = ""
        self.home = ""
        self.held = False
        self.collecting = False
        self.settings: dict[int, int] | None = None
        self.libc: Any = None
        self.paused: dict[int, tuple[Any, Any]] = {}
        """The workers (by ``id``) whose stack-sampling clock (``profile``) is paused for accord's tasks, with the
        clock to start again (several workers share a process in a cluster of threads)."""
        self.ended = 0
        """How many times the last running task ended: a release scheduled for an earlier end is stale."""


IDLE_SECONDS = 0.5
"""How long a worker stays set for accord's tasks after the last one ended: the next shard of the same command
starts within milliseconds and finds its predecessor's freed heap (no page faulted in again); a worker left idle
gets its own settings back after this delay."""


_TASKS = _Tasks()


def _heap_settings() -> dict[int, int] | None:
    """The thresholds the worker process was started with, to restore after a task; None where there is nothing to
    change: thresholds left to glibc's own dynamic adjustment (no ``MALLOC_TRIM_THRESHOLD_`` or
    ``MALLOC_MMAP_THRESHOLD_`` in the environment, which a call to ``mallopt`` would end for good)."""
    trim, mmap = os.environ.get("MALLOC_TRIM_THRESHOLD_"), os.environ.get("MALLOC_MMAP_THRESHOLD_")
    if trim is None and mmap is None:
        return None
    try:
        return {_M_TRIM_THRESHOLD: int(trim) if trim else _GLIBC_DEFAULT,
                _M_MMAP_THRESHOLD: int(mmap) if mmap else _GLIBC_DEFAULT}
    except ValueError:
        return None


def _glibc() -> Any:
    """The C library of this process when it is glibc (``mallopt`` and ``malloc_trim``), else None."""
    import ctypes
    import sys

    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None)
    except OSError:   # pragma: no cover - no C library to load
        return None
    glibc = all(hasattr(libc, name) for name in ("mallopt", "malloc_trim", "gnu_get_libc_version"))
    return libc if glibc else None


def in_dask_worker(fn: Callable[[T], R], directory: str, item: T) -> R:
    """``fn(item)`` in a Dask worker: in the command's working ``directory``, with the C heap of one process.

    **Directory.** A worker opens the paths the command was given; a relative path is the command's, so the task runs
    in ``directory`` when the worker can see it (a shared filesystem), else in the worker's own. Tasks of commands in
    different directories take turns in a worker of several threads (``--nthreads 1``, as the docs advise, runs one
    task at a time anyway).

    **Heap.** A Dask nanny starts its worker with ``MALLOC_TRIM_THRESHOLD_=65536`` (distributed's
    ``pre-spawn-environ``), so that freed memory goes back to the system at once. That also fixes glibc's mmap
    threshold at 128 KiB: every numpy array of more than 128 KiB is a fresh ``mmap`` whose pages the kernel faults
    in and zeroes, and scoring a shard makes thousands of them (a third more CPU time for the same shard, measured
    in ``benchmarks/bench_dask.py``). While tasks run, the thresholds are those glibc's own adjustment reaches in one
    process.

    **Collector.** The cyclic garbage collector is paused while tasks run, as it is in the ``accord`` command's own
    processes (and so in those of ``--jobs``): reading a shard makes millions of small containers and no cycle worth
    collecting, and a worker's collector, enabled, rescanned them and every object of distributed's own, a third of
    the task's time (``perf`` of a worker).

    **Profile.** The worker's statistical profile, a stack sample of the running task every 10 ms taken from the
    worker's event loop, is paused while accord's tasks run (:data:`PAUSED_CLOCKS`).

    **Afterwards.** Once no task of accord's has run for :data:`IDLE_SECONDS`, the worker's own thresholds are set
    again, the freed memory given back (``malloc_trim``), as distributed intends, the collector is as the worker
    had it and the profile clock runs again if it ran. Not at the end of each task: the next shard follows within
    milliseconds, and giving the memory back between shards made every shard fault its pages in again (about
    120,000 page faults for 25 shards of 10 M tokens, against 5,000 kept).
    """
    tasks = _TASKS
    with tasks.changed:
        if tasks.running == 0:
            tasks.home = os.getcwd()
        wanted = directory if directory and os.path.isdir(directory) else tasks.home
        while tasks.running and tasks.directory != wanted:
            tasks.changed.wait()
        if tasks.running == 0:
            tasks.directory = wanted
            if wanted != os.getcwd():
                try:
                    os.chdir(wanted)
                except OSError:     # (seen but not entered: the paths are opened where the worker runs)
                    tasks.directory = tasks.home
            if not tasks.held:
                _hold(tasks)
            else:   # (set still from the last task: what the collector was before it stays recorded)
                gc.disable()
        _pause_profile(tasks)
        tasks.running += 1
    try:
        return fn(item)
    finally:
        with tasks.changed:
            tasks.running -= 1
            if tasks.running == 0:
                if os.getcwd() != tasks.home:
                    os.chdir(tasks.home)
                tasks.ended += 1
                timer = threading.Timer(IDLE_SECONDS, _release_if_idle, (tasks, tasks.ended))
                timer.daemon = True
                timer.start()
                tasks.changed.notify_all()


def _hold(tasks: _Tasks) -> None:
    """Set this process for accord's tasks (with ``tasks.changed`` held): the heap thresholds of one process, the
    collector paused."""
    tasks.settings = _heap_settings()
    tasks.libc = _glibc() if tasks.settings is not None else None
    if tasks.libc is not None and tasks.settings is not None:
        for param, value in _HEAP_FOR_TASK.items():
            tasks.libc.mallopt(param, max(value, tasks.settings[param]))
    tasks.collecting = gc.isenabled()
    gc.disable()
    tasks.held = True


PAUSED_CLOCKS = ("profile",)
"""The clocks of a Dask worker paused while accord's tasks run: the statistical profile, which samples the stack of
the running task every 10 ms (``distributed.worker.profile.interval``) for the dashboard. Each sample takes the
interpreter's lock from the task (the task thread waits for it) and walks its stack: a pure-Python task of 0.45
CPU-s cost its worker process 5 to 10 % more CPU time with the profile running (medians of 6, on a loaded machine).
accord's tasks are the worker's only work while they run, and their profile is not what a user of accord looks at."""


def _pause_profile(tasks: _Tasks) -> None:
    """Stop the profile clock (:data:`PAUSED_CLOCKS`) of the worker running this task, from its event loop, and
    record it in ``tasks.paused`` (with ``tasks.changed`` held). Nothing when this is no Dask worker's task, when
    the worker's clock is paused already, or when it is not running (profiles disabled by the worker's
    configuration, or a clock stopped by someone else: left as found)."""
    try:
        from distributed import get_worker
        worker = get_worker()
    except (ImportError, ValueError):    # (not in a Dask worker: a test, or a direct call)
        return
    if id(worker) in tasks.paused:
        return
    clock = getattr(worker, "periodic_callbacks", {}).get(PAUSED_CLOCKS[0])
    if clock is None or not clock.is_running():
        return
    try:
        worker.loop.add_callback(clock.stop)     # (the loop's own thread: Tornado's clocks are not thread-safe)
    except RuntimeError:   # pragma: no cover - the worker's loop is closed (the worker is closing)
        return
    tasks.paused[id(worker)] = (worker, clock)


def _resume_profile(paused: tuple[Any, Any]) -> None:
    """Start the clock :func:`_pause_profile` stopped again, from the worker's event loop, unless the worker is
    closing (its clocks are stopped for good then) or the clock runs already."""
    worker, clock = paused

    def resume() -> None:
        status = getattr(getattr(worker, "status", None), "name", "")
        if status in ("running", "paused") and not clock.is_running():
            clock.start()
    try:
        worker.loop.add_callback(resume)
    except RuntimeError:   # pragma: no cover - the worker's loop is closed
        pass


def _release_if_idle(tasks: _Tasks, ended: int) -> None:
    """The worker's own settings again, when no task of accord's started since the end numbered ``ended``: its
    heap thresholds (the freed memory given back, ``malloc_trim``) and its collector."""
    with tasks.changed:
        if tasks.running or tasks.ended != ended or not tasks.held:
            return
        if tasks.libc is not None and tasks.settings is not None:
            for param, value in tasks.settings.items():
                tasks.libc.mallopt(param, value)
            tasks.libc.malloc_trim(0)
        if tasks.collecting:
            gc.enable()
        for paused in tasks.paused.values():
            _resume_profile(paused)
        tasks.paused.clear()
        tasks.held = False
