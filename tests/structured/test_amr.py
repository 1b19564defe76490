"""Smatch by ILP against smatch 1.0.4 run in the test."""

from __future__ import annotations

import random

import pytest

from accord.errors import FormatError
from accord.structured import amr_triples, smatch, smatch_corpus
from accord.structured._latent import Var

CONCEPTS = ["want-01", "boy", "girl", "go-02", "believe-01", "dog", "see-01", "city"]
ROLES = [":ARG0", ":ARG1", ":ARG2", ":location", ":time"]


def _random_amr(rng: random.Random, n: int) -> str:
    """A random tree of n nodes with some re-entrancies and attributes, in PENMAN notation."""
    children = {i: [] for i in range(n)}
    for i in range(1, n):
        children[rng.randrange(i)].append(i)
    concept = {i: rng.choice(CONCEPTS) for i in range(n)}

    def render(i: int) -> str:
        parts = [f"(v{i} / {concept[i]}"]
        for c in children[i]:
            parts.append(f"{rng.choice(ROLES)} {render(c)}")
        if rng.random() < 0.3 and i > 0:
            parts.append(f"{rng.choice(ROLES)} v{rng.randrange(i)}")
        if rng.random() < 0.2:
            parts.append(":polarity -")
        return " ".join(parts) + ")"

    return render(0)


def _theirs(test: str, gold: str, iterations: int = 20):
    import smatch as sm

    sm.match_triple_dict.clear()
    sm.iteration_num = iterations
    sm.veryVerbose = sm.verbose = False
    return sm.get_amr_match(test, gold)


def test_hand_example():
    test = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b :polarity -))"
    gold = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 (g2 / girl)))"
    s = smatch(test, gold)
    # test: 3 instances, TOP, 3 relations, polarity = 8; gold: 4 instances, TOP, 3 relations = 8
    # match: want, boy, go, TOP, ARG0(w,b), ARG1(w,g) = 6
    assert (s.match, s.test_triples, s.gold_triples) == (6, 8, 8)
    assert s.f1 == 0.75 and s.mapping == {"w": "w", "b": "b", "g": "g"}
    assert _theirs(test, gold) == (6, 8, 8)


def test_triple_conventions():
    t = amr_triples('(a / Alpha_ :ARG0-of (b / beta) :consist-of (c / gamma) :mod (d / delta) :name "Obama")')
    assert ("arg0", Var("b"), Var("a")) in t                # -of inverted
    assert ("consist-of", Var("a"), Var("c")) in t          # an exception keeps its name
    assert ("domain", Var("d"), Var("a")) in t              # mod -> domain, inverted
    assert ("name", Var("a"), "obama") in t                 # quotes stripped, lower-cased
    assert ("instance", Var("a"), "alpha") in t and ("top", Var("a"), "top") in t


@pytest.mark.parametrize("seed", range(30))
def test_equals_smatch_on_small_graphs(seed):
    """On graphs this small smatch's restarts find the optimum; the ILP must find the same number."""
    rng = random.Random(seed)
    gold = _random_amr(rng, rng.randint(2, 6))
    test = _random_amr(rng, rng.randint(2, 6))
    ours = smatch(test, gold)
    theirs = _theirs(test, gold, iterations=30)
    assert (ours.match, ours.test_triples, ours.gold_triples) == theirs


@pytest.mark.parametrize("seed", range(10))
def test_never_below_smatch_and_deterministic(seed):
    rng = random.Random(100 + seed)
    gold = _random_amr(rng, 12)
    test = _random_amr(rng, 12)
    ours = smatch(test, gold)
    best = max(_theirs(test, gold, iterations=5)[0] for _ in range(3))
    assert ours.match >= best
    assert smatch(test, gold) == ours


def test_duplicate_triples_count_once():
    g = "(a / dog :ARG0 (b / cat) :ARG0 b)"
    s = smatch(g, g)
    assert s.f1 == 1.0 and s.test_triples == 4   # instance x2, TOP, one ARG0
    import smatch as sm
    sm.match_triple_dict.clear()
    m, t, gt = sm.get_amr_match(g, g)
    assert t == 5   # smatch counts the repeated edge twice


def test_corpus_sums_counts():
    a = "(a / dog)"
    b = "(a / cat)"
    s = smatch_corpus([a, a], [a, b])
    assert (s.match, s.test_triples, s.gold_triples) == (3, 4, 4) and len(s.by_pair) == 2


def test_bad_graphs():
    with pytest.raises(FormatError, match="test graph"):
        smatch("(a / dog", "(a / dog)")
    with pytest.raises(FormatError, match="no concept"):
        smatch("(a :ARG0 (b / cat))", "(a / dog)")


def test_deep_graph_is_refused_not_recursed(tmp_path):
    from accord.cli import main
    from accord.structured.amr import MAX_DEPTH

    deep = "(a / x" + "".join(f" :ARG0 (v{k} / x" for k in range(5000)) + ")" * 5001
    p = tmp_path / "deep.amr"
    p.write_text(deep + "\n", encoding="utf-8")
    assert main(["smatch", str(p), str(p)]) == 2
    # nesting up to the bound is read (a chain of MAX_DEPTH nodes; its exact Smatch is slow, so only read here)
    shallow = "(a / x" + "".join(f" :ARG0 (v{k} / x{k}" for k in range(MAX_DEPTH - 1)) + ")" * MAX_DEPTH
    assert len(amr_triples(shallow)) == 2 * MAX_DEPTH


def test_empty_file_and_one_line_errors(tmp_path, capsys):
    from accord.cli import main

    empty = tmp_path / "empty.amr"
    empty.write_text("# ::id 1\n\n", encoding="utf-8")
    good = tmp_path / "good.amr"
    good.write_text("(a / dog)\n", encoding="utf-8")
    assert main(["smatch", str(empty), str(good)]) == 2
    err = capsys.readouterr().err
    assert "no PENMAN graph" in err and "empty.amr" in err and len(err.strip().splitlines()) == 1
    broken = tmp_path / "broken.amr"
    broken.write_text("(a / dog\n   :ARG0 (b / cat)\n", encoding="utf-8")
    assert main(["smatch", str(broken), str(good)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "broken.amr" in err and "line" in err


@pytest.mark.parametrize("seed", range(40))
def test_greedy_mapping_is_taken_only_when_it_is_optimal(seed, monkeypatch):
    """The fast path (a greedy mapping that reaches an upper bound) gives the integer program's match, and its
    pairs keep the mapping one-to-one and every item in at most one pair."""
    from accord.structured import _latent
    from accord.structured.amr import _FIELDS

    rng = random.Random(500 + seed)
    gold = _random_amr(rng, rng.randint(3, 14))
    # a test graph close to the gold one (the fast path's usual case) or unrelated
    test = gold.replace("boy", "girl", 1) if seed % 2 else _random_amr(rng, rng.randint(3, 14))
    t = sorted(amr_triples(test), key=repr)
    g = sorted(amr_triples(gold), key=repr)
    fast = _latent.latent_match(t, g, _FIELDS)
    monkeypatch.setattr(_latent, "_greedy_if_optimal", lambda cand, signature: None)
    exact = _latent.latent_match(t, g, _FIELDS)
    assert fast.score == exact.score
    assert len({i for i, _, _ in fast.pairs}) == len(fast.pairs) == len({j for _, j, _ in fast.pairs})
    assert len(set(fast.mapping.values())) == len(fast.mapping)
    for i, j, _ in fast.pairs:      # a pair's items are equal under the mapping
        a, b = t[i], g[j]
        assert all((fast.mapping.get(x.name) == y.name) if isinstance(x, Var) else x == y for x, y in zip(a, b))


def test_identical_graphs_take_the_fast_path(monkeypatch):
    from accord.structured import _latent

    def refuse(*args, **kwargs):
        raise AssertionError("the integer program ran")
    monkeypatch.setattr(_latent, "_solve", refuse)
    g = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))"
    s = smatch(g, g)
    assert (s.match, s.test_triples, s.f1) == (s.gold_triples, s.gold_triples, 1.0)
