"""The runner of ``--dask ADDRESS`` (:mod:`accord.parallel._dask_address`): the planning scan begins in a process
forked from the command while the client connects; the tasks that process has not begun go to the cluster."""

from __future__ import annotations

import os
import sys
import time
from functools import partial

import pytest

from accord.errors import OptionError
from accord.parallel import _dask_address
from accord.parallel._dask_address import AddressRunner
from accord.parallel._run import Runner

pytest.importorskip("distributed")


def _pid_after(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


class _SlowConnection(AddressRunner):
    """A runner whose "cluster" is this process, ready ``delay`` seconds after it is asked for."""

    def __init__(self, delay: float):
        super().__init__("tcp://127.0.0.1:1", lambda: (None, self._remote), fork=True)
        self.delay, self.connected_at = delay, 0.0

    def connect(self) -> Runner:
        if self._remote is None:
            time.sleep(self.delay)
            self.connected_at = time.monotonic()
            self._remote = Runner(2, lambda fn, items: [fn(x) for x in items], "this process")
        return self._remote


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork (Linux)")
def test_a_light_map_begins_here_while_the_client_connects(monkeypatch):
    monkeypatch.setattr(_dask_address, "_slow_to_connect", lambda: True)    # (as in a command's process)
    run = _SlowConnection(0.6)
    assert run.workers_now() == 1      # (not connected: nothing waited for)
    started = time.monotonic()
    pids = run.map(_pid_after, [0.05] * 40, light=True)
    assert len(pids) == 40
    here = [k for k, pid in enumerate(pids) if pid != os.getpid()]
    # the first tasks ran in one forked process while the connection took 0.6 s; the rest, on the "cluster"
    assert len({pids[k] for k in here}) == 1
    assert here == list(range(len(here))) and 3 <= len(here) < 38, pids
    assert run.connected_at - started >= 0.6
    assert run.workers_now() == run.workers == 2


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork (Linux)")
def test_what_the_forked_process_ends_soon_stays_there(monkeypatch):
    # the 3 ranges of the scan left when the client was ready took 0.19 s on the cluster; the forked process ended
    # the others 0.15 s earlier: what it would end within HANDOVER_SECONDS at its pace stays there
    monkeypatch.setattr(_dask_address, "_slow_to_connect", lambda: True)
    monkeypatch.setattr(_dask_address, "HANDOVER_SECONDS", 30.0)
    run = _SlowConnection(0.3)
    pids = run.map(_pid_after, [0.02] * 30, light=True)
    assert os.getpid() not in pids and len(set(pids)) == 1


_PARENT: list[int] = []


def _ends_abruptly_when_forked(k: int) -> int:
    if _PARENT and os.getpid() != _PARENT[0]:
        os._exit(9)     # (as a process killed for want of memory)
    return k


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork (Linux)")
def test_the_tasks_of_a_forked_process_that_ended_abruptly_go_to_the_cluster(monkeypatch):
    monkeypatch.setattr(_dask_address, "_slow_to_connect", lambda: True)
    _PARENT.append(os.getpid())
    try:
        assert _SlowConnection(0.3).map(_ends_abruptly_when_forked, list(range(6)), light=True) == list(range(6))
    finally:
        _PARENT.clear()


def test_a_map_that_is_not_light_waits_for_the_client():
    run = _SlowConnection(0.1)
    assert run.map(_pid_after, [0.0, 0.0]) == [os.getpid()] * 2
    assert run.map(_pid_after, [], light=True) == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork (Linux)")
def test_an_unreachable_scheduler_is_an_error_of_the_light_map(monkeypatch):
    from accord.parallel import _run

    monkeypatch.setattr(_run, "CONNECT_TIMEOUT", 1)
    monkeypatch.setattr(_dask_address, "_slow_to_connect", lambda: True)
    run = AddressRunner("tcp://127.0.0.1:9", partial(_run._open_client, "tcp://127.0.0.1:9"), fork=True)
    started = time.monotonic()
    with pytest.raises(OptionError, match="cannot reach the scheduler"):
        run.map(_pid_after, [0.5] * 20, light=True)
    assert time.monotonic() - started < 8     # (the forked process's remaining tasks are not waited for)
    run.close()


def test_a_process_that_imported_distributed_runs_a_light_map_on_the_cluster():
    # (pytest imported distributed above: connecting is quick, nothing is forked)
    run = _SlowConnection(0.0)
    assert run.map(_pid_after, [0.0] * 5, light=True) == [os.getpid()] * 5
