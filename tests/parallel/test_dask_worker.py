"""A task of accord's in a Dask worker (:func:`accord.parallel._dask_worker.in_dask_worker`): it runs in the command's
directory, and with the heap thresholds of one process while a Dask nanny's environment fixes them low."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from accord.parallel._dask_worker import in_dask_worker


def _where(_: object) -> str:
    return os.getcwd()


def test_a_task_runs_in_the_command_directory_and_leaves_the_worker_where_it_was(tmp_path, monkeypatch):
    worker, command = tmp_path / "worker", tmp_path / "command"
    worker.mkdir()
    command.mkdir()
    monkeypatch.chdir(worker)
    assert in_dask_worker(_where, str(command), None) == str(command)
    assert os.getcwd() == str(worker)
    # a directory the worker cannot see (another machine's): the worker's own
    assert in_dask_worker(_where, str(tmp_path / "elsewhere"), None) == str(worker)


def test_a_failing_task_leaves_the_worker_where_it_was(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    def fails(_: object) -> None:
        raise KeyError("shard")

    with pytest.raises(KeyError):
        in_dask_worker(fails, "/", None)
    assert os.getcwd() == str(tmp_path)


_FAULTS = """
import json, resource, sys, time
import numpy as np
from accord.parallel._dask_worker import IDLE_SECONDS, in_dask_worker

def churn(rounds):
    # arrays of 1 MiB made and let go, as scoring a shard does thousands of times: page faults per array
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(rounds):
        a = np.ones(1 << 17)
        del a
    return (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / rounds

def faults(size):
    # an array of ``size`` 8-byte numbers made, written and let go: the pages faulted in
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    a = np.ones(size)
    del a
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before

churn(5)
plain, task = churn(200), in_dask_worker(churn, "", 200)
# the next task, at once: the heap the last one freed (3 MiB, below the 4 MiB from which numpy asks for huge
# pages) is still there
first, next_ = in_dask_worker(faults, "", 3 << 17), in_dask_worker(faults, "", 3 << 17)
time.sleep(IDLE_SECONDS + 0.5)
print(json.dumps({"plain": plain, "task": task, "first": first, "next": next_, "after": churn(200)}))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's heap (Linux)")
def test_heap_thresholds_of_one_process_while_a_task_runs():
    # the environment a Dask nanny gives its worker (distributed's pre-spawn-environ)
    env = {**os.environ, "MALLOC_TRIM_THRESHOLD_": "65536"}
    out = subprocess.run([sys.executable, "-c", _FAULTS], env=env, capture_output=True, text=True, check=True,
                         cwd=Path(__file__).parent)
    faults = json.loads(out.stdout)
    # 1 MiB is 256 pages of 4 KiB: with the nanny's thresholds every array is a fresh mapping, faulted in again;
    # inside a task the freed memory is reused; once the worker has been idle, the worker's thresholds again
    assert faults["plain"] >= 200 and faults["after"] >= 200, faults
    assert faults["task"] < 20, faults
    # 3 MiB is 768 pages: the first task faults in those the heap did not hold yet (at least the 2 MiB beyond the
    # 1 MiB arrays of the task before), the task right after it finds them all (it faulted all 768 in again when
    # the memory was given back at the end of each task)
    assert faults["first"] >= 500 and faults["next"] < 50, faults


def _wait_idle() -> None:
    """Until the worker has its own settings again (:data:`IDLE_SECONDS` after the last task)."""
    import time

    from accord.parallel._dask_worker import _TASKS, IDLE_SECONDS

    deadline = time.monotonic() + IDLE_SECONDS + 10
    while _TASKS.held and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _TASKS.held


def _collector_state(_: object) -> bool:
    import gc

    return gc.isenabled()


def _cycles(count: int) -> int:
    """Full collections seen while ``count`` containers are made and kept (scoring a shard makes millions)."""
    import gc

    seen = []

    def note(phase: str, info: dict) -> None:
        if phase == "start":
            seen.append(info["generation"])

    gc.callbacks.append(note)
    try:
        kept = [[k] for k in range(count)]
    finally:
        gc.callbacks.remove(note)
    assert len(kept) == count
    return len(seen)


def test_the_collector_is_paused_while_a_task_runs_and_left_as_found():
    import gc

    _wait_idle()    # (a task of another test may have left the worker set for half a second)
    was = gc.isenabled()
    gc.enable()
    try:
        # a Dask worker collects cycles (the accord command does not): a task of accord's runs without, as the
        # command's processes do; 200,000 lists kept would start about 285 collections (threshold 700)
        assert _cycles(200_000) > 100
        assert in_dask_worker(_collector_state, "", None) is False
        # the next task at once, after the collector was turned on between the two: paused again
        gc.enable()
        assert in_dask_worker(_collector_state, "", None) is False
        assert in_dask_worker(_cycles, "", 200_000) == 0
        _wait_idle()
        assert gc.isenabled()
        # a worker whose collector was off (a user's choice) finds it off
        gc.disable()
        in_dask_worker(_cycles, "", 10)
        _wait_idle()
        assert not gc.isenabled()
    finally:
        gc.enable() if was else gc.disable()


def _profile_running(wait: float) -> bool:
    """Whether the profile clock of the worker running this task still runs after up to ``wait`` seconds (the
    pause reaches the clock through the worker's event loop)."""
    import time

    from distributed import get_worker

    clock = get_worker().periodic_callbacks["profile"]
    deadline = time.monotonic() + wait
    while clock.is_running() and time.monotonic() < deadline:
        time.sleep(0.01)
    return clock.is_running()


def _run_task(client: object, fn: object, *args: object) -> object:
    from functools import partial

    return client.submit(partial(in_dask_worker, fn, ""), *args, pure=False).result()   # type: ignore[attr-defined]


def test_the_worker_profile_is_paused_while_a_task_runs_and_left_as_found():
    # Dask's default worker samples the running task's stack every 10 ms from its event loop, taking the
    # interpreter's lock from the task: paused for accord's tasks, running again once the worker is idle
    import logging

    distributed = pytest.importorskip("distributed")
    _wait_idle()
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None,
                                  silence_logs=logging.ERROR) as cluster, distributed.Client(cluster) as client:
        worker = next(iter(cluster.workers.values()))
        clock = worker.periodic_callbacks["profile"]
        assert clock.is_running()
        assert _run_task(client, _profile_running, 5.0) is False
        _wait_idle()
        client.run(lambda: None)     # (a round trip through the worker's event loop, where the clock starts)
        assert clock.is_running()
        # a clock stopped by someone else stays stopped
        client.sync(_stop_clock, clock)
        assert _run_task(client, _profile_running, 0.0) is False
        _wait_idle()
        client.run(lambda: None)
        assert not clock.is_running()


async def _stop_clock(clock: object) -> None:
    clock.stop()    # type: ignore[attr-defined]
