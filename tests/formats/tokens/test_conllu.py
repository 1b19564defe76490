"""CoNLL-U files built with the conllu library, read by accord and scored against seqeval on the same tags."""

import gzip
import random
import warnings
from pathlib import Path

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


# ------------------------------------------------------------------ the column rule (issue 33, item 2)
def _line(k, form, misc, *, n=10):
    """A word line of ``n`` tab-separated columns: ID FORM, ``_`` between, MISC last (10 columns is CoNLL-U)."""
    return "\t".join([str(k), form] + ["_"] * (n - 3) + [misc]) + "\n"


@pytest.mark.parametrize("columns, found", [(9, 9), (11, 11)])
def test_a_word_line_of_other_than_ten_columns_is_an_error_naming_it(tmp_path, columns, found):
    # before: the 9-column line lost its MISC (the tag read as O), the 11-column one was read as if it had 10
    text = "# sent_id = 1\n" + _line(1, "John", "NER=B-PER") + _line(2, "Smith", "NER=I-PER", n=columns) + "\n"
    (tmp_path / "g.conllu").write_text(text, encoding="utf-8")
    with pytest.raises(FormatError, match=rf"g\.conllu:3: expected 10 tab-separated columns \(as CoNLL-U requires\), "
                                          rf"found {found}$"):
        accord.read(tmp_path / "g.conllu")


def test_a_trailing_tab_is_an_eleventh_column(tmp_path):
    text = "# sent_id = 1\n" + _line(1, "John", "NER=B-PER").replace("\n", "\t\n") + "\n"
    (tmp_path / "g.conllu").write_text(text, encoding="utf-8")
    with pytest.raises(FormatError, match=r"g\.conllu:2: .*found 11"):
        accord.read(tmp_path / "g.conllu")


def test_plus_header_columns_are_the_count_required(tmp_path):
    # the header declares 11 columns (NE after MISC) but the words have 10: before, every NER= of MISC was ignored
    # (the NE column, absent, read as O) and the file scored as having no entity
    header = "# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC NE\n"
    text = header + "# sent_id = 1\n" + _line(1, "John", "NER=B-PER") + _line(2, "sleeps", "NER=O") + "\n"
    (tmp_path / "g.conllu").write_text(text, encoding="utf-8")
    with pytest.raises(FormatError, match=r"g\.conllu:3: expected 11 tab-separated columns \(as its "
                                          r"'# global.columns' line declares\), found 10$"):
        accord.read(tmp_path / "g.conllu")
    # fewer than declared (4 declared, a word of 3) is as much an error; exactly as declared is read
    text = ("# global.columns = ID FORM UPOS NE\n# sent_id = 1\n1\tAlice\tPROPN\tB-PER\n2\tsleeps\tVERB\n\n")
    (tmp_path / "h.conllu").write_text(text, encoding="utf-8")
    with pytest.raises(FormatError, match=r"h\.conllu:4: expected 4 .*found 3$"):
        accord.read(tmp_path / "h.conllu")


def test_multiword_tokens_empty_nodes_comments_and_blank_lines_stay_valid(tmp_path):
    text = ("# newdoc id = d1\n# sent_id = 1\n# text = Alice's cat\n"
            "1-2\tAlice's\t_\t_\t_\t_\t_\t_\t_\t_\n" + _line(1, "Alice", "NER=B-PER") + _line(2, "'s", "NER=O")
            + "2.1\tempty\t_\t_\t_\t_\t_\t_\t_\t_\n" + _line(3, "cat", "_") + "   \n\n\n"
            "# sent_id = 2\n" + _line(1, "Paris", "NER=B-LOC") + "\n")
    (tmp_path / "g.conllu").write_text(text, encoding="utf-8")
    (doc,) = accord.read(tmp_path / "g.conllu").documents
    assert doc.tokens == ("Alice", "'s", "cat", "Paris")
    assert [(a.label, a.start, a.end) for a in doc.annotations] == [("PER", 0, 1), ("LOC", 3, 4)]
    assert doc.metadata["lines"] == (5, 13)    # the first word of each sentence


def test_columns_are_split_at_tabs_only(tmp_path):
    # a FORM may hold spaces (UD v2): before, conllu's split at two spaces shifted the columns and the tag became O
    text = "# sent_id = 1\n" + _line(1, "New  York", "NER=B-LOC") + _line(2, "a\u2028b", "NER=B-PER") + "\n"
    (tmp_path / "g.conllu").write_text(text, encoding="utf-8")
    (doc,) = accord.read(tmp_path / "g.conllu").documents
    assert doc.tokens == ("New  York", "a\u2028b")
    assert [(a.label, a.start, a.end) for a in doc.annotations] == [("LOC", 0, 1), ("PER", 1, 2)]


def test_the_cli_refuses_a_bad_column_count_in_one_line(tmp_path, capsys):
    from accord.cli import main

    good = "# sent_id = 1\n" + _line(1, "John", "NER=B-PER") + "\n"
    (tmp_path / "g.conllu").write_text(good, encoding="utf-8")
    (tmp_path / "p.conllu").write_text(good.replace("\t_\tNER", "\tNER"), encoding="utf-8")
    assert main(["score", str(tmp_path / "g.conllu"), str(tmp_path / "p.conllu")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "p.conllu:2: expected 10 tab-separated columns" in err


# ------------------------------------------------------------------ real files: NorNE (UD Norwegian, name= in MISC)
NORNE = Path(__file__).resolve().parents[3].parent / "shared" / "corpora" / "outside3b" / "norne"


def _misc_tags(path):
    """The ``name=`` tags of the words of a NorNE file per sentence, read by hand: split at tabs, words are lines
    whose ID is an integer, a word without ``name=`` is O."""
    sentences, current = [], []
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        text = fh.read()
    for line in text.split("\n"):
        cols = line.split("\t")
        if not line.strip():
            if current:
                sentences.append(current)
            current = []
        elif cols[0].isdigit():
            misc = dict(item.partition("=")[::2] for item in cols[9].split("|"))
            current.append(misc.get("name", "O"))
    return sentences + ([current] if current else [])


@pytest.mark.parametrize("gold, pred", [("no_bokmaal-ud-test.conllu.gz", "no_bokmaal-ud-test.pred1.conllu.gz"),
                                        ("no_nynorsk-ud-test.conllu.gz", "no_nynorsk-ud-test.pred2.conllu.gz")])
def test_norne_scores_equal_seqeval_on_its_tags(tmp_path, gold, pred):
    if not (NORNE / gold).exists():
        pytest.skip(f"NorNE test files not found in {NORNE}")
    files = []
    for name in (gold, pred):
        out = tmp_path / name[:-3]
        with gzip.open(NORNE / name) as fh:
            out.write_bytes(fh.read())
        files.append(out)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = accord.score(*files)
    g, p = _misc_tags(NORNE / gold), _misc_tags(NORNE / pred)
    assert report.f1 == pytest.approx(seqeval_metrics.f1_score(g, p), abs=1e-12)
    assert report.totals["precision"] == pytest.approx(seqeval_metrics.precision_score(g, p), abs=1e-12)
    assert report.totals["recall"] == pytest.approx(seqeval_metrics.recall_score(g, p), abs=1e-12)
