"""SemEval-2013 schemas against nervaluate (run here), hand counts, and label rows that add up."""

from pathlib import Path

import numpy as np
import pytest
from nervaluate import Evaluator

from accord.formats import read
from accord.model import Corpus, Document, make_annotation
from accord.semeval import SCHEMAS, semeval_schemas

DATA = Path(__file__).parents[1] / "data"
NERVALUATE = {"strict": "strict", "exact": "exact", "partial": "partial", "type": "ent_type"}


def corpus(*docs):
    return Corpus([Document(str(i), tuple(make_annotation(l, s, e) for l, s, e in spans),
                            tokens=tuple(f"t{k}" for k in range(n))) for i, (n, spans) in enumerate(docs)])


def nervaluate(gold, pred, labels):
    def spans(c):   # nervaluate's ends are inclusive
        return [[{"label": a.label, "start": a.start, "end": a.end - 1} for a in d.annotations] for d in c.values()]
    return Evaluator(spans(gold), spans(pred), tags=sorted(labels), loader="dict").evaluate()


def same(ours, theirs):
    return ((ours.correct, ours.incorrect, ours.partial, ours.missed, ours.spurious, ours.possible, ours.actual)
            == (theirs.correct, theirs.incorrect, theirs.partial, theirs.missed, theirs.spurious, theirs.possible,
                theirs.actual)) and ours.rates()[:2] == pytest.approx((theirs.precision, theirs.recall), abs=1e-12)


def test_conll03_equals_nervaluate_where_greedy_is_optimal():
    gold = read(DATA / "conll03" / "gold.conll")
    pred = read(DATA / "conll03" / "xlm_flert.conll")
    ours = semeval_schemas(gold, pred)
    theirs = nervaluate(gold, pred, ["LOC", "MISC", "ORG", "PER"])["overall"]
    for schema in ("strict", "exact", "partial"):
        assert same(ours.counts(schema), theirs[NERVALUATE[schema]]), schema
    # type: nervaluate takes the first overlapping gold span for each prediction; the optimal pairing finds
    # more same-label pairs, never fewer, and the totals are the same
    t, n = ours.counts("type"), theirs["ent_type"]
    assert t.correct >= n.correct and t.possible == n.possible and t.actual == n.actual
    assert (t.correct, n.correct) == (5411, 5406)


def random_corpus(rng, labels, cross_label=True, n_docs=20):
    gold_docs, pred_docs = [], []
    for _ in range(n_docs):
        gold, pred, at = [], [], 0
        while at < 80:
            length = int(rng.integers(1, 4))
            label = labels[int(rng.integers(len(labels)))]
            kind = rng.random()
            if kind < 0.5:
                gold.append((label, at, at + length))
                pred.append((label if (not cross_label or rng.random() < 0.7) else
                             labels[int(rng.integers(len(labels)))], at, at + length))
            elif kind < 0.7:    # boundary error: one block of one gold and one predicted span
                gold.append((label, at, at + length))
                pred.append((label if not cross_label or rng.random() < 0.5 else labels[0], at,
                             at + length + 1))
            elif kind < 0.85:
                gold.append((label, at, at + length))
            else:
                pred.append((label, at, at + length))
            at += length + 2
        gold_docs.append((90, gold))
        pred_docs.append((90, pred))
    return corpus(*gold_docs), corpus(*pred_docs)


def test_random_one_to_one_blocks_equal_nervaluate_in_every_schema():
    rng = np.random.default_rng(5)
    labels = ["LOC", "ORG", "PER"]
    for _ in range(5):
        gold, pred = random_corpus(rng, labels)
        ours = semeval_schemas(gold, pred)
        theirs = nervaluate(gold, pred, labels)["overall"]
        for schema in SCHEMAS:
            assert same(ours.counts(schema), theirs[NERVALUATE[schema]]), schema


def test_label_rows_equal_nervaluate_without_cross_label_overlaps_and_always_add_up():
    rng = np.random.default_rng(8)
    labels = ["LOC", "ORG", "PER"]
    gold, pred = random_corpus(rng, labels, cross_label=False)
    ours = semeval_schemas(gold, pred)
    theirs = nervaluate(gold, pred, labels)["entities"]
    for schema in SCHEMAS:
        for label, counts in ours.counts(schema, "label").items():
            assert same(counts, theirs[label][NERVALUATE[schema]]), (schema, label)
    gold, pred = random_corpus(rng, labels, cross_label=True)
    ours = semeval_schemas(gold, pred)
    fields = ("correct", "incorrect", "partial", "missed", "correct_act", "incorrect_act", "partial_act", "spurious")
    for schema in SCHEMAS:
        total = ours.counts(schema)
        for by in ("label", "document"):
            rows = ours.counts(schema, by).values()
            assert all(sum(getattr(r, f) for r in rows) == getattr(total, f) for f in fields), (schema, by)


def test_optimal_pairing_where_nervaluate_is_order_dependent():
    # gold PER [0,2); predicted PER [0,3) then PER [0,2) (nested predictions)
    gold = corpus((5, [("PER", 0, 2)]))
    pred = corpus((5, [("PER", 0, 3), ("PER", 0, 2)]))
    strict = semeval_schemas(gold, pred).counts("strict")
    # optimal: the exact prediction is correct, the longer one spurious
    assert (strict.correct, strict.incorrect, strict.spurious) == (1, 0, 1)
    theirs = nervaluate(gold, pred, ["PER"])["overall"]["strict"]
    # nervaluate pairs the first prediction it meets: incorrect, then the exact one finds its gold span taken
    assert (theirs.correct, theirs.incorrect, theirs.spurious) == (0, 1, 1)
    reversed_order = nervaluate(gold, corpus((5, [("PER", 0, 2), ("PER", 0, 3)])), ["PER"])["overall"]["strict"]
    assert (reversed_order.correct, reversed_order.spurious) == (1, 1)


def test_hand_counted_schemas_and_half_credit():
    # gold: PER[0,2) LOC[3,5) ORG[6,8) MISC[9,10); pred: PER[0,2) ORG[3,5) ORG[6,9) PER[11,12)
    gold = corpus((12, [("PER", 0, 2), ("LOC", 3, 5), ("ORG", 6, 8), ("MISC", 9, 10)]))
    pred = corpus((12, [("PER", 0, 2), ("ORG", 3, 5), ("ORG", 6, 9), ("PER", 11, 12)]))
    r = semeval_schemas(gold, pred)
    got = {s: (c.correct, c.incorrect, c.partial, c.missed, c.spurious) for s, c in
           ((s, r.counts(s)) for s in SCHEMAS)}
    assert got == {"strict": (1, 2, 0, 1, 1), "exact": (2, 1, 0, 1, 1), "partial": (2, 0, 1, 1, 1),
                   "type": (2, 1, 0, 1, 1)}
    p, rec, _ = r.counts("partial").rates()
    assert (p, rec) == ((2 + 0.5) / 4, (2 + 0.5) / 4)
    by_label = r.counts("exact", "label")
    # the LOC gold span predicted as ORG with the same boundaries: correct on LOC's POS, on ORG's ACT
    assert (by_label["LOC"].correct, by_label["LOC"].correct_act) == (1, 0)
    assert (by_label["ORG"].correct, by_label["ORG"].correct_act) == (0, 1)
