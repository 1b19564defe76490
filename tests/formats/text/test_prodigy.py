"""Prodigy's JSON lines: spans of accepted tasks, answers left out with a count, annotators from _annotator_id /
_session_id. Hand-made tasks in Prodigy's documented task format (db-out), and spaCy's ner_tweets demo file."""

import json
import zlib

import pytest

import accord
from accord.errors import AccordWarning, FormatError, OptionError
from accord.formats import sniff
from accord.formats.text.prodigy import read_prodigy, read_prodigy_annotators

from ...conftest import SHARED

TEXT1 = "Alice met Bob in Paris."
TEXT2 = "Rome is far."


def _t(text, spans, answer="accept", who=None, **extra):
    task = {"text": text, "_input_hash": zlib.crc32(text.encode()), "_task_hash": 1, "_view_id": "ner_manual",
            "spans": [{"start": s, "end": e, "label": lab, "token_start": 0, "token_end": 0} for s, e, lab in spans],
            "answer": answer, **extra}
    if who is not None:
        task["_annotator_id"] = task["_session_id"] = f"ner-{who}"
    return task


def _file(path, tasks):
    path.write_text("".join(json.dumps(t) + "\n" for t in tasks), encoding="utf-8")
    return path


def test_prodigy_is_sniffed_by_content_and_read(tmp_path):
    """Before: read as doccano's JSON lines, every task read whatever its answer (a rejected task's spans counted)."""
    path = _file(tmp_path / "a.jsonl", [_t(TEXT1, [(0, 5, "PER"), (17, 22, "LOC")]),
                                        _t(TEXT2, [(0, 4, "LOC")], answer="reject")])
    assert sniff(path).name == "prodigy"
    with pytest.warns(AccordWarning, match=r"left out: 1 reject"):
        corpus = accord.read(path)
    assert list(corpus) == ["1"]          # the rejected input: not a document of this annotator
    assert [(a.label, a.start, a.end) for a in corpus["1"].annotations] == [("PER", 0, 5), ("LOC", 17, 22)]
    both = read_prodigy(path, answers="accept,reject")
    assert list(both) == ["1", "2"]


def test_binary_tasks_of_one_input_are_one_document(tmp_path):
    """ner.teach asks one span per task: the accepted ones make the document; the rejected one is left out."""
    path = _file(tmp_path / "b.jsonl", [_t(TEXT1, [(0, 5, "PER")], _is_binary=True),
                                        _t(TEXT1, [(10, 13, "LOC")], answer="reject", _is_binary=True),
                                        _t(TEXT1, [(17, 22, "LOC")], _is_binary=True),
                                        _t(TEXT2, [], answer="ignore")])
    with pytest.warns(AccordWarning, match=r"1 ignore, 1 reject"):
        corpus = read_prodigy(path)
    assert [(a.label, a.start) for a in corpus["1"].annotations] == [("PER", 0), ("LOC", 17)]


def test_several_annotators_are_chosen_or_read_all_at_once(tmp_path):
    path = _file(tmp_path / "c.jsonl", [
        _t(TEXT1, [(0, 5, "PER"), (10, 13, "PER")], who="ann"), _t(TEXT1, [(0, 5, "PER")], who="bob"),
        _t(TEXT2, [(0, 4, "LOC")], who="ann"), _t(TEXT2, [(0, 4, "ORG")], who="bob", answer="reject")])
    with pytest.raises(FormatError, match=r"2 annotators answered these tasks \(ner-ann, ner-bob\).*accord agree"):
        read_prodigy(path)
    with pytest.warns(AccordWarning):
        bob = read_prodigy(path, annotation_set="ner-bob")
    assert list(bob) == ["1"]
    with pytest.raises(OptionError, match="no annotator 'carl'.*ner-ann, ner-bob"), pytest.warns(AccordWarning):
        read_prodigy(path, annotation_set="carl")
    with pytest.warns(AccordWarning, match=r"1 document\(s\) left out: not accepted by every annotator"):
        both = read_prodigy_annotators(path)
    assert list(both) == ["ner-ann", "ner-bob"]
    assert [list(c) for c in both.values()] == [["1"], ["1"]]


def test_agree_reads_the_annotators_of_one_prodigy_file(tmp_path):
    """By hand: on document 1 ann marks Alice PER and Bob PER, bob Alice PER: items Alice (PER, PER), Bob (PER,
    Non-cat); observed agreement 1/2. The pairwise strict F: 2*1/(2+1)."""
    path = _file(tmp_path / "c.jsonl", [_t(TEXT1, [(0, 5, "PER"), (10, 13, "PER")], who="ann"),
                                        _t(TEXT1, [(0, 5, "PER")], who="bob")])
    result = accord.agree(path, span_measure="strict")
    assert list(result.inputs) == ["ner-ann", "ner-bob"]
    assert result.totals["items"] == 2
    assert result.totals["coefficients"]["observed_agreement"] == pytest.approx(0.5)
    assert result.span.to_dict()["pairs"][0]["totals"]["f1"] == pytest.approx(2 / 3)


@pytest.mark.parametrize("task, message", [
    ({"text": "abc", "spans": [{"start": 0, "end": 9, "label": "X"}], "answer": "accept"}, r"\[0, 9\) does not fit"),
    ({"text": "abc", "spans": [{"start": 0, "end": 1, "label": "X"}], "answer": "maybe"}, "answer 'maybe'"),
    ({"text": "abc", "spans": [{"start": "0", "end": 1, "label": "X"}], "answer": "accept"}, "start '0'"),
    ({"text": "abc", "spans": [{"start": 0, "end": 1, "label": ""}], "answer": "accept"}, "label '' is not a name"),
    ({"text": "abc", "spans": [{"start": 0, "end": 1, "label": "X", "text": "b"}], "answer": "accept"},
     "the text at .* is 'a', the span says 'b'"),
    ({"html": "<b>x</b>", "answer": "accept"}, "no 'text' string"),
])
def test_errors_name_the_line(tmp_path, task, message):
    path = _file(tmp_path / "e.jsonl", [_t(TEXT2, [])] + [task])
    with pytest.raises(FormatError, match=f"e.jsonl:2: .*{message}"):
        accord.read(path, format="prodigy")


def test_relations_and_choices_are_counted_when_left_out(tmp_path):
    path = _file(tmp_path / "r.jsonl", [_t(TEXT1, [(0, 5, "PER")], relations=[{"head": 0, "child": 2}]),
                                        _t(TEXT2, [], accept=["POSITIVE"], options=[{"id": "POSITIVE"}])])
    with pytest.warns(AccordWarning, match=r"1 task\(s\) with relations .*1 task\(s\) with choices"):
        read_prodigy(path)


def test_write_and_read_back(tmp_path):
    path = _file(tmp_path / "a.jsonl", [_t(TEXT1, [(0, 5, "PER")]), _t(TEXT2, [(0, 4, "LOC")])])
    corpus = read_prodigy(path)
    accord.formats.write(corpus, tmp_path / "b.jsonl", "prodigy")
    back = read_prodigy(tmp_path / "b.jsonl")
    assert [[(a.label, a.start, a.end) for a in d.annotations] for d in back.documents] == [
        [(a.label, a.start, a.end) for a in d.annotations] for d in corpus.documents]


def test_the_ner_tweets_demo_is_prodigy():
    """spaCy's ner_tweets demo is a Prodigy db-out file (_input_hash, _view_id, answer): now sniffed as such."""
    path = SHARED / "corpora" / "outside3b" / "spacy" / "ner_tweets_demo.jsonl"
    if not path.exists():
        pytest.skip(f"{path} is not here")
    assert sniff(path).name == "prodigy"
    corpus = accord.read(path)
    assert [(a.label, corpus["1"].surface(a.start, a.end)) for a in corpus["1"].annotations] == [
        ("PERSON", "Ed Sheeran")]


def test_a_folder_of_prodigy_files_one_annotator_each(tmp_path):
    """Each annotator's dataset exported alone, the inputs in different orders: one input is one document id in
    every file (numbered over the files), so the annotators pair. By hand: items Alice (PER, PER), Bob (PER,
    Non-cat), Rome (LOC, LOC): observed agreement 2/3. An input only one file accepted is left out."""
    from accord.formats.projects import detect

    _file(tmp_path / "ann.jsonl", [_t(TEXT1, [(0, 5, "PER"), (10, 13, "PER")], who="ann"),
                                   _t(TEXT2, [(0, 4, "LOC")], who="ann"), _t("Extra.", [], who="ann")])
    _file(tmp_path / "bob.jsonl", [_t(TEXT2, [(0, 4, "LOC")]), _t(TEXT1, [(0, 5, "PER")])])
    assert detect(tmp_path).name == "prodigy"
    with pytest.warns(AccordWarning, match=r"1 document\(s\) left out"):
        result = accord.agree(tmp_path)
    assert list(result.inputs) == ["ner-ann", "bob"]          # _annotator_id, else the file's name
    assert result.totals["items"] == 3
    assert result.totals["coefficients"]["observed_agreement"] == pytest.approx(2 / 3)


def test_a_file_of_several_annotators_in_a_folder_is_an_error(tmp_path):
    _file(tmp_path / "a.jsonl", [_t(TEXT1, [], who="ann"), _t(TEXT1, [], who="bob")])
    _file(tmp_path / "b.jsonl", [_t(TEXT1, [])])
    with pytest.raises(FormatError, match=r"a.jsonl: 2 annotators .*one annotator a file"):
        accord.agree(tmp_path)
