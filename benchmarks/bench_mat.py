"""The MAT engine at scale: a generated corpus under a task with attributes and relations.

Run:  python benchmarks/bench_mat.py [--annotations 1000000] [--docs-size 200]

Scores the corpus at half size and at full size with the task's default similarity profile
(entity spans with a ``nomtype`` attribute, spanless relations pointing at them), prints the
time of each run (pairing, tally and report; the corpus is built in memory first) and the
growth ratio; linear cost means a ratio near 2.
"""

from __future__ import annotations

import argparse
import random
import time

import accord
from accord.model import Corpus, Document, make_annotation
from accord.schema import parse_task
from _versions import print_versions  # noqa: E402  (benchmarks/ is on sys.path when run as a script)

TASK = """<task><annotation_set_descriptors><annotation_set_descriptor name='content'>
<annotation label='PER'/><annotation label='LOC'/><annotation label='ORG'/>
<attribute name='nomtype' of_annotation='PER,LOC,ORG'><choice>NAM</choice><choice>NOM</choice><choice>PRO</choice></attribute>
<annotation label='REL' span='no'/>
<attribute name='arg1' of_annotation='REL' type='annotation'><label_restriction label='PER'/></attribute>
<attribute name='arg2' of_annotation='REL' type='annotation'><label_restriction label='LOC'/><label_restriction label='ORG'/></attribute>
</annotation_set_descriptor></annotation_set_descriptors></task>"""


def generate(n_annotations: int, per_doc: int, seed: int = 7) -> tuple[Corpus, Corpus]:
    rng = random.Random(seed)
    gold_docs, pred_docs = [], []
    made = 0
    d = 0
    while made < n_annotations:
        g, p = [], []
        pos = 0
        ents_g, ents_p = [], []
        for _ in range(per_doc):
            pos += rng.randint(2, 20)
            w = rng.randint(1, 12)
            lbl = rng.choice(("PER", "LOC", "ORG"))
            nt = rng.choice(("NAM", "NOM", "PRO"))
            a = make_annotation(lbl, pos, pos + w, {"nomtype": nt})
            g.append(a)
            ents_g.append(a)
            r = rng.random()
            if r < 0.8:
                b = make_annotation(lbl, pos, pos + w, {"nomtype": nt})
            elif r < 0.9:
                b = make_annotation(rng.choice(("PER", "LOC", "ORG")), pos + 1, pos + w + 1, {"nomtype": nt})
            else:
                b = None
            if b is not None:
                p.append(b)
            ents_p.append(b)
            pos += w
        for k in range(0, len(ents_g) - 1, 5):
            if ents_g[k].label == "PER" and ents_g[k + 1].label != "PER":
                g.append(make_annotation("REL", attributes={"arg1": ents_g[k], "arg2": ents_g[k + 1]}))
                if ents_p[k] is not None and ents_p[k + 1] is not None and ents_p[k].label == "PER" \
                        and ents_p[k + 1].label != "PER" and rng.random() < 0.9:
                    p.append(make_annotation("REL", attributes={"arg1": ents_p[k], "arg2": ents_p[k + 1]}))
        text = "x" * (pos + 20)
        gold_docs.append(Document(f"d{d}", tuple(g), text))
        pred_docs.append(Document(f"d{d}", tuple(p), text))
        made += len(g) + len(p)
        d += 1
    return Corpus(gold_docs, name="gold"), Corpus(pred_docs, name="pred")


def run(n: int, per_doc: int, task) -> tuple[float, object, int]:
    gold, pred = generate(n, per_doc)
    total = gold.annotation_count() + pred.annotation_count()
    t = time.perf_counter()
    report = accord.score(gold, pred, task=task)
    return time.perf_counter() - t, report, total


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--annotations", type=int, default=1_000_000)
    ap.add_argument("--docs-size", type=int, default=200)
    args = ap.parse_args()
    print_versions()
    import gc
    gc.disable()
    task = parse_task(TASK)
    t_half, _, n_half = run(args.annotations // 2, args.docs_size, task)
    print(f"{n_half} annotations: {t_half:.2f} s")
    t_full, report, n_full = run(args.annotations, args.docs_size, task)
    print(f"{n_full} annotations: {t_full:.2f} s  ({report!r})")
    print(f"growth for {n_full / n_half:.2f}x the annotations: {t_full / t_half:.2f}x the time")


if __name__ == "__main__":
    main()
