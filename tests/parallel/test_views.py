"""The report page's error rows kept as columns (:class:`accord.parallel._views.RowColumns`, issue 41): merged from
shards, they are the rows of CLUEval's evaluation of the whole corpus in one process, in its order, field by field."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from accord import read
from accord.clueval._browser import error_rows
from accord.clueval._evaluate import evaluate_spans
from accord.clueval._shard_views import shard_views
from accord.model import Corpus
from accord.parallel._views import LightRow, RowColumns, merge_views

ROOT = Path(__file__).resolve().parents[2]
CONLL03 = ROOT / "tests" / "data" / "conll03"


class _Shard:
    """What :func:`shard_views` reads of a shard's result: its corpora and options."""

    mode, source, options = "pairs", None, {}

    def __init__(self, gold: Corpus, pred: Corpus):
        self.corpora = (gold, pred)


def _fields(row) -> tuple:
    return (row.kind, row.klass, row.document, row.start, row.end, row.label, tuple(row.context))


def test_rows_from_shards_are_the_whole_corpus_rows():
    """The real CoNLL-2003 test set and system output cut into 5 shards of documents: the merged columns give
    every ErrorRow of the whole evaluation (the page of one process) in the same order, as integers and names."""
    gold = read(CONLL03 / "gold.conll")
    pred = read(CONLL03 / "xlm_flert.conll")
    whole = error_rows(evaluate_spans(gold, pred))
    assert len(whole) > 500
    ids = list(gold)
    cuts = np.array_split(np.arange(len(ids)), 5)
    parts = [shard_views(_Shard(Corpus([gold[ids[k]] for k in cut]), Corpus([pred[ids[k]] for k in cut])), 1, True)
             for cut in reversed(cuts)]     # (shards given out of order: the documents' order decides)
    merged = merge_views(parts, ids)
    assert not isinstance(merged, str)
    assert isinstance(merged.rows, RowColumns)
    assert [_fields(r) for r in merged.rows] == [_fields(r) for r in whole]
    assert _fields(merged.rows[7]) == _fields(whole[7]) and isinstance(merged.rows[7], LightRow)
    assert merged.rows.start.dtype == np.int32     # positions of a document fit 32 bits


def test_rows_equal_in_every_key_keep_their_order():
    """Two rows of one document, start, end and kind (two gold spans of one extent, different labels) keep the
    order they had (the page's sort is stable), also when they come from two parts."""
    rows = [LightRow("FN", "FN", "d1", 3, 5, "PER", (0, 9)), LightRow("FN", "exact", "d1", 3, 5, "LOC", (0, 9)),
            LightRow("FP", "FP", "d0", 1, 2, "ORG", (0, 4)), LightRow("FN", "FN", "d0", 1, 4, "ORG", (0, 4))]
    joined = RowColumns.join([RowColumns.of(rows[:1]), RowColumns.of(rows[1:])], {"d0": 0, "d1": 1})
    assert [r.label for r in joined] == ["ORG", "ORG", "PER", "LOC"]
    assert [r.kind for r in joined] == ["FN", "FP", "FN", "FN"]        # d0: the longer span (1, 4) first
    assert len(RowColumns.join([], {})) == 0 and list(RowColumns.of(())) == []
