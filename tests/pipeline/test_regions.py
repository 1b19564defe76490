"""Real MAT documents: token, zone and SEGMENT annotations beside the content, processable regions (MAT notes 1,
3.5 and the edge cases of 5D). The corpus is written by the tests with the MAT JSON writer; every count is by hand."""

import json
import warnings

import pytest

from accord import score
from accord.cli import main
from accord.errors import OptionError, ValidationError
from accord.formats import write
from accord.model import Corpus, Document, make_annotation
from accord.model.schema import parse_task
from accord.pipeline._regions import RegionWarning, annotation_roles, intersect

TEXT = "HEADER Ann met Bob in Rome . Tail by Cy ."
#       0      7   11  15  19 22   27 29   34 37 40


def at(word, nth=0):
    start = -1
    for _ in range(nth + 1):
        start = TEXT.index(word, start + 1)
    return start, start + len(word)


BODY = (at("Ann")[0], at(".")[1])          # "Ann met Bob in Rome ."
GOLD_SEGMENT = (at("Ann")[0], at("Bob")[1])  # "Ann met Bob"
OTHER_SEGMENT = (at("in")[0], at(".")[1])    # "in Rome ."


def side(content, zones=(("body", BODY), ("header", at("HEADER"))), segments=()):
    anns = [make_annotation(label, *at(word)) for label, word in content]
    anns += [make_annotation("zone", a, b, {"region_type": kind}) for kind, (a, b) in zones]
    anns += [make_annotation("SEGMENT", a, b, {"status": status, "annotator": "x"}) for status, (a, b) in segments]
    pos = 0
    for word in TEXT.split():       # MAT's lex on every whitespace token
        a = TEXT.index(word, pos)
        anns.append(make_annotation("lex", a, a + len(word)))
        pos = a + len(word)
    return Document("voa1", tuple(anns), text=TEXT)


GOLD = [("PERSON", "HEADER"), ("PERSON", "Ann"), ("PERSON", "Bob"), ("LOCATION", "Rome"), ("PERSON", "Cy")]
PRED = [("PERSON", "Ann"), ("LOCATION", "Bob"), ("ORGANIZATION", "Cy")]
SEGMENTS = (("human gold", GOLD_SEGMENT), ("non-gold", OTHER_SEGMENT))

TASK = """<task name='NE'><annotation_set_descriptors>
<annotation_set_descriptor category='content' name='content'>
  <annotation label='PERSON'/><annotation label='LOCATION'/><annotation label='ORGANIZATION'/>
</annotation_set_descriptor>
<annotation_set_descriptor category='token' name='token'><annotation label='lex'/></annotation_set_descriptor>
</annotation_set_descriptors></task>"""


@pytest.fixture
def corpus(tmp_path):
    """gold/ and pred/ directories of MAT JSON documents, and the task file."""
    for name, content, segments in (("gold", GOLD, ()), ("pred", PRED, SEGMENTS)):
        (tmp_path / name).mkdir()
        write(Corpus([side(content, segments=segments)]), tmp_path / name / "voa1.json", "mat-json")
    (tmp_path / "task.xml").write_text(TASK)
    return tmp_path


def rows(report):
    return {lbl: (c.match, c.gold_clash, c.missing, c.pred_clash, c.spurious)
            for lbl in report.tally.labels for c in [report.tally.counts(lbl)]}


def test_the_files_hold_tokens_zones_and_segments(corpus):
    doc = json.loads((corpus / "pred" / "voa1.json").read_text())
    assert {a["type"] for a in doc["asets"]} == {"PERSON", "LOCATION", "ORGANIZATION", "zone", "SEGMENT", "lex"}


def test_with_the_task_only_content_inside_body_zones_is_scored(corpus):
    with pytest.warns(RegionWarning, match="2 gold and 1 predicted annotation"):
        report = score(corpus / "gold", corpus / "pred", task=corpus / "task.xml")
    # in the body zone: gold Ann, Bob, Rome; predicted Ann, Bob as LOCATION (MAT's default profile: same span,
    # other label -> similarity .9, a clash); HEADER (header zone) and Cy (no zone) are not scored
    assert rows(report) == {"PERSON": (1, 1, 0, 0, 0), "LOCATION": (0, 0, 1, 1, 0)}
    assert "lex" not in report.tally.labels and "zone" not in report.tally.labels


def test_without_a_task_zones_are_no_regions_but_are_not_scored(corpus):
    report = score(corpus / "gold", corpus / "pred")
    # strict: everything but the tokens, zones and SEGMENTs; Ann matches, the rest is missing or spurious
    assert rows(report) == {"PERSON": (1, 0, 3, 0, 0), "LOCATION": (0, 0, 1, 0, 1), "ORGANIZATION": (0, 0, 0, 0, 1)}


def test_gold_only_keeps_the_hypothesis_gold_segments(corpus):
    with pytest.warns(RegionWarning):
        report = score(corpus / "gold", corpus / "pred", task=corpus / "task.xml", gold_only=True,
                       units=("token",))
    # body zone ∩ the "human gold" SEGMENT of the hypothesis = "Ann met Bob": Rome leaves the scores
    assert rows(report) == {"PERSON": (1, 1, 0, 0, 0), "LOCATION": (0, 0, 0, 1, 0)}
    # test toks: the hypothesis's lex inside the scored regions: Ann, met, Bob
    assert report.units["token"].test_size() == 3


def test_ref_gold_only_reads_the_gold_side_segments(corpus):
    # the gold documents have no SEGMENT at all: nothing of them is processable
    with pytest.warns(RegionWarning, match="1 document\\(s\\) have no processable region"):
        report = score(corpus / "gold", corpus / "pred", task=corpus / "task.xml", ref_gold_only=True)
    assert rows(report) == {}


def test_test_toks_count_the_tokens_of_the_body_zone(corpus):
    with pytest.warns(RegionWarning):
        report = score(corpus / "gold", corpus / "pred", task=corpus / "task.xml", units=("token",))
    assert report.units["token"].test_size() == 6     # Ann met Bob in Rome .
    without_task = score(corpus / "gold", corpus / "pred", units=("token",))
    assert without_task.units["token"].test_size() == 11


def test_zero_length_zones_leave_nothing_with_a_task_and_change_nothing_without(tmp_path):
    # MAT notes 5D: "Zero-length zones: 0 matches with the task; without the task, all matches"
    same = [("PERSON", "Ann"), ("LOCATION", "Rome")]
    for name in ("gold", "pred"):
        (tmp_path / name).mkdir()
        write(Corpus([side(same, zones=(("body", (0, 0)),))]), tmp_path / name / "voa1.json", "mat-json")
    (tmp_path / "task.xml").write_text(TASK)
    with pytest.warns(RegionWarning, match="no processable region"):
        with_task = score(tmp_path / "gold", tmp_path / "pred", task=tmp_path / "task.xml")
    assert with_task.tally.total().match == 0 and with_task.tally.total().gold == 0
    without = score(tmp_path / "gold", tmp_path / "pred")
    assert rows(without) == {"PERSON": (1, 0, 0, 0, 0), "LOCATION": (1, 0, 0, 0, 0)}


def test_a_token_descriptor_is_not_content():
    task = parse_task(TASK)
    roles = annotation_roles(task)
    assert roles.token == {"lex"} and roles.content is None
    assert roles.zone == {"zone"} and roles.segment == {"SEGMENT"}
    assert not roles.is_content("lex") and roles.is_content("PERSON")


def test_ignore_applies_before_validation(tmp_path):
    doc = side([("PERSON", "Ann"), ("JUNK", "met")], zones=())
    write(Corpus([doc]), tmp_path / "d.json", "mat-json")
    (tmp_path / "task.xml").write_text(TASK)
    with pytest.raises(ValidationError, match="'JUNK' is not declared"):
        score(tmp_path / "d.json", tmp_path / "d.json", task=tmp_path / "task.xml")
    report = score(tmp_path / "d.json", tmp_path / "d.json", task=tmp_path / "task.xml", ignore=["JUNK"])
    assert rows(report) == {"PERSON": (1, 0, 0, 0, 0)}


def test_content_and_token_annotations_without_a_task(corpus):
    report = score(corpus / "gold", corpus / "pred", content_annotations=["PERSON"])
    assert rows(report) == {"PERSON": (1, 0, 3, 0, 0)}
    # other token labels: the lex annotations become content when they are not tokens
    tok = score(corpus / "gold", corpus / "pred", content_annotations=["PERSON", "lex"], token_annotations=["zone"])
    assert tok.tally.counts("lex").match == 11
    with pytest.raises(OptionError, match="apply without --task"):
        score(corpus / "gold", corpus / "pred", task=corpus / "task.xml", token_annotations=["lex"])
    with pytest.raises(OptionError, match="PERSN"):
        score(corpus / "gold", corpus / "pred", content_annotations=["PERSN"])


def test_spanless_annotations_go_by_their_implied_span():
    task = parse_task(TASK.replace("<annotation label='ORGANIZATION'/>", "<annotation label='ORGANIZATION'/>"
                                   "<annotation label='MEET' span='no'/>").replace(
        "</annotation_set_descriptor>\n<annotation_set_descriptor category='token'",
        "<attribute name='who' of_annotation='MEET' type='annotation'><label_restriction label='PERSON'/></attribute>"
        "<attribute name='where' of_annotation='MEET' type='annotation'><label_restriction label='LOCATION'/>"
        "</attribute></annotation_set_descriptor>\n<annotation_set_descriptor category='token'"))
    ann, cy, rome = (make_annotation("PERSON", *at("Ann")), make_annotation("PERSON", *at("Cy")),
                     make_annotation("LOCATION", *at("Rome")))
    inside = make_annotation("MEET", attributes={"who": ann, "where": rome})      # implied span in the body zone
    across = make_annotation("MEET", attributes={"who": cy, "where": rome})       # reaches outside it
    body = make_annotation("zone", *BODY, {"region_type": "body"})
    doc = Document("d", (ann, cy, rome, inside, across, body), text=TEXT)
    with pytest.warns(RegionWarning, match="2 gold and 2 predicted"):
        report = score(Corpus([doc]), Corpus([doc]), task=task)
    assert rows(report) == {"PERSON": (1, 0, 0, 0, 0), "LOCATION": (1, 0, 0, 0, 0), "MEET": (1, 0, 0, 0, 0)}


def test_regions_intersect():
    assert intersect(None, [(1, 4)]) == [(1, 4)]
    assert intersect([(0, 5), (8, 12)], [(3, 9), (11, 20)]) == [(3, 5), (8, 9), (11, 12)]
    assert intersect([(0, 5)], [(5, 9)]) == []


def test_cli_gold_only_and_token_annotations(corpus, capsys):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RegionWarning)
        assert main(["score", str(corpus / "gold"), str(corpus / "pred"), "--task", str(corpus / "task.xml"),
                     "--gold-only", "--output", "json", "-q"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["options"]["gold_only"] is True
    assert main(["score", str(corpus / "gold"), str(corpus / "pred"), "--content-annotations", "PERSON",
                 "--output", "json", "-q"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["options"]["content_annotations"] == ["PERSON"]
