"""accord score on 10 M and 30 M generated tokens: one process against ``--jobs 2``.

Run:  python benchmarks/bench_scale.py [--tokens 10000000,30000000] [--repeat 3] [--jobs 2]

For each size, a gold and a predicted CoNLL file are generated (documents of 200 to 2,000 tokens under -DOCSTART-,
noisy predictions with invalid transitions to repair), then the whole command ``accord score GOLD PRED --output json``
runs with ``--jobs 1`` and with ``--jobs N``; the two outputs must be identical (the
``generator`` block, which records the command line, aside) before any time is printed.
Times are medians of ``--repeat`` runs; a further run of each samples the peak resident memory of every process (each
pool worker's from ``/proc``; the command's from the kernel at its exit, which counts its waited-for workers too, so
it is the largest of them all). Goals (issue 19): at 10 M
tokens ``--jobs 2`` at least 1.6x faster than ``--jobs 1`` on 2 cores, and no process above 1 GB.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _process import compile_accord, process_tree_peaks  # (benchmarks/ is on sys.path when run as a script)
from _versions import print_versions
from bench_seqeval import generate as noisy_sentences


def _sentences(rng: random.Random, count: int) -> list[tuple[str, str, int]]:
    """A pool of (gold lines, predicted lines, tokens) sentences to draw documents from: bench_seqeval's noisy
    sentences, with words and four columns."""
    pool = []
    for tags, pred in zip(*noisy_sentences(count * 17, seed=rng.randrange(1 << 30))):
        words = [f"w{rng.randint(0, 99999)}" for _ in tags]
        pool.append(("".join(f"{w} NN O {t}\n" for w, t in zip(words, tags)) + "\n",
                     "".join(f"{w} NN O {t}\n" for w, t in zip(words, pred)) + "\n", len(tags)))
    return pool


def generate(tokens: int, gold: Path, pred: Path, seed: int = 19) -> int:
    """Write about ``tokens`` tokens of documents; the number of documents."""
    rng = random.Random(seed)
    pool = _sentences(rng, 5000)
    n = docs = 0
    with open(gold, "w") as g, open(pred, "w") as p:
        while n < tokens:
            size = rng.randint(200, 2000)
            gl, pl = ["-DOCSTART- -X- -X- O\n\n"], ["-DOCSTART- -X- -X- O\n\n"]
            k = 0
            while k < size:
                a, b, length = pool[rng.randrange(len(pool))]
                gl.append(a)
                pl.append(b)
                k += length
            g.write("".join(gl))
            p.write("".join(pl))
            n += k
            docs += 1
    return docs


def _command(gold: Path, pred: Path, jobs: int) -> list[str]:
    return [sys.executable, "-m", "accord", "score", str(gold), str(pred), "--output", "json", "--jobs", str(jobs)]


def _same_result(a: bytes, b: bytes) -> bool:
    """Whether two JSON outputs are the same result: the ``generator`` block records the command line (which
    differs by ``--jobs``), so it is left out of the comparison; everything else must be equal."""
    first, second = json.loads(a), json.loads(b)
    first.pop("generator", None)
    second.pop("generator", None)
    return bool(first == second)


def _median_time(cmd: list[str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tokens", default="10000000,30000000", help="comma-separated corpus sizes")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    print_versions()
    compile_accord()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for tokens in (int(x) for x in args.tokens.split(",")):
            gold, pred = Path(tmp) / "gold.conll", Path(tmp) / "pred.conll"
            docs = generate(tokens, gold, pred)
            size = (gold.stat().st_size + pred.stat().st_size) / 2**20
            serial = subprocess.run(_command(gold, pred, 1), check=True, capture_output=True).stdout
            sharded = subprocess.run(_command(gold, pred, args.jobs), check=True, capture_output=True).stdout
            if not _same_result(serial, sharded):
                sys.exit(f"{tokens} tokens: --jobs {args.jobs} differs from --jobs 1")
            t1 = _median_time(_command(gold, pred, 1), args.repeat)
            tn = _median_time(_command(gold, pred, args.jobs), args.repeat)
            _, serial_peak, _, _ = process_tree_peaks(_command(gold, pred, 1))
            _, client_peak, workers, out = process_tree_peaks(_command(gold, pred, args.jobs))
            if not _same_result(out, serial):
                sys.exit("the run sampling memory gave another output")
            worker_peaks = sorted(workers.values(), reverse=True)[:args.jobs]
            rows.append((tokens, docs, size, t1, tn, serial_peak, client_peak, worker_peaks))
            print(f"{tokens:,} tokens ({docs:,} documents, {size:.0f} MiB a file): identical output; "
                  f"--jobs 1 {t1:.2f} s, --jobs {args.jobs} {tn:.2f} s, speed-up {t1 / tn:.2f}x; peak memory: "
                  f"one process {serial_peak / 1024:.0f} MiB, with --jobs {args.jobs} the command "
                  f"{client_peak / 1024:.0f} MiB and its workers "
                  f"{', '.join(f'{p / 1024:.0f}' for p in worker_peaks)} MiB", flush=True)
    first = rows[0]
    speedup = first[3] / first[4]
    largest = max(max([r[6]] + r[7]) for r in rows) / 1024
    print(f"goal at {first[0]:,} tokens: speed-up >= 1.6x: {'met' if speedup >= 1.6 else 'NOT met'} "
          f"({speedup:.2f}x); every process of --jobs {args.jobs} below 1 GB: "
          f"{'met' if largest < 1024 else 'NOT met'} (largest {largest:.0f} MiB)")


if __name__ == "__main__":
    main()
