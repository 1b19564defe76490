"""Cohen's kappa on string labels against scikit-learn, in process (issue 41: ≥ 1.5x scikit-learn on strings).

One million items rated by two raters with five string labels (a third of the second rater's labels redrawn), given
as a user holds them: Python lists of ``str``, numpy string arrays (dtype ``<U4``) and object arrays. For each form
the script first checks that accord's kappa equals ``sklearn.metrics.cohen_kappa_score`` (to 1e-12), then times
both calls in turns (accord, scikit-learn, accord, ...), each in a fresh child interpreter that builds the labels
and times the call alone (CPU time), and prints the medians and their ratio (scikit-learn / accord).

``--before CHECKOUT`` adds a third side: accord from another source tree (``CHECKOUT/src``, e.g. ``git archive``
of the commit before a change), timed in the same turns, so that a change is measured against its predecessor on
the same loaded machine.

    python benchmarks/bench_kappa_strings.py --repeat 5
    python benchmarks/bench_kappa_strings.py --items 1000000 --repeat 5 --before /tmp/accord_before
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from _versions import print_versions

CHILD = """
import json, sys, time
import numpy as np
n, form, side = int(sys.argv[1]), sys.argv[2], sys.argv[3]
rng = np.random.default_rng(0)
names = np.array(["PER", "LOC", "ORG", "MISC", "O"])
a = names[rng.integers(0, 5, n)]
b = a.copy()
flip = rng.random(n) < 0.3
b[flip] = names[rng.integers(0, 5, int(flip.sum()))]
if form == "list":
    x, y = a.tolist(), b.tolist()
elif form == "object":
    x, y = a.astype(object), b.astype(object)
else:
    x, y = a, b
if side == "sklearn":
    from sklearn.metrics import cohen_kappa_score
    call = lambda: cohen_kappa_score(x, y)
else:
    from accord import agreement
    call = lambda: agreement.cohen_kappa({"a": x, "b": y})
t = time.process_time()
value = call()
print(json.dumps({"seconds": time.process_time() - t, "kappa": float(value)}))
"""


def child(n: int, form: str, side: str, src: str | None) -> dict:
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = str(Path(src) / "src")
    out = subprocess.run([sys.executable, "-c", CHILD, str(n), form, side], check=True, capture_output=True,
                         text=True, env=env).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--items", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--forms", nargs="*", default=["list", "str-array", "object"])
    parser.add_argument("--before", help="another accord checkout (its src/) timed in the same turns")
    args = parser.parse_args()
    print_versions("scikit-learn")
    sides = ["accord", "sklearn"] + (["before"] if args.before else [])
    failures = 0
    print(f"{args.items:,} items, 2 raters, 5 string labels; CPU s of the call, median of {args.repeat} turns")
    for form in args.forms:
        times: dict[str, list[float]] = {s: [] for s in sides}
        values: dict[str, float] = {}
        for turn in range(args.repeat):
            for side in (sides if turn % 2 == 0 else sides[::-1]):
                got = child(args.items, form, "sklearn" if side == "sklearn" else "accord",
                            args.before if side == "before" else None)
                times[side].append(got["seconds"])
                values[side] = got["kappa"]
        same = all(abs(v - values["sklearn"]) <= 1e-12 for v in values.values())
        failures += not same
        med = {s: statistics.median(t) for s, t in times.items()}
        line = (f"{form:>10}: accord {med['accord']:.3f} s, scikit-learn {med['sklearn']:.3f} s, "
                f"{med['sklearn'] / med['accord']:.2f}x")
        if args.before:
            line += (f"; before {med['before']:.3f} s ({med['sklearn'] / med['before']:.2f}x scikit-learn, "
                     f"now {med['before'] / med['accord']:.2f}x faster)")
        print(line + f"; kappa {values['accord']:.6f} {'equal' if same else 'DIFFERENT: ' + repr(values)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
