"""Order-preserving matching of DAGs and directed graphs, by integer linear programming (appendix A.2).

A sequence's total order relaxes to the partial order of a DAG (``u ⪯ u'`` when ``u'`` is
reachable from ``u``) and to the preorder of any directed graph (reachability, cycles
allowed). The matching score of two graphs is

.. math:: \\max_{M} \\sum_{(u, v) \\in M} \\phi(u, v) \\quad \\text{s.t.}\\quad
          \\forall (u, v), (u', v') \\in M:\\; u \\preceq u' \\iff v \\preceq v'

over 1:1 matchings ``M`` of the nodes. As an ILP: a binary ``x_uv`` per node pair with
``φ(u, v) > 0``; at most one ``x`` per node on each side; and for two candidate pairs that
disagree on the order, ``x_uv + x_u'v' <= 1`` (the paper's
``x_uv + x_u'v' <= 1 + [u ⪯ u' ⇔ v ⪯ v']``, written only where the bracket is 0). On two
chains this is the weighted longest common subsequence of :func:`sequence_match`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..errors import OptionError
from ._matching import Match
from ._similarity import Similarity, _as_similarity, exact

__all__ = ["graph_match", "Graph"]

Graph = Any
"""``{"nodes": [...], "edges": [[i, j], ...]}``, an object with ``nodes`` and ``edges``, or a
``(nodes, edges)`` pair; edges are directed, between node indices."""


def _graph(g: Any, side: str) -> tuple[list[Any], np.ndarray]:
    if isinstance(g, Mapping):
        nodes, edges = g.get("nodes"), g.get("edges", ())
    elif hasattr(g, "nodes") and hasattr(g, "edges"):
        nodes, edges = g.nodes, g.edges
    elif isinstance(g, Sequence) and len(g) == 2:
        nodes, edges = g
    else:
        raise OptionError(f"the {side} graph must be {{'nodes': [...], 'edges': [[i, j], ...]}} or a "
                          f"(nodes, edges) pair, got {g!r}")
    if nodes is None:
        raise OptionError(f"the {side} graph has no 'nodes'")
    nodes = list(nodes)
    n = len(nodes)
    reach = np.eye(n, dtype=bool)
    edge_list = [tuple(e) for e in (edges or ())]
    for e in edge_list:
        if len(e) != 2 or not all(isinstance(x, (int, np.integer)) and 0 <= x < n for x in e):
            raise OptionError(f"the {side} graph has edge {list(e)!r}; an edge is [i, j] with node indices "
                              f"0..{n - 1}")
    if edge_list and n:
        from scipy.sparse import coo_matrix
        from scipy.sparse.csgraph import shortest_path

        src, dst = zip(*edge_list)
        adj = coo_matrix((np.ones(len(src)), (np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64))),
                         shape=(n, n)).tocsr()
        reach = np.isfinite(shortest_path(adj, directed=True, unweighted=True))
    return nodes, reach


class _GraphMatch(Match):
    """The best 1:1 node matching that preserves reachability both ways."""

    def __init__(self, sim: Similarity):
        self.sim, self.constraint = sim, "1:1"

    def compute(self, pred: Graph, gold: Graph) -> tuple[float, list[tuple[int, int, float]]]:
        p, rp = _graph(pred, "predicted")
        g, rg = _graph(gold, "reference")
        if not p or not g:
            return 0.0, []
        w = np.array([[self.sim(a, b) for b in g] for a in p], dtype=float).reshape(len(p), len(g))
        if (w < 0).any():
            raise OptionError(f"similarity {self.sim!r} returned a negative value")
        ci, cj = np.nonzero(w > 0)
        k = len(ci)
        if not k:
            return 0.0, []
        from scipy.optimize import Bounds, LinearConstraint, milp
        from scipy.sparse import coo_matrix, vstack

        blocks = []
        # at most one pair per node on each side
        for idx, size in ((ci, len(p)), (cj, len(g))):
            blocks.append(coo_matrix((np.ones(k), (idx, np.arange(k))), shape=(size, k)))
        # pairs of candidate pairs that disagree on the order (each unordered pair once)
        a, b = np.triu_indices(k, 1)
        distinct = (ci[a] != ci[b]) & (cj[a] != cj[b])
        agree = (rp[ci[a], ci[b]] == rg[cj[a], cj[b]]) & (rp[ci[b], ci[a]] == rg[cj[b], cj[a]])
        bad = np.flatnonzero(distinct & ~agree)
        if len(bad):
            rows = np.repeat(np.arange(len(bad)), 2)
            cols = np.stack([a[bad], b[bad]], axis=1).reshape(-1)
            blocks.append(coo_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(bad), k)))
        matrix = vstack(blocks).tocsr()
        res = milp(-w[ci, cj], integrality=np.ones(k, dtype=np.int64), bounds=Bounds(0, 1),
                   constraints=[LinearConstraint(matrix, -np.inf, 1.0)])
        if res.x is None:  # pragma: no cover - all zeros is always feasible
            raise OptionError(f"the graph matching ILP failed: {res.message}")
        chosen = np.flatnonzero(res.x > 0.5)
        pairs = sorted((int(ci[c]), int(cj[c]), float(w[ci[c], cj[c]])) for c in chosen)
        return float(sum(s for _, _, s in pairs)), pairs

    def self_score(self, x: Graph) -> float:
        nodes, _ = _graph(x, "graph")
        if self.sim.normalized:
            # the identity matching preserves any order and scores 1 per node
            return float(len(nodes))
        return self.compute(x, x)[0]

    def __repr__(self) -> str:
        return f"graph_match({self.sim!r})"


def graph_match(sim: Any = exact) -> Match:
    """Matching of two directed graphs (DAGs or not) that preserves reachability: an ILP.

    Normalize it like any matching, e.g. ``f1(graph_match(exact))``. Nodes are compared with
    ``sim``; the result's pairs are ``(pred node, gold node, similarity)``. The ILP has one
    constraint per pair of candidate node pairs that disagree on the order, so it suits
    graphs of tens of nodes, not thousands.
    """
    return _GraphMatch(_as_similarity(sim, "graph_match"))
