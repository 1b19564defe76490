"""Fuzz: the accumulator of every other mode. Any tag lists (invalid transitions, letters of other schemes, empty
sentences) cut into any batches and blocks of any size, counted by two workers whose states are pickled and merged,
give exactly accord.score's result (JSON, counts by sentence, repairs and warnings) under the lenient and MAT
profiles, SemEval and CLUEval; any coreference documents in any batches give accord.coref's result; any ratings in
any batches give accord.agree's on the whole table. Refusals are AccordErrors (one line), never another exception."""

from __future__ import annotations

import csv
import json
import os
import pickle
import tempfile
import warnings
from pathlib import Path
from unittest import mock

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord.accumulate import _accumulator
from accord.accumulate._batched import RATINGS_SOURCE
from accord.errors import AccordError

FULL = os.environ.get("ACCORD_FULL") == "1"
_EXAMPLES = settings(max_examples=400 if FULL else 40, deadline=None, derandomize=not FULL)

TAGS = ["O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "E-LOC", "S-PER", "I-ORG"]
sentences = st.lists(st.lists(st.sampled_from(TAGS), max_size=6), min_size=1, max_size=14)
OPTIONS = [{"profile": "lenient"}, {"profile": "mat"}, {"match": "semeval"}, {"match": "clueval"},
           {"match": "clueval", "leniency": 4, "labelled": False}, {"profile": "lenient", "scheme": "IOBES"},
           {"match": "semeval", "repair": "discard"}, {"profile": "lenient", "labels": ["PER"]},
           {"profile": "mat", "repair": "error"}]


def _json(result):
    out = result.to_dict()
    out.pop("generator", None)
    return out


def _cuts(n, data):
    cuts = sorted(set(data.draw(st.lists(st.integers(0, n), max_size=6))) | {0, n})
    return list(zip(cuts, cuts[1:]))


def _score_options(options, gold, pred):
    out = dict(options)
    labels = out.pop("labels", None)
    if labels is not None:      # the types outside labels: ignored
        types = {t[2:] for s in gold + pred for t in s if t != "O"}
        out["ignore"] = sorted(types - set(labels))
    return out


@_EXAMPLES
@given(sentences, st.data(), st.sampled_from(OPTIONS), st.integers(1, 40))
def test_span_modes_any_batches_equal_score_on_the_whole(gold, data, options, flush):
    pred = [data.draw(st.lists(st.sampled_from(TAGS), min_size=len(s), max_size=len(s))) for s in gold]
    with warnings.catch_warnings(record=True) as expected_warnings:
        warnings.simplefilter("always")
        try:
            whole = accord.score(gold, pred, **_score_options(options, gold, pred))
        except AccordError as exc:
            expected_error = exc
        else:
            expected_error = None
    parts = _cuts(len(gold), data)
    split = data.draw(st.integers(0, len(parts)))
    with mock.patch.object(_accumulator, "FLUSH_SIZE", flush), warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        try:
            workers = [accord.Accumulator(**options), accord.Accumulator(**options)]
            for w, chunk in zip(workers, (parts[:split], parts[split:])):
                for a, b in chunk:
                    w.update(gold[a:b], pred[a:b])
            first, second = (pickle.loads(pickle.dumps(w)) for w in workers)
            result = first.merge(second).compute()
        except AccordError as exc:
            assert expected_error is not None, exc
            assert "\n" not in str(exc)
            return
    assert expected_error is None, expected_error
    assert _json(result) == _json(whole)
    assert sorted(str(w.message) for w in got) == sorted(str(w.message) for w in expected_warnings)
    for name, m in whole.measures.items():
        a, b = result.measures[name].table.sentences, m.table.sentences
        for field in ("sizes", "unit", "row", "field", "value"):
            assert np.array_equal(getattr(a, field), getattr(b, field)), (name, field)


spans = st.tuples(st.integers(0, 12), st.integers(0, 3)).map(lambda x: [x[0], x[0] + x[1]])
entities = st.lists(st.lists(spans, min_size=1, max_size=3), max_size=4)


@_EXAMPLES
@given(st.lists(st.tuples(entities, entities), min_size=1, max_size=8), st.data())
def test_coref_any_batches_equal_coref_on_the_whole(documents, data):
    key = {f"d{k}": g for k, (g, _) in enumerate(documents)}
    response = {f"d{k}": r for k, (_, r) in enumerate(documents)}
    try:
        whole = accord.coref(key, response)
    except AccordError as exc:
        expected_error = exc
    else:
        expected_error = None
    ids = list(key)
    parts = _cuts(len(ids), data)
    split = data.draw(st.integers(0, len(parts)))
    try:
        workers = [accord.Accumulator(match="coref"), accord.Accumulator(match="coref")]
        for w, chunk in zip(workers, (parts[:split], parts[split:])):
            for a, b in chunk:
                w.update({d: key[d] for d in ids[a:b]}, {d: response[d] for d in ids[a:b]})
        first, second = (pickle.loads(pickle.dumps(w)) for w in workers)
        result = first.merge(second).compute()
    except AccordError as exc:
        assert expected_error is not None, exc
        assert "\n" not in str(exc)
        return
    assert expected_error is None, expected_error
    assert _json(result) == _json(whole)


ratings = st.lists(st.lists(st.sampled_from(["a", "b", "c", "1", ""]), min_size=3, max_size=3), min_size=1,
                   max_size=30)


@_EXAMPLES
@given(ratings, st.data(), st.sampled_from(["nominal", "ordinal"]))
def test_agreement_any_batches_equal_agree_on_the_table(rows, data, level):
    raters = ["r1", "r2", "r3"]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "ratings.csv"
        with path.open("w", newline="") as f:
            w = csv.writer(f)
            w.writerow(raters)
            w.writerows(rows)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                whole = json.dumps(accord.agree(str(path), level=level).to_dict()).replace(str(path), RATINGS_SOURCE)
            except AccordError as exc:
                expected_error = exc
            else:
                expected_error = None
            parts = _cuts(len(rows), data)
            try:
                acc = accord.Accumulator(match="agreement", level=level)
                for a, b in parts:
                    acc.update({r: [row[j] for row in rows[a:b]] for j, r in enumerate(raters)})
                result = json.dumps(pickle.loads(pickle.dumps(acc)).compute().to_dict())
            except AccordError as exc:
                assert expected_error is not None, exc
                assert "\n" not in str(exc)
                return
    assert expected_error is None, expected_error
    assert result == whole
