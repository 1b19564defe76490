"""Scoring spanless blocks by shape gives the matrix of a call on every pair, and the engine the same pairs."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord.match import similarity as similarity_module
from accord.match.engine import Pairer, make_similarity
from accord.match.shapes import pair_scores, shape_of, spanless_block_scores
from accord.match.similarity import Context
from accord.model import Corpus, Document, make_annotation

from .test_engine import TASK


def _entities(rng: random.Random, n: int) -> list:
    out, pos = [], 0
    for _ in range(n):
        pos += rng.randint(0, 6)
        width = rng.randint(0, 5)
        out.append(make_annotation(rng.choice(("PER", "LOC")), pos, pos + width, {"kind": rng.choice("ab")}))
    return out


def _relations(rng: random.Random, entities: list, n: int, *, rich: bool, local: bool = False) -> list:
    """Relations over the entities; ``local`` ones join neighbours, so that their implied spans overlap little
    and many blocks hold one relation a side."""
    out = []
    for _ in range(n):
        k = rng.randrange(len(entities))
        attrs: dict = {"arg1": entities[k] if local else rng.choice(entities)}
        if rng.random() < 0.8:
            attrs["arg2"] = entities[min(k + 1, len(entities) - 1)] if local else rng.choice(entities)
        if rich:   # what a task would refuse but the default profile compares: scalars, sets of targets
            if rng.random() < 0.5:
                attrs["note"] = rng.choice(("x", "y", 1, 1.0, True))
            if rng.random() < 0.4:
                attrs["members"] = frozenset(rng.sample(entities, rng.randint(0, min(3, len(entities)))))
            if rng.random() < 0.2:
                attrs["path"] = tuple(rng.sample(entities, min(2, len(entities))))
        out.append(make_annotation(rng.choice(("REL", "REL", "LINK")) if rich else "REL", attributes=attrs))
    return out


def _context(rng: random.Random, gold_entities: list, pred_entities: list) -> Context:
    ctx = Context(lambda a: a.label)
    pairs = list(zip(gold_entities, rng.sample(pred_entities, len(pred_entities))))
    ctx.add_pairs(((id(g), id(p)), rng.choice((1.0, 0.5, 0.9))) for g, p in pairs if rng.random() < 0.6)
    return ctx


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(("strict", "lenient", "mat")))
def test_block_matrix_equals_a_call_on_every_pair(seed, profile):
    rng = random.Random(seed)
    g_ent, p_ent = _entities(rng, rng.randint(1, 8)), _entities(rng, rng.randint(1, 8))
    gold = _relations(rng, g_ent, rng.randint(1, 9), rich=True)
    pred = _relations(rng, p_ent, rng.randint(1, 9), rich=True)
    ctx = _context(rng, g_ent, p_ent)
    sim = make_similarity(profile, None)
    got = spanless_block_scores(sim, gold, pred, [a.label for a in gold], [a.label for a in pred], ctx)
    assert got is not None
    m, tokens_of = got
    for x, r in enumerate(gold):
        for y, h in enumerate(pred):
            s, rt, ht = sim(r, h, ctx)
            kept = s if s > 0 and (sim.clash or s >= 1.0) else 0.0
            assert m[x, y] == kept, (x, y, r, h)
            if kept:
                assert tokens_of(x, y) == (rt, ht)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(("strict", "lenient", "mat")), st.booleans())
def test_pair_scores_equal_a_call_on_every_pair(seed, profile, spanned):
    # many pairs of few shapes and geometries, some of them linked through their targets, so that a combination
    # holds linked and unlinked pairs
    rng = random.Random(seed)
    g_ent, p_ent = _entities(rng, rng.randint(1, 5)), _entities(rng, rng.randint(1, 5))
    gold, pred = [], []
    for _ in range(30):
        if spanned:
            start, width, shift = rng.randint(0, 3), rng.randint(0, 2), rng.randint(-1, 1)
            label = rng.choice(("PER", "LOC"))
            gold.append(make_annotation(label, start, start + width, {"to": rng.choice(g_ent)}))
            pred.append(make_annotation(rng.choice((label, "LOC")), max(start + shift, 0), start + width + 1,
                                        {"to": rng.choice(p_ent)}))
        else:
            gold.append(make_annotation("REL", attributes={"arg1": rng.choice(g_ent)}))
            pred.append(make_annotation("REL", attributes={"arg1": rng.choice(p_ent)}))
    ctx = _context(rng, g_ent, p_ent)
    sim = make_similarity(profile, None)
    got = pair_scores(sim, gold, pred, [a.label for a in gold], [a.label for a in pred], ctx)
    assert got == [sim(r, h, ctx) for r, h in zip(gold, pred)]


def test_linked_pairs_are_called_and_the_rest_once_per_shape(monkeypatch):
    # two gold and three predicted relations of one shape; only the first gold one points to an entity paired
    # with a target of the second predicted one
    e_g = [make_annotation("PER", 0, 4), make_annotation("LOC", 10, 14)]
    e_p = [make_annotation("PER", 0, 4), make_annotation("LOC", 10, 14), make_annotation("LOC", 11, 14)]
    gold = [make_annotation("REL", attributes={"arg1": e_g[0], "arg2": e_g[1]}),
            make_annotation("REL", attributes={"arg1": e_g[1], "arg2": e_g[1]})]
    pred = [make_annotation("REL", attributes={"arg1": e_p[k], "arg2": e_p[2]}) for k in (1, 0, 1)]
    ctx = Context(lambda a: a.label)
    ctx.add_pairs([((id(e_g[0]), id(e_p[0])), 1.0)])
    sim = make_similarity("mat", None)
    calls = []
    original = type(sim).__call__

    def counting(self, r, h, c):
        calls.append((gold.index(r), pred.index(h)))
        return original(self, r, h, c)

    monkeypatch.setattr(type(sim), "__call__", counting)
    m, _ = spanless_block_scores(sim, gold, pred, ["REL"] * 2, ["REL"] * 3, ctx)
    # (0, 1) is linked; the other five pairs share one shape pair with overlapping implied spans: one call
    assert sorted(calls) == [(0, 0), (0, 1)]
    # default spanless profile: label 0.2 (equal), remainder 0.6 over two targets; linked: arg1 paired at 1.0
    assert m[0, 1] == pytest.approx((0.2 * 1 + 0.6 * 0.5) / 0.8)
    assert np.all(m[[0, 0, 1, 1, 1], [0, 2, 0, 1, 2]] == pytest.approx(0.2 / 0.8))


def test_shape_tells_targets_apart_only_by_count():
    e = [make_annotation("PER", k, k + 1) for k in range(3)]
    one = make_annotation("REL", attributes={"arg1": e[0], "set": frozenset(e[:2]), "n": 1})
    other = make_annotation("REL", attributes={"arg1": e[2], "set": frozenset(e[1:]), "n": 1})
    third = make_annotation("REL", attributes={"arg1": e[2], "set": frozenset(e[1:]), "n": True})
    assert shape_of(one, "REL") == shape_of(other, "REL")
    assert shape_of(one, "REL") != shape_of(third, "REL")       # a boolean is not the integer 1
    assert shape_of(one, "REL") != shape_of(one, "X")           # the scoring label counts


def _corpora(seed: int, rich: bool) -> tuple[Corpus, Corpus]:
    rng = random.Random(seed)
    gold, pred = [], []
    for d in range(3):
        g_ent, p_ent = _entities(rng, rng.randint(2, 10)), _entities(rng, rng.randint(2, 10))
        local = rng.random() < 0.5
        g = g_ent + _relations(rng, g_ent, rng.randint(0, 8), rich=rich, local=local)
        p = p_ent + _relations(rng, p_ent, rng.randint(0, 8), rich=rich, local=local)
        rng.shuffle(g)
        rng.shuffle(p)
        gold.append(Document(f"d{d}", tuple(g), "x" * 80))
        pred.append(Document(f"d{d}", tuple(p), "x" * 80))
    return Corpus(gold), Corpus(pred)


def _alignments(gold: Corpus, pred: Corpus, **kwargs) -> list:
    pairer = Pairer(make_similarity(kwargs.get("profile"), kwargs.get("task")), kwargs.get("task"))
    out = []
    for doc_id in gold:
        al = pairer.align(doc_id, gold[doc_id], pred[doc_id])
        out.append((sorted(al.pairs), al.gold_status.tolist(), al.pred_status.tolist()))
    return out


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(({"profile": "strict"}, {"profile": "lenient"},
                                                     {"profile": "mat"}, {"task": TASK, "profile": "mat"})))
def test_engine_pairs_alike_with_and_without_shapes(seed, kwargs):
    gold, pred = _corpora(seed, rich="task" not in kwargs)
    fast = _alignments(gold, pred, **kwargs)
    classes = (similarity_module.StrictSimilarity, similarity_module.ProfileSimilarity)
    saved = [c.by_shape for c in classes]
    try:
        for c in classes:
            c.by_shape = False
        slow = _alignments(gold, pred, **kwargs)
    finally:
        for c, v in zip(classes, saved):
            c.by_shape = v
    assert fast == slow


def test_unhashable_values_fall_back_to_a_call_per_pair():
    e = make_annotation("PER", 0, 2)
    gold = [make_annotation("REL", attributes={"arg1": e, "meta": {"a": 1}})]   # a dict, from the Python API
    ctx = Context(lambda a: a.label)
    assert spanless_block_scores(make_similarity("mat", None), gold, gold, ["REL"], ["REL"], ctx) is None
    t = accord.score(Corpus([Document("d", (e, *gold))]), Corpus([Document("d", (e, *gold))]), profile="mat").totals
    assert (t.match, t.missing, t.spurious) == (2, 0, 0)


def test_pair_scores_refuse_mixed_spans_and_pieces():
    """None (the pairs are then scored one by one) for a spanned and a spanless annotation together, on either
    side, and for a discontinuous span among spanned ones; scores for spans alone."""
    from accord.model import Annotation

    sim = make_similarity("mat", None)
    ctx = Context(lambda a: a.label)
    a, b = make_annotation("PER", 0, 4), make_annotation("PER", 1, 4)
    rel = make_annotation("REL", attributes={"arg1": a})
    pieces = Annotation("PER", 0, 9, a.attributes, None, ((0, 4), (6, 9)))

    def scores(gold, pred):
        return pair_scores(sim, gold, pred, [x.label for x in gold], [x.label for x in pred], ctx)

    assert scores([a, b], [b, rel]) is None
    assert scores([rel, a], [rel, b]) is None
    assert scores([a, b], [b, pieces]) is None
    assert scores([pieces], [a]) is None
    assert scores([a, b], [b, a]) == [sim(a, b, ctx), sim(b, a, ctx)]
