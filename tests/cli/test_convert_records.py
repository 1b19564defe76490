"""``accord convert PRED --gold GOLD``: generated records written with offsets (brat, JSON lines, XMI), placed on the
gold text as ``accord score`` places them; the converted file scores against the gold as the records do (a round
trip), the strings that could not be placed left out and counted in a warning."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import accord
from accord.formats import read
from tests.fuzz.harness import run

SHARED = Path(__file__).resolve().parents[2] / ".."
CONLL = SHARED / "shared" / "data" / "conll03" / "gold.conll"
GENERATED = SHARED / "shared" / "corpora" / "generated"
NEWS = SHARED / "shared" / "data" / "brat-news" / "090-event_structures.ann"

GOLD = {"id": "d1", "text": "Maria works for Aurora Air. Maria Lund met her in Bergen.",
        "annotations": [{"label": "PER", "start": 0, "end": 5}, {"label": "ORG", "start": 16, "end": 26},
                        {"label": "PER", "start": 28, "end": 38}, {"label": "LOC", "start": 50, "end": 56}]}
PRED = {"id": "d1", "entities": [{"text": "Maria", "label": "PER"}, {"text": "Aurora Air", "label": "ORG"},
                                 {"text": "Maria", "label": "PER"}, {"text": "Oslo", "label": "LOC"}]}


def _need(path: Path) -> None:
    if not path.exists():
        pytest.skip(f"{path} is absent")


def _table(result) -> dict:
    out = result.to_dict()
    return {"totals": {k: out["totals"][k] for k in ("gold", "pred", "match")},
            "labels": {lab: (v["gold"], v["pred"], v["match"]) for lab, v in out["by_label"].items()}}


def _convert(*argv: str) -> list[str]:
    """The warnings of ``accord convert ARGV`` (which must succeed)."""
    done = run(["convert", *argv])
    assert done.status == 0, done.stderr
    return [line.removeprefix("accord: warning: ") for line in done.stderr.splitlines()
            if line.startswith("accord: warning: ")]


@pytest.fixture
def small(tmp_path):
    gold, pred = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
    gold.write_text(json.dumps(GOLD) + "\n", encoding="utf-8")
    pred.write_text(json.dumps(PRED) + "\n", encoding="utf-8")
    return gold, pred


@pytest.mark.parametrize("target, name", [("brat", "out"), ("jsonl", "out.jsonl"), ("xmi", "out.xmi")])
def test_each_target_holds_the_aligned_spans_by_hand(small, tmp_path, target, name):
    gold, pred = small
    out = tmp_path / name
    messages = _convert(str(pred), "--gold", str(gold), "--to", target, str(out))
    # by hand: Maria [0, 5), Aurora Air [16, 26), the second Maria [28, 33) (it overlaps the gold "Maria Lund");
    # Oslo is not in the text: left out, and counted
    (doc,) = read(out).documents
    assert doc.text == GOLD["text"]
    assert sorted((a.label, a.start, a.end) for a in doc.annotations) == [("ORG", 16, 26), ("PER", 0, 5),
                                                                          ("PER", 28, 33)]
    assert len(messages) == 1 and messages[0].startswith("1 predicted string(s)") and "'Oslo' (d1)" in messages[0]
    # the round trip: the converted file scores as the records did, less the string left out
    direct, converted = _table(accord.score(gold, pred)), _table(accord.score(gold, out))
    assert converted["totals"] == {**direct["totals"], "pred": direct["totals"]["pred"] - 1} == \
        {"gold": 4, "pred": 3, "match": 2}


def test_the_conll03_system_round_trips_through_json_lines(tmp_path):
    _need(CONLL)
    _need(GENERATED / "records_exact.jsonl")
    out = tmp_path / "aligned.jsonl"
    assert _convert(str(GENERATED / "records_exact.jsonl"), "--gold", str(CONLL), str(out)) == []
    # every string of the system's spans is in the text: the converted file scores as the records, label by label
    # (5,342 matches of 5,749 predictions against 5,648 gold spans, test_align's figures)
    direct = _table(accord.score(CONLL, GENERATED / "records_exact.jsonl"))
    assert _table(accord.score(CONLL, out)) == direct
    assert direct["totals"] == {"gold": 5648, "pred": 5749, "match": 5342}


def test_the_noisy_variant_loses_exactly_its_unaligned_strings(tmp_path):
    _need(CONLL)
    _need(GENERATED / "records_noisy.jsonl")
    out = tmp_path / "aligned.jsonl"
    messages = _convert(str(GENERATED / "records_noisy.jsonl"), "--gold", str(CONLL), str(out))
    direct = accord.score(CONLL, GENERATED / "records_noisy.jsonl")
    unaligned = direct.options["alignment"]["unaligned"]
    assert messages[0].startswith(f"{unaligned} predicted string(s)")
    a, b = _table(direct), _table(accord.score(CONLL, out))
    assert b["totals"] == {**a["totals"], "pred": a["totals"]["pred"] - unaligned}
    assert {lab: (g, m) for lab, (g, _, m) in b["labels"].items()} == \
        {lab: (g, m) for lab, (g, _, m) in a["labels"].items()}


def test_events_round_trip_through_brat(tmp_path):
    _need(NEWS)
    from tests.pipeline.test_align_events import ANSWER

    pred = tmp_path / "pred.jsonl"
    pred.write_text(json.dumps(ANSWER) + "\n", encoding="utf-8")
    out = tmp_path / "brat"
    messages = _convert(str(pred), "--gold", str(NEWS), "--to", "brat", str(out))
    # "announced" (a trigger: its event goes with it) and "Yahoo" (an argument) are not written
    assert messages[0].startswith("2 predicted string(s)") and "nor the 1 event(s) of the triggers" in messages[0]
    metrics = ["event-trigger", "event-argument"]
    direct = accord.structured_metrics(NEWS, pred, metrics).to_dict()["measures"]
    converted = accord.structured_metrics(NEWS, out / "090-event_structures.ann", metrics).to_dict()["measures"]
    for m in metrics:
        d, c = direct[m]["totals"], converted[m]["totals"]
        assert (c["match"], c["gold_total"]) == (d["match"], d["gold_total"])
    # the event left out had one trigger and one argument (Reddit), and Yahoo's place past the end is gone
    assert converted["event-trigger"]["totals"]["pred_total"] == direct["event-trigger"]["totals"]["pred_total"] - 1
    assert converted["event-argument"]["totals"]["pred_total"] == \
        direct["event-argument"]["totals"]["pred_total"] - 2


def test_options_are_checked(small, tmp_path):
    gold, pred = small
    assert "--gold" in run(["convert", str(gold), str(tmp_path / "x.jsonl"), "--align", "fuzzy"]).stderr
    refused = run(["convert", str(gold), str(tmp_path / "x.jsonl"), "--gold", str(gold)])
    assert refused.status == 2 and "holds annotations with offsets" in refused.stderr
    bad = run(["convert", str(pred), str(tmp_path / "x.jsonl"), "--gold", str(gold), "--align-threshold", "2",
               "--align", "fuzzy"])
    assert bad.status == 2
