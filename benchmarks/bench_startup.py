"""Start-up: ``accord --help``, ``import accord`` and a first command, as a user runs them.

Each is a fresh interpreter (this one's executable, not a shell shim), timed from start to exit, median of
``--repeat`` runs, beside ``python -c pass`` (the interpreter's own start). ``python -X importtime`` then lists the
modules the command imported that cost most (cumulative), and the script checks that ``accord --help`` imports
neither numpy nor a format reader. The goal of the columnar issue: ``accord --help`` in at most 0.1 s.

    python benchmarks/bench_startup.py [--repeat 7]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

from _versions import print_versions  # noqa: E402  (benchmarks/ is on sys.path when run as a script)

ROOT = Path(__file__).resolve().parents[1]
GOAL_HELP_S = 0.1


def run_time(argv: list[str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        done = subprocess.run(argv, capture_output=True, text=True)
        times.append(time.perf_counter() - t)
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(argv)} failed:\n{done.stderr[-2000:]}")
    return statistics.median(times)


def imported(argv: list[str]) -> list[tuple[int, str]]:
    """(cumulative microseconds, module) of every module the command imported, most costly first."""
    done = subprocess.run([sys.executable, "-X", "importtime", *argv], capture_output=True, text=True)
    rows = []
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and "|" in line and "cumulative" not in line:
            _, cumulative, name = line[len("import time:"):].split("|")
            rows.append((int(cumulative), name.strip()))
    return sorted(rows, reverse=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--repeat", type=int, default=7)
    args = p.parse_args()
    print_versions()
    py = sys.executable
    gold = str(ROOT / "tests" / "data" / "conll03" / "gold.conll")
    pred = str(ROOT / "tests" / "data" / "conll03" / "xlm_flert.conll")
    help_modules = {name for _, name in imported(["-m", "accord", "--help"])}
    heavy = sorted(help_modules & {"numpy", "scipy", "rich", "jinja2", "accord.formats.tokens.conll", "accord.formats.text.gate"})
    assert not heavy, f"accord --help imports {', '.join(heavy)}"
    bare = run_time([py, "-c", "pass"], args.repeat)
    rows = [("python -c pass", bare),
            ("accord --help", run_time([py, "-m", "accord", "--help"], args.repeat)),
            ("accord score --help", run_time([py, "-m", "accord", "score", "--help"], args.repeat)),
            ("python -c 'import accord'", run_time([py, "-c", "import accord"], args.repeat)),
            ("python -c 'import accord; accord.score'", run_time([py, "-c", "import accord; accord.score"],
                                                                  args.repeat)),
            ("accord score (CoNLL-2003 test set, 46k tokens)",
             run_time([py, "-m", "accord", "score", gold, pred, "--quiet"], args.repeat))]
    print(f"python {sys.version.split()[0]} ({py})")
    for name, seconds in rows:
        note = ""
        if name == "accord --help":
            note = "ok" if seconds <= GOAL_HELP_S else f"MISSES the {GOAL_HELP_S} s goal"
        print(f"{name:<48} {seconds:6.3f} s   (interpreter start {bare:.3f} s)   {note}")
    print("costliest imports of accord score (cumulative ms):")
    for micro, name in imported(["-m", "accord", "score", gold, pred, "--quiet"])[:8]:
        print(f"  {micro / 1000:7.1f}  {name}")


if __name__ == "__main__":
    main()
