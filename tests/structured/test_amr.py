"""Smatch by ILP against smatch 1.0.4 run in the test."""

from __future__ import annotations

import random
from pathlib import Path

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


def test_a_deep_graph_is_named_by_the_line_of_its_deepest_node(tmp_path, capsys):
    """The depth is counted outside comments and quoted constants (their parentheses do not nest anything)."""
    from accord.cli import main
    from accord.structured.amr import MAX_DEPTH

    lines = ["# ::snt ((((( not a node", '(a / x :name "((((((((")', "",   # lines 1-3: a comment, a quote
             "(r / root"] + [f" :ARG0 (v{k} / x" for k in range(MAX_DEPTH + 2)] + [")" * (MAX_DEPTH + 3)]
    p = tmp_path / "deep.amr"
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["smatch", str(p), str(p)]) == 2
    err = capsys.readouterr().err
    # the root opens on line 4, node k on line 5 + k: the deepest (depth MAX_DEPTH + 3) is the last, line 206
    assert f"more than {MAX_DEPTH} deep" in err and f"line {5 + MAX_DEPTH + 1}" in err, err


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


# ---------------------------------------------------------------------------- inverted roles, one triple (issue 33.7)
def test_mod_and_mod_of_are_one_triple():
    """``a :mod b`` and ``b :mod-of a`` are one edge (penman decodes both to ('a', ':mod', 'b')). accord stored the
    first as domain(b, a) and the second as mod(a, b): by hand 6 of 7 triples, F1 0.857. smatch 1.0.4 has the same
    split (run here: 6 of 7); the canonical triple is now domain(b, a) for both, and for ``b :domain a`` and
    ``a :domain-of b`` (penman's AMR model: ``:mod-of`` normalises to ``:domain``, ``:domain-of`` to ``:mod``)."""
    a = "(r / r :ARG0 (a / x :mod (b / y)) :ARG1 b)"
    b = "(r / r :ARG0 (a / x) :ARG1 (b / y :mod-of a))"
    c = "(r / r :ARG0 (a / x :domain-of (b / y)) :ARG1 b)"
    d = "(r / r :ARG0 (a / x) :ARG1 (b / y :domain a))"
    for other in (b, c, d):
        s = smatch(a, other)
        assert (s.match, s.test_triples, s.gold_triples) == (7, 7, 7)
    assert ("domain", Var("b"), Var("a")) in amr_triples(b)
    assert _theirs(a, b) == (6, 7, 7)


@pytest.mark.parametrize("role", ["ARG0", "mod", "domain", "poss", "prep-in", "consist-of", "prep-on-behalf-of",
                                  "prep-out-of"])
def test_inverted_spelling_gives_the_same_triples(role):
    """``s :R t`` and ``t :R-of s`` are one edge, for every role, the roles whose names end in ``-of``
    (``consist-of``, ``prep-on-behalf-of``, ``prep-out-of``: not inversions, as in smatch and penman's AMR model)
    included; the set of such roles is penman's."""
    from penman.models import amr as penman_amr

    from accord.structured.amr import _INVERSE_EXCEPTIONS

    assert {r.lstrip(":") for r in penman_amr.model.roles if r.endswith("-of")} == set(_INVERSE_EXCEPTIONS)
    plain = f"(r / root :ARG1 (s / src :{role} (t / tgt)))"
    inverted = f"(r / root :ARG1 (s / src) :ARG2 (t / tgt :{role}-of s))"
    # the second needs an edge r -ARG2-> t to reach t: compare what each adds to the graph without the R edge
    base = amr_triples("(r / root :ARG1 (s / src) :ARG2 (t / tgt))")
    edge_plain, edge_inverted = amr_triples(plain) - base, amr_triples(inverted) - base
    assert edge_plain == edge_inverted and len(edge_plain) == 1


SMATCH_FILES = Path(__file__).resolve().parents[2].parent / "shared" / "corpora" / "outside" / "smatch"
# pairs where accord keeps a triple smatch 1.0.4 drops (an inverted role or :mod pointing at a constant, see the
# module's docstring): jamr/lp_test pair 46 (':poss-of 5') and pair 66 (lp_test's '(c / chapter :mod 27)')
_CONSTANT_EDGES = {("jamr.txt", 46), ("jamr.txt", 66), ("wang.txt", 66)}


@pytest.mark.skipif(not SMATCH_FILES.is_dir(), reason="../shared/corpora/outside/smatch (smatch's test files) absent")
@pytest.mark.parametrize("test_file, gold_file", [("test_input1.txt", "test_input2.txt"), ("jamr.txt", "lp_test.txt"),
                                                  ("wang.txt", "lp_test.txt"), ("top_a.txt", "top_b.txt"),
                                                  ("top_c.txt", "top_d.txt")])
def test_smatch_test_files_pair_by_pair(test_file, gold_file):
    """smatch's own test files, each pair scored by smatch 1.0.4 run here (seeded restarts). smatch is given the
    graphs with ``:mod-of`` re-spelled ``:domain`` (the same edge; smatch's ``:mod-of`` triple matches no ``:mod``
    edge): jamr.txt writes ``:mod-of`` 7 times, and before the fix accord lost a triple on pairs 40, 65 and 75."""
    import penman

    from accord.structured import read_amr

    def one_line(path):
        return [penman.format(penman.Tree(t.node), indent=None) for t in read_amr(path)]

    tests, golds = one_line(SMATCH_FILES / test_file), one_line(SMATCH_FILES / gold_file)
    assert len(tests) == len(golds)
    for k, (t, g) in enumerate(zip(tests, golds)):
        if (test_file, k) in _CONSTANT_EDGES:
            continue
        random.seed(k)
        ours = smatch(t, g)
        assert (ours.match, ours.test_triples, ours.gold_triples) == \
            _theirs(t.replace(":mod-of", ":domain"), g.replace(":mod-of", ":domain")), (test_file, k)


def test_penman_log_lines_stay_off_stderr_and_a_missing_target_is_an_error(tmp_path, capsys, caplog):
    """Issue 33.17: penman logs "Missing target: ..." (logger ``penman``, level WARNING) and reads the role's target
    as None; with no handler configured the line reached standard error beside accord's own. Now the graph is
    refused with accord's one-line error naming the file and line, and penman's record goes nowhere else."""
    import logging

    from accord.cli import main

    good = tmp_path / "good.amr"
    good.write_text("(a / dog)\n", encoding="utf-8")
    miss = tmp_path / "miss.amr"
    miss.write_text("# ::id 1\n(a / dog\n   :ARG1 (b / cat)\n   :ARG0)\n", encoding="utf-8")
    with caplog.at_level(logging.DEBUG):
        assert main(["smatch", str(good), str(miss)]) == 2
    err = capsys.readouterr().err
    assert err.strip().splitlines() == [f"accord: error: {miss}:4: not PENMAN notation: a role without a target in "
                                        "':ARG0)'"]
    assert not [r for r in caplog.records if r.name.startswith("penman")]
    with pytest.raises(FormatError, match="a role without a target"):
        smatch("(a / dog :ARG0)", "(a / dog)")


def test_a_role_without_a_target_is_found_whatever_the_callers_logging():
    """The root logger at ERROR (as a caller silencing its own libraries sets it) or logging.disable(WARNING) must
    not hide penman's record of a missing target: it would read as the constant "None" and score."""
    import logging

    root, disabled = logging.getLogger().level, logging.root.manager.disable
    try:
        logging.getLogger().setLevel(logging.ERROR)
        with pytest.raises(FormatError, match="a role without a target"):
            smatch("(a / dog :ARG0)", "(a / dog)")
        logging.disable(logging.WARNING)
        with pytest.raises(FormatError, match="a role without a target"):
            smatch("(a / dog :ARG0)", "(a / dog)")
        assert logging.root.manager.disable == logging.WARNING    # the caller's setting is given back
    finally:
        logging.getLogger().setLevel(root)
        logging.disable(disabled)
