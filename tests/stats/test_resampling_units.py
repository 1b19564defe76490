"""The resampling unit: documents, or the sentences inside them (issue: one document gave [93.7, 93.7] and p = 1).

Independent sources: per-sentence counts made with seqeval's chunker from the files' lines, resampled by
scipy.stats.bootstrap with the same draws; scipy's paired permutation test; the blank lines of the files; and
synthetic corpora whose true rate is known (coverage)."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

import accord
from accord.cli import main
from accord.errors import StatisticsError, StatisticsWarning
from accord.result import ALL, CountTable, Measure, PairsKind, Result, SentenceCounts
from accord.stats import CHUNK, compare
from tests.result.contract import checked

from ..result.commands import CONLL_GOLD, CONLL_PRED


def _one_document(src: str, path: Path, drop: float = 0.0, seed: int = 3) -> str:
    """``src`` without its -DOCSTART- lines (one document, as most NER files are), a share ``drop`` of its
    entity tags turned into ``O``."""
    rnd = np.random.default_rng(seed)
    out = []
    for line in Path(src).read_text(encoding="utf-8").split("\n"):
        if line.startswith("-DOCSTART-"):
            continue
        cols = line.split()
        if drop and len(cols) >= 2 and cols[-1] != "O" and rnd.random() < drop:
            line = " ".join(cols[:-1] + ["O"])
        out.append(line)
    path.write_text("\n".join(out), encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def single(tmp_path_factory):
    d = tmp_path_factory.mktemp("single")
    return (_one_document(CONLL_GOLD, d / "gold.conll"), _one_document(CONLL_PRED, d / "sys.conll"),
            _one_document(CONLL_PRED, d / "worse.conll", drop=0.08))


def _sentence_counts(path: str) -> list[list[str]]:
    sentences, current = [], []
    for line in Path(path).read_text(encoding="utf-8").split("\n"):
        if not line.strip():
            if current:
                sentences.append(current)
            current = []
        else:
            current.append(line.split()[-1])
    if current:
        sentences.append(current)
    return sentences


def _seqeval_by_sentence(gold: str, pred: str) -> np.ndarray:
    """(sentences, 3): matched, gold and predicted entities of every sentence, by seqeval's chunker."""
    from seqeval.metrics.sequence_labeling import get_entities

    out = []
    for g, p in zip(_sentence_counts(gold), _sentence_counts(pred), strict=True):
        ge, pe = set(get_entities(g)), set(get_entities(p))
        out.append((len(ge & pe), len(ge), len(pe)))
    return np.array(out, dtype=np.float64)


def test_one_document_resamples_its_sentences_as_scipy_would(single, capsys):
    gold, system, _ = single
    assert main(["score", gold, system, "--bootstrap", "500", "--seed", "4", "--output", "json"]) == 0
    out = checked(capsys.readouterr().out)
    assert out["options"]["resample"] == "sentences" and out["options"]["resampled_units"] == 3453
    lo, hi = out["totals"]["ci"]["f1"]
    counts = _seqeval_by_sentence(gold, system)
    assert len(counts) == 3453

    def f1(index, axis=-1):
        s = counts[np.asarray(index)].sum(axis=-2)
        return 2 * s[..., 0] / (s[..., 1] + s[..., 2])
    ref = stats.bootstrap((np.arange(len(counts)),), f1, n_resamples=500, batch=CHUNK, vectorized=True,
                          random_state=np.random.default_rng(4), method="percentile")
    assert [lo, hi] == pytest.approx([ref.confidence_interval.low, ref.confidence_interval.high], abs=1e-12)
    assert hi - lo > 0.005         # not the zero-width [93.7, 93.7] of one resampled document


def test_the_caption_says_what_was_resampled(single, capsys):
    gold, system, _ = single
    assert main(["score", gold, system, "--bootstrap", "50", "--seed", "1"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "1 document" in text and "50 resamples of the 3,453 sentences" in text


def test_documents_of_one_document_are_refused(single, capsys):
    gold, system, worse = single
    assert main(["score", gold, system, "--bootstrap", "50", "--resample", "documents"]) == 2
    err = capsys.readouterr().err
    assert "two or more documents" in err and "--resample sentences" in err
    assert main(["compare", gold, system, worse, "--resample", "documents", "--samples", "50"]) == 2
    assert "a paired test needs two or more documents" in capsys.readouterr().err


def test_a_drop_of_eight_points_in_one_document_is_significant(single, capsys):
    gold, system, worse = single
    assert main(["compare", gold, system, worse, "--samples", "2000", "--seed", "2", "--output", "json"]) == 0
    out = checked(capsys.readouterr().out)
    total = next(c for c in out["comparisons"] if c["label"] is None)
    assert -0.10 < total["difference"] < -0.07          # the F1 drop built into the copy (8.5 points in the issue)
    assert total["p_value"] < 0.01 and total["p_adjusted"] < 0.01 and total["significant"]
    assert out["options"]["resample"] == "sentences" and out["options"]["resampled_units"] == 3453


def test_the_sentence_permutation_test_is_scipys(single):
    # the paired permutation test over sentences, against scipy's on seqeval's per-sentence counts
    gold, system, worse = single
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a, b = accord.score(gold, system), accord.score(gold, worse)
    ours = compare({"a": a, "b": b}, samples=4000, seed=1, labels=False).comparisons[0]
    ca, cb = _seqeval_by_sentence(gold, system), _seqeval_by_sentence(gold, worse)

    def delta(x, y, axis=-1):       # scipy moves the sentences to the last axis: (..., 3, sentences)
        def f1(s):
            s = s.sum(axis=axis)
            return 2 * s[..., 0] / (s[..., 1] + s[..., 2])
        return f1(y) - f1(x)
    ref = stats.permutation_test((ca, cb), delta, permutation_type="samples", n_resamples=4000, vectorized=True,
                                 random_state=np.random.default_rng(0))
    assert ours.difference == pytest.approx(ref.statistic, abs=1e-12)
    assert ours.p_value < 0.01 and ref.pvalue < 0.01


def test_tag_lists_and_datasets_resample_sentences():
    y_true = [["B-PER", "I-PER", "O"], ["B-LOC", "O"], ["O", "B-ORG"]] * 10
    y_pred = [["B-PER", "O", "O"], ["B-LOC", "O"], ["O", "B-ORG"]] * 10
    r = accord.score(y_true, y_pred).bootstrap(200, seed=1)
    assert (r.options["resample"], r.options["resampled_units"]) == ("sentences", 30)
    lo, hi = r.to_dict()["totals"]["ci"]["f1"]
    assert lo < hi
    datasets = pytest.importorskip("datasets")
    gold = datasets.Dataset.from_dict({"tokens": [["a", "b", "c"]] * 40, "ner_tags": [[1, 2, 0]] * 40})
    pred = datasets.Dataset.from_dict({"tokens": [["a", "b", "c"]] * 40, "ner_tags": [[1, 0, 0]] * 20 + [[1, 2, 0]] * 20})
    r = accord.score(gold, pred, label_names=["O", "B-X", "I-X"]).bootstrap(100, seed=1)
    assert (r.options["resample"], r.options["resampled_units"]) == ("sentences", 40)


def test_thirty_documents_or_more_resample_documents():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = accord.score(CONLL_GOLD, CONLL_PRED).bootstrap(50, seed=1)
        assert (r.options["resample"], r.options["resampled_units"]) == ("documents", 231)
        s = accord.score(CONLL_GOLD, CONLL_PRED).bootstrap(50, seed=1, resample="sentences")
        assert (s.options["resample"], s.options["resampled_units"]) == ("sentences", 3453)


def _one_sentence_per_document(values: np.ndarray) -> Result:
    documents = tuple(f"d{k}" for k in range(len(values)))
    sc = SentenceCounts.from_items(np.ones(len(values), dtype=np.int64), np.repeat(np.arange(len(values)), 5),
                                   np.zeros(5 * len(values), dtype=np.int64), np.tile(np.arange(5), len(values)),
                                   values.reshape(-1), 1, 5)
    table = CountTable(PairsKind.fields, documents, (ALL,), values.reshape(len(values), 1, 5), sc)
    return Result("score", "pairs", {"pairs": Measure(PairsKind(), table)}, nested=False)


def test_sentences_that_are_documents_give_the_documents_interval():
    rng = np.random.default_rng(3)
    gold = rng.integers(2, 9, 40)
    found = rng.binomial(gold, 0.7)
    values = np.stack([found, 0 * gold, 0 * gold, gold - found, rng.binomial(gold, 0.2)], axis=1)
    by_doc = _one_sentence_per_document(values).bootstrap(300, seed=2, resample="documents")
    by_sentence = _one_sentence_per_document(values).bootstrap(300, seed=2, resample="sentences")
    assert by_doc.to_dict()["totals"]["ci"] == by_sentence.to_dict()["totals"]["ci"]


def test_few_units_warn_and_one_is_refused():
    values = np.array([[3, 0, 0, 1, 1], [2, 0, 0, 2, 0], [4, 0, 0, 0, 1]])
    with pytest.warns(StatisticsWarning, match="only 3 documents"):
        _one_sentence_per_document(values).bootstrap(50, seed=1, resample="documents")
    with pytest.raises(StatisticsError, match="two or more sentences"):
        _one_sentence_per_document(values[:1]).bootstrap(50, seed=1, resample="sentences")


def test_sentences_are_refused_where_the_counts_do_not_know_them():
    table = CountTable(PairsKind.fields, ("a", "b"), (ALL,), np.ones((2, 1, 5), dtype=np.int64))
    result = Result("score", "pairs", {"pairs": Measure(PairsKind(), table)}, nested=False)
    with pytest.raises(StatisticsError, match="do not know their sentences"):
        result.bootstrap(20, resample="sentences")


def _synthetic_single_document(rng: np.random.Generator, sentences: int, recall: float) -> Result:
    gold = rng.poisson(1.5, sentences)
    found = rng.binomial(gold, recall)
    fields = np.stack([found, 0 * gold, 0 * gold, gold - found, 0 * gold], axis=1)
    sc = SentenceCounts.from_items(np.array([sentences]), np.repeat(np.arange(sentences), 5),
                                   np.zeros(5 * sentences, dtype=np.int64), np.tile(np.arange(5), sentences),
                                   fields.reshape(-1), 1, 5)
    table = CountTable(PairsKind.fields, ("only",), (ALL,), fields.sum(axis=0).reshape(1, 1, 5), sc)
    return Result("score", "pairs", {"pairs": Measure(PairsKind(), table)}, nested=False)


def test_coverage_of_the_sentence_bootstrap_on_single_documents():
    # 400 single-document corpora of 300 sentences with a true recall of 0.7: the 95 % interval over sentences
    # (chosen by auto: one document) holds it in 93-97 % of them
    rng = np.random.default_rng(2026)
    covered = 0
    for k in range(400):
        result = _synthetic_single_document(rng, 300, 0.7).bootstrap(400, seed=k)
        assert result.options["resample"] == "sentences"
        lo, hi = result.to_dict()["totals"]["ci"]["recall"]
        covered += lo <= 0.7 <= hi
    assert 0.93 <= covered / 400 <= 0.97, covered
