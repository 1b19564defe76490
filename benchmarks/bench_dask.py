"""accord score on Dask against one process: CPU time of every process involved, and wall time.

Run:  python benchmarks/bench_dask.py [--tokens 1000000,10000000] [--repeat 3] [--workers 2]

For each size, bench_scale's gold and predicted CoNLL files are generated, then the whole command ``accord score GOLD
PRED --output json`` runs three ways:

- in one process;
- with ``--jobs N`` (``--workers``: the standard library's processes, forked by the command; no Dask), the floor of
  the Dask runs below;
- with ``--dask local`` (a LocalCluster of ``--workers`` processes started and stopped by the command itself);
- with ``--dask tcp://127.0.0.1:PORT``: a real scheduler and ``--workers`` workers (``dask scheduler``, ``dask worker
  --nthreads 1``, each a process of its own, with its nanny) started once before the runs, as a user's cluster is;
- the same against a second such cluster started with the quieter settings ``docs/scaling.md`` gives (no task
  profile, Dask's clocks at about a second: :data:`QUIET`), the settings ``--dask local`` uses.

The outputs must be identical (the ``generator`` block, which records the command line, aside) before any
time is printed. CPU time is user + system of every process the run involves: the command with every process it
started and waited for (``wait4``), plus, for the real cluster, what the scheduler, the workers and their nannies
spent during the run (``psutil``, before and after); the cluster's own start-up is reported apart, once. Figures are
medians of ``--repeat`` runs; for the real clusters, the share of the command, of the scheduler and of the workers
with their nannies is printed too, and the load average beside the wall times. Goals (issue 43): the CPU of each
Dask run at most 1.25x one process's; with the real cluster of 2 workers at least 1.5x one process in wall time at
10 M tokens (that needs 2 idle cores: on a loaded Linux machine that schedules by session, ``autogroup``, each
``dask`` process, started in a session of its own, gets the share of a whole session, while the command and its
``--jobs`` processes share one: wall times at load favour the real clusters).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _process import compile_accord  # (benchmarks/ is on sys.path when run as a script)
from _versions import print_versions
from bench_scale import generate


def _command(gold: Path, pred: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "accord", "score", str(gold), str(pred), "--output", "json", *extra]


def _without_generator(out: bytes) -> object:
    data = json.loads(out)
    data.pop("generator", None)
    return data


def _run(cmd: list[str]) -> tuple[float, float, bytes]:
    """Run ``cmd``: its wall time, the CPU seconds of it and of every process it waited for, its standard output."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode:
            err.seek(0)
            sys.exit(f"{' '.join(cmd)}: exit status {proc.returncode}\n{err.read().decode(errors='replace')[-3000:]}")
        out.seek(0)
        return wall, usage.ru_utime + usage.ru_stime, out.read()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


QUIET = {"DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED": "False", "DASK_DISTRIBUTED__ADMIN__TICK__INTERVAL": "1s",
         "DASK_DISTRIBUTED__ADMIN__SYSTEM_MONITOR__INTERVAL": "5s",
         "DASK_DISTRIBUTED__WORKER__MEMORY__MONITOR_INTERVAL": "1s"}
"""The environment of a quieter cluster (accord.parallel._run.LOCAL_CONFIG as environment variables)."""


class Cluster:
    """A scheduler and ``workers`` one-thread workers on this machine, each ``dask`` command a process group."""

    def __init__(self, workers: int, env: dict[str, str] | None = None):
        import psutil  # type: ignore[import-untyped]

        self.address = f"tcp://127.0.0.1:{_free_port()}"
        port = self.address.rsplit(":", 1)[1]
        start = time.perf_counter()
        self.procs = [subprocess.Popen(["dask", "scheduler", "--host", "127.0.0.1", "--port", port,
                                        "--no-dashboard"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                       start_new_session=True, env={**os.environ, **(env or {})})]
        self.procs += [subprocess.Popen(["dask", "worker", self.address, "--nworkers", "1", "--nthreads", "1",
                                         "--no-dashboard"], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, start_new_session=True,
                                        env={**os.environ, **(env or {})}) for _ in range(workers)]
        from distributed import Client

        try:
            with Client(self.address, timeout=60) as client:
                client.wait_for_workers(workers, timeout=120)
        except BaseException:
            self.close()
            raise
        self.started = time.perf_counter() - start
        self._psutil = psutil
        self.startup_cpu = self.cpu()

    def cpu(self) -> float:
        """The CPU seconds spent so far by the scheduler, the workers and their nannies."""
        return sum(self.parts())

    def parts(self) -> tuple[float, float, float]:
        """The CPU seconds spent so far by the scheduler, by the nannies (each ``dask worker`` command's own
        process) and by the worker processes they started."""
        scheduler, nannies, workers = 0.0, 0.0, 0.0
        for k, p in enumerate(self.procs):
            try:
                root = self._psutil.Process(p.pid)
                for proc in [root, *root.children(recursive=True)]:
                    t = proc.cpu_times()
                    if k == 0:
                        scheduler += t.user + t.system
                    elif proc.pid == root.pid:
                        nannies += t.user + t.system
                    else:
                        workers += t.user + t.system
            except self._psutil.NoSuchProcess:
                pass
        return scheduler, nannies, workers

    def close(self) -> None:
        import signal

        for p in reversed(self.procs):
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for p in self.procs:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tokens", default="1000000,10000000", help="comma-separated corpus sizes")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    print_versions("dask", "distributed")
    compile_accord()
    clusters: dict[str, Cluster] = {}
    goals = []
    try:
        clusters["real cluster"] = Cluster(args.workers)
        clusters["quiet cluster"] = Cluster(args.workers, QUIET)
        for name, cluster in clusters.items():
            print(f"{name}: a scheduler and {args.workers} workers at {cluster.address}, ready in "
                  f"{cluster.started:.2f} s, {cluster.startup_cpu:.2f} CPU-s to start", flush=True)
        with tempfile.TemporaryDirectory() as tmp:
            for tokens in (int(x) for x in args.tokens.split(",")):
                gold, pred = Path(tmp) / "gold.conll", Path(tmp) / "pred.conll"
                docs = generate(tokens, gold, pred)
                ways = {"one process": _command(gold, pred),
                        f"--jobs {args.workers}": _command(gold, pred, "--jobs", str(args.workers)),
                        "--dask local": _command(gold, pred, "--dask", "local", "--jobs", str(args.workers)),
                        **{name: _command(gold, pred, "--dask", c.address) for name, c in clusters.items()}}
                outputs = {name: _run(cmd)[2] for name, cmd in ways.items()}
                expected = _without_generator(outputs["one process"])
                for name, out in outputs.items():
                    if _without_generator(out) != expected:
                        sys.exit(f"{tokens} tokens: {name} differs from one process")
                figures: dict[str, list[tuple[float, float]]] = {name: [] for name in ways}
                split: dict[str, list[tuple[float, ...]]] = {name: [] for name in clusters}
                for _ in range(args.repeat):
                    for name, cmd in ways.items():     # in turn, so that a change of load touches all of them
                        measured = clusters.get(name)
                        before = measured.parts() if measured is not None else (0.0, 0.0, 0.0)
                        wall, cpu, _ = _run(cmd)
                        if measured is not None:
                            after = measured.parts()
                            split[name].append((cpu, *(b - a for a, b in zip(before, after))))
                            cpu += sum(after) - sum(before)
                        figures[name].append((wall, cpu))
                medians = {name: (statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs))
                           for name, runs in figures.items()}
                base_wall, base_cpu = medians["one process"]
                print(f"{tokens:,} tokens ({docs:,} documents): identical output; load average "
                      f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (wall times need idle cores)", flush=True)
                for name, (wall, cpu) in medians.items():
                    print(f"  {name:14} wall {wall:6.2f} s ({base_wall / wall:.2f}x one process), CPU {cpu:6.2f} s "
                          f"({cpu / base_cpu:.2f}x one process, {cpu / tokens * 1e6:.2f} CPU-s per million tokens)",
                          flush=True)
                for name, runs in split.items():
                    command, scheduler, nannies, workers = (statistics.median(r[k] for r in runs) for k in range(4))
                    print(f"  {name}: the command {command:.2f} CPU-s, the scheduler {scheduler:.2f}, the nannies "
                          f"{nannies:.2f}, the workers {workers:.2f} (medians)", flush=True)
                for name in ("--dask local", *clusters):   # (--jobs is no Dask: its figures are the floor)
                    ratio = medians[name][1] / base_cpu
                    goals.append(f"{tokens:,} tokens, {name}: CPU <= 1.25x one process: "
                                 f"{'met' if ratio <= 1.25 else 'NOT met'} ({ratio:.2f}x)")
                if tokens >= 10_000_000:
                    speedup = base_wall / medians["real cluster"][0]
                    goals.append(f"{tokens:,} tokens, real cluster: wall >= 1.5x one process: "
                                 f"{'met' if speedup >= 1.5 else 'NOT met'} ({speedup:.2f}x; needs idle cores)")
    finally:
        for cluster in clusters.values():
            cluster.close()
    for line in goals:
        print("goal at " + line)


if __name__ == "__main__":
    main()
