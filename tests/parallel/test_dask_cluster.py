"""Shards on a real Dask cluster: a scheduler and two workers started as separate processes (``dask scheduler``,
``dask worker``) on localhost ports, and ``accord score --dask tcp://...`` as a command of its own.

The reference is the same command in one process: its JSON must be byte for byte the cluster's (the ``generator``
block, which records the command line, aside), and each worker must have scored shards. The workers read the files
themselves: what the client sends a worker is the shard's byte ranges, never documents.
"""

from __future__ import annotations

import os
import pickle
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.command_line import without_command_line
from tests.parallel._corpora import write_pair

distributed = pytest.importorskip("distributed")

STARTUP_TIMEOUT = 60
"""Seconds for the scheduler and both workers to come up (a few on an idle machine; the CI machine is shared)."""

COMMAND_TIMEOUT = 120
"""Seconds for one ``accord score`` against the cluster before the test fails instead of hanging."""


def _dask_command() -> str:
    """The ``dask`` command of this interpreter's environment (the one pytest runs in), else of the PATH."""
    beside = Path(sys.executable).with_name("dask")
    found = str(beside) if beside.exists() else shutil.which("dask")
    if found is None:
        pytest.skip("the dask command line (dask scheduler, dask worker) is not installed")
    return found


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Cluster:
    address: str
    client: object
    logs: Path


def _stop(processes: list[subprocess.Popen]) -> None:
    """End each process group started (the worker's nanny and its worker process with it), then wait for them."""
    for proc in reversed(processes):
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
    for proc in processes:
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    dask = _dask_command()
    logs = tmp_path_factory.mktemp("dask-logs")
    # the workers run in a folder of their own: they open the paths the command gives, as a user's cluster does
    elsewhere = tmp_path_factory.mktemp("dask-workers")
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    processes: list[subprocess.Popen] = []

    def start(name: str, argv: list[str]) -> None:
        with open(logs / f"{name}.log", "wb") as log:
            processes.append(subprocess.Popen([dask, *argv], stdout=log, stderr=subprocess.STDOUT, cwd=elsewhere,
                                              stdin=subprocess.DEVNULL, start_new_session=True))

    try:
        start("scheduler", ["scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"])
        for k in (1, 2):
            start(f"worker{k}", ["worker", address, "--nworkers", "1", "--nthreads", "1", "--no-dashboard",
                                 "--death-timeout", str(STARTUP_TIMEOUT)])
        deadline = time.monotonic() + STARTUP_TIMEOUT
        client = distributed.Client(address, timeout=STARTUP_TIMEOUT)
        try:
            client.wait_for_workers(2, timeout=max(1.0, deadline - time.monotonic()))
        except BaseException:
            client.close()
            raise
    except BaseException as exc:
        _stop(processes)
        shown = "\n".join(f"{p.name}: {p.read_text(errors='replace')[-800:]}" for p in sorted(logs.iterdir()))
        pytest.fail(f"the scheduler and two workers did not start ({exc!r}):\n{shown}")
    try:
        yield Cluster(address, client, logs)
    finally:
        client.close()
        _stop(processes)


def _accord(*argv: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "accord", *argv], cwd=cwd, capture_output=True, text=True,
                          timeout=COMMAND_TIMEOUT, stdin=subprocess.DEVNULL)


def _executed(client) -> dict[str, int]:
    def count(dask_worker) -> int:
        return int(dask_worker.state.executed_count)

    return client.run(count)


def test_command_on_a_real_cluster_gives_the_json_of_one_process(tmp_path, cluster):
    gold, pred = write_pair(tmp_path, seed=31, documents=60, comments=True, empty_every=9)
    one = _accord("score", gold, pred, "--output", "json", cwd=tmp_path)
    assert one.returncode == 0, one.stderr
    before = _executed(cluster.client)
    on_dask = _accord("score", gold, pred, "--output", "json", "--dask", cluster.address, "--shard-size", "600",
                      cwd=tmp_path)
    assert on_dask.returncode == 0, on_dask.stderr
    assert f'"--dask", "{cluster.address}"' in on_dask.stdout      # (what the comparison below leaves out)
    assert without_command_line(on_dask.stdout) == without_command_line(one.stdout)
    assert on_dask.stderr == one.stderr         # the repairs of each file, once, as one process shows them
    after = _executed(cluster.client)
    assert len(after) == 2 and all(after[w] > before.get(w, 0) for w in after), (before, after)


@pytest.mark.filterwarnings("ignore::accord.errors.RepairWarning")
def test_what_a_worker_is_sent_is_byte_ranges(tmp_path, cluster, monkeypatch):
    import accord
    from accord.parallel._score import ShardWork


    gold, pred = write_pair(tmp_path, seed=32, documents=200)
    sent: list[object] = []
    client = cluster.client
    mapped = client.map

    def recording(fn, items, **kwargs):
        sent.extend(items)
        return mapped(fn, items, **kwargs)

    monkeypatch.setattr(client, "map", recording)
    result = accord.score(gold, pred, client=client, shard_size=4000)
    assert result.to_json() == accord.score(gold, pred).to_json()
    works = [w for w in sent if isinstance(w, ShardWork)]
    assert len(works) >= 4
    for k, path in enumerate((gold, pred)):
        pieces = [(w.shard.gold, w.shard.pred)[k].pieces for w in works]
        assert all(len(p) == 1 and p[0].path == path for p in pieces)
        ranges = [(p[0].start, p[0].end) for p in pieces]     # consecutive byte ranges covering the file
        assert ranges[0][0] == 0 and ranges[-1][1] is None
        assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:]))
    assert max(len(pickle.dumps(w)) for w in works) < 3000      # the options and the ranges, no text


def test_paths_relative_to_the_command(tmp_path, cluster):
    """The workers run in another folder: a relative path is the command's, as in one process."""
    write_pair(tmp_path, seed=34, documents=40)
    one = _accord("score", "gold.conll", "pred.conll", "--output", "json", cwd=tmp_path)
    assert one.returncode == 0, one.stderr
    on_dask = _accord("score", "gold.conll", "pred.conll", "--output", "json", "--dask", cluster.address,
                      "--shard-size", "600", cwd=tmp_path)
    assert on_dask.returncode == 0, on_dask.stderr
    assert without_command_line(on_dask.stdout) == without_command_line(one.stdout)
    assert on_dask.stderr == one.stderr
