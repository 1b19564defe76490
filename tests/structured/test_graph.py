"""Order-preserving graph matching (appendix A.2): hand counts, brute force, sequences and metametric 0.2.1."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accord import structured as S
from accord.errors import OptionError


def _chain(items):
    return {"nodes": list(items), "edges": [[i, i + 1] for i in range(len(items) - 1)]}


def _reach(n, edges):
    r = np.eye(n, dtype=bool)
    for a, b in edges:
        r[a, b] = True
    for k in range(n):  # Floyd-Warshall closure
        r |= r[:, [k]] & r[[k], :]
    return r


def _brute(p, g):
    """The best order-preserving 1:1 matching under equality, by enumeration."""
    rp, rg = _reach(len(p["nodes"]), p["edges"]), _reach(len(g["nodes"]), g["edges"])
    cand = [(i, j) for i, a in enumerate(p["nodes"]) for j, b in enumerate(g["nodes"]) if a == b]
    best = 0
    for size in range(len(cand), 0, -1):
        if size <= best:
            break
        for sub in itertools.combinations(cand, size):
            if len({i for i, _ in sub}) < size or len({j for _, j in sub}) < size:
                continue
            if all(rp[u, u2] == rg[v, v2] for (u, v), (u2, v2) in itertools.permutations(sub, 2)):
                best = size
                break
    return best


def test_the_papers_sequence_example_as_chains():
    assert S.graph_match()(_chain([1, 2, 3, 4, 5]), _chain([1, 3, 5, 7, 9])) == 3


def test_incomparable_nodes_cannot_match_ordered_ones():
    # pred: a -> b, a -> c (b and c unordered); gold: a -> b -> c
    pred = {"nodes": "abc", "edges": [[0, 1], [0, 2]]}
    gold = _chain("abc")
    score, pairs = S.graph_match().compute(pred, gold)
    assert score == 2  # a with b or with c, never both b and c
    assert pairs[0][:2] == (0, 0)


def test_a_cycle_is_a_preorder():
    # a and b reach each other in pred, neither reaches the other in gold
    assert S.graph_match()({"nodes": "ab", "edges": [[0, 1], [1, 0]]}, {"nodes": "ab", "edges": []}) == 1
    assert S.graph_match()({"nodes": "ab", "edges": [[0, 1], [1, 0]]},
                           {"nodes": "ab", "edges": [[1, 0], [0, 1]]}) == 2


def test_identical_graphs_score_one_and_tuples_work():
    g = (["x", "y", "z"], [(0, 1), (0, 2)])
    s = S.f1(S.graph_match())(g, g)
    assert float(s) == 1.0 and s.match == 3


def test_empty_graphs_follow_the_empty_rule():
    assert float(S.f1(S.graph_match())({"nodes": []}, {"nodes": []})) == 1.0
    assert float(S.f1(S.graph_match())({"nodes": []}, _chain("a"))) == 0.0


def test_bad_graphs_are_clear_errors():
    with pytest.raises(OptionError, match="edge"):
        S.graph_match()({"nodes": "ab", "edges": [[0, 5]]}, _chain("ab"))
    with pytest.raises(OptionError, match="nodes"):
        S.graph_match()(42, _chain("ab"))


_graphs = st.integers(1, 4).flatmap(lambda n: st.fixed_dictionaries({
    "nodes": st.lists(st.sampled_from("abc"), min_size=n, max_size=n),
    "edges": st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=5)}))


@settings(max_examples=120, deadline=None)
@given(_graphs, _graphs)
def test_equals_brute_force_on_small_graphs(p, g):
    assert S.graph_match()(p, g) == _brute(p, g)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(0, 4), max_size=7), st.lists(st.integers(0, 4), max_size=7))
def test_on_chains_it_is_the_weighted_lcs(a, b):
    assert S.graph_match()(_chain(a), _chain(b)) == S.sequence_match()(a, b)


class _Node:
    def __init__(self, label, index):
        self.label, self.index = label, index


class _NodeGraph:
    """The graph protocol metametric expects (nodes, successors, predecessors)."""

    def __init__(self, g):
        self._nodes = [_Node(label, i) for i, label in enumerate(g["nodes"])]
        self._edges = [tuple(e) for e in g["edges"]]

    def nodes(self):
        return self._nodes

    def successors(self, x):
        return [self._nodes[b] for a, b in self._edges if a == x.index]

    def predecessors(self, x):
        return [self._nodes[a] for a, b in self._edges if b == x.index]


@pytest.mark.parametrize("seed", range(12))
def test_agrees_with_metametric_graph_matching(seed):
    import metametric.dsl as mm

    rng = np.random.default_rng(seed)

    def graph():
        n = int(rng.integers(2, 7))
        edges = [(int(a), int(b)) for a, b in rng.integers(0, n, size=(int(rng.integers(0, 8)), 2)) if a != b]
        return {"nodes": [str(x) for x in rng.integers(0, 3, size=n)], "edges": edges}

    p, g = graph(), graph()
    theirs = mm.graph_matching["1:1"](mm.from_func(lambda a, b: 1.0 if a.label == b.label else 0.0))
    assert S.graph_match()(p, g) == pytest.approx(theirs.score(_NodeGraph(p), _NodeGraph(g)))
