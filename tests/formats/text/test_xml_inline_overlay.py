"""MAT's xml_input_is_overlay: "keep non-task markup in the signal" (MAT notes 4, reader options), so that a non-task
element (<P>) is text, not an annotation that stops the task's validation. Offsets counted by hand."""

from __future__ import annotations

import json

import pytest

import accord
from accord.cli import main
from accord.errors import OptionError
from accord.formats import read

TASK = """<task><annotation_set_descriptors><annotation_set_descriptor name='content'>
<annotation label='PERSON'/>
</annotation_set_descriptor></annotation_set_descriptors></task>"""

GOLD = "<P>John met <PERSON>Mary</PERSON>.</P>\n"
PRED = "<P><PERSON>John</PERSON> met <PERSON>Mary</PERSON>.</P>\n"


@pytest.mark.parametrize("fmt", ["xml-inline", "fake-xml-inline"])
def test_markup_of_no_task_element_stays_in_the_signal(tmp_path, fmt):
    (tmp_path / "d.xml").write_text(GOLD, encoding="utf-8")
    plain = read(tmp_path / "d.xml", format=fmt).documents[0]
    assert plain.text == "John met Mary.\n" and sorted(a.label for a in plain.annotations) == ["P", "PERSON"]
    doc = read(tmp_path / "d.xml", format=fmt, xml_overlay_labels={"PERSON"}).documents[0]
    assert doc.text == "<P>John met Mary.</P>\n"
    (person,) = doc.annotations
    # "<P>" (3) + "John met " (9): Mary at 12-16
    assert (person.label, person.start, person.end) == ("PERSON", 12, 16) and doc.text[12:16] == "Mary"


def test_score_with_a_task_and_overlay(tmp_path, capsys):
    (tmp_path / "task.xml").write_text(TASK, encoding="utf-8")
    for side, text in (("gold", GOLD), ("pred", PRED)):
        (tmp_path / side).mkdir()
        (tmp_path / side / "d.xml").write_text(text, encoding="utf-8")
    args = ["score", str(tmp_path / "gold"), str(tmp_path / "pred"), "--task", str(tmp_path / "task.xml"),
            "--format", "xml-inline", "-q", "--output", "json"]
    assert main(args) == 2    # <P> is an annotation of no declared label: the task refuses it
    assert "'P'" in capsys.readouterr().err
    assert main([*args, "--xml-input-is-overlay"]) == 0
    totals = json.loads(capsys.readouterr().out)["totals"]
    # both signals are "<P>John met Mary.</P>\n": Mary (12-16) on both sides matches, John (3-7) is spurious
    assert (totals["gold"], totals["pred"], totals["match"], totals["spurious"]) == (1, 2, 1, 1)


def test_overlay_needs_a_task_and_xml(tmp_path):
    (tmp_path / "d.xml").write_text(GOLD, encoding="utf-8")
    with pytest.raises(OptionError, match="needs a task"):
        accord.score(tmp_path / "d.xml", tmp_path / "d.xml", xml_input_is_overlay=True)
    (tmp_path / "task.xml").write_text(TASK, encoding="utf-8")
    with pytest.raises(OptionError, match="not brat"):
        accord.score(tmp_path / "d.xml", tmp_path / "d.xml", task=tmp_path / "task.xml", format="brat",
                     xml_input_is_overlay=True)
