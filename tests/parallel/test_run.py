"""Where shards run: ``--jobs N`` starts no more processes than cores and shards (with a warning saying so), and a
``--dask`` address that cannot be one is an error before any connection is tried."""

from __future__ import annotations

import concurrent.futures
import time

import pytest

import accord
from accord.cli import main
from accord.errors import JobsWarning, OptionError
from accord.parallel import _run
from accord.parallel._run import check_address, runner

_CORPUS = "-DOCSTART- O\n\nJohn B-PER\nlives O\nin O\nRome B-LOC\n\n"


def _two_file_corpus(tmp_path):
    """Two gold and two predicted files: the plan shares them out as 2 shards, whatever --jobs asks."""
    for side in ("gold", "pred"):
        (tmp_path / side).mkdir()
        for name in ("a", "b"):
            (tmp_path / side / f"{name}.conll").write_text(_CORPUS)
    return str(tmp_path / "gold"), str(tmp_path / "pred")


@pytest.fixture
def pools(monkeypatch):
    """The ``max_workers`` of every process pool started (the pool itself runs as usual)."""
    started: list[int] = []
    real = concurrent.futures.ProcessPoolExecutor

    class Counting(real):  # type: ignore[misc, valid-type]
        def __init__(self, max_workers=None, *args, **kwargs):
            started.append(max_workers)
            super().__init__(max_workers, *args, **kwargs)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Counting)
    return started


def test_jobs_1000_on_two_shards_starts_at_most_two_processes(tmp_path, pools, monkeypatch):
    # even on a machine of 64 cores: the shards bound the pool
    monkeypatch.setattr(_run, "usable_cores", lambda: 64)
    monkeypatch.setattr(accord.parallel._score, "usable_cores", lambda: 64)
    gold, pred = _two_file_corpus(tmp_path)
    with pytest.warns(JobsWarning, match=r"--jobs 1000: 2 processes, as many as the 2 shard\(s\)"):
        sharded = accord.score(gold, pred, jobs=1000)
    assert pools and max(pools) <= 2
    # the counts are those of one process: 2 documents x (PER, LOC), every one matched
    assert (sharded.totals.match, sharded.totals.missing, sharded.totals.spurious) == (4, 0, 0)
    assert sharded.to_json() == accord.score(gold, pred).to_json()


def test_jobs_beyond_the_cores_is_capped_at_the_cores(tmp_path, pools, monkeypatch):
    monkeypatch.setattr(_run, "usable_cores", lambda: 2)
    monkeypatch.setattr(accord.parallel._score, "usable_cores", lambda: 2)
    for name in "abcdef":   # 6 files: 6 shards, more than the cores
        for side in ("gold", "pred"):
            (tmp_path / side).mkdir(exist_ok=True)
            (tmp_path / side / f"{name}.conll").write_text(_CORPUS)
    with pytest.warns(JobsWarning, match=r"--jobs 1000: 2 processes, as many as the 2 core\(s\)"):
        accord.score(str(tmp_path / "gold"), str(tmp_path / "pred"), jobs=1000)
    assert pools and max(pools) == 2


def test_jobs_on_one_core_scores_in_one_process(tmp_path, pools, monkeypatch):
    monkeypatch.setattr(accord.parallel._score, "usable_cores", lambda: 1)
    gold, pred = _two_file_corpus(tmp_path)
    with pytest.warns(JobsWarning, match="one process"):
        accord.score(gold, pred, jobs=8)
    assert pools == []


def test_the_command_line_warns_once(tmp_path, capsys):
    gold, pred = _two_file_corpus(tmp_path)
    assert main(["score", gold, pred, "--jobs", "1000", "-o", str(tmp_path / "out.txt")]) == 0
    err = capsys.readouterr().err
    assert err.count("accord: warning: --jobs 1000:") == 1, err
    assert main(["score", gold, pred, "--jobs", "auto", "-o", str(tmp_path / "out.txt")]) == 0
    assert "--jobs" not in capsys.readouterr().err   # auto asks for no number


def test_a_pool_never_has_more_processes_than_items(pools):
    with runner(50) as run:
        assert run.map(abs, [-1, -2]) == [1, 2]
        assert run.map(abs, [-3]) == [3]   # one item: this process
    assert all(n <= 2 for n in pools)


@pytest.mark.timing
@pytest.mark.parametrize("address, message", [
    ("tcp://::::notanaddress", "IPv6 address is written in brackets"),
    ("foo bar", "no port"),
    ("tcp://", "no port"),
    ("xyz://host:1", "must be tcp://HOST:PORT"),
    ("tls://localhost:8786", "must be tcp://HOST:PORT"),
    ("ucx://h:1", "must be tcp://HOST:PORT"),
    ("inproc://x", "must be tcp://HOST:PORT"),
    ("tcp://host:abc", "port must be a number"),
    ("tcp://host:99999", "port must be a number"),
    ("tcp://host:0", "port must be a number"),
    ("tcp://[::1", "IPv6 address is \\[HOST\\]:PORT"),
    ("tcp://a b:1", "not a host name"),
    ("tcp://:8786", "not a host name"),
    ("local2", "no port"),
])
def test_malformed_dask_addresses_are_errors_at_once(tmp_path, capsys, address, message):
    pytest.importorskip("distributed")
    with pytest.raises(OptionError, match=message):
        check_address(address)
    gold = tmp_path / "g.conll"
    gold.write_text(_CORPUS)
    start = time.monotonic()
    assert main(["score", str(gold), str(gold), "--dask", address]) == 2   # was exit 3 (distributed's ValueError)
    assert time.monotonic() - start < 10
    err = capsys.readouterr().err
    assert err.startswith("accord: error: --dask") and err.count("\n") == 1, err


@pytest.mark.parametrize("address, normal", [
    ("tcp://scheduler:8786", "tcp://scheduler:8786"),
    ("scheduler:8786", "tcp://scheduler:8786"),
    ("tcp://10.0.0.5:1", "tcp://10.0.0.5:1"),
    ("tcp://[::1]:8786", "tcp://[::1]:8786"),
])
def test_well_formed_dask_addresses(address, normal):
    assert check_address(address) == normal


def test_a_local_dask_cluster_has_at_most_a_worker_per_core(tmp_path):
    pytest.importorskip("distributed")
    gold, pred = _two_file_corpus(tmp_path)
    cores = _run.usable_cores()
    if cores >= 1000:   # pragma: no cover
        pytest.skip("a machine of 1000 cores")
    started = []
    real = _run._client_runner

    def counting(client):
        started.append(len(client.scheduler_info()["workers"]))
        return real(client)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_run, "_client_runner", counting)
        with pytest.warns(JobsWarning, match=f"a local Dask cluster of {max(2, cores)} workers"):
            r = accord.score(gold, pred, jobs=1000, client="local")
    assert started == [max(2, cores)]      # before: LocalCluster(n_workers=1000)
    assert r.totals.match == 4
