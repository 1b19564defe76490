"""MAT task files: descriptor options that accord reads but does not apply are named in a warning."""

from __future__ import annotations

import warnings

import pytest

import accord
from accord.cli import main
from accord.model import Corpus, Document
from accord.model import make_annotation as A
from accord.model.schema import TaskWarning, parse_task

# the descriptor manual's table: distinguishing_attribute_for_equality ("yes") is deprecated and instructs only the
# reconciliation tool ("The current reconciliation tool requires instructions about which attributes to use when
# comparing annotations"); the scorer's pairing is what accord runs
TASK = """<task><annotation_set_descriptors><annotation_set_descriptor name='content'>
<annotation label='PERSON'/>
<attribute name='nomtype' of_annotation='PERSON'{extra}><choice>NAM</choice><choice>NOM</choice></attribute>
</annotation_set_descriptor></annotation_set_descriptors></task>"""


def corpora() -> tuple[Corpus, Corpus]:
    # one PERSON: same span, nomtype NAM against NOM; one PERSON matched exactly
    gold = Document("d", (A("PERSON", 0, 4, {"nomtype": "NAM"}), A("PERSON", 10, 14, {"nomtype": "NAM"})), "x" * 20)
    pred = Document("d", (A("PERSON", 0, 4, {"nomtype": "NOM"}), A("PERSON", 10, 14, {"nomtype": "NAM"})), "x" * 20)
    return Corpus([gold]), Corpus([pred])


def test_distinguishing_attribute_for_equality_is_accepted_with_a_warning():
    with pytest.warns(TaskWarning, match=r"attribute 'nomtype': distinguishing_attribute_for_equality is ignored: "
                                         r"it instructs only MAT's \(deprecated\) reconciliation tool"):
        task = parse_task(TASK.format(extra=" distinguishing_attribute_for_equality='yes'"), source="t.xml")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        plain = parse_task(TASK.format(extra=""))     # without it: no warning
    assert task.labels["PERSON"].attributes.keys() == plain.labels["PERSON"].attributes.keys()
    # ignored: the same counts as without it (hand count: one match, one clash on nomtype under MAT's default profile)
    g, p = corpora()
    with_it, without = accord.score(g, p, task=task), accord.score(g, p, task=plain)
    assert (with_it.totals.match, with_it.totals.gold_clash, with_it.totals.pred_clash) == (1, 1, 1)
    assert with_it.totals == without.totals


def test_distinguishing_attribute_for_equality_on_the_command_line(tmp_path, capsys):
    (tmp_path / "t.xml").write_text(TASK.format(extra=" distinguishing_attribute_for_equality='yes'"))
    g, p = corpora()
    accord.write(g, tmp_path / "g.json", format="mat-json")
    accord.write(p, tmp_path / "p.json", format="mat-json")
    assert main(["score", str(tmp_path / "g.json"), str(tmp_path / "p.json"), "--task", str(tmp_path / "t.xml"),
                 "--quiet"]) == 0
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if "distinguishing_attribute_for_equality" in line]
    assert len(lines) == 1 and "t.xml" in lines[0], err
