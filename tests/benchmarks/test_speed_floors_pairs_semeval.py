"""Regression guard of issue 41 (rows: the MAT task with relations, the SemEval schemas against nervaluate): CI-sized
runs, in process, that fail when accord falls far below what ``benchmarks/`` measures, so that a slowdown is seen
in the change that makes it.

Each figure is a ratio measured in this run on this machine (the best of a few repeats of each side, CPU time), so a
loaded or slow machine moves both sides: the SemEval schemas against nervaluate's ``Evaluator`` on the same spans
(``benchmarks/bench_nervaluate.py`` measures the whole commands; goal 3x, in process accord is much faster still),
and the MAT engine, which has no peer in Python, against a plain Python scorer of the same annotations (a dict of
(document, start, end, label) keys: the least any scorer does per annotation). The floors are far under the figures
measured when they were set (see each test), so that only a real slowdown fails them.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

from ._timing import benchmark_module, best_time


@pytest.fixture(scope="module")
def bench_modules():
    return benchmark_module("bench_seqeval"), benchmark_module("bench_mat")


SEMEVAL_FLOOR = 8.0
"""In process, 30,000 tokens: accord's four schemas (pairing and the result's tables) were 19x nervaluate's
``evaluate()`` when this floor was set (2026-11-26, a loaded 2-core machine), 5x before the blocks were paired at
once (which this floor fails)."""


def test_semeval_schemas_stay_well_ahead_of_nervaluate(bench_modules):
    from nervaluate import Evaluator

    from accord.semeval import semeval_schemas
    from accord.semeval._result import semeval_result

    bench_seqeval, _ = bench_modules
    gold_tags, pred_tags = bench_seqeval.generate(30_000)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gold, pred = (tags_corpus(t) for t in (gold_tags, pred_tags))
    labels = sorted({t[2:] for s in gold_tags + pred_tags for t in s if t != "O"})

    def ours():
        semeval_result(semeval_schemas(gold, pred))

    def theirs():
        Evaluator(gold_tags, pred_tags, tags=labels, loader="list").evaluate()

    ours()   # imports and first-call costs out of the timing
    got = semeval_schemas(gold, pred).counts("strict")
    strict = Evaluator(gold_tags, pred_tags, tags=labels, loader="list").evaluate()["overall"]["strict"]
    assert (got.correct, got.possible, got.actual) == (strict.correct, strict.possible, strict.actual)
    ratio = best_time(theirs) / best_time(ours)
    assert ratio >= SEMEVAL_FLOOR, f"SemEval schemas only {ratio:.1f}x nervaluate (floor {SEMEVAL_FLOOR}x)"


def tags_corpus(sentences):
    """A corpus of one document per 50 sentences from IOB2 tag lists, read as accord reads a column file."""
    import tempfile

    from accord.formats import read

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "tags.conll"
        with path.open("w", encoding="utf-8") as fh:
            for d in range(0, len(sentences), 50):
                fh.write("-DOCSTART- O\n\n")
                for s in sentences[d:d + 50]:
                    fh.write("".join(f"w{i} {t}\n" for i, t in enumerate(s)) + "\n")
        return read(path)


MAT_CEILING = 80.0
"""The MAT engine with relations (20,000 annotations, the corpus of ``benchmarks/bench_mat.py``): validation,
pairing and tally took 41x the plain dict scorer when this ceiling was set (2026-11-26)."""


def test_mat_task_with_relations_stays_within_a_multiple_of_a_plain_scorer(bench_modules):
    import accord
    from accord.model.schema import parse_task

    _, bench_mat = bench_modules
    gold, pred = bench_mat.generate(20_000, 200)
    task = parse_task(bench_mat.TASK)

    def ours():
        accord.score(gold, pred, task=task)

    def plain():
        keys = {}
        for doc_id, doc in gold.items():
            for a in doc.annotations:
                key = (doc_id, a.start, a.end, a.label)
                keys[key] = keys.get(key, 0) + 1
        hits = 0
        for doc_id, doc in pred.items():
            for a in doc.annotations:
                key = (doc_id, a.start, a.end, a.label)
                if keys.get(key, 0):
                    keys[key] -= 1
                    hits += 1
        return hits

    ours()
    totals = accord.score(gold, pred, task=task).to_dict()["totals"]
    assert totals["match"] + totals["gold_clash"] + totals["missing"] == totals["gold"] == gold.annotation_count()
    multiple = best_time(ours) / best_time(plain)
    assert multiple <= MAT_CEILING, f"the MAT engine took {multiple:.0f}x a plain scorer (ceiling {MAT_CEILING}x)"
    assert np.isfinite(multiple)
