"""Which sentence each item counts in: hand-placed cases."""

from __future__ import annotations

import numpy as np

from accord.model import Document
from accord.result._sentence_units import SentenceIndex


def test_items_counted_in_the_sentence_they_start_in():
    # document 0: sentences at tokens 0, 4, 9; document 1: none (one sentence); document 2: the gold side has none,
    # the prediction has sentences at 0 and 3, which do not count: every system scored against this gold standard
    # must be cut into the same units
    d0 = Document("a", tokens=tuple("x" * 12), sentences=((0, 4), (4, 9), (9, 12)))
    d1 = Document("b", tokens=tuple("x" * 5))
    d2g = Document("c", tokens=tuple("x" * 6))
    d2p = Document("c", tokens=tuple("x" * 6), sentences=((0, 3), (3, 6)))
    index = SentenceIndex([(d0, d0), (d1, None), (d2g, d2p)])
    assert index.known and index.sizes.tolist() == [3, 1, 1]
    doc = np.array([0, 0, 0, 0, 0, 1, 1, 2, 2, 2])
    start = np.array([0, 3, 4, 11, -1, 0, 4, 0, 2, 5])
    #                 s0 s0 s1 s2  none->s0 | b: one sentence (3) | c: one sentence (4)
    assert index.units(doc, start).tolist() == [0, 0, 1, 2, 0, 3, 3, 4, 4, 4]


def test_a_gold_side_without_sentences_does_not_know_them():
    text = Document("a", text="Some text. More text.")
    pred = Document("a", tokens=("Some", "text", "."), sentences=((0, 3),))
    index = SentenceIndex([(text, pred), (None, pred)])
    assert not index.known and index.sizes.tolist() == [1, 1]


def test_an_item_before_the_first_sentence_counts_in_the_first():
    d = Document("a", tokens=tuple("x" * 10), sentences=((2, 5), (5, 10)))
    other = Document("b", tokens=tuple("x" * 3), sentences=((0, 3),))
    index = SentenceIndex([(other, other), (d, d)])
    assert index.units(np.array([1, 1, 1]), np.array([0, 2, 7])).tolist() == [1, 1, 2]
    assert index.units(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)).tolist() == []
