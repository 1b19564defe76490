"""accord against seqeval on a generated corpus of noisy NER predictions.

Run:  python benchmarks/bench_seqeval.py [--tokens 300000] [--repeat 3]

1. In process: ``accord.compat.seqeval.classification_report`` against seqeval's, same tag lists.
2. Whole commands: ``accord score gold.conll pred.conll --output json`` against a Python script
   that reads the same files and runs seqeval's ``classification_report``.
The numbers are checked to agree before any time is printed; times are medians.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _versions import print_versions  # (benchmarks/ is on sys.path when run as a script)

TYPES = ["PER", "LOC", "ORG", "MISC"]

SEQEVAL_SCRIPT = r"""
import sys
from seqeval.metrics import classification_report
def read(path):
    sents, cur = [], []
    for line in open(path, encoding="utf-8"):
        cols = line.split()
        if not cols or cols[0] == "-DOCSTART-":
            if cur:
                sents.append(cur); cur = []
            continue
        cur.append(cols[-1])
    if cur:
        sents.append(cur)
    return sents
print(classification_report(read(sys.argv[1]), read(sys.argv[2]), digits=4))
"""


def generate(tokens: int, seed: int = 13) -> tuple[list[list[str]], list[list[str]]]:
    rng = random.Random(seed)
    gold, pred = [], []
    n = 0
    while n < tokens:
        length = rng.randint(5, 30)
        g = ["O"] * length
        i = 0
        while i < length:
            if rng.random() < 0.15:
                w = min(rng.randint(1, 4), length - i)
                t = rng.choice(TYPES)
                g[i:i + w] = [f"B-{t}"] + [f"I-{t}"] * (w - 1)
                i += w
            else:
                i += 1
        p = list(g)
        for k in range(length):
            r = rng.random()
            if r < 0.03:
                p[k] = "O"
            elif r < 0.06:
                p[k] = f"{rng.choice('BI')}-{rng.choice(TYPES)}"
        gold.append(g)
        pred.append(p)
        n += length
    return gold, pred


def write_conll(path: Path, sents: list[list[str]]) -> None:
    with path.open("w", encoding="utf-8") as fh:
        for d in range(0, len(sents), 50):
            fh.write("-DOCSTART- O\n\n")
            for s in sents[d:d + 50]:
                fh.write("".join(f"w{i} {t}\n" for i, t in enumerate(s)))
                fh.write("\n")


def median_time(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tokens", type=int, default=300_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    print_versions('seqeval', 'seqscore', 'nervaluate')
    import warnings

    from seqeval.metrics import classification_report as theirs

    from accord.compat.seqeval import classification_report as ours

    gold, pred = generate(args.tokens)
    ntok = sum(map(len, gold))
    print(f"corpus: {ntok} tokens, {len(gold)} sentences")
    warnings.simplefilter("ignore")
    a, b = ours(gold, pred, output_dict=True), theirs(gold, pred, output_dict=True)
    assert all(abs(a[k][m] - b[k][m]) < 1e-12 for k in b for m in b[k]), "numbers differ"
    t_ours = median_time(lambda: ours(gold, pred, digits=4), args.repeat)
    t_theirs = median_time(lambda: theirs(gold, pred, digits=4), args.repeat)
    print(f"in process  classification_report: accord {t_ours:.3f} s, seqeval {t_theirs:.3f} s, "
          f"seqeval/accord = {t_theirs / t_ours:.1f}x")

    with tempfile.TemporaryDirectory() as tmp:
        g, p, script = Path(tmp) / "gold.conll", Path(tmp) / "pred.conll", Path(tmp) / "run_seqeval.py"
        write_conll(g, gold)
        write_conll(p, pred)
        script.write_text(SEQEVAL_SCRIPT)
        accord_cmd = [sys.executable, "-m", "accord.cli", "score", str(g), str(p), "--output", "json"]
        seqeval_cmd = [sys.executable, str(script), str(g), str(p)]
        import json
        out = json.loads(subprocess.run(accord_cmd, check=True, capture_output=True, text=True).stdout)
        micro = [line.split() for line in subprocess.run(seqeval_cmd, check=True, capture_output=True,
                                                          text=True).stdout.splitlines() if "micro" in line][0]
        assert abs(float(micro[4]) - round(out["totals"]["f1"], 4)) < 1e-9, "command numbers differ"
        t_cmd_ours = median_time(lambda: subprocess.run(accord_cmd, check=True, capture_output=True), args.repeat)
        t_cmd_theirs = median_time(lambda: subprocess.run(seqeval_cmd, check=True, capture_output=True), args.repeat)
        print(f"whole command  accord score: {t_cmd_ours:.3f} s, seqeval script {t_cmd_theirs:.3f} s, "
              f"seqeval/accord = {t_cmd_theirs / t_cmd_ours:.1f}x")


if __name__ == "__main__":
    main()
