"""MUC-4 as the 1992 evaluation scored it (Chen et al., "A Unified View of Evaluation Metrics for Structured
Prediction", appendix C, "Template Alignment Constraints" and "String-valued similarities and Interactive
Scoring"), counted by hand.

Appendix C: the generic ``attack`` type earns half the type credit in place of a specific one; a template pair
needs "a partial match on at least one of" seven key slots; the alignment is chosen with the automatic ``φ_str``
(equation 49) and the score given that alignment adds the interactive full or half credit for mismatches.
"""

from __future__ import annotations

import pytest

from accord import structured as S
from accord.errors import OptionError
from accord.structured import MUC4_KEY_SLOTS, muc4_original
from accord.structured.named import score_records


def _t(type_, *fillers):
    return {"type": type_, "fillers": [{"slot": s, "value": v} for s, v in fillers]}


STAGE = "INCIDENT: STAGE OF EXECUTION"
GOLD = [
    _t("bombing", ("PERP: ORGANIZATION ID", ["FMLN", "the Farabundo Marti front"]),
       ("PHYS TGT: ID", ["the power station"]), (STAGE, "accomplished")),
    _t("kidnapping", ("HUM TGT: NAME", ["Jose Perez"]), (STAGE, "accomplished")),
]
PRED = [
    _t("attack", ("PERP: ORGANIZATION ID", "Farabundo guerrillas"), ("PHYS TGT: ID", "electric tower"),
       (STAGE, "accomplished")),
    _t("kidnapping", ("HUM TGT: NAME", "the mayor"), (STAGE, "accomplished")),
]
# 5 predicted and 5 reference fillers throughout: F1 = 2 * credit / 10


def test_plain_muc4_aligns_the_fortuitous_pair():
    # exact types: attack/bombing scores 0; kidnapping/kidnapping: the name fails, the stage (not a key slot)
    # matches: credit 1, F1 0.2
    s = S.muc4_score()(PRED, GOLD)
    assert (s.match, s.pred_total, s.gold_total) == (1.0, 5, 5) and float(s) == pytest.approx(0.2)


def test_attack_half_credit_without_the_key_slot_rule():
    # attack/bombing: 0.5 x (perpetrator shares "farabundo" 1 + target 0 + stage 1) = 1; kidnapping pair 1
    s = muc4_original(key_slots=None)(PRED, GOLD)
    assert s.match == 2.0 and float(s) == pytest.approx(0.4)
    assert float(score_records("muc4-attack", {"d": GOLD}, {"d": PRED}).total) == pytest.approx(0.4)


def test_key_slot_rule_refuses_the_fortuitous_alignment():
    # appendix C: the kidnapping pair shares only the stage; its one key slot (HUM TGT: NAME) does not match, so
    # it does not align; attack/bombing matches on PERP: ORGANIZATION ID and keeps its credit 1: F1 2*1/10
    s = muc4_original()(PRED, GOLD)
    assert s.match == 1.0 and float(s) == pytest.approx(0.2)
    assert [p[:2] for p in s.pairs] == [(0, 0)]
    named = score_records("muc4-original", {"d": GOLD}, {"d": PRED}).total
    assert named.match == 1.0 and named.f1 == pytest.approx(0.2)


def test_interactive_half_credit_scores_but_does_not_align():
    # judged: "electric tower" for "the power station" half credit; "the mayor" for "Jose Perez" full credit.
    # Alignment is by the automatic phi_str (appendix C's first version), so the kidnapping pair stays unaligned
    # and its judgement counts nothing; attack/bombing: 0.5 x (1 + 0.5 + 1) = 1.25, F1 2*1.25/10 = 0.25
    judged = {("electric tower", "the power station"): 0.5, ("the mayor", "Jose Perez"): 1}
    s = muc4_original(judgements=judged)(PRED, GOLD)
    assert s.match == 1.25 and float(s) == pytest.approx(0.25)
    named = score_records("muc4-original", {"d": GOLD}, {"d": PRED}, judgements=judged).total
    assert named.f1 == pytest.approx(0.25)
    # without the key-slot rule the kidnapping pair aligns and its judged name counts: 1.25 + (1 + 1) = 3.25
    assert muc4_original(judgements=judged, key_slots=None)(PRED, GOLD).match == 3.25


def test_judge_callable_and_invalid_credits():
    asked = []

    def judge(p, ref):
        asked.append((p, ref))
        return 0.5

    s = muc4_original(judgements=judge)(PRED, GOLD)
    # only the automatic mismatch of the aligned pair is asked about; half credit: 0.5 x (1 + 0.5 + 1)
    assert asked == [("electric tower", ("the power station",))] and s.match == 1.25
    with pytest.raises(OptionError, match="0, 0.5 or 1"):
        muc4_original(judgements={("electric tower", "the power station"): 0.3})
    with pytest.raises(OptionError, match="0, 0.5 or 1"):
        muc4_original(judgements=lambda p, r: 2)(PRED, GOLD)
    with pytest.raises(OptionError, match="keyed by"):
        muc4_original(judgements={"electric tower": 1})
    with pytest.raises(OptionError, match="key_slots"):
        muc4_original(key_slots="PHYS TGT: ID")


def test_key_slots_named_as_in_the_key_templates():
    assert len(MUC4_KEY_SLOTS) == 7
    numbered = [_t("bombing", ("10. PERP: ORGANIZATION ID", ["FMLN"]))]
    assert float(muc4_original()([_t("bombing", ("10. PERP: ORGANIZATION ID", "FMLN"))], numbered)) == 1.0
    assert float(muc4_original()(GOLD, GOLD)) == 1.0
    assert float(muc4_original()([], [])) == 1.0


def test_a_reference_template_without_key_slots_is_not_held_to_the_rule():
    # no key slot filled in the reference: nothing to match there, the pair aligns on its other fillers (1 of 1)
    only_stage = [_t("bombing", (STAGE, "accomplished"))]
    assert float(muc4_original()(only_stage, only_stage)) == 1.0


def test_command_line_judgements(tmp_path, capsys):
    # the same hand count through `accord structured --judgements FILE`: F1 0.25
    import json

    from accord.cli import main

    key, resp, judged = tmp_path / "k.jsonl", tmp_path / "r.jsonl", tmp_path / "j.json"
    key.write_text(json.dumps({"id": "d", "templates": GOLD}) + "\n")
    resp.write_text(json.dumps({"id": "d", "templates": PRED}) + "\n")
    judged.write_text(json.dumps([["electric tower", "the power station", 0.5], ["the mayor", "Jose Perez", 1]]))
    argv = [str(key), str(resp), "--metrics", "muc4-original", "--judgements", str(judged), "--output", "json"]
    assert main(["structured", *argv]) == 0
    totals = json.loads(capsys.readouterr().out)["measures"]["muc4-original"]["totals"]
    assert (totals["match"], totals["pred_total"], totals["gold_total"], totals["f1"]) == (1.25, 5, 5, 0.25)
    judged.write_text(json.dumps([["electric tower", "the power station", 0.3]]))
    assert main(["structured", *argv]) == 2
    assert "item 0" in capsys.readouterr().err
    assert main(["structured", str(key), str(resp), "--metrics", "muc4", "--judgements", str(judged)]) == 2
    assert "applies to muc4-original" in capsys.readouterr().err
