"""γ against pygamma-agreement, whole commands on the same units files, measured in the same run.

For each size (annotators × units per annotator) the script writes a units table (three
annotators marking the same items with jittered boundaries, some left out, four categories),
checks the numbers (pygamma's observed disorder equals accord's; both γ agree within the sampling
error of their 30 samples), then times

* accord: ``accord agree units.csv --unitizing gamma --output json`` (exact alignment, 30 samples);
* pygamma-agreement 0.5.9: a fresh interpreter that reads the same file with ``Continuum.from_csv``
  and runs ``compute_gamma(n_samples=30)`` (its exact MIP; GLPK through cvxpy), imports included.

pygamma-agreement is run up to ``--peer-max`` units per annotator (its MIP enumerates the product
of the annotators' units); beyond it accord runs alone, to show the scaling.

Dense units (``--dense``, default 20 40 80 units per annotator): three annotators each marking units
uniformly over one stretch of 100 (lengths 1 to 25), so that every unit can align with most
others. accord solves each component of candidates exactly up to its limit of candidates and
refuses a denser one (exit 2, naming it); pygamma-agreement, given ``--peer-timeout`` seconds,
solves the same MIPs. Times are CPU seconds of the command and its children (the machine may be
shared), with the wall time and the command's peak memory (resident set) beside them. A component
too dense to list its candidates is solved by column generation (``agreement/_colgen.py``); with
``--proof`` the script also solves the observed continuum in process and prints the bound that
proves the observed disorder optimal (the master's relaxation, the integer cover, the tuples kept
by reduced-cost fixing).

    python benchmarks/bench_gamma.py                      # 3 x 100 against pygamma, then 3 x 1,000 ... 20,000
    python benchmarks/bench_gamma.py --sizes 100 --repeat 5
    python benchmarks/bench_gamma.py --sizes --dense 20 40 80 --repeat 1
    python benchmarks/bench_gamma.py --sizes --dense 1000 --proof --peer-timeout 0
    python benchmarks/bench_gamma.py --sizes --dense 1000 --stretch 2000 --max-length 60 --seed 0 --peer-timeout 0

The last is issue 41's dense case, 3 annotators x 1,000 overlapping units (the units of ``dense_rows(1000, 2000.0)``
in ``tests/agreement/test_gamma.py``: the same draws): at most 60 units long over a stretch of 2,000, about 45 units
over any point. ``--dense 1000`` alone puts 1,000 units of each annotator, up to 25 long, over one stretch of 100.
With ``--jobs 2`` each dense case is run again with ``accord agree ... --jobs 2`` (its JSON checked equal), and the
wall times compared.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from _process import compile_accord

PEER = """
import json, logging, sys
logging.disable(logging.WARNING)
import numpy as np
import pygamma_agreement as pa
np.random.seed(int(sys.argv[2]))
continuum = pa.Continuum.from_csv(sys.argv[1])
result = continuum.compute_gamma(pa.CombinedCategoricalDissimilarity(), n_samples=30)
samples = [a.disorder for a in result.chance_alignments]
print(json.dumps({"gamma": float(result.gamma), "observed": float(result.observed_disorder),
                  "expected": float(result.expected_disorder), "sd": float(np.std(samples))}))
"""


def write_units(path: Path, n: int, annotators: int, seed: int) -> None:
    """Headerless pygamma-agreement CSV: annotator, category, start, end (one document)."""
    rng = np.random.default_rng(seed)
    base = np.cumsum(rng.uniform(5, 40, size=n))
    lines = []
    for a in range(annotators):
        start = np.round(base + rng.normal(0, 2, n))
        length = np.maximum(1, np.round(np.abs(rng.normal(8, 4, n))))
        keep = rng.random(n) > 0.1
        category = rng.choice(list("abcd"), n)
        lines += [f"A{a},{c},{int(s)},{int(s + ln)}" for s, ln, c, k in zip(start, length, category, keep) if k]
    path.write_text("\n".join(dict.fromkeys(lines)) + "\n")


def write_dense(path: Path, n: int, annotators: int, seed: int, stretch: float = 100.0,
                max_length: float | None = None) -> None:
    """Headerless pygamma-agreement CSV of dense units: ``n`` per annotator uniformly over ``[0, stretch)``, lengths
    uniform from 1 to ``max_length`` (``stretch / 4`` when None), rounded."""
    rng = np.random.default_rng(seed)
    lines = []
    for a in range(annotators):
        start = np.round(rng.uniform(0, stretch, n))
        length = np.maximum(1, np.round(rng.uniform(1, stretch / 4 if max_length is None else max_length, n)))
        category = rng.choice(list("abcd"), n)
        lines += [f"A{a},{c},{int(s)},{int(s + ln)}" for s, ln, c in zip(start, length, category)]
    path.write_text("\n".join(dict.fromkeys(lines)) + "\n")


def last_json(text: str) -> dict:
    """The last line of ``text`` that is a JSON object (GLPK may print its log on the same standard output)."""
    return json.loads(next(line for line in reversed(text.splitlines()) if line.startswith("{")))


def timed(cmd: list[str]) -> tuple[float, str]:
    t = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return time.perf_counter() - t, out


PEAK = """
import resource, subprocess, sys
done = subprocess.run(sys.argv[1:])
print(f"PEAK_KB={resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}", file=sys.stderr)
sys.exit(done.returncode)
"""


def cpu_timed(cmd: list[str], timeout: float | None = None) -> tuple[float, float, int | None, str, str]:
    """``(cpu seconds of the children, wall seconds, exit status or None on timeout, stdout, stderr)``."""
    before = os.times()
    t = time.perf_counter()
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        status, out, err = done.returncode, done.stdout, done.stderr
    except subprocess.TimeoutExpired:
        status, out, err = None, "", ""
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return cpu, time.perf_counter() - t, status, out, err


def peak_timed(cmd: list[str]) -> tuple[float, float, int | None, str, str, float]:
    """:func:`cpu_timed` of ``cmd`` run under a wrapper that reports its peak resident memory: the same and MiB."""
    cpu, wall, status, out, err = cpu_timed([sys.executable, "-c", PEAK, *cmd])
    lines = err.splitlines()
    peak = next((int(line[8:]) for line in reversed(lines) if line.startswith("PEAK_KB=")), 0)
    return cpu, wall, status, out, "\n".join(x for x in lines if not x.startswith("PEAK_KB=")), peak / 1024


def proof(path: Path) -> str:
    """The observed continuum of ``path`` solved in process: each dense component's bounds (column generation)."""
    from accord.agreement import _colgen
    from accord.agreement._alignment import best_alignment
    from accord.agreement._continua import read_units_table
    from accord.agreement._dissimilarity import Dissimilarity

    infos: list[_colgen.ColumnGeneration] = []
    solve = _colgen.solve_dense

    def spy(*args, **kwargs):  # type: ignore[no-untyped-def]
        result = solve(*args, **kwargs)
        infos.append(result[2])
        return result

    _colgen.solve_dense = spy  # type: ignore[assignment]
    try:
        alignment = best_alignment(read_units_table(path), Dissimilarity())
    finally:
        _colgen.solve_dense = solve  # type: ignore[assignment]
    parts = [f"relaxation {i.relaxation:.6f}, bound {i.lower_bound:.6f}, cover {i.upper_bound:.6f} after {i.rounds} "
             f"rounds, {i.columns:,} tuples generated, {i.fixed:,} kept by reduced-cost fixing" for i in infos]
    return f"total disorder {alignment.disorder.sum():.6f}; " + ("; ".join(parts) or "no dense component")


def run_dense(sizes: list[int], annotators: int, peer: bool, peer_timeout: float, tmp: str,
              show_proof: bool = False, stretch: float = 100.0, max_length: float | None = None,
              seed: int | None = None, jobs: int = 1) -> int:
    """Dense units: accord (a result or its refusal) and pygamma-agreement on the same file; with ``jobs`` above 1,
    accord again with ``--jobs`` (its JSON checked equal to one process's, but the command line it records)."""
    lengths = f"lengths 1 to {stretch / 4 if max_length is None else max_length:g}"
    print(f"\ndense units over one stretch of {stretch:g}, {lengths} (CPU s, wall s and peak MiB in brackets; "
          f"pygamma given {peer_timeout:g} s)")
    print(f"{'size':>14} {'accord':>22} {'pygamma':>22}  γ accord / pygamma, observed disorder")
    failures = 0
    for n in sizes:
        path = Path(tmp) / f"dense-{n}.csv"
        write_dense(path, n, annotators, seed=n if seed is None else seed, stretch=stretch, max_length=max_length)
        cpu, wall, status, out, err, peak = peak_timed([sys.executable, "-m", "accord", "agree", str(path),
                                                        "--unitizing", "gamma", "--output", "json"])
        label = f"{annotators} x {n:,}"
        ours = json.loads(out)["totals"] if status == 0 else None
        mine = f"{cpu:.2f} ({wall:.2f}, {peak:.0f} MiB)" + ("" if status == 0 else " refused")
        theirs, peer_text = None, "-"
        if peer:
            p_cpu, p_wall, p_status, p_out, _ = cpu_timed([sys.executable, "-c", PEER, str(path), "0"], peer_timeout)
            if p_status == 0:
                theirs = last_json(p_out)
                peer_text = f"{p_cpu:.2f} ({p_wall:.2f})"
            else:
                peer_text = f"> {peer_timeout:g} (wall)" if p_status is None else f"exit {p_status}"
        line = f"{label:>14} {mine:>22} {peer_text:>22}  "
        if ours is not None and theirs is not None:
            same = abs(theirs["observed"] - ours["observed_disorder"]) <= 2e-6 * max(1.0, theirs["observed"])
            failures += not same
            line += (f"γ {ours['gamma']:.4f} / {theirs['gamma']:.4f}, observed {ours['observed_disorder']:.5f} / "
                     f"{theirs['observed']:.5f} {'equal' if same else 'DIFFERENT'}")
        elif ours is not None:
            line += f"γ {ours['gamma']:.4f}, observed {ours['observed_disorder']:.5f}"
        else:
            line += err.strip().split(": ", 2)[-1][:100]
        print(line)
        if jobs > 1 and status == 0:
            j_cpu, j_wall, j_status, j_out, j_err, j_peak = peak_timed(
                [sys.executable, "-m", "accord", "agree", str(path), "--unitizing", "gamma", "--output", "json",
                 "--jobs", str(jobs)])
            same = j_status == 0 and _without_command(j_out) == _without_command(out)
            failures += not same
            print(f"{'--jobs ' + str(jobs):>14} {f'{j_cpu:.2f} ({j_wall:.2f}, {j_peak:.0f} MiB)':>22} "
                  f"{'':>22}  wall {wall / j_wall:.2f}x one process, "
                  f"{'the same JSON' if same else 'DIFFERENT: ' + j_err.strip()[-200:]}")
        if show_proof:
            print(f"{'':>14} in process: {proof(path)}")
    return failures


def _without_command(out: str) -> object:
    """A JSON output without the command line it records."""
    document = json.loads(out)
    document.get("generator", {}).pop("command", None)
    return document


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="*", default=[100, 1000, 5000, 20000])
    parser.add_argument("--annotators", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--peer-max", type=int, default=100, help="largest size run with pygamma-agreement")
    parser.add_argument("--dense", type=int, nargs="*", default=[20, 40, 80],
                        help="units per annotator of the dense cases (none: skip them)")
    parser.add_argument("--peer-timeout", type=float, default=900.0,
                        help="seconds pygamma-agreement is given on a dense case")
    parser.add_argument("--stretch", type=float, default=100.0, help="the stretch the dense units are drawn over")
    parser.add_argument("--max-length", type=float, help="the longest dense unit (default: a quarter of the stretch)")
    parser.add_argument("--seed", type=int, help="the seed of the dense units (default: their number)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="dense units: also run accord with --jobs N (the wall time against one process)")
    parser.add_argument("--proof", action="store_true",
                        help="solve each dense observed continuum in process too and print its bounds")
    args = parser.parse_args()
    peer_installed = True
    compile_accord()
    import importlib.util

    if importlib.util.find_spec("pygamma_agreement") is None:
        print("pygamma-agreement is not installed (pip install pygamma-agreement==0.5.9): accord runs alone")
        args.peer_max = 0
        peer_installed = False
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{'size':>14} {'accord s':>9} {'pygamma s':>10} {'ratio':>7}  γ accord / pygamma, observed disorder")
        for n in args.sizes:
            path = Path(tmp) / f"units-{n}.csv"
            write_units(path, n, args.annotators, seed=n)
            ours_cmd = [sys.executable, "-m", "accord", "agree", str(path), "--unitizing", "gamma", "--output", "json"]
            times, out = [], ""
            for _ in range(args.repeat):
                elapsed, out = timed(ours_cmd)
                times.append(elapsed)
            ours = json.loads(out)["totals"]
            ours_time = statistics.median(times)
            label = f"{args.annotators} x {n:,}"
            if n > args.peer_max:
                print(f"{label:>14} {ours_time:9.2f} {'-':>10} {'-':>7}  γ {ours['gamma']:.4f}, "
                      f"observed {ours['observed_disorder']:.5f}")
                continue
            peer_times, peer = [], {}
            for k in range(args.repeat):
                elapsed, text = timed([sys.executable, "-c", PEER, str(path), str(k)])
                peer_times.append(elapsed)
                peer = last_json(text)
            peer_time = statistics.median(peer_times)
            same = abs(peer["observed"] - ours["observed_disorder"]) <= 2e-6 * max(1.0, peer["observed"])
            error = 4 * np.sqrt(2 * peer["sd"] ** 2 / 30) * ours["observed_disorder"] / ours["expected_disorder"] ** 2
            close = abs(peer["gamma"] - ours["gamma"]) <= error
            failures += (not same) + (not close)
            print(f"{label:>14} {ours_time:9.2f} {peer_time:10.2f} {peer_time / ours_time:6.1f}x  "
                  f"γ {ours['gamma']:.4f} / {peer['gamma']:.4f} (±{error:.4f}) {'ok' if close else 'DIFFERENT'}, "
                  f"observed {ours['observed_disorder']:.5f} / {peer['observed']:.5f} "
                  f"{'equal' if same else 'DIFFERENT'}")
        if args.dense:
            failures += run_dense(args.dense, args.annotators, peer_installed and args.peer_timeout > 0,
                                  args.peer_timeout, tmp, args.proof, args.stretch, args.max_length, args.seed,
                                  args.jobs)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
