"""TextEE's argument scores (attached and not) and ``--preset textee`` against TextEE's own scorer, run here as
the peer (ej0cl6/TextEE ``TextEE/scorer.py``, its gold instances built by TextEE's own ``load_E2E_data`` and
``load_EAE_data`` from ``TextEE/utils.py``) on the PHEE test set of TextEE's split1
(../shared/corpora/official/textee_phee) and on a hand-made example."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import accord
from accord.errors import AccordWarning, FormatError, PairingError
from accord.structured._textee import TEXTEE_SCRIPT

from ._official import official_data, official_source

TEXTEE = ("ej0cl6/TextEE", "25d5dcacdd748ed7bdbbdffbde0f628adc6704ba")

RUNNER = r'''
import ast, json, sys, types
sys.modules["ipdb"] = types.ModuleType("ipdb")      # imported, never used, by TextEE's modules
sys.path.insert(0, sys.argv[1])
import scorer
# TextEE's own loaders, taken from its utils.py (which imports torch and the models at the top)
tree = ast.parse(open(sys.argv[1] + "/utils.py").read())
wanted = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in ("load_E2E_data", "load_EAE_data")]
space = {}
exec(compile(ast.Module(body=wanted, type_ignores=[]), "utils.py", "exec"), space)
task, gold_path, pred_path = sys.argv[2:5]
data = [json.loads(line) for line in open(gold_path)]
loader = space["load_E2E_data" if task == "E2E" else "load_EAE_data"]
golds, _ = loader(data, lambda instances, data, config: instances, None)
preds = [json.loads(line) for line in open(pred_path)]
print(json.dumps(scorer.compute_scores(preds, golds, task)))
'''


def _official(tmp: Path, task: str, gold: Path, pred: Path) -> dict[str, dict[str, float]]:
    commit = TEXTEE[1]
    official_source(TEXTEE[0], commit, "TextEE/scorer.py", tmp / "TextEE/scorer.py")
    official_source(TEXTEE[0], commit, "TextEE/utils.py", tmp / "TextEE/utils.py")
    runner = tmp / "run_textee.py"
    runner.write_text(RUNNER)
    done = subprocess.run([sys.executable, str(runner), str(tmp / "TextEE"), task, str(gold), str(pred)],
                          capture_output=True, text=True, timeout=300, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def _check(ours: accord.Result, official: dict[str, dict[str, float]]) -> None:
    assert set(ours.measures) == set(official)
    for name, scores in official.items():
        t = ours.measures[name].totals()
        assert (t.match, t.pred_total, t.gold_total) == (scores["match_num"], scores["pred_num"], scores["gold_num"])
        assert 100 * t.precision == pytest.approx(scores["precision"], rel=1e-12, abs=0)
        assert 100 * t.recall == pytest.approx(scores["recall"], rel=1e-12, abs=0)
        assert 100 * t.f1 == pytest.approx(scores["f1"], rel=1e-12, abs=0)


@pytest.mark.parametrize(("task", "pred"), [("E2E", "pred_e2e.jsonl"), ("EAE", "pred_eae.jsonl")])
def test_textee_preset_equals_textee_scorer_on_phee(tmp_path: Path, task: str, pred: str) -> None:
    gold, predicted = official_data("textee_phee", "test.json"), official_data("textee_phee", pred)
    official = _official(tmp_path, task, gold, predicted)
    result = accord.structured_metrics(gold, predicted, preset="textee")
    _check(result, official)
    assert result.options["official_script"] == TEXTEE_SCRIPT and result.options["task"] == task


@pytest.mark.parametrize(("attached", "names"), [(True, ("argument_attached_cls", "argument_attached_id")),
                                                 (False, ("argument_cls", "argument_id"))])
def test_event_argument_attached_equals_textee_on_phee(tmp_path: Path, attached: bool, names: tuple[str, str]) -> None:
    """``--metrics event-argument,event-argument-id --attached`` (and ``--not-attached``) on TextEE's files."""
    gold, pred = official_data("textee_phee", "test.json"), official_data("textee_phee", "pred_e2e.jsonl")
    official = _official(tmp_path, "E2E", gold, pred)
    result = accord.structured_metrics(gold, pred, ["event-argument", "event-argument-id"], attached=attached)
    for ours, theirs in zip(("event-argument", "event-argument-id"), names):
        t = result.measures[ours].totals()
        assert (t.match, t.pred_total, t.gold_total) == (official[theirs]["match_num"], official[theirs]["pred_num"],
                                                         official[theirs]["gold_num"])
        assert 100 * t.f1 == pytest.approx(official[theirs]["f1"], rel=1e-12, abs=0)


GOLD = [{"doc_id": "d1", "wnd_id": "d1_1", "tokens": list("abcdefghij"), "text": "", "entity_mentions": [
            {"id": "e1", "start": 0, "end": 1}, {"id": "e2", "start": 3, "end": 5}, {"id": "e3", "start": 6, "end": 7}],
         "event_mentions": [
            {"event_type": "Attack", "trigger": {"start": 2, "end": 3, "text": "c"},
             "arguments": [{"entity_id": "e1", "role": "Attacker", "text": "a"},
                           {"entity_id": "e2", "role": "Target", "text": "de"}]},
            {"event_type": "Die", "trigger": {"start": 7, "end": 8, "text": "h"},
             "arguments": [{"entity_id": "e3", "role": "Victim", "text": "g"}]}]},
        {"doc_id": "d2", "wnd_id": "d2_1", "tokens": list("abc"), "text": "", "entity_mentions": [],
         "event_mentions": []}]
PRED = [{"doc_id": "d1", "wnd_id": "d1_1", "events": [
            # right type, trigger one token off: attached arguments all wrong, unattached ones right
            {"trigger": [1, 2, "Attack"], "arguments": [[0, 1, "Attacker"], [3, 5, "Victim"], [3, 5, "Victim"]]},
            {"trigger": [7, 8, "Die"], "arguments": [[6, 7, "Victim"]]}]},
        {"doc_id": "d2", "wnd_id": "d2_1", "events": [{"trigger": [0, 1, "Die"], "arguments": []}]}]


def _jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_textee_hand_example(tmp_path: Path) -> None:
    """A hand count, checked against TextEE's scorer too: the repeated [3, 5, Victim] counts once."""
    gold, pred = _jsonl(tmp_path / "gold.json", GOLD), _jsonl(tmp_path / "pred.jsonl", PRED)
    result = accord.structured_metrics(gold, pred, preset="textee")
    t = {n: (m.totals().match, m.totals().pred_total, m.totals().gold_total) for n, m in result.measures.items()}
    assert t == {"trigger_id": (1, 3, 2), "trigger_cls": (1, 3, 2),
                 "argument_id": (3, 3, 3),            # (Attack, 0, 1), (Attack, 3, 5), (Die, 6, 7)
                 "argument_cls": (2, 3, 3),           # Target predicted as Victim
                 "argument_attached_id": (1, 3, 3),   # only the Die argument keeps its trigger
                 "argument_attached_cls": (1, 3, 3)}
    _check(result, _official(tmp_path, "E2E", gold, pred))


def test_textee_refusals(tmp_path: Path) -> None:
    gold = _jsonl(tmp_path / "gold.json", GOLD)
    stray = _jsonl(tmp_path / "stray.jsonl", [{"doc_id": "d9", "wnd_id": "d9_1", "events": []}])
    with pytest.raises(PairingError, match="1 window\\(s\\) the key .* lacks, e.g. 'd9_1' of document 'd9'"):
        accord.structured_metrics(gold, stray, preset="textee")
    bad = _jsonl(tmp_path / "bad.jsonl", [{"doc_id": "d1", "wnd_id": "d1_1", "events": [{"trigger": [1, "x", "A"],
                                                                                      "arguments": []}]}])
    with pytest.raises(FormatError, match=r"bad.jsonl:1: events\[0\] trigger: expected \[start, end, label\]"):
        accord.structured_metrics(gold, bad, preset="textee")
    orphan = [dict(GOLD[0], entity_mentions=[])]
    with pytest.raises(FormatError, match=r"arguments\[0\]: entity_id 'e1' is not one of the line's"):
        accord.structured_metrics(_jsonl(tmp_path / "g2.json", orphan), stray, preset="textee")
    untyped = [dict(GOLD[0], event_mentions=[dict(GOLD[0]["event_mentions"][0], event_type=["Attack"])])]
    with pytest.raises(FormatError, match=r"g3.json:1: event_mentions\[0\] event_type: expected a string"):
        accord.structured_metrics(_jsonl(tmp_path / "g3.json", untyped), stray, preset="textee")
    half = _jsonl(tmp_path / "half.jsonl", PRED[:1])
    with pytest.warns(AccordWarning, match="1 window\\(s\\) of the key have no prediction line"):
        result = accord.structured_metrics(gold, half, preset="textee")
    assert result.measures["trigger_id"].totals().gold_total == 2
    eae = _jsonl(tmp_path / "eae.jsonl", [{"doc_id": "d1", "wnd_id": "d1_1", "trigger": [1, 2, "Attack"],
                                           "arguments": []}])
    with pytest.raises(PairingError, match=r"eae.jsonl: window 'd1_1': an argument-extraction line for the trigger "
                                           r"\[1, 2, 'Attack'\], which is no gold event's"):
        accord.structured_metrics(gold, eae, preset="textee")
    eae = _jsonl(tmp_path / "eae.jsonl", [{"doc_id": "d1", "wnd_id": "d1_1", "trigger": [2, 3, "Attack"],
                                           "arguments": [[0, 1, "Attacker"]]}])
    with pytest.warns(AccordWarning, match=r"1 gold event\(s\) have no argument-extraction line"):
        result = accord.structured_metrics(gold, eae, preset="textee")
    totals = result.measures["argument_cls"].totals()
    assert (totals.match, totals.gold_total) == (1, 3)
    empty = _jsonl(tmp_path / "empty.json", [])
    with pytest.warns(AccordWarning, match="2 window\\(s\\) of the key have no prediction line"):
        assert accord.structured_metrics(gold, empty, preset="textee").measures["argument_cls"].totals().f1 == 0
    assert not accord.structured_metrics(empty, empty, preset="textee").documents
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(PairingError, match="the key must be TextEE's processed data"):
            accord.structured_metrics(half, gold, preset="textee")


def test_attached_on_accord_records_hand_count(tmp_path: Path) -> None:
    """accord's own ``events`` records: the trigger predicted at other offsets loses every attached argument; not
    attached, the type suffices; the repeated argument counts once (the default 1:1 matching counts it twice)."""
    key = _jsonl(tmp_path / "key.jsonl", [{"id": "d", "events": [{"trigger": {"mention": [1, 2], "type": "A"},
                                           "arguments": [{"mention": [3, 4], "role": "x"},
                                                         {"mention": [5, 6], "role": "y"}]}]}])
    resp = _jsonl(tmp_path / "resp.jsonl", [{"id": "d", "events": [{"trigger": {"mention": [7, 8], "type": "A"},
                                             "arguments": [{"mention": [3, 4], "role": "x"},
                                                           {"mention": [3, 4], "role": "x"},
                                                           {"mention": [5, 6], "role": "z"}]}]}])

    def counts(attached: bool | None) -> dict[str, tuple[float, float, float]]:
        r = accord.structured_metrics(key, resp, ["event-argument", "event-argument-id"], attached=attached)
        return {n: (m.totals().match, m.totals().pred_total, m.totals().gold_total) for n, m in r.measures.items()}

    assert counts(True) == {"event-argument": (0, 2, 2), "event-argument-id": (0, 2, 2)}
    assert counts(False) == {"event-argument": (1, 2, 2), "event-argument-id": (2, 2, 2)}
    assert counts(None)["event-argument"][1] == 3      # accord's matching of events keeps the repeated argument
