"""Discontinuous spans (fragments) in the model and the pairing, and the batched exact pairing."""

import random

import numpy as np
import pytest

from accord.errors import AccordError
from accord.match.engine import Pairer
from accord.match.fragments import refine
from accord.match.similarity import LenientSimilarity, StrictSimilarity
from accord.model import Corpus, Document, make_annotation, normalize_fragments, overlap_length, same_extent, span_key


def test_pieces_are_sorted_and_joined_and_one_piece_is_contiguous():
    assert normalize_fragments([(9, 12), (0, 4)]) == ((0, 4), (9, 12))
    assert normalize_fragments([(0, 4), (4, 6), (5, 9)]) == ((0, 9),)
    a = make_annotation("PER", fragments=[(9, 12), (0, 4)])
    assert (a.start, a.end, a.fragments, a.pieces) == (0, 12, ((0, 4), (9, 12)), ((0, 4), (9, 12)))
    b = make_annotation("PER", 0, 9, fragments=[(0, 4), (4, 9)])
    assert b.fragments is None and b.pieces == ((0, 9),)
    with pytest.raises(AccordError, match="not the extent"):
        make_annotation("PER", 0, 20, fragments=[(0, 4), (9, 12)])
    with pytest.raises(AccordError, match="invalid fragment"):
        make_annotation("PER", fragments=[(5, 2)])
    assert repr(a) == "<PER [0,4;9,12)>"


def test_overlap_and_equality_on_pieces():
    a = make_annotation("X", fragments=[(0, 3), (8, 11)])
    hull = make_annotation("X", 0, 11)
    gap = make_annotation("X", 4, 7)
    assert overlap_length(a, hull) == 6 and overlap_length(a, gap) == 0 and overlap_length(hull, gap) == 3
    assert not same_extent(a, hull) and same_extent(a, make_annotation("Y", fragments=[(8, 11), (0, 3)]))
    assert span_key(a) != span_key(hull) and span_key(hull) == (0, 11)
    # refine: candidates found on extents, corrected on the pieces
    same, over = refine(np.array([0, 0]), np.array([0, 1]), np.array([True, False]), np.array([True, True]),
                        [a], [hull, gap])
    assert same.tolist() == [False, False] and over.tolist() == [True, False]


def _doc(anns, n=40):
    return Document("d", tuple(anns), "x" * n)


def test_strict_and_lenient_pair_on_pieces():
    g = [make_annotation("X", fragments=[(0, 3), (8, 11)]), make_annotation("X", fragments=[(20, 22), (30, 32)])]
    p = [make_annotation("X", fragments=[(0, 3), (8, 11)]), make_annotation("X", 20, 32),
         make_annotation("X", 24, 28)]   # inside the gap of gold's second span
    strict = Pairer(StrictSimilarity()).align_many([("d", _doc(g), _doc(p))])[0]
    assert [(x.gold, x.pred) for x in strict.pairs] == [(0, 0)]
    lenient = Pairer(LenientSimilarity()).align("d", _doc(g), _doc(p))
    assert sorted((x.gold, x.pred) for x in lenient.pairs) == [(0, 0), (1, 1)]


def _random_corpus(rng, n_docs, labels="ABC"):
    docs = []
    for d in range(n_docs):
        anns = []
        for _ in range(rng.randint(0, 12)):
            s = rng.randint(0, 30)
            if rng.random() < 0.2:
                anns.append(make_annotation(rng.choice(labels), fragments=[(s, s + 2), (s + 4, s + rng.randint(5, 8))]))
            else:
                anns.append(make_annotation(rng.choice(labels), s, s + rng.randint(0, 4)))
        docs.append(Document(f"d{d}", tuple(anns), "x" * 40))
    return Corpus(docs)


@pytest.mark.parametrize("seed", range(5))
def test_batched_exact_pairing_equals_pairing_each_document(seed):
    rng = random.Random(seed)
    gold, pred = _random_corpus(rng, 30), _random_corpus(rng, 30)
    triples = [(d.id, d, pred[d.id]) for d in gold.documents]
    pairer = Pairer(StrictSimilarity())
    batched = pairer.align_many(triples)
    for al, (doc_id, g, p) in zip(batched, triples):
        one = pairer.align(doc_id, g, p)
        assert al.gold_status.tolist() == one.gold_status.tolist()
        assert al.pred_status.tolist() == one.pred_status.tolist()
        assert sorted((x.gold, x.pred) for x in al.pairs) == sorted((x.gold, x.pred) for x in one.pairs)
        # and by hand: a pair only between equal (label, extent, pieces)
        for x in al.pairs:
            a, b = g.annotations[x.gold], p.annotations[x.pred]
            assert a.label == b.label and span_key(a) == span_key(b)
        # duplicates pair one to one: matches per key are the smaller of the two sides' counts
        keys_g = [(a.label, span_key(a)) for a in g.annotations]
        keys_p = [(a.label, span_key(a)) for a in p.annotations]
        assert len(al.pairs) == sum(min(keys_g.count(k), keys_p.count(k)) for k in set(keys_g))
