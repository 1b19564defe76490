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
    ('{"text": "abc", "label": ["positive"]}', "text-classification export"),
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
    with pytest.warns(AccordWarning, match="results that are not spans or relations left out: 1 choices"):
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
