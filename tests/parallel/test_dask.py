"""Shards on a Dask cluster: a LocalCluster of two worker processes gives the JSON of one process."""

from __future__ import annotations

import sys

import pytest

import accord
from accord.cli import main
from tests.command_line import without_command_line
from tests.parallel._corpora import write_pair

distributed = pytest.importorskip("distributed")

pytestmark = pytest.mark.filterwarnings("error::accord.parallel.ShardedRunWarning")


@pytest.fixture(scope="module")
def client():
    import logging

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=logging.ERROR) as cluster, distributed.Client(cluster) as c:
        yield c


def test_client_gives_the_serial_result(tmp_path, client):
    gold, pred = write_pair(tmp_path, seed=21, documents=40, comments=True, empty_every=9)
    serial = accord.score(gold, pred)
    on_dask = accord.score(gold, pred, client=client, shard_size=600)
    assert on_dask.to_json() == serial.to_json()
    assert on_dask.bootstrap(200, seed=4).to_json() == serial.bootstrap(200, seed=4).to_json()
    semeval = accord.score(gold, pred, match="semeval", client=client, shard_size=600)
    assert semeval.to_json() == accord.score(gold, pred, match="semeval").to_json()


def test_command_with_a_local_cluster(tmp_path, capsys):
    gold, pred = write_pair(tmp_path, seed=22, documents=30)
    assert main(["score", gold, pred, "--output", "json"]) == 0
    serial = capsys.readouterr().out
    assert main(["score", gold, pred, "--output", "json", "--dask", "local", "--jobs", "2",
                 "--shard-size", "700"]) == 0
    assert without_command_line(capsys.readouterr().out) == without_command_line(serial)


def test_unreachable_scheduler(tmp_path, capsys, monkeypatch):
    from accord.parallel import _run

    monkeypatch.setattr(_run, "CONNECT_TIMEOUT", 1)
    gold, pred = write_pair(tmp_path, seed=23, documents=5)
    assert main(["score", gold, pred, "--dask", "tcp://127.0.0.1:9"]) == 2
    assert "cannot reach the scheduler" in capsys.readouterr().err


def _held(port: int):
    """A socket listening on ``port`` of every interface (as another cluster's dashboard would), or None when
    something holds it already."""
    import socket

    s = socket.socket()
    try:
        s.bind(("", port))
        s.listen()
    except OSError:
        s.close()
        return None
    return s


def test_a_local_cluster_leaves_port_8787_alone(tmp_path, capsys):
    # distributed's scheduler serves its HTTP routes on 8787 by default and warned on standard error when another
    # cluster held it; the command's cluster listens on a free port of 127.0.0.1
    gold, pred = write_pair(tmp_path, seed=24, documents=12)
    holder = _held(8787)
    try:
        assert main(["score", gold, pred, "--output", "json", "--dask", "local", "--shard-size", "700"]) == 0
    finally:
        if holder is not None:
            holder.close()
    err = capsys.readouterr().err
    assert "8787" not in err and "already in use" not in err, err


def test_a_local_cluster_is_quiet_between_tasks():
    # no profile sampled every 10 ms in the workers, the health check and the monitors every second or so
    from accord.parallel._run import runner

    def settings() -> tuple:
        import dask

        return (dask.config.get("distributed.worker.profile.enabled"),
                dask.config.get("distributed.admin.tick.interval"))

    with runner(2, "local") as run:
        found = run.map(lambda _: settings(), [0, 1])
    assert found == [(False, "1s"), (False, "1s")]


def _marked(_: object) -> bool:
    import json

    return getattr(json, "_accord_test_mark", False)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork (Linux)")
def test_a_local_cluster_starts_its_workers_with_the_command_modules(monkeypatch):
    # forked, a worker has this process's modules as they are (a mark set here): it imports nothing again; spawned
    # (Dask's default), it imported distributed, numpy and accord anew (1.3 CPU-s for two workers, against 0.12)
    import json

    from accord.parallel._run import runner

    monkeypatch.setattr(json, "_accord_test_mark", True, raising=False)
    with runner(2, "local") as run:
        assert run.map(_marked, [None, None]) == [True, True]


_SCHEDULER: list = []
"""The scheduler of the in-process cluster of the test below (read by its tasks, which run in this process)."""


def _waits_for_the_others(k: int) -> object:
    """Item 0: whether the scheduler forgot every other task of the map (its result fetched and let go) while this
    one still ran, waiting up to 10 s; the others: a number."""
    import time

    if k:
        return k * 10
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if len(_SCHEDULER[0].tasks) == 1:    # (this task alone)
            return True
        time.sleep(0.02)
    return False


def test_results_are_fetched_as_their_tasks_end():
    # client.gather at the end fetched every result once the last task had ended (the workers idle meanwhile);
    # each result is now fetched when its task ends and the future let go, so the scheduler forgets it at once
    import logging

    from accord.parallel._run import _client_runner

    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None,
                                  silence_logs=logging.ERROR) as cluster, distributed.Client(cluster) as c:
        _SCHEDULER[:] = [cluster.scheduler]
        try:
            assert _client_runner(c).map(_waits_for_the_others, [0, 1, 2, 3]) == [True, 10, 20, 30]
        finally:
            _SCHEDULER.clear()


def _fails(k: int) -> int:
    if k == 2:
        raise KeyError("shard 2")
    return k


def test_a_failed_task_raises_its_error(client):
    from accord.parallel._run import _client_runner

    with pytest.raises(KeyError, match="shard 2"):
        _client_runner(client).map(_fails, [0, 1, 2, 3])
    assert _client_runner(client).map(_fails, [0, 1, 3]) == [0, 1, 3]


def _after_a_while(k: int) -> int:
    import time

    time.sleep((k * 7 % 5) / 100)     # (ends out of order)
    return k * k


def test_results_gathered_in_batches_keep_the_items_order(client):
    from accord.parallel._run import BATCHES, _client_runner

    items = list(range(3 * BATCHES + 1))    # (batches of 4, the last one of 1)
    assert _client_runner(client).map(_after_a_while, items) == [k * k for k in items]
