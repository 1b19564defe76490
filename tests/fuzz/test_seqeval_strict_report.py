"""Fuzz: seqeval's strict ``classification_report`` (the scheme given or detected, prefix first or last, empty
sentences, bare letters) equals seqeval 1.2.2's run on the same generated tag lists, or both refuse them.

The drop-in reads both sides' tags once into codes of their distinct values and pairs the chunks by their starts
(:mod:`accord.compat.seqeval`); seqeval reads every tag as a string, sentence by sentence.
"""

from __future__ import annotations

import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accord.compat import seqeval as ours

from .harness import FULL

seqeval_metrics = pytest.importorskip("seqeval.metrics")
seqeval_scheme = pytest.importorskip("seqeval.scheme")

_EXAMPLES = settings(max_examples=700 if FULL else 150, deadline=None, derandomize=not FULL)
LETTERS = {"IOB2": "BIO", "IOE2": "IEO", "IOBES": "BIESO", "BILOU": "BILUO"}
TYPES = ("PER", "LOC", "")    # "": a bare letter (seqeval's type "_")


def tag(letters: str, suffix: bool):
    def make(letter: str, kind: str) -> str:
        if letter == "O":
            return "O"
        if not kind:
            return letter
        return f"{kind}-{letter}" if suffix else f"{letter}-{kind}"
    return st.builds(make, st.sampled_from(letters), st.sampled_from(TYPES))


def tag_pairs(gold_letters: str, pred_letters: str, suffix: bool):
    lengths = st.lists(st.integers(0, 7), min_size=1, max_size=6)
    return lengths.flatmap(lambda ns: st.tuples(
        st.tuples(*[st.lists(tag(gold_letters, suffix), min_size=n, max_size=n) for n in ns]).map(list),
        st.tuples(*[st.lists(tag(pred_letters, suffix), min_size=n, max_size=n) for n in ns]).map(list)))


def outcome(module, y_true, y_pred, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return module.classification_report(y_true, y_pred, output_dict=True, **kw)
        except Exception as exc:   # noqa: BLE001 - which side refuses is what is compared
            return type(exc)


def assert_same(theirs, mine):
    if isinstance(theirs, type) or isinstance(mine, type):
        assert isinstance(theirs, type) and isinstance(mine, type), (theirs, mine)
        return
    assert mine.keys() == theirs.keys()
    for k in theirs:
        for m in ("precision", "recall", "f1-score", "support"):
            assert mine[k][m] == pytest.approx(theirs[k][m], abs=1e-12, nan_ok=True), (k, m)


@_EXAMPLES
@given(st.sampled_from(sorted(LETTERS)), st.booleans(), st.data())
def test_strict_report_with_a_scheme_equals_seqeval(scheme, suffix, data):
    y_true, y_pred = data.draw(tag_pairs(LETTERS[scheme], LETTERS[scheme], suffix))
    theirs = outcome(seqeval_metrics, y_true, y_pred, mode="strict", scheme=getattr(seqeval_scheme, scheme),
                     suffix=suffix)
    mine = outcome(ours, y_true, y_pred, mode="strict", scheme=scheme, suffix=suffix)
    assert_same(theirs, mine)


@_EXAMPLES
@given(st.sampled_from(sorted(LETTERS)), st.booleans(), st.data())
def test_strict_report_with_a_detected_scheme_equals_seqeval(scheme, suffix, data):
    """Gold tags of a random part of a scheme's letters (the detection may fail: both refuse), predictions of any
    of them."""
    letters = data.draw(st.lists(st.sampled_from(LETTERS[scheme]), min_size=1, unique=True))
    y_true, y_pred = data.draw(tag_pairs("".join(letters), LETTERS[scheme], suffix))
    assert_same(outcome(seqeval_metrics, y_true, y_pred, mode="strict", suffix=suffix),
                outcome(ours, y_true, y_pred, mode="strict", suffix=suffix))


@_EXAMPLES
@given(st.booleans(), st.data())
def test_default_report_equals_seqeval(suffix, data):
    y_true, y_pred = data.draw(tag_pairs("BIESO", "BIO", suffix))
    assert_same(outcome(seqeval_metrics, y_true, y_pred, suffix=suffix), outcome(ours, y_true, y_pred, suffix=suffix))
