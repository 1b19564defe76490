"""IE metrics derived in the framework: hand counts and metametric 0.2.1 run in the test."""

from __future__ import annotations

import random

import pytest

from accord import structured as S
from accord.errors import OptionError


def _events(rng, n_events):
    """Random events in metametric's classes (every event has at least one argument)."""
    from metametric.structures.ie import Argument, Event, Mention, Trigger

    out = []
    for _ in range(n_events):
        t = rng.randrange(30)
        args = [Argument(Mention(a, a + rng.randrange(2)), rng.choice("xyz"))
                for a in rng.sample(range(30, 60), rng.randint(1, 3))]
        out.append(Event(Trigger(Mention(t, t), rng.choice("AB")), args))
    return out


@pytest.mark.parametrize("seed", range(15))
def test_event_metrics_agree_with_metametric(seed):
    import metametric.dsl as mm
    from metametric.metrics import event_extraction as ee
    from metametric.structures.ie import EventSet

    rng = random.Random(seed)
    gold = _events(rng, 4)
    pred = [e for e in gold if rng.random() < 0.6] + _events(rng, 2)
    pairs = ((ee.trigger_classification, S.event_trigger_f1(trigger_field="trigger")),
             (ee.trigger_identification, S.event_trigger_f1(False, trigger_field="trigger")),
             (ee.argument_classification, S.event_argument_f1(trigger_field="trigger")),
             (ee.argument_identification, S.event_argument_f1(False, trigger_field="trigger")))
    for theirs, ours in pairs:
        assert float(ours(pred, gold)) == pytest.approx(mm.normalize["f1"](theirs).score(EventSet(pred),
                                                                                         EventSet(gold)))


def test_event_without_arguments_counts_no_argument():
    """metametric scores an argument-less event as one argument; by the definition it has none (hand count)."""
    gold = [{"trig": {"mention": {"left": 1, "right": 1}, "type": "A"},
             "args": [{"mention": {"left": 3, "right": 4}, "role": "x"}, {"mention": {"left": 6, "right": 6},
                                                                          "role": "y"}]},
            {"trig": {"mention": {"left": 9, "right": 9}, "type": "B"},
             "args": [{"mention": {"left": 10, "right": 11}, "role": "z"}]}]
    pred = [{"trig": gold[0]["trig"], "args": [gold[0]["args"][0], {"mention": {"left": 6, "right": 6},
                                                                     "role": "w"}]},
            {"trig": gold[1]["trig"], "args": []}]
    s = S.event_argument_f1()(pred, gold)
    assert (s.match, s.pred_total, s.gold_total) == (1, 2, 3)


def test_dependency_scores_by_hand():
    gold = [{"gov": 2, "dep": 1, "rel": "nsubj"}, {"gov": 0, "dep": 2, "rel": "root"}, {"gov": 2, "dep": 3,
                                                                                           "rel": "obj"}]
    pred = [{"gov": 2, "dep": 1, "rel": "nsubj"}, {"gov": 0, "dep": 2, "rel": "root"}, {"gov": 2, "dep": 3,
                                                                                           "rel": "iobj"}]
    assert float(S.uas(pred, gold)) == 1.0
    assert float(S.las(pred, gold)) == pytest.approx(2 / 3)


def test_role_filler_entity_metrics_by_hand():
    gold = [{"role": "perp", "entity": [(0, 1), (5, 5)]}, {"role": "victim", "entity": [(8, 9)]}]
    # one predicted entity is a subset of the perpetrator, one adds a wrong mention to the victim
    pred = [{"role": "perp", "entity": [(5, 5)]}, {"role": "victim", "entity": [(8, 9), (12, 12)]}]
    ree = S.ceaf_ree()(pred, gold)
    assert (ree.match, ree.pred_total, ree.gold_total) == (1, 2, 2)
    # RME: each predicted mention a singleton entity, N:1
    mentions = [{"role": "perp", "entity": [(0, 1)]}, {"role": "perp", "entity": [(5, 5)]},
                {"role": "victim", "entity": [(12, 12)]}]
    rme = S.ceaf_rme_subset()(mentions, gold)
    assert (rme.match, rme.pred_total, rme.gold_total) == (2, 3, 2)
    rme3 = S.ceaf_rme_phi3()(mentions, gold)
    # phi3: matched mentions 1 + 1; gold self-score 2 + 1 mentions
    assert (rme3.match, rme3.pred_total, rme3.gold_total) == (2, 3, 3)


def test_hierarchical_types_by_hand():
    lvl = S.level_type_similarity(3)
    assert lvl(("event", "attack", "bomb"), ("event", "attack", "bomb")) == 1.0
    assert lvl(("event", "attack", "arson"), ("event", "attack", "bomb")) == 0.5
    assert lvl(("event", "move", "x"), ("event", "attack", "bomb")) == 0.25
    assert lvl(("state",), ("event",)) == 0.0
    parent = {"bomb": "attack", "arson": "attack", "attack": "event", "event": None}
    anc = S.ancestor_f1(parent)
    assert anc("bomb", "bomb") == 1.0
    assert anc("arson", "bomb") == pytest.approx(2 * 2 / 6)   # {arson,attack,event} vs {bomb,attack,event}
    with pytest.raises(OptionError, match="cycle"):
        S.ancestor_f1({"a": "b", "b": "a"})("a", "a")
    with pytest.raises(OptionError):
        S.level_type_similarity(0)


def test_ceaf_rme_recall_never_exceeds_one():
    # N:1: three predicted singleton mentions fall in one gold entity of two mentions; both gold
    # mentions were found, one twice. The paper's sum gives 3 / 2; each gold entity's credit is
    # capped at its own score (2), so recall is 2 / 2 and the numerators stay within their totals.
    gold = [{"role": "perp", "entity": [(0, 1), (5, 5)]}, {"role": "victim", "entity": [(8, 9)]}]
    pred = [{"role": "perp", "entity": [(0, 1)]}, {"role": "perp", "entity": [(5, 5)]},
            {"role": "perp", "entity": [(5, 5)]}]
    for metric in (S.ceaf_rme_phi3(), S.ceaf_rme_subset()):
        r = metric(pred, gold).to_dict()
        assert r["gold_match"] <= r["gold_total"] and r["match"] <= r["pred_total"]
        assert 0.0 <= r["recall"] <= 1.0 and 0.0 <= r["precision"] <= 1.0
    r = S.ceaf_rme_phi3()(pred, gold).to_dict()
    assert (r["match"], r["pred_total"], r["gold_match"], r["gold_total"]) == (3, 3, 2, 3)
    assert r["recall"] == pytest.approx(2 / 3)


def test_named_ceaf_rme_splits_predicted_entities_into_mentions():
    # issue 18.9, by hand: reference entity {a, b} (role R); predicted entity {a, c}. As one entity, phi_subset
    # gives 0 ({a, c} is no subset); split into the singletons {a} (a subset: 1) and {c} (0): P 1/2, R 1/1
    from accord.structured.named import score_records

    key = {"d": [{"role": "R", "entity": ("a", "b")}]}
    resp = {"d": [{"role": "R", "entity": ("a", "c")}]}
    assert S.ceaf_rme_subset()(resp["d"], key["d"]).f1 == 0
    named = score_records("ceaf-rme-subset", key, resp).total
    assert (named.precision, named.recall) == (0.5, 1.0) and named.f1 == pytest.approx(2 / 3)
    # CEAF-REE with phi3 / phi4 for the entities, 1:1: |{a}| shared = 1 (phi3, unnormalised), phi4 = 2*1/(2+2)
    ree3 = score_records("ceaf-ree-phi3", key, resp).total
    assert (ree3.precision, ree3.recall) == (0.5, 0.5)
    ree4 = score_records("ceaf-ree-phi4", key, resp).total
    assert ree4.precision == pytest.approx(0.5) and ree4.recall == pytest.approx(0.5)
