"""Counts by sentence: they add up to their documents and follow every reordering and addition of tables."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import accord
from accord.errors import TallyError
from accord.result import ALL, CountTable, PairsKind, SentenceCounts

from .commands import CONLL_GOLD, CONLL_PRED


def _table(documents, sizes, cells, rows=(ALL, ("label", "PER"))):
    """A table from sentence cells ``(unit, row, field, value)``; its document counts are their sums."""
    unit, row, field, value = (np.array(x, dtype=np.int64) for x in zip(*cells))
    sc = SentenceCounts.from_items(np.array(sizes), unit, row, field, value, len(rows), 5)
    values = sc.per_document(len(rows), 5, np.int64)
    return CountTable(PairsKind.fields, tuple(documents), tuple(rows), values, sc)


def test_from_items_sums_repeated_cells_and_drops_zeros():
    sc = SentenceCounts.from_items(np.array([2]), np.array([0, 0, 1, 1]), np.array([0, 0, 0, 0]),
                                   np.array([3, 3, 0, 0]), np.array([1.0, 2.0, 1.0, -1.0]), 1, 5)
    assert list(zip(sc.unit.tolist(), sc.row.tolist(), sc.field.tolist(), sc.value.tolist())) == [(0, 0, 3, 3)]


def test_sentences_must_add_up_to_their_documents():
    t = _table(["a"], [2], [(0, 0, 0, 1), (1, 0, 3, 2)])
    with pytest.raises(TallyError, match="add up"):
        CountTable(t.fields, t.documents, t.rows, t.values + 1, t.sentences)
    with pytest.raises(TallyError, match="one or more sentences"):
        CountTable(t.fields, t.documents, t.rows, t.values, SentenceCounts(np.array([0]), *(np.zeros(0, dtype=np.int64),) * 4))


def test_take_and_add_carry_the_sentences():
    a = _table(["a", "b"], [2, 1], [(0, 0, 0, 1), (1, 1, 3, 2), (1, 0, 3, 2), (2, 0, 4, 5)])
    b = _table(["c"], [3], [(2, 0, 0, 7)], rows=(ALL,))
    taken = a.take(["b", "a"])
    assert taken.sentences.sizes.tolist() == [1, 2]
    # document b's one sentence first, then a's two, renumbered
    assert sorted(zip(taken.sentences.unit.tolist(), taken.sentences.value.tolist())) == [(0, 5), (1, 1), (2, 2), (2, 2)]
    both = a + b
    assert both.sentences.sizes.tolist() == [2, 1, 3] and both.sentences.n_units == 6
    assert both.sentences.unit[both.sentences.value == 7].tolist() == [5]
    assert CountTable.concat([a, b]).sentences.n_units == 6
    without = CountTable(b.fields, ("d",), b.rows, b.values[:1] * 0)
    assert (a + without).sentences is None      # a table without sentences: documents only


def test_conll_sentences_hold_every_item_of_their_documents():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for match in ("pairs", "clueval", "semeval"):
            result = accord.score(CONLL_GOLD, CONLL_PRED, match=match)
            for m in result.measures.values():
                sc = m.table.sentences
                # CoNLL-2003 test: 231 -DOCSTART- lines; 3,684 blank lines, 231 of them after a -DOCSTART-: 3,453 sentences
                assert (len(m.table.documents), sc.n_units) == (231, 3453)
                assert np.array_equal(sc.per_document(len(m.table.rows), len(m.table.fields), np.int64),
                                      m.table.values)


def test_sharded_scoring_keeps_the_same_sentences():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        serial = accord.score(CONLL_GOLD, CONLL_PRED).main.table.sentences
        sharded = accord.score(CONLL_GOLD, CONLL_PRED, jobs=2, shard_size=200_000).main.table.sentences
    assert np.array_equal(serial.sizes, sharded.sizes)
    key = lambda s: sorted(zip(s.unit.tolist(), s.row.tolist(), s.field.tolist(), s.value.tolist()))  # noqa: E731
    assert key(serial) == key(sharded)
