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

    python benchmarks/bench_gamma.py                      # 3 x 100 against pygamma, then 3 x 1,000 ... 20,000
    python benchmarks/bench_gamma.py --sizes 100 --repeat 5
"""

from __future__ import annotations

import argparse
import json
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


def timed(cmd: list[str]) -> tuple[float, str]:
    t = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return time.perf_counter() - t, out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 5000, 20000])
    parser.add_argument("--annotators", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--peer-max", type=int, default=100, help="largest size run with pygamma-agreement")
    args = parser.parse_args()
    compile_accord()
    import importlib.util

    if importlib.util.find_spec("pygamma_agreement") is None:
        print("pygamma-agreement is not installed (pip install pygamma-agreement==0.5.9): accord runs alone")
        args.peer_max = 0
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
                peer = json.loads(text)
            peer_time = statistics.median(peer_times)
            same = abs(peer["observed"] - ours["observed_disorder"]) <= 2e-6 * max(1.0, peer["observed"])
            error = 4 * np.sqrt(2 * peer["sd"] ** 2 / 30) * ours["observed_disorder"] / ours["expected_disorder"] ** 2
            close = abs(peer["gamma"] - ours["gamma"]) <= error
            failures += (not same) + (not close)
            print(f"{label:>14} {ours_time:9.2f} {peer_time:10.2f} {peer_time / ours_time:6.1f}x  "
                  f"γ {ours['gamma']:.4f} / {peer['gamma']:.4f} (±{error:.4f}) {'ok' if close else 'DIFFERENT'}, "
                  f"observed {ours['observed_disorder']:.5f} / {peer['observed']:.5f} "
                  f"{'equal' if same else 'DIFFERENT'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
