"""accord against seqeval on a generated corpus of noisy NER predictions.

Run:  python benchmarks/bench_seqeval.py [--tokens 300000] [--repeat 5] [--memory-tokens 3000000]

1. In process: ``accord.compat.seqeval.classification_report`` against seqeval's, same tag lists: the default mode,
   and the strict mode (IOB2) with the scheme given and detected (CPU time: the machine may be shared).
2. Whole commands on the same files: ``accord score gold.conll pred.conll --output json`` against a Python script
   that reads them and runs seqeval's ``classification_report``, against ``seqscore score`` (conlleval's
   repair, as accord reads them) and against a script that runs nervaluate's ``Evaluator`` (its strict schema).
   Then the CPU time of the whole command against the plain reader (the floor, issue 43) and the seqeval script.
3. Peak memory of the whole command and of the seqeval script on a larger corpus (``--memory-tokens``; 0 skips it).
The numbers are checked to agree before any time is printed; times are medians. accord's modules are compiled to
bytecode first, as installing its wheel does (the peers' come compiled from theirs).
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

from _process import compile_accord, peak_memory  # (benchmarks/ is on sys.path when run as a script)
from _versions import print_versions

TYPES = ["PER", "LOC", "ORG", "MISC"]

READ_TAGS = r"""
import sys
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
gold, pred = read(sys.argv[1]), read(sys.argv[2])
"""
FLOOR_SCRIPT = READ_TAGS
"""Issue 43's floor: a plain Python reader that only builds the per-sentence tag lists of both files (what the seqeval
script does before it scores); the whole ``accord score`` (read, pair, score, write) should cost no more."""
SEQEVAL_SCRIPT = READ_TAGS + r"""
from seqeval.metrics import classification_report
print(classification_report(gold, pred, digits=4))
"""
NERVALUATE_SCRIPT = READ_TAGS + r"""
from nervaluate import Evaluator
tags = sorted({t[2:] for s in gold + pred for t in s if t != "O"})
strict = Evaluator(gold, pred, tags=tags, loader="list").evaluate()["overall"]["strict"]
print(strict.correct, strict.possible, strict.actual)
"""
SEQSCORE = "import sys; from seqscore.scripts.seqscore import cli; sys.exit(cli())"


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
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--memory-tokens", type=int, default=3_000_000)
    ap.add_argument("--whole-only", action="store_true",
                    help="only the whole command's CPU against the plain reader and the seqeval script (the numbers "
                    "checked first): the figure at 3M tokens without the in-process reports")
    args = ap.parse_args()
    print_versions('seqeval', 'seqscore', 'nervaluate')
    compile_accord()
    import warnings

    from seqeval.metrics import classification_report as theirs

    from accord.compat.seqeval import classification_report as ours

    gold, pred = generate(args.tokens)
    ntok = sum(map(len, gold))
    print(f"corpus: {ntok} tokens, {len(gold)} sentences")
    warnings.simplefilter("ignore")
    if args.whole_only:
        whole_only(gold, pred, args.repeat)
        return
    a, b = ours(gold, pred, output_dict=True), theirs(gold, pred, output_dict=True)
    assert all(abs(a[k][m] - b[k][m]) < 1e-12 for k in b for m in b[k]), "numbers differ"
    t_ours = median_time(lambda: ours(gold, pred, digits=4), args.repeat)
    t_theirs = median_time(lambda: theirs(gold, pred, digits=4), args.repeat)
    print(f"in process  classification_report: accord {t_ours:.3f} s, seqeval {t_theirs:.3f} s, "
          f"seqeval/accord = {t_theirs / t_ours:.1f}x")
    strict_report(gold, pred, ours, theirs, args.repeat)

    with tempfile.TemporaryDirectory() as tmp:
        g, p = write_inputs(Path(tmp), gold, pred)
        (Path(tmp) / "run_nervaluate.py").write_text(NERVALUATE_SCRIPT)
        import json

        def output(cmd: list[str]) -> str:
            return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout

        accord_cmd = [sys.executable, "-m", "accord.cli", "score", str(g), str(p), "--output", "json"]
        totals = json.loads(output(accord_cmd))["totals"]
        peers = {
            "seqeval script": [sys.executable, str(Path(tmp) / "run_seqeval.py"), str(g), str(p)],
            "seqscore score": [sys.executable, "-c", SEQSCORE, "score", "--labels", "BIO", "--repair-method",
                               "conlleval", "--score-format", "delim", "--full-precision", "-q", "--reference",
                               str(g), str(p)],
            "nervaluate script": [sys.executable, str(Path(tmp) / "run_nervaluate.py"), str(g), str(p)],
        }
        # the numbers first: each peer's micro F1 or counts equal accord's
        micro = [line.split() for line in output(peers["seqeval script"]).splitlines() if "micro" in line][0]
        assert abs(float(micro[4]) - round(totals["f1"], 4)) < 1e-9, "seqeval's numbers differ"
        row = next(line.split("\t") for line in output(peers["seqscore score"]).splitlines() if line.startswith("ALL"))
        assert (int(row[4]), int(row[5]), int(row[6])) == (totals["gold"], totals["pred"], totals["match"]), \
            "seqscore's counts differ"
        correct, possible, actual = map(int, output(peers["nervaluate script"]).split())
        assert (correct, possible, actual) == (totals["match"], totals["gold"], totals["pred"]), \
            "nervaluate's strict counts differ"
        t_cmd_ours = median_time(lambda: subprocess.run(accord_cmd, check=True, capture_output=True), args.repeat)
        print(f"whole command  accord score: {t_cmd_ours:.3f} s")
        for name, cmd in peers.items():
            t_peer = median_time(lambda c=cmd: subprocess.run(c, check=True, capture_output=True), args.repeat)
            print(f"               {name:18s} {t_peer:.3f} s, {name.split()[0]}/accord = {t_peer / t_cmd_ours:.1f}x")
        whole_command_cpu(accord_cmd, [sys.executable, str(Path(tmp) / "read_tags.py"), str(g), str(p)],
                          peers["seqeval script"], args.repeat)
        if args.memory_tokens:
            memory(Path(tmp), args.memory_tokens)


def write_inputs(tmp: Path, gold: list[list[str]], pred: list[list[str]]) -> tuple[Path, Path]:
    """The two CoNLL files, the seqeval script and the plain reader (the floor) in ``tmp``; the files' paths."""
    g, p = tmp / "gold.conll", tmp / "pred.conll"
    write_conll(g, gold)
    write_conll(p, pred)
    (tmp / "run_seqeval.py").write_text(SEQEVAL_SCRIPT)
    (tmp / "read_tags.py").write_text(FLOOR_SCRIPT)
    return g, p


def whole_only(gold: list[list[str]], pred: list[list[str]], repeat: int) -> None:
    """The whole ``accord score`` against the plain reader and the seqeval script, in CPU time, after checking that
    seqeval's micro F1 is accord's."""
    import json

    with tempfile.TemporaryDirectory() as tmp:
        g, p = write_inputs(Path(tmp), gold, pred)
        accord_cmd = [sys.executable, "-m", "accord.cli", "score", str(g), str(p), "--output", "json"]
        seqeval_cmd = [sys.executable, str(Path(tmp) / "run_seqeval.py"), str(g), str(p)]
        totals = json.loads(subprocess.run(accord_cmd, check=True, capture_output=True, text=True).stdout)["totals"]
        out = subprocess.run(seqeval_cmd, check=True, capture_output=True, text=True).stdout
        micro = [line.split() for line in out.splitlines() if "micro" in line][0]
        assert abs(float(micro[4]) - round(totals["f1"], 4)) < 1e-9, "seqeval's numbers differ"
        whole_command_cpu(accord_cmd, [sys.executable, str(Path(tmp) / "read_tags.py"), str(g), str(p)],
                          seqeval_cmd, repeat)


WHOLE_GOAL = 12.0
"""Issue 43: the whole ``accord score`` at least 12x the seqeval script, in CPU time."""


def cpu_time(cmd: list[str]) -> float:
    """User and system CPU time of a whole process (the machine may be shared: wall time is mostly waiting)."""
    import os

    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    assert status == 0, cmd
    return usage.ru_utime + usage.ru_stime


def whole_command_cpu(accord_cmd: list[str], floor_cmd: list[str], seqeval_cmd: list[str], repeat: int) -> None:
    """CPU time of the whole command against the plain reader's (the floor) and the seqeval script's, the three in
    turn each round so that a change of the machine's load falls on all; medians."""
    times: dict[str, list[float]] = {"accord": [], "floor": [], "seqeval": []}
    for _ in range(repeat):
        for name, cmd in (("accord", accord_cmd), ("floor", floor_cmd), ("seqeval", seqeval_cmd)):
            times[name].append(cpu_time(cmd))
    ours, floor, peer = (statistics.median(times[k]) for k in ("accord", "floor", "seqeval"))
    print(f"whole command, CPU time: accord score {ours:.3f} s, plain reader (floor) {floor:.3f} s, "
          f"accord/floor = {ours / floor:.2f}x (goal <= 1), seqeval script {peer:.3f} s, seqeval/accord = "
          f"{peer / ours:.1f}x (goal >= {WHOLE_GOAL:.0f}x: {'met' if peer / ours >= WHOLE_GOAL else 'MISSED'})")


STRICT_GOAL = 20.0
"""Issue 41: strict ``classification_report`` (IOB2) at least 20x seqeval in process."""


def strict_report(gold, pred, ours, theirs, repeat: int) -> None:
    """Strict mode (IOB2), the scheme given and detected: the numbers first, then each side's median CPU time, the
    two alternating."""
    from seqeval.scheme import IOB2

    for name, kw in (("scheme=IOB2", {"scheme": IOB2}), ("scheme detected", {})):
        a = ours(gold, pred, mode="strict", output_dict=True, **kw)
        b = theirs(gold, pred, mode="strict", output_dict=True, **kw)
        assert a.keys() == b.keys() and all(abs(a[k][m] - b[k][m]) < 1e-12 for k in b for m in b[k]), \
            f"strict numbers differ ({name})"
        mine, peer = [], []
        for _ in range(repeat):
            for fn, out in ((ours, mine), (theirs, peer)):
                t = time.process_time()
                fn(gold, pred, mode="strict", digits=4, **kw)
                out.append(time.process_time() - t)
        t_ours, t_theirs = statistics.median(mine), statistics.median(peer)
        ratio = t_theirs / t_ours
        print(f"in process  classification_report strict ({name}): accord {t_ours:.3f} CPU-s, seqeval "
              f"{t_theirs:.3f} CPU-s, seqeval/accord = {ratio:.1f}x (goal >= {STRICT_GOAL:.0f}x: "
              f"{'met' if ratio >= STRICT_GOAL else 'MISSED'})")


def memory(tmp: Path, tokens: int) -> None:
    """Peak resident memory of the whole command against the seqeval script's, on one larger corpus."""
    import json

    gold, pred = generate(tokens, seed=29)
    g, p = tmp / "gold_large.conll", tmp / "pred_large.conll"
    write_conll(g, gold)
    write_conll(p, pred)
    del gold, pred
    accord_cmd = [sys.executable, "-m", "accord.cli", "score", str(g), str(p), "--output", "json"]
    seqeval_cmd = [sys.executable, str(tmp / "run_seqeval.py"), str(g), str(p)]
    f1 = json.loads(subprocess.run(accord_cmd, check=True, capture_output=True, text=True).stdout)["totals"]["f1"]
    report = subprocess.run(seqeval_cmd, check=True, capture_output=True, text=True).stdout
    micro = [line.split() for line in report.splitlines() if "micro" in line][0]
    assert abs(float(micro[4]) - round(f1, 4)) < 1e-9, "seqeval's numbers differ on the larger corpus"
    ours, theirs = peak_memory(accord_cmd), peak_memory(seqeval_cmd)
    print(f"peak memory at {tokens:,} tokens: accord score {ours:.0f} MiB, seqeval script {theirs:.0f} MiB, "
          f"accord/seqeval = {ours / theirs:.2f}")

if __name__ == "__main__":
    main()
