"""spaCy Docs, Examples and DocBins given to accord.score, checked against spaCy's own scorer."""

import random

import pytest

import accord
from accord.errors import AccordError, OptionError, PairingError
from accord.objects import as_corpus

spacy = pytest.importorskip("spacy")
from spacy.scorer import get_ner_prf  # noqa: E402
from spacy.tokens import DocBin, Span  # noqa: E402
from spacy.training import Example  # noqa: E402

WORDS = "Alice met Bob and Carol in Paris near the Seine with Dave from Acme Corp yesterday".split()
LABELS = ["PER", "LOC", "ORG"]


@pytest.fixture(scope="module")
def nlp():
    return spacy.blank("en")


def _random_ents(doc, rng):
    spans, k = [], 0
    while k < len(doc):
        if rng.random() < 0.3:
            length = rng.randint(1, 3)
            spans.append(Span(doc, k, min(k + length, len(doc)), rng.choice(LABELS)))
            k += length + 1
        else:
            k += 1
    doc.ents = spans
    return doc


def _examples(nlp, seed, n=25):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        text = " ".join(rng.sample(WORDS, rng.randint(3, len(WORDS))))
        out.append(Example(_random_ents(nlp(text), rng), _random_ents(nlp(text), rng)))
    return out


@pytest.mark.parametrize("seed", range(5))
def test_examples_equal_get_ner_prf(nlp, seed):
    examples = _examples(nlp, seed)
    spacy_scores = get_ner_prf(examples)
    report = accord.score(examples)   # Examples hold both sides
    assert report.totals["precision"] == pytest.approx(spacy_scores["ents_p"], abs=1e-12)
    assert report.totals["recall"] == pytest.approx(spacy_scores["ents_r"], abs=1e-12)
    assert report.f1 == pytest.approx(spacy_scores["ents_f"], abs=1e-12)
    for label, row in spacy_scores["ents_per_type"].items():
        counts = report.by_label[label]
        assert counts["f1"] == pytest.approx(row["f"], abs=1e-12), label


def test_docs_docbin_and_file_agree(nlp, tmp_path):
    examples = _examples(nlp, 9, n=10)
    gold = [eg.reference for eg in examples]
    pred = [eg.predicted for eg in examples]
    expected = get_ner_prf(examples)["ents_f"]
    assert accord.score(gold, pred).f1 == pytest.approx(expected, abs=1e-12)
    gold_bin, pred_bin = DocBin(docs=gold), DocBin(docs=pred)
    assert accord.score(gold_bin, pred_bin).f1 == pytest.approx(expected, abs=1e-12)
    gold_bin.to_disk(tmp_path / "gold.spacy")
    pred_bin.to_disk(tmp_path / "pred.spacy")
    assert accord.score(tmp_path / "gold.spacy", tmp_path / "pred.spacy").f1 == pytest.approx(expected, abs=1e-12)


def test_span_groups(nlp):
    gold, pred = nlp("Alice met Bob in Paris"), nlp("Alice met Bob in Paris")
    gold.spans["sc"] = [Span(gold, 0, 3, "EVENT"), Span(gold, 2, 3, "PER")]   # overlapping: a span group can
    pred.spans["sc"] = [Span(pred, 0, 3, "EVENT"), Span(pred, 4, 5, "LOC")]
    report = accord.score(gold, pred, spans_key="sc")
    assert (report.totals["match"], report.totals["missing"], report.totals["spurious"]) == (1, 1, 1)
    with pytest.raises(OptionError, match="no Doc has a span group 'other'"):
        accord.score(gold, pred, spans_key="other")


def test_character_offsets_and_kb_ids(nlp):
    doc = nlp("Alice met Bob")
    doc.ents = [Span(doc, 2, 3, "PER", kb_id="Q1")]
    (ann,) = as_corpus(doc).documents[0].annotations
    assert (ann.label, ann.start, ann.end, ann.get("kb_id")) == ("PER", 10, 13, "Q1")


def test_docs_alone_need_a_prediction(nlp):
    with pytest.raises(OptionError, match="only spaCy Examples hold both sides"):
        accord.score(nlp("Alice"))


def test_different_texts_are_refused(nlp):
    with pytest.raises(PairingError, match="texts differ from character 6"):
        accord.score(nlp("Alice met Bob"), nlp("Alice saw Bob"))


def test_written_docbin_reads_back(nlp, tmp_path):
    doc = nlp("Alice met Bob in Paris")
    doc.ents = [Span(doc, 0, 1, "PER"), Span(doc, 4, 5, "LOC")]
    source = as_corpus(doc)
    accord.write(source, tmp_path / "x.spacy", "spacy")
    corpus = accord.read(tmp_path / "x.spacy")
    assert [(a.label, a.start, a.end) for a in corpus.documents[0].annotations] == [("PER", 0, 5), ("LOC", 17, 22)]


def test_writing_a_span_off_token_boundaries_is_an_error(tmp_path):
    corpus = accord.Corpus([accord.Document("d", (accord.make_annotation("PER", 0, 3),), text="Alice met")])
    with pytest.raises(AccordError, match="does not fall on token boundaries"):
        accord.write(corpus, tmp_path / "x.spacy", "spacy")


def test_damaged_file_is_a_format_error(tmp_path):
    (tmp_path / "bad.spacy").write_bytes(b"\x00garbage")
    with pytest.raises(AccordError, match="not a spaCy DocBin file"):
        accord.read(tmp_path / "bad.spacy")
