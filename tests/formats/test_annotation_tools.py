"""Exports of annotation tools: doccano's JSON lines (its own example files) and Label Studio's JSON export."""

import json
import warnings

import pytest

import accord
from accord.errors import AccordError, AccordWarning, FormatError

from ..conftest import DATA

DOCCANO = DATA / "doccano"


def test_doccano_sequence_labeling_example():
    corpus = accord.read(DOCCANO / "sequence_labeling.jsonl")
    assert [[(a.label, a.start, a.end) for a in d.annotations] for d in corpus.documents] == [
        [("ORG", 0, 2), ("MISC", 11, 17)], [("PERSON", 0, 15)], [("PERSON", 10, 15)]]
    assert corpus["1"].surface(11, 17) == "German"


def test_doccano_relations_scored_without_a_task(tmp_path):
    gold = DOCCANO / "relation_extraction.jsonl"
    obj = json.loads(gold.read_text())
    obj["entities"][1]["label"] = "TIME"            # DATE [22,39) labelled TIME
    obj["relations"][2]["type"] = "foundedAt"        # ORG -> Sergey Brin: foundedBy becomes foundedAt
    (tmp_path / "pred.jsonl").write_text(json.dumps(obj) + "\n")
    report = accord.score(gold, tmp_path / "pred.jsonl")
    # by hand, strict pairing: entities 3 of 4 match, DATE missing and TIME spurious; relations: the foundedAt to the
    # DATE points to an unpaired span, so it fails too; foundedBy to Larry Page matches; the changed one fails
    counts = report.by_label
    assert (counts["ORG"]["match"], counts["PERSON"]["match"]) == (1, 2)
    assert (counts["DATE"]["missing"], counts["TIME"]["spurious"]) == (1, 1)
    assert counts["foundedBy"]["match"] == 1 and counts["foundedBy"]["missing"] == 1
    assert counts["foundedAt"]["gold"] == 1 and counts["foundedAt"]["pred"] == 2
    assert report.totals["match"] == 4 and report.totals["gold"] == 7 and report.totals["pred"] == 7


@pytest.mark.parametrize("line, message", [
    ('{"text": "abc", "label": [[0, 1, "X"], "positive"]}', "mixes spans and classes of whole texts"),
    ('{"text": "abc", "label": [[0, 9, "X"]]}', r"span \[0, 9\) does not fit"),
    ('{"text": "abc", "label": [[0, 1]]}', r"expected \[start, end, label\]"),
    ('{"label": []}', "no 'text' string"),
    ('{"text": "ab", "entities": [{"id": 1, "start_offset": 0, "end_offset": 1, "label": "X"}], '
     '"relations": [{"from_id": 1, "to_id": 7, "type": "r"}]}', "7"),
])
def test_doccano_errors_name_the_line(tmp_path, line, message):
    (tmp_path / "x.jsonl").write_text('{"text": "fine", "label": []}\n' + line + "\n")
    with pytest.raises(FormatError, match=message):
        accord.read(tmp_path / "x.jsonl", format="doccano")


def _task(task_id, text, spans, relations=(), *, key="annotations", cancelled=False):
    results = [{"id": f"s{k}", "from_name": "label", "to_name": "text", "type": "labels",
                "value": {"start": s, "end": e, "text": text[s:e], "labels": [label]}, "origin": "manual"}
               for k, (s, e, label) in enumerate(spans)]
    results += [{"from_id": f"s{a}", "to_id": f"s{b}", "type": "relation", "direction": "right", "labels": [label]}
                for a, b, label in relations]
    results.append({"from_name": "sentiment", "to_name": "text", "type": "choices",
                    "value": {"choices": ["Neutral"]}})
    entry = {"id": 100 + task_id, "result": results, "was_cancelled": cancelled, "ground_truth": False,
             "completed_by": 1, "lead_time": 3.2}
    return {"id": task_id, "data": {"text": text}, key: [entry], "meta": {}, "project": 1}


def test_label_studio_annotations_against_predictions(tmp_path):
    text = "Alice met Bob in Paris 😀 and Rome."
    gold = _task(1, text, [(0, 5, "PER"), (10, 13, "PER"), (17, 22, "LOC"), (31, 35, "LOC")], [(0, 1, "knows")])
    pred = _task(1, text, [(0, 5, "PER"), (10, 13, "LOC"), (17, 22, "LOC"), (31, 35, "LOC")], [(0, 1, "knows")],
                 key="predictions")
    # Label Studio counts in UTF-16: "Rome" after the emoji is at code points [29, 33), UTF-16 units [30, 34)
    gold["annotations"][0]["result"][3]["value"].update(start=30, end=34)
    pred["predictions"][0]["result"][3]["value"].update(start=30, end=34)
    gold["annotations"][0]["result"][3]["value"]["text"] = "Rome"
    pred["predictions"][0]["result"][3]["value"]["text"] = "Rome"
    task = {**gold, "predictions": pred["predictions"]}
    (tmp_path / "export.json").write_text(json.dumps([task], ensure_ascii=False), encoding="utf-8")
    with pytest.warns(AccordWarning, match="results left out, accord reads text spans .labels. and relations: 1 choices"):
        corpus = accord.read(tmp_path / "export.json")
    spans = [(a.label, a.start, a.end) for a in corpus["1"].annotations if a.start is not None]
    assert spans[-1] == ("LOC", 29, 33) and corpus["1"].surface(29, 33) == "Rome"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AccordWarning)
        report = accord.score(tmp_path / "export.json", tmp_path / "export.json", pred_set="predictions")
    # by hand: Bob PER vs LOC fails, three spans match; the relation points to Bob, whose spans did not pair
    assert (report.totals["gold"], report.totals["pred"], report.totals["match"]) == (5, 5, 3)


def test_label_studio_choosing_among_annotators(tmp_path):
    text = "Alice met Bob"
    task = _task(1, text, [(0, 5, "PER")])
    second = _task(1, text, [(0, 5, "PER"), (10, 13, "PER")])["annotations"][0]
    task["annotations"].append(second)
    (tmp_path / "export.json").write_text(json.dumps([task]))
    with pytest.raises(FormatError, match="has 2 annotations; choose one with annotations:1"):
        accord.read(tmp_path / "export.json")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AccordWarning)
        report = accord.score(tmp_path / "export.json", tmp_path / "export.json", gold_set="annotations:1",
                              pred_set="annotations:2")
    assert (report.totals["match"], report.totals["spurious"]) == (1, 1)


def test_label_studio_cancelled_and_missing_annotations(tmp_path):
    tasks = [_task(1, "Alice", [(0, 5, "PER")], cancelled=True), _task(2, "Bob", [(0, 3, "PER")])]
    (tmp_path / "export.json").write_text(json.dumps(tasks))
    with pytest.warns(AccordWarning, match="1 task\\(s\\) without annotations, left out: 1"):
        corpus = accord.read(tmp_path / "export.json")
    assert list(corpus) == ["2"]


def test_label_studio_text_mismatch_is_an_error(tmp_path):
    task = _task(1, "Alice met Bob", [(0, 5, "PER")])
    task["annotations"][0]["result"][0]["value"]["text"] = "Alicia"
    (tmp_path / "export.json").write_text(json.dumps([task]))
    with pytest.raises(AccordError, match="task 1, result s0: the text at \\[0, 5\\) is 'Alice'"):
        accord.read(tmp_path / "export.json")


def test_label_studio_and_doccano_write_and_read_back(tmp_path):
    corpus = accord.read(DOCCANO / "relation_extraction.jsonl")
    accord.write(corpus, tmp_path / "x.json", "label-studio")
    again = accord.read(tmp_path / "x.json")
    assert accord.score(corpus, again).f1 == 1.0 and again.annotation_count() == 7
    accord.write(again, tmp_path / "y.jsonl", "doccano")
    assert accord.score(corpus, accord.read(tmp_path / "y.jsonl")).f1 == 1.0


# -- issue 33: byte-order marks, one task object, doccano's other exports, bounded quotes, the command's options

_LS_TASK = {"id": 7, "data": {"text": "John lives in Rome"},
            "annotations": [{"result": [
                {"id": "a", "type": "labels", "value": {"start": 0, "end": 4, "text": "John", "labels": ["PER"]}},
                {"id": "b", "type": "labels", "value": {"start": 14, "end": 18, "text": "Rome", "labels": ["LOC"]}}]}]}


@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"])
def test_a_byte_order_mark_does_not_defeat_sniffing(tmp_path, bom):
    doccano = tmp_path / "d.jsonl"
    doccano.write_bytes(bom + b'{"id": 1, "text": "John lives", "label": [[0, 4, "PER"]]}\n')
    ls = tmp_path / "t.json"
    ls.write_bytes(bom + json.dumps([_LS_TASK]).encode())
    # before: with a BOM, doccano was read as accord's JSON lines ('"id" is missing') and Label Studio not recognised
    assert accord.formats.sniff(doccano).name == "doccano"
    assert accord.formats.sniff(ls).name == "label-studio"
    assert [(a.label, a.start, a.end) for a in accord.read(doccano)["1"].annotations] == [("PER", 0, 4)]
    assert [(a.label, a.start, a.end) for a in accord.read(ls)["7"].annotations] == [("PER", 0, 4), ("LOC", 14, 18)]


def test_a_byte_order_mark_of_utf16_chooses_the_codec_of_sniffing(tmp_path):
    ls = tmp_path / "t.json"
    ls.write_bytes(json.dumps([_LS_TASK]).encode("utf-16"))   # with its BOM
    assert accord.formats.sniff(ls).name == "label-studio"
    with accord._support.io.text_encoding("utf-16"):
        assert len(accord.read(ls)["7"].annotations) == 2


def test_label_studio_export_of_one_task_object(tmp_path):
    one = tmp_path / "1.json"
    one.write_text(json.dumps(_LS_TASK, indent=2))
    assert accord.formats.sniff(one).name == "label-studio"   # before: "cannot tell the format of this file"
    listed = tmp_path / "all.json"
    listed.write_text(json.dumps([_LS_TASK]))
    assert accord.score(one, listed).totals["match"] == 2


def test_label_studio_task_without_text_spans_needs_no_text(tmp_path):
    # a classification of a review's fields: which field is the text cannot be told, and need not be
    task = {"id": 3, "data": {"reviewText": "good", "summary": "ok"},
            "annotations": [{"result": [{"type": "choices", "value": {"choices": ["positive"]}}]}]}
    path = tmp_path / "c.json"
    path.write_text(json.dumps(task))
    with pytest.warns(AccordWarning, match="1 choices"):
        corpus = accord.read(path)
    assert corpus["3"].annotations == () and corpus["3"].text is None
    task["annotations"][0]["result"].append({"type": "labels", "value": {"start": 0, "end": 2, "labels": ["X"]}})
    path.write_text(json.dumps(task))
    with pytest.raises(FormatError, match="which field of 'data' is the text"):   # with a span it must be told
        accord.read(path)


def test_label_studio_quote_mismatch_is_shortened(tmp_path):
    text = "a" * 100_000
    task = {"id": 1, "data": {"text": text}, "annotations": [{"result": [
        {"type": "labels", "value": {"start": 0, "end": 100_000, "text": "b" * 100_000, "labels": ["X"]}}]}]}
    (tmp_path / "t.json").write_text(json.dumps([task]))
    with pytest.raises(FormatError) as err:
        accord.read(tmp_path / "t.json")
    assert len(str(err.value)) < 400 and "(100,000 characters)" in str(err.value)


def test_label_studio_hint_names_the_commands_option(tmp_path, capsys):
    from accord.cli import main

    task = {"id": 1, "data": {"text": "ab"}, "annotations": [{"result": []}, {"result": []}]}
    (tmp_path / "t.json").write_text(json.dumps([task]))
    assert main(["convert", str(tmp_path / "t.json"), str(tmp_path / "o.jsonl")]) == 2
    err = capsys.readouterr().err
    assert "(--set)" in err and "--gold-set" not in err      # before: convert was told --gold-set / --pred-set
    assert main(["score", str(tmp_path / "t.json"), str(tmp_path / "t.json")]) == 2
    assert "(--gold-set / --pred-set)" in capsys.readouterr().err


def test_doccano_intent_detection_entities_as_lists(tmp_path):
    path = tmp_path / "intent.jsonl"
    path.write_text('{"text": "Find a flight from Memphis to Tacoma", "entities": [[19, 26, "City"], [30, 36, "City"]],'
                    ' "cats": ["flight"]}\n')
    with pytest.warns(AccordWarning, match=r"1 class\(es\) of whole texts \('cats'\) left out"):
        corpus = accord.read(path)
    doc = corpus["1"]
    assert [(a.label, doc.surface(a.start, a.end)) for a in doc.annotations] == [("City", "Memphis"), ("City", "Tacoma")]


def test_doccano_pretty_printed_objects(tmp_path):
    one = {"text": "Google was founded by Larry Page.", "entities": [
        {"id": 0, "start_offset": 0, "end_offset": 6, "label": "ORG"},
        {"id": 1, "start_offset": 22, "end_offset": 32, "label": "PERSON"}],
        "relations": [{"id": 0, "from_id": 0, "to_id": 1, "type": "foundedBy"}]}
    path = tmp_path / "pretty.jsonl"
    path.write_text(json.dumps(one, indent=4) + "\n" + json.dumps({**one, "id": 9}, indent=2) + "\n")
    corpus = accord.read(path)
    # document ids: the first object's line (1), then the second's own id
    assert list(corpus) == ["1", "9"]
    assert sorted(a.label for a in corpus["9"].annotations) == ["ORG", "PERSON", "foundedBy"]
    broken = tmp_path / "broken.jsonl"
    broken.write_text(json.dumps(one, indent=4)[:-3])
    with pytest.raises(FormatError, match=r"broken\.jsonl:1: not valid JSON"):
        accord.read(broken, format="doccano")


def test_doccano_missing_text_names_the_fields(tmp_path):
    path = tmp_path / "cols.jsonl"
    path.write_text('{"column_data": "EU rejects", "column_label": [[0, 2, "ORG"]]}\n')
    with pytest.raises(FormatError, match="no 'text' string .its fields: 'column_data', 'column_label'"):
        accord.read(path, format="doccano")
    with pytest.raises(FormatError, match="not a document of accord's JSON lines .*--format doccano"):
        accord.read(path)


def test_prodigy_spans_are_read_and_unknown_span_keys_refused(tmp_path, capsys):
    """A JSONL record with 'spans' (Prodigy, spaCy's projects) was sniffed as doccano and read as a document without
    annotations: F1 0, exit 0 (an outside check). Now read; spans under a key neither tool writes are an error."""
    from accord.cli import main

    gold = tmp_path / "a.jsonl"
    gold.write_text('{"id":"1","text":"John lives","annotations":[{"start":0,"end":4,"label":"PER"}]}\n',
                    encoding="utf-8")
    prodigy = tmp_path / "s.jsonl"
    prodigy.write_text('{"text":"John lives","spans":[{"start":0,"end":4,"label":"PER","token_start":0}]}\n',
                       encoding="utf-8")
    assert main(["score", str(gold), str(prodigy), "--output", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["totals"]["match"] == 1
    other = tmp_path / "e.jsonl"
    other.write_text('{"text":"John lives","ents":[{"start":0,"end":4,"label":"PER"}]}\n', encoding="utf-8")
    assert main(["score", str(gold), str(other)]) == 2
    assert "spans under 'ents'" in capsys.readouterr().err


def test_the_prodigy_export_of_a_spacy_docbin_scores_perfect_against_it(capsys):
    """spaCy's ner_tweets demo: the DocBin and its Prodigy JSONL hold the same entities (shared/corpora)."""
    from pathlib import Path

    from accord.cli import main

    folder = Path("../shared/corpora/outside3b/spacy")
    if not (folder / "ner_tweets_demo.jsonl").exists():
        pytest.skip("../shared/corpora/outside3b/spacy is not here")
    assert main(["score", str(folder / "ner_tweets_demo.spacy"), str(folder / "ner_tweets_demo.jsonl"),
                 "--output", "json"]) == 0
    totals = json.loads(capsys.readouterr().out)["totals"]
    assert totals["gold"] > 0 and totals["match"] == totals["gold"] == totals["pred"]
