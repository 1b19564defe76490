"""The seqeval drop-in gives seqeval 1.2.2's numbers, run side by side in the test."""

import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accord.compat import seqeval as ours
from accord.errors import SchemeError

from ..conftest import DATA, read_conll_sentences

seqeval_metrics = pytest.importorskip("seqeval.metrics")
seqeval_scheme = pytest.importorskip("seqeval.scheme")

PREFIXES = {
    "IOB2": "BIO", "IOE2": "IEO", "IOBES": "BIESO", "BILOU": "BILUO",
}


def tag_lists(prefixes: str):
    tag = st.sampled_from([p + "-" + t if p != "O" else "O" for p in prefixes for t in ("PER", "LOC")])
    return st.lists(st.lists(tag, min_size=1, max_size=8), min_size=1, max_size=6)


def pairs(prefixes: str):
    return tag_lists(prefixes).flatmap(
        lambda t: st.tuples(st.just(t), st.tuples(*[st.lists(st.sampled_from(
            [p + "-" + x if p != "O" else "O" for p in prefixes for x in ("PER", "LOC")]),
            min_size=len(s), max_size=len(s)) for s in t]).map(list)))


def both(fn_name, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        module = seqeval_metrics
        if fn_name == "precision_recall_fscore_support":
            from seqeval.metrics import sequence_labeling as module
        theirs = getattr(module, fn_name)(*args, **kwargs)
        mine = getattr(ours, fn_name)(*args, **{k: (v.__name__ if k == "scheme" else v) for k, v in kwargs.items()})
    return theirs, mine


@settings(max_examples=150, deadline=None)
@given(pairs("BIO"))
def test_default_mode_matches_seqeval(data):
    y_true, y_pred = data
    for fn in ("f1_score", "precision_score", "recall_score"):
        for average in ("micro", "macro", "weighted"):
            theirs, mine = both(fn, y_true, y_pred, average=average)
            assert mine == pytest.approx(theirs, abs=1e-12, nan_ok=True), (fn, average)
    theirs, mine = both("classification_report", y_true, y_pred, output_dict=True)
    assert mine.keys() == theirs.keys()
    for k in theirs:
        for m in ("precision", "recall", "f1-score", "support"):
            assert mine[k][m] == pytest.approx(theirs[k][m], abs=1e-12, nan_ok=True)


@pytest.mark.parametrize("scheme", ["IOB2", "IOE2", "IOBES", "BILOU"])
@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_strict_mode_matches_seqeval(scheme, data):
    y_true, y_pred = data.draw(pairs(PREFIXES[scheme]))
    cls = getattr(seqeval_scheme, scheme)
    theirs, mine = both("classification_report", y_true, y_pred, mode="strict", scheme=cls, output_dict=True)
    assert mine.keys() == theirs.keys()
    for k in theirs:
        for m in ("precision", "recall", "f1-score", "support"):
            assert mine[k][m] == pytest.approx(theirs[k][m], abs=1e-12, nan_ok=True), (k, m)
    theirs, mine = both("f1_score", y_true, y_pred, mode="strict", scheme=cls)
    assert mine == pytest.approx(theirs, abs=1e-12, nan_ok=True)


def test_report_text_is_identical_on_conll03():
    y_true = read_conll_sentences(DATA / "conll03" / "gold.conll")
    y_pred = read_conll_sentences(DATA / "conll03" / "xlm_flert.conll")
    for digits in (2, 4):
        theirs, mine = both("classification_report", y_true, y_pred, digits=digits)
        assert mine == theirs
    theirs, mine = both("classification_report", y_true, y_pred, mode="strict", scheme=seqeval_scheme.IOB2)
    assert mine == theirs
    assert ours.accuracy_score(y_true, y_pred) == seqeval_metrics.accuracy_score(y_true, y_pred)


def test_zero_division_and_empty_labels():
    y_true = [["O", "O"]]
    y_pred = [["B-PER", "O"]]
    for zd in (0, 1):
        theirs, mine = both("precision_recall_fscore_support", y_true, y_pred, average="weighted", zero_division=zd)
        assert mine == pytest.approx(theirs)
    with pytest.warns(ours.UndefinedMetricWarning):
        ours.recall_score(y_true, y_pred)


def test_strict_without_scheme_warns_and_keeps_seqeval_numbers():
    y_true = [["I-PER", "I-PER", "O"]]
    y_pred = [["B-PER", "I-PER", "O"]]
    with pytest.warns(ours.SeqevalCompatWarning):
        mine = ours.f1_score(y_true, y_pred, mode="strict")
    assert mine == seqeval_metrics.f1_score(y_true, y_pred, mode="strict") == 1.0


def test_sample_weight_warns():
    with pytest.warns(ours.SeqevalCompatWarning):
        ours.f1_score([["B-PER"]], [["B-PER"]], sample_weight=[1])


def test_unknown_prefix_is_a_clear_error():
    with pytest.raises(SchemeError, match="U-PER"):
        ours.f1_score([["U-PER"]], [["B-PER"]])


def test_inconsistent_lengths():
    with pytest.raises(ValueError, match="inconsistent"):
        ours.f1_score([["B-PER", "O"]], [["B-PER"]])
