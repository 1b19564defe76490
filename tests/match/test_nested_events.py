"""Events whose arguments are events of the same type (brat's news tutorial), scored without a task."""

import shutil

import pytest

import accord
from tests.conftest import DATA

NEWS = DATA / "brat-news"


def test_the_tutorial_against_itself_is_perfect():
    report = accord.score(NEWS, NEWS)
    # 22 text-bound annotations and 6 events (E3 -> E4 -> E5 -> E6: Reports nested in Reports)
    assert report.totals["gold"] == report.totals["match"] == 28 and report.f1 == 1.0


@pytest.mark.parametrize("profile, counts", [("strict", {"missing": 2, "spurious": 2, "gold_clash": 0}),
                                             ("mat", {"missing": 0, "spurious": 0, "gold_clash": 2})])
def test_a_changed_argument_fails_its_event_and_the_events_above_it(tmp_path, profile, counts):
    """By hand: E4's Reporter-Arg moved from Reddit (T7) to Wikinews (T8); E4 no longer equals its gold, and E3,
    whose Event-Arg is E4, fails with it; E5, E6 below and E1, E2 elsewhere still match: 26 of 28."""
    pred = tmp_path / "pred"
    pred.mkdir()
    shutil.copy(NEWS / "090-event_structures.txt", pred)
    ann = (NEWS / "090-event_structures.ann").read_text()
    changed = ann.replace("E4\tReport:T12 Event-Arg:E5 Reporter-Arg:T7", "E4\tReport:T12 Event-Arg:E5 Reporter-Arg:T8")
    assert changed != ann
    (pred / "090-event_structures.ann").write_text(changed)
    report = accord.score(NEWS, pred, profile=profile)
    assert report.totals["match"] == 26
    assert {k: report.totals[k] for k in counts} == counts
    assert (report.by_label["Report"]["match"], report.by_label["Report"]["gold"]) == (6, 8)


def test_an_event_missing_an_argument_level_still_meets_its_counterpart(tmp_path):
    """E3 told -> E4 in gold; in the prediction E3 points to E5 directly (one level less deep): the depths differ,
    the last round pairs what is left, and under MAT's profile E3 is a clash rather than a miss and a spurious."""
    pred = tmp_path / "pred"
    pred.mkdir()
    shutil.copy(NEWS / "090-event_structures.txt", pred)
    ann = (NEWS / "090-event_structures.ann").read_text()
    (pred / "090-event_structures.ann").write_text(ann.replace("E3\tReport:T11 Reporter-Arg:T6 Event-Arg:E4",
                                                               "E3\tReport:T11 Reporter-Arg:T6 Event-Arg:E5"))
    report = accord.score(NEWS, pred, profile="mat")
    assert report.totals["match"] == 27 and report.totals["gold_clash"] == 1
    assert report.totals["missing"] == report.totals["spurious"] == 0


GENIA = DATA / "bionlp-st-ge"


def test_a_bionlp_st_event_document(tmp_path):
    """GENIA: E1 (Negative_regulation) has the event E2 (Binding) as its Theme. Against itself: 15 of 15. With
    E2's Theme moved from T1 to T2 (by hand): E2 and E1, which points to it, fail; 13 of 15 match."""
    assert accord.score(GENIA, GENIA).f1 == 1.0
    pred = tmp_path / "pred"
    pred.mkdir()
    shutil.copy(GENIA / "PMID-10364260.txt", pred)
    ann = (GENIA / "PMID-10364260.ann").read_text()
    (pred / "PMID-10364260.ann").write_text(ann.replace("E2\tBinding:T7 Theme:T1", "E2\tBinding:T7 Theme:T2"))
    report = accord.score(GENIA, pred)
    assert (report.totals["gold"], report.totals["match"], report.totals["missing"]) == (15, 13, 2)
    assert report.by_label["Binding"]["match"] == 1 and report.by_label["Binding"]["missing"] == 1
    assert report.by_label["Negative_regulation"]["missing"] == 1
