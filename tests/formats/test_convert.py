"""accord convert: token and character offsets through the tokens; what cannot be carried is an error."""

import json

import pytest

import accord
from accord.cli import main
from accord.errors import FormatError
from accord.formats.convert import for_format

from ..conftest import DATA


def _spans(corpus):
    return {d: sorted((a.label, corpus[d].surface(a.start, a.end)) for a in corpus[d].annotations)
            for d in corpus}


def test_conll03_through_text_formats_and_back(tmp_path):
    """The CoNLL-2003 test set (real data) to character offsets (Label Studio, brat) and back to tokens: the same
    tokens, sentences and entities in every document."""
    gold = DATA / "conll03" / "gold.conll"
    assert main(["convert", str(gold), str(tmp_path / "x.json"), "--to", "label-studio"]) == 0
    assert main(["convert", str(tmp_path / "x.json"), str(tmp_path / "back.conll")]) == 0
    original, back = accord.read(gold), accord.read(tmp_path / "back.conll")
    assert original.annotation_count() == back.annotation_count() == 5648
    report = accord.score(gold, tmp_path / "back.conll")
    assert report.totals["match"] == 5648 and report.f1 == 1.0
    assert main(["convert", str(gold), str(tmp_path / "brat"), "--to", "brat"]) == 0
    tokens = for_format(accord.read(tmp_path / "brat", format="brat"), "conll")   # brat names files by document
    for doc_id, doc in original.items():
        again = tokens[doc_id]
        assert tuple(again.tokens) == tuple(doc.tokens) and again.sentences == doc.sentences
        assert [(a.label, a.start, a.end) for a in again.annotations] == \
            [(a.label, a.start, a.end) for a in doc.annotations]


def test_doccano_to_conll_to_label_studio(tmp_path):
    source = DATA / "doccano" / "sequence_labeling.jsonl"
    assert main(["convert", str(source), str(tmp_path / "x.conll")]) == 0
    assert main(["convert", str(tmp_path / "x.conll"), str(tmp_path / "x.json"), "--to", "label-studio"]) == 0
    original, again = accord.read(source), accord.read(tmp_path / "x.json")
    assert _spans(original) == _spans(again) == {"1": [("MISC", "German"), ("ORG", "EU")],
                                                   "2": [("PERSON", "Peter Blackburn")],
                                                   "3": [("PERSON", "Obama")]}


def test_tokens_become_text_with_sentences_on_lines():
    doc = accord.Document("d", (accord.make_annotation("PER", 0, 2),), tokens=("Ada", "Lovelace", "wrote", "."),
                          sentences=((0, 3), (3, 4)))
    (out,) = for_format(accord.Corpus([doc]), "brat").documents
    assert out.text == "Ada Lovelace wrote\n." and out.surface(0, 12) == "Ada Lovelace"
    assert [(a.start, a.end) for a in out.annotations] == [(0, 12)]


@pytest.mark.parametrize("annotations, message", [
    ((accord.make_annotation("DATE", 0, 6),), "does not begin and end on word boundaries"),
    ((accord.make_annotation("A", 0, 5), accord.make_annotation("B", 0, 9)), "overlap"),
    ((accord.make_annotation("A", 0, 5, {"kind": "x"}),), "has attributes"),
])
def test_what_tags_cannot_hold_is_an_error(annotations, message):
    corpus = accord.Corpus([accord.Document("d", annotations, text="Alice Bob and Carol")])
    with pytest.raises(FormatError, match=message):
        for_format(corpus, "conll")


def test_relations_refused_by_column_formats(tmp_path, capsys):
    source = DATA / "doccano" / "relation_extraction.jsonl"
    # spans on whitespace words: "September 4, 1998," and "Sergey Brin."
    text = source.read_text().replace('"end_offset": 39', '"end_offset": 40').replace('"end_offset": 70',
                                                                                        '"end_offset": 71')
    (tmp_path / "r.jsonl").write_text(text)
    assert main(["convert", str(tmp_path / "r.jsonl"), str(tmp_path / "r.conll"), "--from", "doccano"]) == 2
    assert "has no span; tags hold spans only" in capsys.readouterr().err
    assert main(["convert", str(tmp_path / "r.jsonl"), str(tmp_path / "r.json"), "--from", "doccano",
                 "--to", "label-studio"]) == 0
    assert accord.score(tmp_path / "r.jsonl", tmp_path / "r.json", gold_format="doccano").f1 == 1.0


def test_unknown_output_format(tmp_path, capsys):
    assert main(["convert", str(DATA / "doccano" / "sequence_labeling.jsonl"), str(tmp_path / "x.unknown")]) == 2
    assert "cannot tell the output format" in capsys.readouterr().err


def test_tokens_to_xmi(tmp_path):
    pytest.importorskip("cassis")
    (tmp_path / "one.conll").write_text("Ada B-PER\nLovelace I-PER\nwrote O\n\n")
    assert main(["convert", str(tmp_path / "one.conll"), str(tmp_path / "one.xmi")]) == 0
    (doc,) = accord.read(tmp_path / "one.xmi").documents
    assert [(a.label, doc.surface(a.start, a.end)) for a in doc.annotations] == [("PER", "Ada Lovelace")]


@pytest.mark.parametrize("label, target, dest", [("X|Y=Z", "conllu", "o.conllu"), ("X O", "conll", "o.conll"),
                                                 ("X O", "vrt", "o.vrt"), ("Person Name", "brat", "out")])
def test_a_label_the_target_would_read_back_as_another_is_refused(tmp_path, capsys, label, target, dest):
    """'X|Y=Z' in CoNLL-U's MISC read back as X, 'B-X O' in a CoNLL column as O, and a brat type with a space
    could not be read at all: each was written with exit 0, and the copy scored 0 against its source (an outside
    check). Now an error naming the document and the label, and nothing written."""
    from accord.cli import main

    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"id": "d1", "text": "John Smith", "annotations": [
        {"label": label, "start": 0, "end": 10}]}) + "\n", encoding="utf-8")
    assert main(["convert", str(src), str(tmp_path / dest), "--to", target]) == 2
    err = capsys.readouterr().err
    assert "document 'd1'" in err and repr(label) in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.jsonl"]


def test_an_output_of_unknown_extension_names_the_option_of_convert(tmp_path, capsys):
    """convert takes --to; the hint said --out-format (adjudicate's option: an outside check)."""
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"id": "d", "text": "John", "annotations": []}) + "\n", encoding="utf-8")
    assert main(["convert", str(src), str(tmp_path / "zz")]) == 2
    err = capsys.readouterr().err
    assert "give it with --to" in err and "--out-format" not in err
