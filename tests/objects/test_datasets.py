"""A Hugging Face Dataset (ClassLabel tags) given to accord.score, checked against seqeval on the tag names."""

import random
import warnings

import pytest

import accord
from accord.errors import FormatError, OptionError, PairingError
from accord.objects import as_corpus

datasets = pytest.importorskip("datasets")
seqeval_metrics = pytest.importorskip("seqeval.metrics")

NAMES = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG"]


def _dataset(rows, names=NAMES, doc_ids=None):
    features = {"tokens": datasets.Sequence(datasets.Value("string")),
                "ner_tags": datasets.Sequence(datasets.ClassLabel(names=names))}
    data = {"tokens": [[f"w{i}" for i in range(len(r))] for r in rows], "ner_tags": rows}
    if doc_ids is not None:
        features["doc"] = datasets.Value("string")
        data["doc"] = doc_ids
    return datasets.Dataset.from_dict(data, features=datasets.Features(features))


def _random_rows(seed, n=40):
    rng = random.Random(seed)
    gold = [[rng.choice([0, 0, 0, 1, 2, 3, 4, 5, 6]) for _ in range(rng.randint(1, 10))] for _ in range(n)]
    pred = [[t if rng.random() < 0.75 else rng.randrange(len(NAMES)) for t in row] for row in gold]
    return gold, pred


@pytest.mark.parametrize("seed", range(5))
def test_dataset_against_integer_predictions_equals_seqeval(seed):
    gold, pred = _random_rows(seed)
    y_true = [[NAMES[t] for t in row] for row in gold]
    y_pred = [[NAMES[t] for t in row] for row in pred]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = accord.score(_dataset(gold), pred)   # the predictions are named by the gold ClassLabel
    assert report.f1 == pytest.approx(seqeval_metrics.f1_score(y_true, y_pred, zero_division=0), abs=1e-12)
    assert report.totals["precision"] == pytest.approx(
        seqeval_metrics.precision_score(y_true, y_pred, zero_division=0), abs=1e-12)


@pytest.mark.filterwarnings("ignore::accord.errors.RepairWarning")
def test_selected_rows_are_read_in_their_order():
    gold, _ = _random_rows(1, n=6)
    ds = _dataset(gold).select([4, 0, 2])
    corpus = as_corpus(ds)
    (doc,) = corpus.documents
    assert [b - a for a, b in doc.sentences] == [len(gold[4]), len(gold[0]), len(gold[2])]


def test_document_column_groups_rows():
    ds = _dataset([[1, 2], [0], [3]], doc_ids=["a", "a", "b"])
    corpus = as_corpus(ds, document_column="doc")
    assert list(corpus) == ["a", "b"]
    assert [(x.label, x.start, x.end) for x in corpus["a"].annotations] == [("PER", 0, 2)]
    assert [(x.label, x.start, x.end) for x in corpus["b"].annotations] == [("LOC", 0, 1)]


def test_string_tag_column_and_named_columns():
    ds = datasets.Dataset.from_dict({"words": [["a", "b"]], "labels": [["B-X", "I-X"]]})
    corpus = as_corpus(ds, tokens_column="words", tags_column="labels")
    assert corpus.documents[0].tokens == ("a", "b")
    assert [(x.label, x.start, x.end) for x in corpus.documents[0].annotations] == [("X", 0, 2)]


def test_tokens_must_agree():
    gold = _dataset([[1, 0]])
    pred = datasets.Dataset.from_dict({"tokens": [["w0", "other"]], "ner_tags": [["B-PER", "O"]]})
    with pytest.raises(PairingError, match="token 1 differs"):
        accord.score(gold, pred)


def test_missing_columns_are_named():
    ds = datasets.Dataset.from_dict({"x": [[1]]})
    with pytest.raises(OptionError, match="which column holds the tags"):
        as_corpus(ds)
    with pytest.raises(OptionError, match="no column 'nope'"):
        as_corpus(_dataset([[0]]), document_column="nope")


def test_ignored_positions_are_explained():
    with pytest.raises(FormatError, match="-100"):
        accord.score(_dataset([[1, 0]]), [[1, -100]])


def test_non_consecutive_document_rows():
    ds = _dataset([[0], [0], [0]], doc_ids=["a", "b", "a"])
    with pytest.raises(FormatError, match="not consecutive"):
        as_corpus(ds, document_column="doc")


def test_an_empty_dataset_is_an_error():
    with pytest.raises(FormatError, match="an empty dataset"):
        as_corpus(_dataset([]))
