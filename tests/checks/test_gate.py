"""accord check / accord.check: thresholds, labels, a baseline's drop and its paired test (hand counts, and compare's
own test run here on the same systems)."""

import json
import warnings

import pytest

import accord
from accord.checks import Verdict, check, load_result
from accord.cli import main
from accord.errors import OptionError

from ..conftest import SHARED

CONLL03 = SHARED / "data" / "conll03"

# gold: PER (a b), LOC (d), ORG (f g); pred: PER (a b) right, LOC (d) as ORG, ORG (f g) right, an extra PER (h)
GOLD = "a B-PER\nb I-PER\nc O\nd B-LOC\ne O\nf B-ORG\ng I-ORG\nh O\n"
PRED = "a B-PER\nb I-PER\nc O\nd B-ORG\ne O\nf B-ORG\ng I-ORG\nh B-PER\n"
# by hand: gold 3 spans, pred 4, match 2: P = 2/4 = 0.5, R = 2/3, F1 = 2PR/(P+R) = 4/7 = 0.5714...
# PER: gold 1, pred 2, match 1 -> P 0.5, R 1, F1 2/3; LOC: gold 1, pred 0 -> F1 0


@pytest.fixture
def files(tmp_path):
    g, p = tmp_path / "gold.conll", tmp_path / "pred.conll"
    g.write_text(GOLD, encoding="utf-8")
    p.write_text(PRED, encoding="utf-8")
    return g, p


def test_a_model_above_every_minimum_passes(files):
    verdict = check(*files, min="f1=0.57,precision=0.5,recall=0.66")
    assert isinstance(verdict, Verdict) and verdict.passed and bool(verdict)
    assert [o.rate for o in verdict.outcomes] == ["f1", "precision", "recall"]
    assert verdict.outcomes[0].value == pytest.approx(4 / 7)


def test_a_model_below_a_minimum_fails_saying_which_value_and_threshold(files):
    verdict = check(*files, min={"f1": 0.58})
    assert not verdict.passed
    (failure,) = verdict.failures
    assert failure.rate == "f1" and failure.threshold == 0.58
    assert failure.reason == "f1 = 57.14 % is below the minimum 58.00 % (--min f1=0.58)"


def test_percent_thresholds_and_label_minimums(files):
    verdict = check(*files, labels=["PER:f1=66%", "LOC:recall=0.01"])
    per, loc = verdict.outcomes
    assert per.passed and per.value == pytest.approx(2 / 3)
    assert not loc.passed and loc.value == 0.0 and loc.label == "LOC"
    assert "LOC recall = 0.00 % is below the minimum 1.00 %" in loc.reason


def test_an_exact_threshold_is_met(tmp_path):
    # 9 of 10 spans found, none spurious: R = 0.9 exactly, F1 = 2 * 1 * 0.9 / 1.9
    g = tmp_path / "g.conll"
    p = tmp_path / "p.conll"
    g.write_text("".join(f"t{k} B-X\nu{k} O\n" for k in range(10)), encoding="utf-8")
    p.write_text("".join(f"t{k} {'B-X' if k else 'O'}\nu{k} O\n" for k in range(10)), encoding="utf-8")
    assert check(g, p, min="recall=0.9").passed
    assert not check(g, p, min="recall=0.9000001").passed


@pytest.mark.parametrize("kwargs, message", [
    ({}, "nothing to check"),
    ({"min": "f2=0.5"}, "'f2' is not a rate"),
    ({"min": "f1=1.5"}, "did you mean 0.015"),
    ({"min": "f1"}, "RATE=VALUE"),
    ({"labels": ["MISC:f1=0.5"]}, "no such label"),
    ({"labels": ["f1=0.5"]}, "LABEL:RATE=VALUE"),
    ({"max_drop": 1.0}, "give --baseline"),
])
def test_bad_options_are_refused(files, kwargs, message):
    with pytest.raises(OptionError, match=message):
        check(*files, **kwargs)


@pytest.fixture(scope="module")
def conll03():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return accord.score(CONLL03 / "gold.conll", CONLL03 / "xlm_flert.conll"), \
            accord.score(CONLL03 / "gold.conll", CONLL03 / "gold.conll")


def test_a_drop_beyond_max_drop_fails(conll03):
    model, perfect = conll03
    verdict = check(model, baseline=perfect, max_drop=5)
    (drop,) = verdict.outcomes
    # the baseline is gold itself (F1 100 %); the model's F1 is 93.69 %: a drop of 6.31 points
    assert not drop.passed and drop.baseline == 1.0
    assert "a drop of 6.31 points, more than --max-drop 5" in drop.reason
    assert check(model, baseline=perfect, max_drop=6.5).passed


def test_significant_uses_compares_paired_test(conll03):
    model, perfect = conll03
    verdict = check(model, baseline=perfect, significant=True, samples=500, seed=3)
    (drop,) = verdict.outcomes
    expected = accord.compare({"baseline": perfect, "model": model}, samples=500, seed=3, labels=False,
                              correction="none")
    main_cmp = next(c for c in expected.comparisons if c.label is None)
    assert drop.p_value == main_cmp.p_value and main_cmp.significant
    assert not drop.passed and "significant" in drop.reason
    # a baseline equal to the model: no drop, p = 1
    same = check(model, baseline=model, significant=True, samples=200, seed=3)
    assert same.passed and same.outcomes[0].p_value == 1.0


def test_a_drop_that_is_not_significant_passes(files, tmp_path):
    # the baseline finds one more span than the model in one document of many: a drop, not significant
    docs = 40
    gold = tmp_path / "g.conll"
    base = tmp_path / "b.conll"
    model = tmp_path / "m.conll"
    gold.write_text("".join(f"-DOCSTART- O\n\nx{k} B-X\ny O\n\n" for k in range(docs)), encoding="utf-8")
    base.write_text("".join(f"-DOCSTART- O\n\nx{k} B-X\ny O\n\n" for k in range(docs)), encoding="utf-8")
    model.write_text("".join(f"-DOCSTART- O\n\nx{k} {'O' if k == 0 else 'B-X'}\ny O\n\n" for k in range(docs)),
                     encoding="utf-8")
    strict = check(gold, model, baseline=base)
    assert not strict.passed                       # any drop fails without --significant
    judged = check(gold, model, baseline=base, significant=True, samples=400, seed=1)
    assert judged.passed and judged.outcomes[0].p_value > 0.05
    assert "not significant" in judged.outcomes[0].reason


def test_a_result_json_is_a_baseline_with_its_documents(conll03, tmp_path):
    model, _ = conll03
    path = tmp_path / "base.json"
    path.write_text(model.to_json(), encoding="utf-8")
    back = load_result(path)
    assert back.documents == model.documents
    assert dict(back.totals) == dict(model.totals)
    assert {d: dict(b) for d, b in back.by_document.items()} == {d: dict(b) for d, b in model.by_document.items()}
    verdict = check(model, baseline=path, significant=True, samples=200, seed=2)
    assert verdict.passed and verdict.outcomes[0].p_value == 1.0


def test_a_json_that_is_no_score_result_is_refused(files, tmp_path):
    bad = tmp_path / "x.json"
    bad.write_text(json.dumps({"command": "agree"}), encoding="utf-8")
    with pytest.raises(accord.AccordError, match="not a result of accord score"):
        check(*files, baseline=bad)


def test_cli_exit_statuses(files, capsys):
    g, p = files
    assert main(["check", str(g), str(p), "--min", "f1=0.5"]) == 0
    assert main(["check", str(g), str(p), "--min", "f1=0.6", "--label", "PER:precision=0.4"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == ["accord: check failed: f1 = 57.14 % is below the minimum 60.00 % (--min f1=0.6)"]
    assert main(["check", str(g), str(p), "--min", "f1=2"]) == 2
    assert main(["check", str(g), str(p)]) == 2
    assert main(["check", str(g), str(p), "--baseline", str(g), "--output", "json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["passed"] is False and out["checks"][0]["check"] == "drop"


def test_a_baseline_over_other_documents_or_options_is_refused(files, tmp_path, conll03):
    g, p = files
    model, _ = conll03
    with pytest.raises(OptionError, match="do not cover the same documents"):
        check(g, p, baseline=model)      # CoNLL-2003's 231 documents against one
    other = accord.score(g, p, beta=2.0)
    with pytest.raises(OptionError, match="beta: the model's 1.0, the baseline's 2.0"):
        check(g, p, baseline=other)


def test_a_result_json_saved_from_python_is_a_baseline_of_the_command_line(files, tmp_path, capsys):
    # Python's result records fewer options than the command line's (no scheme, no repair): unrecorded is not other
    g, p = files
    base = tmp_path / "base.json"
    base.write_text(accord.score(g, g).to_json(), encoding="utf-8")
    assert main(["check", str(g), str(p), "--baseline", str(base), "--max-drop", "42.9"]) == 0
    # F1 100 % -> 57.14 %: a drop of 42.86 points
    assert main(["check", str(g), str(p), "--baseline", str(base), "--max-drop", "42.85"]) == 1
    assert "a drop of 42.86 points, more than --max-drop 42.85" in capsys.readouterr().err
