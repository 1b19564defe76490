"""accord.hf.compute_metrics: the Trainer's logits and label ids (-100 on sub-words, special tokens and padding) scored
as seqeval scores the word-level tags (seqeval run here)."""

import random
import warnings

import numpy as np
import pytest

from accord.errors import FormatError, OptionError
from accord.hf import compute_metrics, word_level_tags

from .conftest import DATA, read_conll_sentences

seqeval_metrics = pytest.importorskip("seqeval.metrics")

NAMES = ["O", "B-PER", "I-PER", "B-ORG", "I-ORG", "B-LOC", "I-LOC", "B-MISC", "I-MISC"]


def seqeval_flat(references, predictions):
    """evaluate's seqeval dictionary from seqeval's own report, flattened as run_ner.py flattens it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = seqeval_metrics.classification_report(references, predictions, output_dict=True)
        accuracy = seqeval_metrics.accuracy_score(references, predictions)
    overall = report.pop("micro avg")
    report.pop("macro avg")
    report.pop("weighted avg")
    out = {}
    for name, row in report.items():
        out.update({f"{name}_precision": row["precision"], f"{name}_recall": row["recall"],
                    f"{name}_f1": row["f1-score"], f"{name}_number": row["support"]})
    out.update(overall_precision=overall["precision"], overall_recall=overall["recall"],
               overall_f1=overall["f1-score"], overall_accuracy=accuracy)
    return out


def tokenized(gold, pred, seed, label_all=False):
    """A Trainer's evaluation arrays for word-level tags: [CLS], each word cut into 1-3 sub-words, [SEP], padding;
    labels -100 except on each word's first sub-word (or B- then I- on every sub-word with ``label_all``); logits whose
    argmax is the predicted tag on a first sub-word and anything elsewhere."""
    rng = np.random.default_rng(seed)
    index = {n: k for k, n in enumerate(NAMES)}
    rows, word_ids = [], []
    for g, p in zip(gold, pred):
        labels, guesses, ids = [-100], [int(rng.integers(len(NAMES)))], [None]
        for w, (gt, pt) in enumerate(zip(g, p)):
            for k in range(int(rng.integers(1, 4))):
                if k == 0:
                    labels.append(index[gt])
                    guesses.append(index[pt])
                else:
                    labels.append(index["I-" + gt[2:]] if label_all and gt != "O" else index[gt] if label_all
                                  else -100)
                    guesses.append(int(rng.integers(len(NAMES))))
                ids.append(w)
        labels.append(-100)
        guesses.append(int(rng.integers(len(NAMES))))
        ids.append(None)
        rows.append((labels, guesses))
        word_ids.append(ids)
    width = max(len(r[0]) for r in rows) + 2
    label_ids = np.full((len(rows), width), -100, dtype=np.int64)
    logits = rng.normal(size=(len(rows), width, len(NAMES)))
    for r, (labels, guesses) in enumerate(rows):
        label_ids[r, :len(labels)] = labels
        logits[r, np.arange(len(guesses)), guesses] += 100.0
    return logits, label_ids, word_ids


@pytest.fixture(scope="module")
def conll03():
    gold_path, pred_path = DATA / "conll03" / "gold.conll", DATA / "conll03" / "xlm_flert.conll"
    if not gold_path.exists():
        pytest.skip("../shared/data/conll03 is absent")
    gold, pred = read_conll_sentences(gold_path), read_conll_sentences(pred_path)
    rng = random.Random(5)
    chosen = sorted(rng.sample(range(len(gold)), 400))
    return [gold[k] for k in chosen], [pred[k] for k in chosen]


class EvalPrediction:
    """transformers.EvalPrediction's two fields (transformers is not needed)."""

    def __init__(self, predictions, label_ids):
        self.predictions, self.label_ids = predictions, label_ids


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_trainer_logits_equal_seqeval_on_the_words(conll03):
    gold, pred = conll03
    logits, label_ids, _ = tokenized(gold, pred, seed=1)
    expected = seqeval_flat(gold, pred)
    fn = compute_metrics(NAMES)
    for given in (EvalPrediction(logits, label_ids), (logits, label_ids), EvalPrediction((logits, logits), label_ids),
                  (np.argmax(logits, axis=-1), label_ids)):
        got = fn(given)
        assert list(got) == list(expected)
        assert got == pytest.approx(expected, abs=1e-12)
    assert word_level_tags((logits, label_ids), NAMES) == (gold, pred)


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_first_subword_with_word_ids(conll03):
    gold, pred = conll03
    logits, label_ids, word_ids = tokenized(gold, pred, seed=2, label_all=True)
    got = compute_metrics(NAMES, subwords="first", word_ids=word_ids)(EvalPrediction(logits, label_ids))
    assert got == pytest.approx(seqeval_flat(gold, pred), abs=1e-12)
    # every sub-word scored (drop keeps them: none is -100) is not the words' figure
    assert compute_metrics(NAMES)((logits, label_ids))["overall_f1"] != got["overall_f1"]


def test_transformers_eval_prediction():
    transformers = pytest.importorskip("transformers")
    gold, pred = [["B-PER", "I-PER", "O"], ["B-LOC"]], [["B-PER", "O", "O"], ["B-LOC"]]
    logits, label_ids, _ = tokenized(gold, pred, seed=3)
    got = compute_metrics(NAMES, entity_level=False)(transformers.EvalPrediction(predictions=logits,
                                                                                 label_ids=label_ids))
    # by hand: PER (0, 2) predicted (0, 1): a miss and a false alarm; LOC matched; 3 of 4 word tags right
    assert got == {"overall_precision": 0.5, "overall_recall": 0.5, "overall_f1": 0.5, "overall_accuracy": 0.75}


def test_refusals():
    with pytest.raises(OptionError, match="subwords must be one of drop, first"):
        compute_metrics(NAMES, subwords="last")
    with pytest.raises(OptionError, match="needs word_ids"):
        compute_metrics(NAMES, subwords="first")((np.zeros((1, 2, 9)), np.zeros((1, 2), dtype=int)))
    with pytest.raises(FormatError, match="expected an EvalPrediction"):
        compute_metrics(NAMES)(np.zeros(3))
    with pytest.raises(FormatError, match="tag id 12 has no name"):
        compute_metrics(NAMES)((np.zeros((1, 2), dtype=int), np.array([[0, 12]])))
