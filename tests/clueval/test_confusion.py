"""The span confusion matrix against a count over every pair of spans."""

from collections import Counter

import numpy as np
import pytest

from accord.clueval import evaluate_spans, span_confusion
from accord.formats import read
from accord.model import Corpus, Document, make_annotation

from ..conftest import DATA


def brute_force(gold: Corpus, pred: Corpus) -> Counter:
    """Every (gold, predicted) pair of one document that shares a token, and the spans that meet none."""
    out: Counter = Counter()
    for doc_id, g in gold.items():
        p = pred[doc_id]
        met_pred = set()
        for a in g.annotations:
            met = False
            for k, b in enumerate(p.annotations):
                if a.start < b.end and b.start < a.end:
                    out[(a.label, b.label)] += 1
                    met = True
                    met_pred.add(k)
            if not met:
                out[(a.label, "none")] += 1
        for k, b in enumerate(p.annotations):
            if k not in met_pred:
                out[("none", b.label)] += 1
    return out


def as_counter(confusion) -> Counter:
    names = confusion.labels + ("none",)
    return Counter({(g, p): int(n) for (i, g) in enumerate(names) for (j, p) in enumerate(names)
                    if (n := confusion.counts[i, j])})


def test_a_hand_counted_sentence():
    # gold: LOC over 0-3, PER 5-6, ORG 7-8; predicted: LOC 0-1, ORG 1-3 (both inside the gold LOC), PER 9-10
    gold = Corpus([Document("d", (make_annotation("LOC", 0, 3), make_annotation("PER", 5, 6),
                                  make_annotation("ORG", 7, 8)), tokens=tuple("abcdefghij"))])
    pred = Corpus([Document("d", (make_annotation("LOC", 0, 1), make_annotation("ORG", 1, 3),
                                  make_annotation("PER", 9, 10)), tokens=tuple("abcdefghij"))])
    confusion = span_confusion(evaluate_spans(gold, pred))
    assert confusion.labels == ("LOC", "ORG", "PER")
    assert confusion.to_dict() == {"LOC": {"LOC": 1, "ORG": 1}, "ORG": {"none": 1}, "PER": {"none": 1},
                                   "none": {"PER": 1}}
    assert confusion.counts.shape == (4, 4) and confusion.counts.sum() == 5


def test_conll03_equals_a_count_over_all_pairs(recwarn):
    gold = read(DATA / "conll03" / "gold.conll")
    pred = read(DATA / "conll03" / "xlm_flert.conll")
    confusion = span_confusion(evaluate_spans(gold, pred))
    assert as_counter(confusion) == brute_force(gold, pred)
    names = confusion.labels + ("none",)
    # the none column of a label plus its overlapping pairs cover every gold span of the label at least once
    gold_per_label = Counter(a.label for d in gold.values() for a in d.annotations)
    for i, label in enumerate(names[:-1]):
        assert confusion.counts[i].sum() >= gold_per_label[label]
    assert confusion.counts[-1, -1] == 0


@pytest.mark.parametrize("seed", range(5))
def test_random_disjoint_spans_equal_the_pair_count(seed):
    rng = np.random.default_rng(seed)

    def spans(n_tokens):
        cuts = np.sort(rng.choice(np.arange(1, n_tokens), size=rng.integers(0, 12), replace=False)).tolist()
        bounds = [0] + cuts + [n_tokens]
        return tuple(make_annotation(str(rng.choice(["A", "B", "C"])), a, b)
                     for a, b in zip(bounds, bounds[1:]) if rng.random() < 0.6)

    docs_g, docs_p = [], []
    for k in range(6):
        tokens = tuple("t" for _ in range(30))
        docs_g.append(Document(f"d{k}", spans(30), tokens=tokens))
        docs_p.append(Document(f"d{k}", spans(30), tokens=tokens))
    gold, pred = Corpus(docs_g), Corpus(docs_p)
    assert as_counter(span_confusion(evaluate_spans(gold, pred))) == brute_force(gold, pred)
