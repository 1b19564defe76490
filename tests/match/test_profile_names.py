"""With --task and no --profile the task's unnamed similarity profile is its default one, and results, captions
and errors call it so, never "mat" (issue 33, item 9): MAT's manual, "If you leave one of the profiles unnamed, it
will be the default profile for the task" (../shared/seeds/000_1c0f8e68edc351d1.txt, "Multiple profiles"), and
MATScore writes it ``<default>`` in its CSV files (../shared/notes/mat-scorer.md). "mat" stays the name of MAT's
built-in profiles, used when the task defines none."""

from __future__ import annotations

import json

import pytest

from accord.cli import main
from accord.errors import AccordError
from accord.match.engine import make_similarity
from accord.model.schema import parse_task

DESCRIPTORS = """<annotation_set_descriptors><annotation_set_descriptor name='content'>
<annotation label='PERSON'/><annotation label='LOCATION'/>
<attribute name='nomtype' of_annotation='PERSON,LOCATION'><choice>NAM</choice><choice>NOM</choice></attribute>
</annotation_set_descriptor></annotation_set_descriptors>"""
UNNAMED = f"""<task>{DESCRIPTORS}<similarity_profile><tag_profile true_labels='PERSON,LOCATION'>
<dimension name='_label' weight='1'/><dimension name='_span' method='overlap' weight='1'/>
</tag_profile></similarity_profile></task>"""


def _inputs(tmp_path, task: str):
    (tmp_path / "task.xml").write_text(task, encoding="utf-8")
    doc = lambda anns: {"id": "d", "text": "x" * 30, "annotations": anns}  # noqa: E731
    (tmp_path / "g.jsonl").write_text(json.dumps(doc([{"label": "PERSON", "start": 0, "end": 4}])) + "\n")
    (tmp_path / "p.jsonl").write_text(json.dumps(doc([{"label": "PERSON", "start": 0, "end": 3}])) + "\n")
    return [str(tmp_path / "g.jsonl"), str(tmp_path / "p.jsonl"), "--task", str(tmp_path / "task.xml")]


def test_the_unnamed_task_profile_is_called_default_in_json_and_captions(tmp_path, capsys):
    args = _inputs(tmp_path, UNNAMED)
    assert main(["score", *args, "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["options"]["profile"] == "default"
    # by hand: one gold PERSON [0,4) and one predicted PERSON [0,3): paired by overlap, a clash (similarity < 1)
    assert (out["totals"]["gold_clash"], out["totals"]["pred_clash"]) == (1, 1)
    assert main(["score", *args]) == 0
    shown = capsys.readouterr()
    assert "profile default" in shown.out + shown.err and "profile mat" not in shown.out + shown.err
    # the name given in the result is accepted back
    assert main(["score", *args, "--profile", "default", "--output", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["totals"] == out["totals"]


def test_errors_name_the_unnamed_task_profile_as_the_tasks_default():
    task = parse_task(UNNAMED.replace("name='_span' method='overlap'", "name='_span' method='nonsense'"))
    with pytest.raises(AccordError) as exc:
        make_similarity(None, task)
    assert "the task's unnamed (default) similarity profile" in str(exc.value) and "mat" not in str(exc.value)


def test_mat_names_only_the_built_in_profiles():
    assert make_similarity("mat", None).name == "mat"
    assert make_similarity(None, parse_task(f"<task>{DESCRIPTORS}</task>")).name == "mat"   # the task has none
    named = UNNAMED.replace("<similarity_profile>", "<similarity_profile name='loose'>")
    assert make_similarity("loose", parse_task(named)).name == "loose"
