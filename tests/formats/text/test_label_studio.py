"""Label Studio exports with several annotators per task: every annotator (completed_by) read at once, as sides of
accord agree; counted by hand."""

import json

import pytest

import accord
from accord.errors import AccordWarning, FormatError
from accord.formats.text.label_studio import read_label_studio, read_label_studio_annotators

TEXT = "Alice met Bob in Paris."


def _result(spans):
    return [{"id": f"r{k}", "from_name": "label", "to_name": "text", "type": "labels",
             "value": {"start": s, "end": e, "text": TEXT[s:e], "labels": [label]}} for k, (s, e, label) in
            enumerate(spans)]


def _export(path, tasks):
    path.write_text(json.dumps(tasks), encoding="utf-8")
    return path


def _ann(who, spans, **extra):
    entry = {"result": _result(spans), "was_cancelled": False, **extra}
    if who is not None:
        entry["completed_by"] = who
    return entry


ALICE, BOB, PARIS = (0, 5, "PER"), (10, 13, "PER"), (17, 22, "LOC")


def _tasks():
    return [{"id": 1, "data": {"text": TEXT},
             "annotations": [_ann(7, [ALICE, BOB]), _ann(9, [ALICE, (10, 13, "ORG"), PARIS]),
                             _ann(8, [ALICE], was_cancelled=True)],
             "predictions": [{"model_version": "m1", "result": _result([ALICE, PARIS])}]},
            {"id": 2, "data": {"text": TEXT}, "annotations": [_ann(9, [PARIS]), _ann(7, [PARIS])]}]


def test_every_annotator_at_once(tmp_path):
    """Before: one annotator at a time through annotations:N, whose N-th annotation is another user's in each task
    (task 2 lists user 9 first)."""
    path = _export(tmp_path / "export.json", _tasks())
    found = read_label_studio_annotators(path)
    assert list(found) == ["7", "9", "predictions"]           # the cancelled annotation (user 8): left out
    assert [(a.label, a.start) for a in found["7"]["1"].annotations] == [("PER", 0), ("PER", 10)]
    assert [(a.label, a.start) for a in found["9"]["1"].annotations] == [("PER", 0), ("ORG", 10), ("LOC", 17)]
    assert [list(c) for c in found.values()] == [["1", "2"], ["1", "2"], ["1"]]
    positional = read_label_studio(path, annotation_set="annotations:1")
    assert [a.label for a in positional["2"].annotations] == ["LOC"]     # user 9's, not user 7's


def test_agree_on_the_users_of_one_export(tmp_path):
    """By hand, users 7 and 9, items = spans either marked: task 1 Alice (PER, PER), Bob (PER, ORG), Paris (Non-cat,
    LOC); task 2 Paris (LOC, LOC): observed agreement 2/4. The predictions are read only when chosen."""
    path = _export(tmp_path / "export.json", _tasks())
    with pytest.warns(AccordWarning, match="predictions left out"):
        result = accord.agree(path)
    assert list(result.inputs) == ["7", "9"]
    assert result.totals["items"] == 4
    assert result.totals["coefficients"]["observed_agreement"] == pytest.approx(0.5)
    with pytest.warns(AccordWarning, match=r"document\(s\) not annotated by every annotator chosen left out"):
        three = accord.agree(path, annotators=["7", "9", "predictions"])
    assert three.totals["raters"] == ["7", "9", "predictions"] and three.totals["items"] == 3


def test_an_export_without_users_names_annotators_by_position(tmp_path):
    tasks = _tasks()
    for t in tasks:
        for a in t["annotations"]:
            del a["completed_by"]
    found = read_label_studio_annotators(_export(tmp_path / "e.json", tasks))
    assert list(found) == ["annotations:1", "annotations:2", "predictions"]


@pytest.mark.parametrize("change, message", [
    (lambda t: t[0]["annotations"][1].pop("completed_by"), "names no user .completed_by. while others"),
    (lambda t: t[0]["annotations"][1].update(completed_by=7), "user '7' has two annotations of this task"),
    (lambda t: t[0]["annotations"][1].update(completed_by=[1]), r"completed_by \[1\] is not a user"),
])
def test_annotators_that_cannot_be_told_are_errors(tmp_path, change, message):
    tasks = _tasks()
    change(tasks)
    with pytest.raises(FormatError, match=f"task 1.*{message}"):
        read_label_studio_annotators(_export(tmp_path / "e.json", tasks))


def test_an_older_export_names_users_by_object(tmp_path):
    tasks = _tasks()
    tasks[0]["annotations"][0]["completed_by"] = {"id": 7, "email": "ann@example.org"}
    tasks[1]["annotations"][1]["completed_by"] = {"id": 7, "email": "ann@example.org"}
    assert list(read_label_studio_annotators(_export(tmp_path / "e.json", tasks))) == [
        "9", "ann@example.org", "predictions"]
