"""``accord coref`` with head (and partial) matching against exact matching: whole commands, same files.

Run:  python benchmarks/bench_coref_match.py [--docs 2000] [--mentions 50] [--gum DIR] [--repeat 3]

1. A generated CorefUD file: ``--docs`` documents of ``--mentions`` mentions each (sentences of 20 words, heads in
   the tree, one mention in ten a zero on an empty node), and a response that moves a mention's boundary by one word
   (one in five), drops one in ten, invents one in ten and moves one in ten to another entity.
2. UD English-GUM's test documents against a system's response (``--gum``: the folder of gum_test.conllu.gz and
   gum_resp.conllu.gz; default ../shared/corpora/outside3/coref_corefud).

Each file is scored by the whole command ``accord coref KEY RESPONSE --preset corefud --mention-match M --output
json`` for M in exact, head, partial (the median of ``--repeat`` runs, wall clock, each in a new process); the table
gives each time and its ratio to exact matching (the issue asks head matching within 2x).
"""

from __future__ import annotations

import argparse
import gzip
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _versions import print_versions  # (benchmarks/ is on sys.path when run as a script)

ROOT = Path(__file__).resolve().parents[1]


def _sentence_lines(words: int, marks: dict[int, list[str]], zeros: dict[int, str]) -> list[str]:
    out = []
    for w in range(1, words + 1):
        head = 0 if w == 1 else 1
        entity = "".join(marks.get(w, []))
        misc = f"Entity={entity}" if entity else "_"
        out.append(f"{w}\tw{w}\t_\tNOUN\t_\t_\t{head}\t{'root' if head == 0 else 'dep'}\t{head}:x\t{misc}")
        if w in zeros:
            out.append(f"{w}.1\t_\t_\t_\t_\t_\t_\t_\t{w}:nsubj\tEntity={zeros[w]}")
    return out


def generate(path_key: Path, path_resp: Path, docs: int, mentions: int, seed: int = 1) -> None:
    """Key and response CorefUD files (see the module docstring)."""
    rng = random.Random(seed)
    key_out, resp_out = [], []
    for d in range(docs):
        header = [f"# newdoc id = d{d}"] + (["# global.Entity = eid-etype-head-other"] if d == 0 else [])
        n_ent = max(1, mentions // 4)
        sents = max(1, mentions // 4)
        per_sent = [[] for _ in range(sents)]
        for m in range(mentions):
            per_sent[m % sents].append(m)
        for side, out in (("key", key_out), ("resp", resp_out)):
            out.extend(header)
            srng = random.Random(seed * 1_000_003 + d)   # the same mentions on both sides, then the response's errors
            for s, ms in enumerate(per_sent):
                marks: dict[int, list[str]] = {}
                zeros: dict[int, str] = {}
                slot = 1
                for _ in ms:
                    ent = srng.randrange(n_ent)
                    length = srng.randrange(1, 4)
                    start, end = slot, min(slot + length - 1, 20)
                    slot = end + 2
                    zero = srng.random() < 0.1
                    if side == "resp":
                        r = rng.random()
                        if r < 0.1:
                            continue
                        if r < 0.2:
                            ent = (ent + 1) % n_ent
                        elif r < 0.4 and end > start:
                            end -= 1
                        if rng.random() < 0.1:
                            marks.setdefault(min(slot, 20), []).append(f"(e{n_ent + 1}-x-1-)")
                    if zero:
                        zeros[start] = f"(e{ent}-x-1-)"
                    elif start == end:
                        marks.setdefault(start, []).append(f"(e{ent}-x-1-)")
                    else:
                        marks.setdefault(start, []).append(f"(e{ent}-x-1-")
                        marks.setdefault(end, []).insert(0, f"e{ent})")
                out.append(f"# sent_id = d{d}-{s}")
                out.extend(_sentence_lines(20, marks, zeros))
                out.append("")
    path_key.write_text("\n".join(key_out) + "\n", encoding="utf-8")
    path_resp.write_text("\n".join(resp_out) + "\n", encoding="utf-8")


def timed(argv: list[str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run(argv, check=True, capture_output=True)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def bench(name: str, key: Path, resp: Path, repeat: int) -> None:
    base = [sys.executable, "-m", "accord", "coref", str(key), str(resp), "--preset", "corefud", "--output", "json"]
    results = {m: timed(base + ["--mention-match", m], repeat) for m in ("exact", "head", "partial")}
    for m, t in results.items():
        print(f"{name:<28} {m:<8} {t:8.2f} s   {t / results['exact']:5.2f}x exact")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--docs", type=int, default=2000)
    ap.add_argument("--mentions", type=int, default=50)
    ap.add_argument("--gum", type=Path, default=ROOT.parent / "shared" / "corpora" / "outside3" / "coref_corefud")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    print_versions()
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        generate(t / "key.conllu", t / "resp.conllu", args.docs, args.mentions)
        bench(f"generated {args.docs}x{args.mentions}", t / "key.conllu", t / "resp.conllu", args.repeat)
        if (args.gum / "gum_test.conllu.gz").exists():
            for name in ("gum_test.conllu", "gum_resp.conllu"):
                (t / name).write_bytes(gzip.decompress((args.gum / f"{name}.gz").read_bytes()))
            bench("GUM test (30 documents)", t / "gum_test.conllu", t / "gum_resp.conllu", args.repeat)
        else:
            print(f"GUM not found under {args.gum}: skipped")


if __name__ == "__main__":
    main()
