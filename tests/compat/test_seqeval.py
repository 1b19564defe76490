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


SEQEVAL_LABELING = pytest.importorskip("seqeval.metrics.sequence_labeling")
ANY_PREFIX = st.sampled_from(["O", "B-PER", "I-PER", "E-PER", "S-PER", "B-LOC", "I-LOC", "E-LOC", "S-LOC", "B", "I"])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(ANY_PREFIX, max_size=8), max_size=5), st.booleans())
def test_get_entities_equals_seqeval(sentences, nested):
    seq = sentences if nested else [t for s in sentences for t in s]
    assert ours.get_entities(seq) == SEQEVAL_LABELING.get_entities(seq)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(st.sampled_from(["O", "PER-B", "PER-I", "LOC-E", "LOC-S"]), max_size=8), max_size=5))
def test_get_entities_with_suffix_equals_seqeval(sentences):
    assert ours.get_entities(sentences, suffix=True) == SEQEVAL_LABELING.get_entities(sentences, suffix=True)


def test_get_entities_documented_example():
    # seqeval's docstring: ['B-PER', 'I-PER', 'O', 'B-LOC'] -> [('PER', 0, 1), ('LOC', 3, 3)]
    assert ours.get_entities(["B-PER", "I-PER", "O", "B-LOC"]) == [("PER", 0, 1), ("LOC", 3, 3)]


@settings(max_examples=100, deadline=None)
@given(pairs("BIO"))
def test_performance_measure_equals_seqeval(pair):
    y_true, y_pred = pair
    assert ours.performance_measure(y_true, y_pred) == seqeval_metrics.performance_measure(y_true, y_pred)


def test_performance_measure_hand_count():
    # seqeval's documented example, counted by hand: 3 equal non-O tags, 3 wrong non-O predictions,
    # 1 gold non-O predicted O, 4 both O
    y_true = [["O", "O", "O", "B-MISC", "I-MISC", "O", "B-ORG"], ["B-PER", "I-PER", "O", "B-PER"]]
    y_pred = [["O", "O", "B-MISC", "I-MISC", "I-MISC", "O", "O"], ["B-PER", "I-PER", "O", "B-MISC"]]
    assert ours.performance_measure(y_true, y_pred) == {"TP": 3, "FP": 3, "FN": 1, "TN": 4}


def test_compute_as_hugging_face_evaluate():
    # the "partial match" example of the seqeval metric card (Hugging Face), checked by hand: MISC predicted
    # one token early (0 of 1), PER exact (1 of 1); 8 of 10 tags equal
    predictions = [["O", "O", "B-MISC", "I-MISC", "I-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]]
    references = [["O", "O", "O", "B-MISC", "I-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]]
    assert ours.compute(predictions=predictions, references=references) == {
        "MISC": {"precision": 0.0, "recall": 0.0, "f1": 0.0, "number": 1},
        "PER": {"precision": 1.0, "recall": 1.0, "f1": 1.0, "number": 1},
        "overall_precision": 0.5, "overall_recall": 0.5, "overall_f1": 0.5, "overall_accuracy": 0.8}


def test_bare_prefix_type_is_underscore_as_in_seqeval():
    y_true, y_pred = [["B", "I", "O", "B-PER"]], [["B", "O", "O", "B-PER"]]
    ours_report = ours.classification_report(y_true, y_pred, output_dict=True, zero_division=0)
    theirs = seqeval_metrics.classification_report(y_true, y_pred, output_dict=True, zero_division=0)
    assert ours_report == theirs


def _bio_lists(letters):
    tag = st.sampled_from(["O"] + [f"{x}-{t}" for x in letters for t in ("PER", "LOC")])
    return st.lists(st.lists(tag, min_size=0, max_size=7), min_size=1, max_size=5)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["IOB1", "IOE1"]), st.data())
def test_strict_iob1_and_ioe1_equal_seqeval(scheme, data):
    """seqeval's strict reading of IOB1 and IOE1 (its own tables, incomplete for IOE1 by its own account) is
    reproduced on any sequence of the scheme's tags."""
    letters = "IB" if scheme == "IOB1" else "IE"
    y_true = data.draw(_bio_lists(letters))
    y_pred = [data.draw(st.lists(st.sampled_from(["O"] + [f"{x}-{t}" for x in letters for t in ("PER", "LOC")]),
                                 min_size=len(s), max_size=len(s))) for s in y_true]
    scheme_class = getattr(seqeval_scheme, scheme)
    expected = seqeval_metrics.classification_report(y_true, y_pred, mode="strict", scheme=scheme_class,
                                                     output_dict=True, zero_division=0)
    got = ours.classification_report(y_true, y_pred, mode="strict", scheme=scheme_class, output_dict=True,
                                     zero_division=0)
    assert _without_nan(got) == _without_nan(expected)


def _without_nan(report):
    """A report dict with NaN (the averages of an empty report) as None, so that equal reports compare equal."""
    return {k: {m: (None if v != v else v) for m, v in row.items()} for k, row in report.items()}
