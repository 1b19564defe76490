"""The HTML pages at scale: the error page and the report of a 1.4 million-token corpus, written by whole
commands and opened in headless Chromium.

The corpus is the CoNLL-2003 English test set (tests/data/conll03) repeated until it holds ``--tokens`` tokens,
with its real system's output and a second system made from it by turning 8 % of its entity tags into O. For each
page the script checks what the page shows (its count of errors equals the errors of the Python API) and then
prints the command's wall time (median, imports and reading included), the page's size, the time the page's
script took to draw its first errors (``performance.now()`` when the first rows are drawn, navigation at 0) and
Chromium's whole run (start, load, draw, dump). The goals of the report issue: under 5 MB, drawn in under 2 s.

    python benchmarks/bench_report.py [--tokens 1400000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

from _versions import print_versions  # noqa: E402  (benchmarks/ is on sys.path when run as a script)

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DATA = ROOT / "tests" / "data" / "conll03"
SIZE_GOAL = 5_000_000
DRAW_GOAL_MS = 2000


def write_corpus(folder: Path, tokens: int) -> tuple[Path, Path, Path, int]:
    """Gold, system and worse system files of at least ``tokens`` tokens (the test set repeated; the worse system
    is the tests' own, :func:`tests.result.commands.worse_copy`)."""
    from tests.result.commands import worse_copy

    gold = (DATA / "gold.conll").read_text(encoding="utf-8")
    per_copy = sum(1 for line in gold.splitlines() if line.strip() and not line.startswith("-DOCSTART-"))
    copies = max(1, -(-tokens // per_copy))
    worse = Path(worse_copy(folder)).read_text(encoding="utf-8")
    paths = (folder / "gold.conll", folder / "system.conll", folder / "worse.conll")
    for path, text in zip(paths, (gold, (DATA / "xlm_flert.conll").read_text(encoding="utf-8"), worse)):
        path.write_text((text.rstrip("\n") + "\n\n") * copies, encoding="utf-8")
    return (*paths, copies * per_copy)


def timed_command(argv: list[str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        run = subprocess.run([sys.executable, "-m", "accord", *argv], capture_output=True, text=True)
        times.append(time.perf_counter() - t)
        if run.returncode != 0:
            raise SystemExit(f"accord {' '.join(argv)} failed:\n{run.stderr[-2000:]}")
    return statistics.median(times)


def open_in_chromium(page: Path) -> tuple[str, float]:
    exe = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if exe is None:
        raise SystemExit("headless Chromium is needed (Debian package 'chromium')")
    t = time.perf_counter()
    run = subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                          "--virtual-time-budget=10000", "--dump-dom", page.as_uri()],
                         capture_output=True, text=True, timeout=300)
    return run.stdout, time.perf_counter() - t


def check_page(page: Path, expected_errors: int) -> tuple[int, int, float]:
    dom, wall = open_in_chromium(page)
    status = re.search(r'id="eb-status">([^<]*)<', dom)
    assert status and f"of {expected_errors} matching" in status.group(1), (page, status and status.group(1))
    assert len(re.findall('<tr class="eb-row (?:FN|FP)">', dom)) == min(100, expected_errors)
    drawn_ms = int(re.search(r'data-errors-ready-ms="(\d+)"', dom).group(1))
    return page.stat().st_size, drawn_ms, wall


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tokens", type=int, default=1_400_000)
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args()
    print_versions()
    warnings.simplefilter("ignore")
    sys.path.insert(0, str(ROOT / "src"))
    import accord
    from accord.clueval import evaluate_spans
    from accord.clueval._browser import error_rows

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        gold, system, worse, n_tokens = write_corpus(folder, args.tokens)
        errors = {name: len(error_rows(evaluate_spans(*accord.score(gold, path).corpora)))
                  for name, path in (("system", system), ("worse", worse))}
        print(f"corpus: {n_tokens:,} tokens; exact errors (FN + FP): system {errors['system']:,}, "
              f"worse {errors['worse']:,}")
        rows = []
        page = folder / "errors.html"
        t = timed_command(["errors", str(gold), str(system), "--html", str(page), "--quiet"], args.repeat)
        rows.append(("accord errors --html (one system)", t, *check_page(page, errors["system"])))
        page = folder / "report.html"
        t = timed_command(["report", str(gold), str(system), str(worse), "-o", str(page), "--quiet"], args.repeat)
        rows.append(("accord report (two systems, 1,000 resamples, 10,000-sample test)", t,
                     *check_page(page, errors["system"] + errors["worse"])))
        for name, seconds, size, drawn_ms, wall in rows:
            verdict = "ok" if size < SIZE_GOAL and drawn_ms < DRAW_GOAL_MS else "MISSES THE GOAL"
            print(f"{name:<70} command {seconds:6.2f} s   page {size / 1e6:5.2f} MB   first errors drawn "
                  f"{drawn_ms:5d} ms   Chromium run {wall:5.2f} s   {verdict}")


if __name__ == "__main__":
    main()
