"""Fuzz: any tag lists (invalid transitions, letters of other schemes, empty sentences) cut into any batches, counted
by several workers whose states are pickled and merged, give exactly accord.score's result on them all; as ids with
ignored positions too. Refusals are AccordErrors (one line), never another exception."""

from __future__ import annotations

import os
import pickle
import warnings

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord.errors import AccordError

FULL = os.environ.get("ACCORD_FULL") == "1"
_EXAMPLES = settings(max_examples=500 if FULL else 60, deadline=None, derandomize=not FULL)

TAGS = ["O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "E-LOC", "S-PER", "I-ORG"]
sentences = st.lists(st.lists(st.sampled_from(TAGS), max_size=6), min_size=1, max_size=14)


def _json(result):
    out = result.to_dict()
    out.pop("generator")
    return out


def _cuts(n, data):
    cuts = sorted(set(data.draw(st.lists(st.integers(0, n), max_size=6))) | {0, n})
    return list(zip(cuts, cuts[1:]))


def _counted(gold, pred, data, **options):
    parts = _cuts(len(gold), data)
    split = data.draw(st.integers(0, len(parts)))
    workers = [accord.Accumulator(**options), accord.Accumulator(**options)]
    for w, chunk in zip(workers, (parts[:split], parts[split:])):
        for a, b in chunk:
            w.update(gold[a:b], pred[a:b])
    first, second = (pickle.loads(pickle.dumps(w)) for w in workers)
    return first.merge(second).compute()


@_EXAMPLES
@given(sentences, st.data(), st.sampled_from([{}, {"scheme": "IOBES"}, {"repair": "discard"}, {"scheme": "IO"}]))
def test_any_batches_equal_score_on_the_whole(gold, data, options):
    pred = [data.draw(st.lists(st.sampled_from(TAGS), min_size=len(s), max_size=len(s))) for s in gold]
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        try:
            whole = accord.score(gold, pred, **options)
        except AccordError as exc:
            expected_error = exc
        else:
            expected_error = None
        try:
            result = _counted(gold, pred, data, **options)
        except AccordError as exc:
            assert expected_error is not None, exc
            assert "\n" not in str(exc)
            return
    assert expected_error is None, expected_error
    assert _json(result) == _json(whole)
    a, b = result.main.table.sentences, whole.main.table.sentences
    for name in ("sizes", "unit", "row", "field", "value"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name


NAMES = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]


@_EXAMPLES
@given(st.lists(st.lists(st.integers(-1, len(NAMES) - 1), min_size=1, max_size=6), min_size=1, max_size=10),
       st.data())
def test_ids_with_ignored_positions(rows, data):
    """-1 stands for -100: the positions the accumulator leaves out; the expected result scores the words kept."""
    width = max(map(len, rows))
    gold = np.full((len(rows), width), -100, dtype=np.int64)
    for r, row in enumerate(rows):
        gold[r, :len(row)] = [-100 if v < 0 else v for v in row]
    pred = np.asarray(data.draw(st.lists(st.integers(0, len(NAMES) - 1), min_size=gold.size, max_size=gold.size)),
                      dtype=np.int64).reshape(gold.shape)
    words_gold = [[NAMES[v] for v in g if v != -100] for g in gold.tolist()]
    words_pred = [[NAMES[p] for g, p in zip(gr, pr) if g != -100] for gr, pr in zip(gold.tolist(), pred.tolist())]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        whole = accord.score(words_gold, words_pred)
        result = _counted(gold, pred, data, label_names=NAMES)
    assert _json(result) == _json(whole)
