"""CoNLL-U files built with the conllu library, read by accord and scored against seqeval on the same tags."""

import random
import warnings

import pytest

import accord
from accord.errors import AccordError, FormatError, OptionError

conllu = pytest.importorskip("conllu")
seqeval_metrics = pytest.importorskip("seqeval.metrics")

TAGS = ["O", "O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG"]


def _sentences(rng, n=15):
    return [[rng.choice(TAGS) for _ in range(rng.randint(1, 9))] for _ in range(n)]


def _file(path, sentences, *, key="NER", newdoc_every=None, extra_misc=True):
    """The sentences as CoNLL-U through conllu's TokenList.serialize, tags as MISC ``key`` (O left out of MISC
    on every other word, as treebanks do), a multiword token before the first word of each sentence."""
    out = []
    for s, tags in enumerate(sentences):
        tokens = [conllu.models.Token({"id": (1, "-", 2), "form": "ab", "lemma": "_", "upos": "_", "xpos": None,
                                       "feats": None, "head": None, "deprel": "_", "deps": None, "misc": None})]
        for k, tag in enumerate(tags):
            misc = {"SpaceAfter": "No"} if extra_misc and k % 3 == 0 else {}
            if tag != "O" or k % 2:
                misc[key] = tag
            tokens.append(conllu.models.Token({"id": k + 1, "form": f"w{k}", "lemma": "_", "upos": "X",
                                               "xpos": None, "feats": None, "head": 0, "deprel": "dep",
                                               "deps": None, "misc": misc or None}))
        meta = {"sent_id": str(s + 1)}
        if newdoc_every and s % newdoc_every == 0:
            meta = {"newdoc id": f"doc{s // newdoc_every}", **meta}
        out.append(conllu.models.TokenList(tokens, metadata=meta).serialize())
    path.write_text("".join(out), encoding="utf-8")


@pytest.mark.parametrize("seed", range(8))
def test_scores_equal_seqeval_on_the_same_tags(tmp_path, seed):
    rng = random.Random(seed)
    gold = _sentences(rng)
    pred = [[t if rng.random() < 0.75 else rng.choice(TAGS) for t in s] for s in gold]
    _file(tmp_path / "g.conllu", gold)
    _file(tmp_path / "p.conllu", pred)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = accord.score(tmp_path / "g.conllu", tmp_path / "p.conllu")
    assert report.f1 == pytest.approx(seqeval_metrics.f1_score(gold, pred, zero_division=0), abs=1e-12)
    assert report.totals["precision"] == pytest.approx(
        seqeval_metrics.precision_score(gold, pred, zero_division=0), abs=1e-12)


def test_documents_words_and_sentence_metadata(tmp_path):
    _file(tmp_path / "g.conllu", [["B-PER", "I-PER"], ["O"], ["B-LOC"]], newdoc_every=2)
    corpus = accord.read(tmp_path / "g.conllu")
    assert list(corpus) == ["doc0", "doc1"]
    first = corpus["doc0"]
    assert first.tokens == ("w0", "w1", "w0")     # the multiword token "ab" is not a word
    assert first.sentences == ((0, 2), (2, 3))
    assert [(a.label, a.start, a.end) for a in first.annotations] == [("PER", 0, 2)]
    assert [(a.label, a.start, a.end) for a in corpus["doc1"].annotations] == [("LOC", 0, 1)]
    assert first.metadata["sentences"][1]["sent_id"] == "2"


def test_misc_key_chosen_by_name_and_unknown_key_named(tmp_path):
    _file(tmp_path / "g.conllu", [["B-PER", "O"]], key="name")
    assert [a.label for a in accord.read(tmp_path / "g.conllu").documents[0].annotations] == ["PER"]
    with pytest.raises(OptionError, match=r"no column or MISC key 'NE'.*MISC keys: SpaceAfter, name"):
        accord.read(tmp_path / "g.conllu", columns="NE")


def test_conllu_plus_column(tmp_path):
    text = ("# global.columns = ID FORM UPOS NE\n# sent_id = 1\n1\tAlice\tPROPN\tB-PER\n2\tsleeps\tVERB\t_\n"
            "3\tin\tADP\tO\n4\tParis\tPROPN\tB-LOC\n\n")
    (tmp_path / "g.conllu").write_text(text, encoding="utf-8")
    (doc,) = accord.read(tmp_path / "g.conllu").documents
    assert [(a.label, a.start, a.end) for a in doc.annotations] == [("PER", 0, 1), ("LOC", 3, 4)]


def test_bad_tag_named_by_line(tmp_path):
    text = "# sent_id = 1\n1\ta\t_\t_\t_\t_\t0\troot\t_\tNER=B-PER\n2\tb\t_\t_\t_\t_\t1\tdep\t_\tNER=X-PER\n\n"
    (tmp_path / "g.conllu").write_text(text, encoding="utf-8")
    with pytest.raises(FormatError, match=r"g.conllu:3: tag 'X-PER'"):
        accord.read(tmp_path / "g.conllu")


def test_no_tags_and_no_sentences_are_errors(tmp_path):
    (tmp_path / "g.conllu").write_text("# sent_id = 1\n1\ta\t_\t_\t_\t_\t0\troot\t_\t_\n\n", encoding="utf-8")
    with pytest.raises(OptionError, match="where are the entity tags"):
        accord.read(tmp_path / "g.conllu")
    (tmp_path / "e.conllu").write_text("\n\n", encoding="utf-8")
    with pytest.raises(AccordError, match="no sentence"):
        accord.read(tmp_path / "e.conllu")


def test_round_trip_through_the_writer(tmp_path):
    _file(tmp_path / "g.conllu", [["B-PER", "I-PER", "O"], ["B-LOC"]], newdoc_every=1)
    corpus = accord.read(tmp_path / "g.conllu")
    accord.write(corpus, tmp_path / "out.conllu", "conllu")
    again = accord.read(tmp_path / "out.conllu")
    assert [[(a.label, a.start, a.end) for a in d.annotations] for d in again.documents] == \
        [[(a.label, a.start, a.end) for a in d.annotations] for d in corpus.documents]
    assert list(again) == list(corpus)
