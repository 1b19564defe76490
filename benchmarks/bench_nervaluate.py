"""accord's SemEval-2013 schemas against nervaluate: the four schemas, overall and by label, as whole commands.

Run:  python benchmarks/bench_nervaluate.py [--tokens 300000] [--repeat 7] [--accord-src CHECKOUT/src]

On a generated corpus of noisy NER predictions (the generator of ``bench_seqeval.py``, CoNLL files on disk), two
whole commands, each in a fresh interpreter with its imports:

- ``accord score gold.conll pred.conll --match semeval --output json`` (strict, exact, partial and type, overall,
  by label and by document);
- a script that reads the same files and runs nervaluate's ``Evaluator(...).evaluate()`` (its four schemas,
  overall and by label), printing every count.

The numbers are checked first: the overall counts of strict, exact and partial are equal (COR, INC, PAR, MIS,
SPU, POS, ACT), type has the same POS and ACT and at least nervaluate's COR (accord's pairing is optimal,
nervaluate's greedy), and by label the gold (POS) and predicted (ACT) spans of each label are equal. The runs
alternate (accord, nervaluate, accord, ...); the figures are the medians of CPU time (user + system of the child,
what a shared machine does not inflate as much as wall time) and of wall time. ``--accord-src`` runs accord from
another checkout (``PYTHONPATH``), to measure a change against the code before it in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _process import compile_accord  # (benchmarks/ is on sys.path when run as a script)
from _versions import print_versions
from bench_seqeval import READ_TAGS, generate, write_conll

NERVALUATE_SCRIPT = READ_TAGS + r"""
import json
from nervaluate import Evaluator
tags = sorted({t[2:] for s in gold + pred for t in s if t != "O"})
result = Evaluator(gold, pred, tags=tags, loader="list").evaluate()
fields = ("correct", "incorrect", "partial", "missed", "spurious", "possible", "actual")
def counts(by_schema):
    return {schema: {f: getattr(r, f) for f in fields} for schema, r in by_schema.items()}
print(json.dumps({"overall": counts(result["overall"]),
                  "entities": {label: counts(s) for label, s in result["entities"].items()}}))
"""

SCHEMAS = {"strict": "strict", "exact": "exact", "partial": "partial", "type": "ent_type"}
FIELDS = ("correct", "incorrect", "partial", "missed", "spurious")


def check(accord_out: dict, nerv_out: dict) -> None:
    """The counts both tools define alike must be equal (see the module docstring); raises SystemExit if not."""
    problems = []
    for ours, theirs in SCHEMAS.items():
        a = accord_out["measures"][ours]["totals"]
        n = nerv_out["overall"][theirs]
        if (a["gold"], a["pred"]) != (n["possible"], n["actual"]):
            problems.append(f"{ours}: POS/ACT {a['gold']}/{a['pred']} vs {n['possible']}/{n['actual']}")
        if ours == "type":
            if a["correct"] < n["correct"]:
                problems.append(f"type: COR {a['correct']} below nervaluate's {n['correct']}")
        elif {f: a[f] for f in FIELDS} != {f: n[f] for f in FIELDS}:
            problems.append(f"{ours}: {[a[f] for f in FIELDS]} vs {[n[f] for f in FIELDS]}")
        for label, row in accord_out["measures"][ours]["by_label"].items():
            nl = nerv_out["entities"][label][theirs]
            if (row["gold"], row["pred"]) != (nl["possible"], nl["actual"]):
                problems.append(f"{ours} {label}: POS/ACT {row['gold']}/{row['pred']} vs "
                                f"{nl['possible']}/{nl['actual']}")
    if problems:
        raise SystemExit("the numbers differ: " + "; ".join(problems))


def timed(argv: list[str], env: dict[str, str] | None = None) -> tuple[float, float, str]:
    """CPU seconds (user + system) and wall seconds of one child run, and its standard output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{argv[:4]} failed:\n{done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, done.stdout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tokens", type=int, default=300_000)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--accord-src", help="run accord from this source folder (PYTHONPATH) instead of the installed")
    args = ap.parse_args()
    print_versions("nervaluate")
    env = None
    if args.accord_src:
        env = {**os.environ, "PYTHONPATH": args.accord_src}
        import compileall
        compileall.compile_dir(args.accord_src, quiet=1)
    else:
        compile_accord()
    gold, pred = generate(args.tokens)
    with tempfile.TemporaryDirectory() as tmp:
        g, p, script = Path(tmp) / "gold.conll", Path(tmp) / "pred.conll", Path(tmp) / "run_nervaluate.py"
        write_conll(g, gold)
        write_conll(p, pred)
        script.write_text(NERVALUATE_SCRIPT)
        ours = [sys.executable, "-m", "accord", "score", str(g), str(p), "--match", "semeval", "--output", "json",
                "--quiet"]
        theirs = [sys.executable, str(script), str(g), str(p)]
        a_out = json.loads(timed(ours, env)[2])     # warm-up runs, whose output is checked
        n_out = json.loads(timed(theirs)[2])
        check(a_out, n_out)
        strict = a_out["measures"]["strict"]["totals"]
        print(f"{args.tokens:,} tokens, {strict['gold']:,} gold and {strict['pred']:,} predicted entities: the "
              "counts agree (strict, exact, partial overall; POS and ACT of every schema and label)")
        runs: dict[str, list[tuple[float, float]]] = {"accord": [], "nervaluate": []}
        for _ in range(args.repeat):
            runs["accord"].append(timed(ours, env)[:2])
            runs["nervaluate"].append(timed(theirs)[:2])
    cpu = {k: statistics.median(c for c, _ in v) for k, v in runs.items()}
    wall = {k: statistics.median(w for _, w in v) for k, v in runs.items()}
    for k in runs:
        print(f"{k:>10}: {cpu[k]:6.3f} s CPU, {wall[k]:6.3f} s wall (medians of {args.repeat})")
    ratio = cpu["nervaluate"] / cpu["accord"]
    print(f"ratio nervaluate / accord: {ratio:.2f}x CPU, {wall['nervaluate'] / wall['accord']:.2f}x wall "
          f"(goal >= 3x: {'met' if ratio >= 3 else 'MISSED'})")


if __name__ == "__main__":
    main()
