"""The seqeval drop-in's evaluate-style metric: batches added one by one give seqeval's numbers on all of them (seqeval
run here, as evaluate's seqeval metric calls it)."""

import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accord.compat import seqeval as ours
from accord.errors import OptionError

from ..conftest import DATA, read_conll_sentences

seqeval_metrics = pytest.importorskip("seqeval.metrics")
seqeval_scheme = pytest.importorskip("seqeval.scheme")

TAGS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "E-LOC", "S-PER"]


def evaluate_dict(references, predictions, **options):
    """What evaluate's seqeval metric computes, from seqeval's classification report (its own code path)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = seqeval_metrics.classification_report(references, predictions, output_dict=True, **options)
        accuracy = seqeval_metrics.accuracy_score(references, predictions)
    overall = report.pop("micro avg")
    report.pop("macro avg")
    report.pop("weighted avg")
    out = {k: {"precision": v["precision"], "recall": v["recall"], "f1": v["f1-score"], "number": v["support"]}
           for k, v in report.items()}
    out.update(overall_precision=overall["precision"], overall_recall=overall["recall"],
               overall_f1=overall["f1-score"], overall_accuracy=accuracy)
    return out


def _close(a, b):
    assert a.keys() == b.keys()
    for k, v in a.items():
        if isinstance(v, dict):
            assert v == pytest.approx(b[k], abs=1e-12), k
        else:
            assert v == pytest.approx(b[k], abs=1e-12), k


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.tuples(st.sampled_from(TAGS), st.sampled_from(TAGS)), min_size=1, max_size=6),
                min_size=1, max_size=12), st.lists(st.integers(1, 4), min_size=1, max_size=12))
def test_batches_equal_seqeval_on_the_whole(sentences, sizes):
    references = [[g for g, _ in s] for s in sentences]
    predictions = [[p for _, p in s] for s in sentences]
    metric = ours.load()
    k = 0
    for size in sizes * len(sentences):
        if k >= len(sentences):
            break
        metric.add_batch(predictions=predictions[k:k + size], references=references[k:k + size])
        k += size
    if k < len(sentences):
        metric.add_batch(predictions=predictions[k:], references=references[k:])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _close(metric.compute(), evaluate_dict(references, predictions))


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_conll03_in_batches_strict_equals_seqeval():
    gold_path, pred_path = DATA / "conll03" / "gold.conll", DATA / "conll03" / "xlm_flert.conll"
    if not gold_path.exists():
        pytest.skip("../shared/data/conll03 is absent")
    gold, pred = read_conll_sentences(gold_path), read_conll_sentences(pred_path)
    metric = ours.load(mode="strict", scheme="IOB2")
    for k in range(0, len(gold), 100):
        metric.add_batch(predictions=pred[k:k + 100], references=gold[k:k + 100])
    metric.add(prediction=["O"], reference=["O"])
    expected = evaluate_dict(gold + [["O"]], pred + [["O"]], mode="strict", scheme=seqeval_scheme.IOB2)
    _close(metric.compute(), expected)


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_compute_forgets_and_refuses_other_chunking_options():
    metric = ours.load()
    metric.add_batch(predictions=[["B-PER"]], references=[["B-PER"]])
    assert metric.compute(predictions=[["O"]], references=[["B-LOC"]])["overall_f1"] == pytest.approx(2 / 3)
    with pytest.raises(OptionError, match="no batch"):
        metric.compute()
    metric.add_batch(predictions=[["B-PER"]], references=[["B-PER"]])
    with pytest.raises(OptionError, match="suffix only as load"):
        metric.compute(suffix=True)
    with pytest.raises(OptionError, match="needs predictions= and references="):
        metric.add_batch(predictions=[["O"]])
    with pytest.raises(OptionError, match="scheme"):
        ours.load(mode="strict")
