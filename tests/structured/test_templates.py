"""Template scores (MUC-4 equation 32, BETTER appendix D) and SciREX (equations 29-31), counted by hand."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accord import structured as S
from accord.errors import OptionError


def _t(type_, *fillers):
    return {"type": type_, "fillers": [{"slot": s, "value": v} for s, v in fillers]}


GOLD = [
    _t("bombing", ("perp_org", ["FMLN", "the Farabundo Marti front"]), ("instrument", "bomb"),
       ("target_type", "civilian")),
    _t("kidnapping", ("hum_tgt_name", ["Jose Perez"]), ("stage", "accomplished")),
]
PRED = [
    _t("bombing", ("perp_org", "FMLN guerrillas"), ("instrument", "dynamite"), ("target_type", "military")),
    _t("kidnapping", ("hum_tgt_name", "Mr. Perez"), ("stage", "accomplished"), ("location", "San Salvador")),
    _t("attack", ("perp_org", "FMLN")),
]


def test_muc4_score_by_hand():
    # bombing: perp_org shares "fmln" (1), dynamite is a kind of bomb (1/2), military != civilian (0)
    # kidnapping: "perez" shared (1), stage equal (1), location has no reference filler (0)
    # the attack template aligns with nothing: credit 3.5 of 7 predicted and 5 reference fillers
    s = S.muc4_score(set_parent={"dynamite": "bomb"}, premodifiers=["mr."])(PRED, GOLD)
    assert s.match == 3.5 and s.pred_total == 7 and s.gold_total == 5
    assert s.precision == 0.5 and s.recall == 0.7 and float(s) == pytest.approx(7 / 12)
    assert sorted(p[:2] for p in s.pairs) == [(0, 0), (1, 1)]


def test_muc4_set_fill_half_credit_only_downward():
    phi = S.set_fill({"dynamite": "bomb", "bomb": "explosive"})
    assert phi("dynamite", "bomb") == 0.5 and phi("dynamite", "explosive") == 0.5
    assert phi("bomb", "dynamite") == 0.0 and phi("bomb", "bomb") == 1.0
    with pytest.raises(OptionError, match="cycle"):
        S.set_fill({"a": "b", "b": "a"})("a", "c")


def test_muc4_string_fill_premodifiers():
    assert S.string_fill()("the guerrillas", ["the FMLN"]) == 1.0
    assert S.string_fill(["the"])("the guerrillas", ["the FMLN"]) == 0.0
    assert S.string_fill(["the"])(["the guerrillas", "fmln"], ["the FMLN"]) == 1.0  # case-insensitive


def test_muc4_generic_type_half_credit_by_function():
    half = S.func(lambda p, r: 1.0 if p == r else 0.5 if p == "attack" else 0.0)
    s = S.muc4_score(type_similarity=half)([_t("attack", ("perp_org", "FMLN"))], GOLD[:1])
    assert s.match == 0.5  # the one filler matches, at half the template credit


def test_muc4_identical_and_empty():
    assert float(S.muc4_score()(GOLD, GOLD)) == 1.0
    assert float(S.muc4_score()([], [])) == 1.0
    assert float(S.muc4_score()(PRED, [])) == 0.0


def test_better_product_by_hand():
    gold = [_t("A", ("s1", "x"), ("s2", "y")), _t("A", ("s1", "z"))]
    pred = [_t("A", ("s1", "x"), ("s2", "y")), _t("A", ("s1", "w")), _t("B", ("s1", "z"))]
    s = S.better_score()(pred, gold)
    # fillers: the first pair shares 2 of 4 predicted and 3 reference fillers; the second
    # type-A pair shares none, but is aligned for the type factor (2 type matches of 3 and 2)
    assert s.filler_score.match == 2 and s.filler_score.f1 == pytest.approx(4 / 7)
    assert s.type_score.match == 2 and s.type_score.f1 == pytest.approx(0.8)
    assert float(s) == pytest.approx(0.8 * 4 / 7)
    assert sorted(p[:2] for p in s.pairs) == [(0, 0), (1, 1)]
    assert s.to_dict()["score"] == float(s)


def test_better_filler_factor_is_the_muc4_form():
    s = S.better_score()(PRED, GOLD)
    assert s.filler_score.f1 == pytest.approx(float(S.muc4_score()(PRED, GOLD)))


# ----------------------------------------------------------------------------- SciREX
def _rel(*args):
    return {"args": [{"role": r, "mentions": m} for r, m in args]}


R1 = _rel(("Method", [(0, 2), (10, 12)]), ("Dataset", [(20, 21)]), ("Task", [(30, 33)]), ("Metric", [(40, 41)]))
R2 = _rel(("Method", [(60, 61)]), ("Dataset", [(70, 71)]), ("Task", [(80, 81)]), ("Metric", [(90, 91)]))


def test_scirex_by_hand():
    # method: (0,2) exact, (10,12) exact, (50,52) unmatched -> 2/3 > 0.5; task: IoU 2/3 > 0.5
    good = _rel(("Method", [(0, 2), (10, 12), (50, 52)]), ("Dataset", [(20, 21)]), ("Task", [(30, 32)]),
                ("Metric", [(40, 41)]))
    wrong_role = _rel(("Method", [(60, 61)]), ("Dataset", [(70, 71)]), ("Metric", [(80, 81)]),
                      ("Metric", [(90, 91)]))
    s = S.scirex_f1()([good, wrong_role], [R1, R2])
    assert s.match == 1 and s.precision == 0.5 and s.recall == 0.5


def test_scirex_half_is_not_more_than_half():
    # (10,11) against (10,12): IoU exactly 1/2, not a match; then 1 of 3 mentions -> entity fails
    bad = _rel(("Method", [(0, 2), (10, 11), (50, 52)]), ("Dataset", [(20, 21)]), ("Task", [(30, 33)]),
               ("Metric", [(40, 41)]))
    assert S.scirex_mention()((10, 11), (10, 12)) == 0.0
    assert S.scirex_f1()([bad], [R1]).match == 0
    # inclusive spans: (10, 11) and (10, 12) inclusive are 2 and 3 tokens, IoU 2/3
    assert S.scirex_mention(inclusive=True)((10, 11), (10, 12)) == 1.0


@given(st.integers(0, 20), st.integers(1, 10), st.integers(0, 20), st.integers(1, 10))
def test_span_iou_is_the_jaccard_of_index_sets(a, n, b, k):
    framework = S.jaccard(S.match(S.exact, "1:1"))(range(a, a + n), range(b, b + k))
    assert S.span_iou((a, a + n), (b, b + k)) == pytest.approx(float(framework))


def test_threshold_combinator():
    t = S.threshold(S.func(lambda p, r: p / r), 0.5)
    assert t(1, 2) == 0.0 and t(2, 3) == 1.0
    assert S.threshold(S.func(lambda p, r: p / r), 0.5, inclusive=True)(1, 2) == 1.0
    with pytest.raises(OptionError):
        S.threshold(S.exact, "high")


def test_named_muc4_variants_by_hand():
    # issue 18.9: one reference bombing template with Target = entity ["the bridge", "it"]
    from accord.structured.named import score_records

    key = {"d": [{"type": "bombing", "fillers": [{"slot": "Target", "value": ("the bridge", "it")}]}]}
    attack = {"d": [{"type": "attack", "fillers": [{"slot": "Target", "value": "the bridge"}]}]}
    # plain MUC-4: types differ, no alignment credit
    assert score_records("muc4", key, attack).total.f1 == 0
    # the original evaluation's half credit for 'attack': type 0.5 times the filler's 1 ("the bridge" shares a
    # word with the entity): match 0.5 over 1 predicted and 1 reference filler
    half = score_records("muc4-attack", key, attack).total
    assert (half.match, half.precision, half.recall, half.f1) == (0.5, 0.5, 0.5, 0.5)
    # phi_subset: "the bridge" is a mention of the entity (1); "the tower" is not (0), though it shares "the"
    same = {"d": [{"type": "bombing", "fillers": [{"slot": "Target", "value": "the bridge"}]}]}
    other = {"d": [{"type": "bombing", "fillers": [{"slot": "Target", "value": "the tower"}]}]}
    assert score_records("muc4-subset", key, same).total.f1 == 1.0
    assert score_records("muc4-subset", key, other).total.f1 == 0.0


def test_token_f1_and_head_word_mention_similarities():
    from accord.structured.ie import head_word, token_f1

    # [2, 6) and [4, 8): 2 shared tokens of 4 + 4 -> 2*2/8
    assert token_f1((2, 6), (4, 8)) == 0.5 and token_f1((0, 2), (5, 7)) == 0.0
    assert head_word({"start": 0, "end": 3, "head": 2}, (1, 3, 2)) == 1.0
    assert head_word((0, 3, 1), (0, 3, 2)) == 0.0


@pytest.mark.parametrize("name", ["muc4", "muc4-attack", "muc4-subset", "better"])
def test_a_filler_matches_its_own_value(name):
    """Issue 33.4's property for templates: a key scored against itself is 1. A string fill of no mention ([]) or of
    premodifiers only ("the") shares no word with anything, so φ_str (and φ⊆, which needs a non-empty prediction)
    gave it 0: by hand, 1 filler of 3 lost, F1 2/3 before. A value equal to the reference's now scores 1."""
    from accord.structured.named import score_records

    key = {"d": [{"type": "bombing", "fillers": [{"slot": "Target", "value": ()},
                                                 {"slot": "Victim", "value": ("the",)},
                                                 {"slot": "Stage", "value": "accomplished"}]}]}
    s = score_records(name, key, key, premodifiers=("the",)).total
    f = s.filler_score if name == "better" else s
    assert (f.match, f.pred_total, f.gold_total) == (3, 3, 3) and float(s) == 1.0
    # an empty prediction for a non-empty reference still earns nothing
    resp = {"d": [{"type": "bombing", "fillers": [{"slot": "Target", "value": ()}]}]}
    key2 = {"d": [{"type": "bombing", "fillers": [{"slot": "Target", "value": ("the bridge",)}]}]}
    f2 = score_records(name, key2, resp).total
    assert (f2.filler_score if name == "better" else f2).match == 0
