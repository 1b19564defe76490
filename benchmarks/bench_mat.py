"""The MAT engine at scale: a generated corpus under a task with attributes and relations, scored as a user runs it.

Run:  python benchmarks/bench_mat.py [--sizes 500000,1000000,2000000] [--docs-size 200] [--repeat 5]
      [--accord-src CHECKOUT/src]

For each size the script writes gold and predicted MAT JSON documents to disk (entities with a ``nomtype``
attribute; a fifth of all annotations are spanless relations whose ``arg1``/``arg2`` point at entities), then
runs ``accord score GOLD PRED --task task.xml --output json`` in a fresh interpreter (reading, validation,
pairing, tally and JSON included, the garbage collector as the command leaves it) and reports the median time,
the time per million annotations, the peak memory of the command and the growth from size to size (linear cost:
time in proportion to the annotations). The numbers are checked first: the command's counts equal those of
``accord.score`` on the same corpus in this process, and every gold and predicted item is counted once.
The goal of the columnar issue: at most 10 s per million annotations, linear. The times are printed as wall and
CPU seconds (user + system of the command: what a machine shared with other work inflates least). accord's modules
are compiled to bytecode first, as installing its wheel does; ``--accord-src`` runs the commands from another
checkout (``PYTHONPATH``), to measure a change against the code before it.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _process import compile_accord, peak_memory  # noqa: E402  (benchmarks/ is on sys.path when run as a script)
from _versions import print_versions  # noqa: E402

import accord
from accord.formats.text.matjson import write_mat_json
from accord.model import Corpus, Document, make_annotation
from accord.model.schema import parse_task

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
        # three relations for every ten gold entities (with the predicted ones, a fifth of all annotations): a
        # person and a nearby place or organisation; the prediction keeps 90 % of those whose arguments it found
        # with the right labels, and points a tenth of those to another argument
        people = [k for k, a in enumerate(ents_g) if a.label == "PER"]
        others = [k for k, a in enumerate(ents_g) if a.label != "PER"]
        for _ in range(per_doc * 3 // 10 if people and others else 0):
            i = rng.choice(people)
            j = min(others, key=lambda k: (abs(k - i - rng.randint(-6, 6)), k))
            g.append(make_annotation("REL", attributes={"arg1": ents_g[i], "arg2": ents_g[j]}))
            pi, pj = ents_p[i], ents_p[j]
            if pi is not None and pj is not None and pi.label == "PER" and pj.label != "PER" and rng.random() < 0.9:
                if rng.random() < 0.1:
                    alternatives = [k for k in others if ents_p[k] is not None and ents_p[k].label != "PER"]
                    pj = ents_p[rng.choice(alternatives)]
                p.append(make_annotation("REL", attributes={"arg1": pi, "arg2": pj}))
        text = "x" * (pos + 20)
        gold_docs.append(Document(f"d{d}", tuple(g), text))
        pred_docs.append(Document(f"d{d}", tuple(p), text))
        made += len(g) + len(p)
        d += 1
    return Corpus(gold_docs, name="gold"), Corpus(pred_docs, name="pred")


def run_command(gold: Path, pred: Path, task: Path, repeat: int, env: dict[str, str] | None = None
                ) -> tuple[float, float, float, dict]:
    """Median wall and CPU seconds and peak resident memory (MiB) of the whole command, and its JSON.

    The peak is measured by one more run in a fresh interpreter (:func:`_process.peak_memory`): the children's
    ``ru_maxrss`` of this script counts this script's own memory (the generated corpus) in every child it starts."""
    argv = [sys.executable, "-m", "accord", "score", str(gold), str(pred), "--task", str(task), "--output", "json",
            "--quiet"]
    times, cpus, out = [], [], {}
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        done = subprocess.run(argv, capture_output=True, text=True, env=env)
        times.append(time.perf_counter() - t)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if done.returncode != 0:
            raise SystemExit(f"accord score failed:\n{done.stderr[-2000:]}")
        out = json.loads(done.stdout)
    peak = peak_memory(argv)
    return statistics.median(times), statistics.median(cpus), peak, out


GOAL_PER_MILLION_S = 10.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="500000,1000000,2000000",
                    help="annotations (gold + predicted) of each corpus, comma-separated")
    ap.add_argument("--docs-size", type=int, default=200, help="entities per gold document")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--accord-src", help="run accord from this source folder (PYTHONPATH) instead of the installed")
    args = ap.parse_args()
    print_versions()
    env = None
    if args.accord_src:
        import compileall
        compileall.compile_dir(args.accord_src, quiet=1)
        os.environ["PYTHONPATH"] = args.accord_src    # (for the run that measures the peak memory too)
        env = dict(os.environ)
    else:
        compile_accord()
    sizes = [int(x) for x in args.sizes.split(",") if x]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        task_path = folder / "task.xml"
        task_path.write_text(TASK, encoding="utf-8")
        task = parse_task(TASK)
        for n in sizes:
            gold, pred = generate(n, args.docs_size)
            total = gold.annotation_count() + pred.annotation_count()
            relations = sum(a.label == "REL" for c in (gold, pred) for d in c.values() for a in d.annotations)
            g_dir, p_dir = folder / f"gold{n}", folder / f"pred{n}"
            write_mat_json(gold, g_dir)
            write_mat_json(pred, p_dir)
            expected = accord.score(gold, pred, task=task).to_dict()["totals"]
            del gold, pred
            seconds, cpu, peak_mib, out = run_command(g_dir, p_dir, task_path, args.repeat, env)
            got = out["totals"]
            assert {k: got[k] for k in ("gold", "pred", "match", "gold_clash", "pred_clash", "missing", "spurious")} \
                == {k: expected[k] for k in ("gold", "pred", "match", "gold_clash", "pred_clash", "missing",
                                             "spurious")}, (got, expected)
            assert got["match"] + got["gold_clash"] + got["missing"] == got["gold"]
            assert got["match"] + got["pred_clash"] + got["spurious"] == got["pred"]
            per_million = seconds / total * 1e6
            rows.append((total, seconds))
            verdict = "ok" if per_million <= GOAL_PER_MILLION_S else "MISSES the goal"
            print(f"{total:>9,} annotations ({relations / total:.0%} relations, {len(list(g_dir.iterdir())):,} "
                  f"documents a side): accord score {seconds:6.2f} s ({cpu:6.2f} s CPU), {per_million:5.2f} s per "
                  f"million ({cpu / total * 1e6:5.2f} s CPU), peak memory {peak_mib:,.0f} MiB   {verdict}")
    for (n0, t0), (n1, t1) in zip(rows, rows[1:]):
        print(f"growth {n0:,} -> {n1:,} annotations ({n1 / n0:.2f}x): {t1 / t0:.2f}x the time")


if __name__ == "__main__":
    main()
