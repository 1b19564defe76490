"""γ with more annotators (issue 43: 5 x 500 ≤ 5 s, 8 x 200 ≤ 10 s, the observed disorder unchanged).

Sparse units as ``bench_gamma.py`` writes them (every annotator marks the same items with jittered boundaries, a
tenth left out, four categories), ``accord agree units.csv --unitizing gamma --output json`` as a whole command
(imports included, 30 samples). CPU seconds of the command (the machine may be shared), medians of ``--repeat``
turns. ``--before CHECKOUT`` runs accord from another source tree (``CHECKOUT/src``) in the same turns, alternating,
and checks that every figure of its JSON (observed and expected disorders, γ, γ-cat, γ-k) equals this one's.
``--jobs N`` also runs this accord with ``--jobs N`` in the same turns (every figure checked equal) and compares the
wall times, the figure of a pool of processes.

The observed disorder is checked against pygamma-agreement 0.5.9 (``get_best_alignment``, its MIP over the product
of the annotators' units) on a case it can solve, ``--peer-size`` units of each of 5 annotators.

    python benchmarks/bench_gamma_annotators.py --repeat 3 --before /tmp/accord_before
    python benchmarks/bench_gamma_annotators.py --cases 5x500 8x200 --repeat 1
    python benchmarks/bench_gamma_annotators.py --cases 8x200 --repeat 1 --peer-size 0 --jobs 2
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

from _process import compile_accord
from _versions import print_versions
from bench_gamma import write_units

PEER = """
import json, logging, sys
logging.disable(logging.WARNING)
import pygamma_agreement as pa
continuum = pa.Continuum.from_csv(sys.argv[1])
print(json.dumps(float(continuum.get_best_alignment(pa.CombinedCategoricalDissimilarity()).disorder)))
"""


def run(path: Path, src: str | None, time_limit: float | None = None,
        jobs: int = 1) -> tuple[float, dict | None, str, float]:
    """CPU seconds of the whole command (its processes), its totals (None if it failed), its last error line and its
    wall seconds; ``time_limit``: the command's ``--time-limit`` (γ's budget for column generation), not given when
    None; ``jobs``: its ``--jobs``."""
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = str(Path(src) / "src")
    before = os.times()
    limit = [] if time_limit is None else ["--time-limit", f"{time_limit:g}"]
    pool = [] if jobs == 1 else ["--jobs", str(jobs)]
    begun = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "accord", "agree", str(path), "--unitizing", "gamma", "--output",
                           "json", *limit, *pool], capture_output=True, text=True, env=env)
    wall = time.perf_counter() - begun
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    if done.returncode != 0:
        return cpu, None, (done.stderr.strip().splitlines() or ["?"])[-1][:160], wall
    lines = done.stdout.splitlines()
    start = lines.index("{")                 # anything a solver printed before the document is reported
    noise = "" if start == 0 else f"{start} line(s) before the JSON on standard output"
    return cpu, json.loads("\n".join(lines[start:]))["totals"], noise, wall


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", nargs="*", default=["5x500", "8x200"], help="annotators x units per annotator")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--before", help="another accord checkout (its src/) run in the same turns")
    parser.add_argument("--peer-size", type=int, default=8, help="units per annotator of the pygamma check (0: none)")
    parser.add_argument("--time-limit", type=float, help="accord's --time-limit (the CPU seconds of γ's column "
                        "generation; 8 x 200 needs more than the default 120)")
    parser.add_argument("--jobs", type=int, default=1, help="also run accord with --jobs N (wall times compared)")
    args = parser.parse_args()
    print_versions("pygamma-agreement")
    compile_accord()
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        if args.peer_size:
            path = Path(tmp) / "peer.csv"
            write_units(path, args.peer_size, 5, seed=args.peer_size)
            _, ours, _, _ = run(path, None)
            done = subprocess.run([sys.executable, "-c", PEER, str(path)], capture_output=True, text=True)
            if done.returncode == 0 and ours is not None:
                theirs = json.loads(done.stdout.strip().splitlines()[-1])
                same = abs(theirs - ours["observed_disorder"]) <= 2e-6 * max(1.0, theirs)
                failures += not same
                print(f"5 x {args.peer_size}: observed disorder {ours['observed_disorder']:.6f}, pygamma-agreement "
                      f"{theirs:.6f}: {'equal' if same else 'DIFFERENT'}")
            else:
                print(f"pygamma-agreement not run ({(done.stderr.strip().splitlines() or ['?'])[-1][:100]})")
        sides = ["accord"] + (["before"] if args.before else []) + (["jobs"] if args.jobs > 1 else [])
        print(f"whole commands, CPU s, median of {args.repeat} (30 samples)")
        for case in args.cases:
            annotators, units = (int(x) for x in case.split("x"))
            path = Path(tmp) / f"units-{case}.csv"
            write_units(path, units, annotators, seed=units)
            times: dict[str, list[float]] = {s: [] for s in sides}
            walls: dict[str, list[float]] = {s: [] for s in sides}
            totals: dict[str, dict | None] = {}
            notes: dict[str, str] = {}
            for turn in range(args.repeat):
                for side in (sides if turn % 2 == 0 else sides[::-1]):
                    cpu, totals[side], notes[side], wall = run(
                        path, args.before if side == "before" else None,
                        args.time_limit if side != "before" else None, args.jobs if side == "jobs" else 1)
                    times[side].append(cpu)
                    walls[side].append(wall)
            ours = totals["accord"]
            line = f"{annotators} x {units:>4}: accord {statistics.median(times['accord']):6.2f} s"
            line += f" (observed {ours['observed_disorder']:.6f}, γ {ours['gamma']:.4f})" if ours else \
                f" FAILED: {notes['accord']}"
            failures += ours is None or bool(notes["accord"])
            if args.before:
                theirs = totals["before"]
                line += f"; before {statistics.median(times['before']):6.2f} s"
                if theirs is None:
                    line += f" (failed: {notes['before']})"
                else:
                    same = theirs == ours
                    failures += not same
                    line += f", {'every figure equal' if same else 'DIFFERENT figures'}"
            if args.jobs > 1:
                one, pool = statistics.median(walls["accord"]), statistics.median(walls["jobs"])
                same = totals["jobs"] == ours
                failures += not same
                line += (f"; wall {one:.2f} s, with --jobs {args.jobs} {pool:.2f} s ({one / pool:.2f}x, "
                         f"{statistics.median(times['jobs']):.2f} CPU-s), "
                         f"{'every figure equal' if same else 'DIFFERENT figures: ' + notes['jobs']}")
            print(line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
