"""Blocks of one span on a side (a gold span overlapped by several predicted ones, or the reverse), paired for all
blocks at once: the counts equal those of each block paired on its own by scipy's Kuhn-Munkres on the module's
weights (written out here), with ties among the overlapping spans."""

import numpy as np
import pytest
from scipy.optimize import linear_sum_assignment

from accord.match.assign import _tie_breaker
from accord.model import Corpus, Document, make_annotation
from accord.semeval import SCHEMAS, semeval_schemas

CORRECT, INCORRECT, PARTIAL, MISSED = range(4)


def reference(gold_spans, pred_spans):
    """Counts (COR, INC, PAR, MIS, SPU) of each schema: blocks of overlapping spans found pair by pair, each
    paired by scipy on the weights the module documents (correct first, then pairs, then the larger overlap)."""
    spans = [("g", k, s) for k, s in enumerate(gold_spans)] + [("p", k, s) for k, s in enumerate(pred_spans)]
    parent = list(range(len(spans)))

    def root(i):
        while parent[i] != i:
            i = parent[i]
        return i
    for i, (_, _, (_, a0, a1)) in enumerate(spans):
        for j, (_, _, (_, b0, b1)) in enumerate(spans[:i]):
            if a0 < b1 and b0 < a1:
                parent[root(i)] = root(j)
    blocks = {}
    for i, (side, k, _) in enumerate(spans):
        blocks.setdefault(root(i), ([], []))[0 if side == "g" else 1].append(k)
    out = {}
    for schema in SCHEMAS:
        gold_out = [MISSED] * len(gold_spans)
        pred_out = [MISSED] * len(pred_spans)
        for bg, bp in blocks.values():
            if not bg or not bp:
                continue
            big = float(min(len(bg), len(bp)) + 1)
            w = np.zeros((len(bg), len(bp)))
            for x, i in enumerate(bg):
                gl, gs, ge = gold_spans[i]
                for y, j in enumerate(bp):
                    pl, ps, pe = pred_spans[j]
                    over = min(ge, pe) - max(gs, ps)
                    if over <= 0:
                        continue
                    same_bounds, same_label = (gs, ge) == (ps, pe), gl == pl
                    correct = {"strict": same_bounds and same_label, "exact": same_bounds,
                               "partial": same_bounds, "type": same_label}[schema]
                    w[x, y] = 1.0 + big * correct + over / (max(ge, pe) - min(gs, ps)) / (2 * big)
            rows, cols = linear_sum_assignment(w + _tie_breaker(w), maximize=True)
            for x, y in zip(rows, cols):
                if w[x, y] <= 0:
                    continue
                i, j = bg[x], bp[y]
                (gl, gs, ge), (pl, ps, pe) = gold_spans[i], pred_spans[j]
                ok = {"strict": (gs, ge) == (ps, pe) and gl == pl, "exact": (gs, ge) == (ps, pe),
                      "partial": (gs, ge) == (ps, pe), "type": gl == pl}[schema]
                value = CORRECT if ok else (PARTIAL if schema == "partial" else INCORRECT)
                gold_out[i] = pred_out[j] = value
        out[schema] = (gold_out.count(CORRECT), gold_out.count(INCORRECT), gold_out.count(PARTIAL),
                       gold_out.count(MISSED), pred_out.count(MISSED))
    return out


def random_star_document(rng, n=30):
    """Gold spans with predicted spans around them: one, two or three predictions in one gold span (equal halves
    make ties), or one prediction over two gold spans."""
    labels = ["PER", "LOC", "ORG"]
    gold, pred, at = [], [], 0
    for _ in range(n):
        label = labels[int(rng.integers(3))]
        other = labels[int(rng.integers(3))]
        kind = int(rng.integers(5))
        if kind == 0:       # exact or relabelled
            gold.append((label, at, at + 4))
            pred.append((other, at, at + 4))
        elif kind == 1:     # two equal halves: tied overlaps
            gold.append((label, at, at + 4))
            pred += [(other, at, at + 2), (label, at + 2, at + 4)]
        elif kind == 2:     # three pieces of different sizes
            gold.append((label, at, at + 6))
            pred += [(label, at, at + 1), (other, at + 1, at + 4), (label, at + 4, at + 6)]
        elif kind == 3:     # one prediction over two gold spans
            gold += [(label, at, at + 2), (other, at + 2, at + 4)]
            pred.append((label, at, at + 4))
        else:               # a miss and a false alarm
            gold.append((label, at, at + 3))
            pred.append((other, at + 5, at + 6))
        at += 8
    return gold, pred


@pytest.mark.parametrize("seed", range(5))
def test_star_blocks_equal_kuhn_munkres_block_by_block(seed):
    rng = np.random.default_rng(seed)
    docs = [random_star_document(rng) for _ in range(6)]
    gold = Corpus([Document(str(d), tuple(make_annotation(*s) for s in g), "x" * 400)
                   for d, (g, _) in enumerate(docs)])
    pred = Corpus([Document(str(d), tuple(make_annotation(*s) for s in p), "x" * 400)
                   for d, (_, p) in enumerate(docs)])
    ours = semeval_schemas(gold, pred)
    expected = {schema: np.zeros(5, dtype=int) for schema in SCHEMAS}
    for g, p in docs:
        for schema, counts in reference(g, p).items():
            expected[schema] += counts
    for schema in SCHEMAS:
        c = ours.counts(schema)
        assert (c.correct, c.incorrect, c.partial, c.missed, c.spurious) == tuple(expected[schema]), schema
