"""MUC-4 with Chen et al. (2023)'s one-sided relaxed string fills (Chen et al., "A Unified View of Evaluation
Metrics for Structured Prediction", appendix C "MUC-4: Recent Work", equations 27 and 28 as phi_T), by hand."""

from __future__ import annotations

import pytest

from accord import structured as S
from accord.errors import OptionError
from accord.structured import muc4_rme
from accord.structured.named import score_records


def _t(type_, *fillers):
    return {"type": type_, "fillers": [{"slot": s, "value": v} for s, v in fillers]}


GOLD = [_t("bombing", ("PerpOrg", ["FMLN", "Farabundo Marti front"]), ("Target", ["the bridge", "it"]),
           ("Weapon", ["bomb"]))]
# two mentions of one perpetrator entity, a right target mention and a wrong one; no weapon
PRED = [_t("bombing", ("PerpOrg", "FMLN"), ("PerpOrg", "Farabundo Marti front"), ("Target", "the bridge"),
           ("Target", "the tower"))]


def test_phi_subset_one_sided_by_hand():
    # equation 27: FMLN, Farabundo Marti front and the bridge are mentions of their entities (3 of 4 predicted
    # right: P = 3/4); the two perpetrator mentions find one entity: 2 of 3 reference entities (R = 2/3);
    # F1 = 2 (3/4)(2/3) / (3/4 + 2/3) = 12/17
    s = muc4_rme("subset")(PRED, GOLD)
    assert (s.match, s.gold_match, s.pred_total, s.gold_total) == (3, 2, 4, 3)
    assert float(s) == pytest.approx(12 / 17)
    assert score_records("muc4-rme-subset", {"d": GOLD}, {"d": PRED}).total.f1 == pytest.approx(12 / 17)


def test_phi3_one_sided_by_hand():
    # equation 28: 3 predicted mentions shared (P = 3/4); the perpetrator entity gets 2 of its 2 mentions and the
    # target 1 of 2, the weapon 0 of 1: R = 3/5; F1 = 2 (3/4)(3/5) / (3/4 + 3/5) = 2/3
    s = muc4_rme("phi3")(PRED, GOLD)
    assert (s.match, s.gold_match, s.pred_total, s.gold_total) == (3, 3, 4, 5)
    assert float(s) == pytest.approx(2 / 3)
    assert score_records("muc4-rme-phi3", {"d": GOLD}, {"d": PRED}).total.f1 == pytest.approx(2 / 3)


def test_two_sided_subset_credits_one_mention_per_entity():
    # the two-sided form (Du et al. 2021b, 1:1): one of the two perpetrator mentions pairs; credit 2 of 4 and 3
    assert float(S.templates.muc4_subset()(PRED, GOLD)) == pytest.approx(4 / 7)


def test_identity_types_and_refusal():
    assert float(muc4_rme("subset")(GOLD, GOLD)) == 1.0 and float(muc4_rme("phi3")(GOLD, GOLD)) == 1.0
    assert float(muc4_rme()([_t("kidnapping", ("PerpOrg", "FMLN"))], GOLD)) == 0.0
    assert float(muc4_rme()([], [])) == 1.0
    with pytest.raises(OptionError, match="subset"):
        muc4_rme("phi4")
