"""Events of generated records (a trigger string, a type and role -> string arguments) placed on the gold text by
accord.pipeline._align and scored as accord scores events: through ``accord structured`` (trigger and argument F1)
and through the span path (brat's events, their arguments paired). Hand-counted on brat's news tutorial document
of nested events (../shared/data/brat-news) and on small texts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import accord
from accord.formats import read
from accord.formats.records.generated import records_corpus
from accord.model import Corpus, Document, make_annotation
from accord.pipeline._align import align_records

NEWS = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "brat-news" / "090-event_structures.ann"
DOC = "090-event_structures"


def _need() -> None:
    if not NEWS.exists():
        pytest.skip(f"{NEWS} is absent")


def _event(trigger: str, label: str, *args: tuple[str, str]) -> dict:
    return {"trigger": trigger, "label": label, "arguments": [{"role": r, "text": t} for r, t in args]}


# a model's answer for the document (counted by hand in the test below)
ANSWER = {"id": DOC, "entities": [{"text": "Wikinews", "label": "Organization"},
                                  {"text": "Reddit", "label": "Organization"}],
          "events": [_event("merged", "Merge-org", ("Org-Arg", "Google"), ("Org-Arg2", "YouTube")),
                     _event("reported", "Report", ("Reporter-Arg", "Wikinews"), ("Event-Arg", "merged")),
                     _event("told", "Report", ("Reporter-Arg", "My friend"), ("Event-Arg", "posted")),
                     _event("posted", "Report", ("Reporter-Arg", "Reddit")),
                     _event("announced", "Report", ("Reporter-Arg", "Reddit")),
                     _event("merged", "Merge-org", ("Org-Arg", "Google"), ("Org-Arg2", "Yahoo"))]}


def _structured(tmp_path, answer, metrics):
    pred = tmp_path / "pred.jsonl"
    pred.write_text(json.dumps(answer) + "\n", encoding="utf-8")
    result = accord.structured_metrics(NEWS, pred, metrics)
    return result, result.to_dict()


def test_events_score_through_accord_structured_by_hand(tmp_path):
    _need()
    result, out = _structured(tmp_path, ANSWER, ["event-trigger", "event-argument"])
    # gold triggers: merged 346 and 545 (Merge-org), reported 313 and 512, told 471, posted 491 (Report). The two
    # "merged" take both gold Merge-org spans, the one "reported" the first gold Report span (313), told and posted
    # theirs; "announced" is not in the text (spurious). Triggers: 5 of 6 predicted, 5 of 6 gold: F1 5/6.
    # Arguments (12 gold): merged@346 Google 327, YouTube 338 (2 right); reported@313 Wikinews 304 (the entity),
    # Event-Arg merged -> 346 (2); told@471 My friend 461, posted -> 491 (2); posted@491 Reddit 484 (1 of gold 2);
    # announced: Reddit, its trigger unmatched (0); merged@545 Google -> 526, the occurrence nearest its trigger (1),
    # Yahoo unaligned (0). 8 right of 10 predicted and 12 gold: F1 = 16/22.
    trigger, argument = out["measures"]["event-trigger"]["totals"], out["measures"]["event-argument"]["totals"]
    assert (trigger["match"], trigger["pred_total"], trigger["gold_total"]) == (5, 6, 6)
    assert trigger["f1"] == pytest.approx(5 / 6)
    assert (argument["match"], argument["pred_total"], argument["gold_total"]) == (8, 10, 12)
    assert argument["f1"] == pytest.approx(16 / 22)
    alignment = result.options["alignment"]
    assert (alignment["events"], alignment["unaligned_triggers"]) == (5, 1)
    assert (alignment["arguments"], alignment["unaligned_arguments"]) == (9, 1)
    assert [(x["text"], x["kind"]) for x in alignment["unaligned_listed"]] == [("announced", "trigger"),
                                                                              ("Yahoo", "argument")]


def _perfect() -> dict:
    """The gold document's entities and events written as strings (the answer of a perfect model)."""
    gold = read(NEWS)[DOC]
    text = gold.text
    spans = [a for a in gold.annotations if a.start is not None]
    triggers = {id(a.get("trigger")) for a in gold.annotations if a.get("trigger") is not None}
    entities = [{"text": text[a.start:a.end], "label": a.label} for a in spans if id(a) not in triggers]
    events = []
    for e in gold.annotations:
        if e.get("trigger") is None:
            continue
        t = e.get("trigger")
        args = []
        for role, v in e.attributes.items():
            if role != "trigger":
                target = v.get("trigger") if v.start is None else v
                args.append((role, text[target.start:target.end]))
        events.append(_event(text[t.start:t.end], e.label, *args))
    return {"id": DOC, "entities": entities, "events": events}


def test_a_perfect_answer_scores_every_measure_in_full(tmp_path):
    _need()
    answer = _perfect()
    result, out = _structured(tmp_path, answer, ["event-trigger", "event-argument", "event-argument-id"])
    for m in out["measures"].values():
        assert m["totals"]["f1"] == pytest.approx(1.0)
    # the span path: entities, triggers and the events themselves (their arguments, nested events included,
    # paired as brat's are)
    totals = accord.score(NEWS, records_corpus([answer])).to_dict()["totals"]
    gold = read(NEWS)[DOC].annotations
    assert totals["gold"] == len(gold) == totals["pred"] == totals["match"]


def test_repeated_triggers_take_the_gold_occurrences_and_arguments_the_nearest():
    text = "Troops attacked the city. Rebels fled. Rebels attacked the base."
    #       0         1         2         3         4         5         6
    #       0123456789012345678901234567890123456789012345678901234567890123
    gold = Corpus([Document("d", (make_annotation("Attack", 7, 15), make_annotation("Attack", 46, 54)), text)])
    pred = records_corpus([{"id": "d", "events": [_event("attacked", "Attack", ("Attacker", "Rebels"),
                                                         ("Target", "the base"))]}])
    aligned, summary = align_records(gold, pred)
    anns = aligned["d"].annotations
    trigger = next(a for a in anns if a.label == "Attack" and a.start is not None)
    event = next(a for a in anns if a.start is None)
    # both "attacked" are gold Attack spans: the first (7); "Rebels" occurs at 26 and 39, 11 and 24 characters
    # after the trigger's end: 26; "the base" only at 55
    assert (trigger.start, trigger.end) == (7, 15)
    assert (event.get("Attacker").start, event.get("Target").start) == (26, 55)
    assert (summary["events"], summary["arguments"], summary["unaligned_arguments"]) == (1, 2, 0)


def test_a_role_given_twice_is_numbered_and_an_event_argument_points_to_the_event():
    text = "A met B and C. A left."
    pred = records_corpus([{"id": "d", "entities": [{"text": "B", "label": "P"}, {"text": "C", "label": "P"}],
                            "events": [_event("met", "Meet", ("Entity", "B"), ("Entity", "C")),
                                       _event("left", "Leave", ("Cause", "met"))]}])
    aligned, _ = align_records(Corpus([Document("d", (), text)]), pred)
    events = [a for a in aligned["d"].annotations if a.start is None]
    meet, leave = events
    assert (meet.get("Entity").start, meet.get("Entity2").start) == (6, 12)
    assert leave.get("Cause") is meet


def test_events_pointing_to_each_other_keep_their_triggers():
    text = "x caused y; y caused x"
    pred = records_corpus([{"id": "d", "events": [_event("caused", "C", ("Arg", "caused")),
                                                  _event("caused", "C", ("Arg", "caused"))]}])
    aligned, summary = align_records(Corpus([Document("d", (), text)]), pred)
    assert summary["events"] == 2 and len(aligned["d"].annotations) == 4


def test_without_alignment_an_event_is_its_trigger_string_and_says_so():
    # before: the event was counted as a relation in the warning and its trigger was not among the strings, so the
    # gold trigger span "met" (Meet) was always missed
    from accord.errors import AccordWarning

    ann, met = make_annotation("Person", 0, 3), make_annotation("Meet", 4, 7)
    gold = Corpus([Document("d", (ann, met, make_annotation("Meet", None, None, {"trigger": met, "Participant": ann})),
                            "Ann met Bob.")])
    pred = records_corpus([{"id": "d", "entities": [{"text": "Ann", "label": "Person"}],
                            "events": [_event("met", "Meet", ("Participant", "Ann")),
                                       _event("Bob", "Meet")]}])
    with pytest.warns(AccordWarning, match=r"^2 predicted event\(s\) are scored by their triggers only"):
        totals = accord.score(gold, pred, align="none").to_dict()["totals"]
    # by hand: gold strings (Ann, Person), (met, Meet); predicted (Ann, Person), (met, Meet), (Bob, Meet)
    assert (totals["gold"], totals["pred"], totals["match"]) == (2, 3, 2)
