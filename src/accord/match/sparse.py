"""Pairing inside huge overlap blocks: a sparse candidate graph and a sparse assignment.

Real annotations form small overlap blocks, and each block is paired exactly on its full
similarity matrix. A *pile* (thousands of mutually overlapping spans in one document:
generated input, a runaway system, an annotation tool's bug) makes one block whose matrix
would not fit in memory and whose assignment would not finish. Above :data:`DENSE_LIMIT`
candidate pairs in a block, accord compares each span only with its :data:`NEIGHBOURS`
nearest spans of the other side in start order and in end order (within its own label
and across labels) and with the spans of exactly the same extent, then finds the best
one-to-one pairing over those candidates with
:func:`scipy.sparse.csgraph.min_weight_full_bipartite_matching`. This is the documented
bound: the pairing is optimal over the candidate graph, which holds every pair of equal
extent and the closest spans, for similarities rounded to :data:`QUANTUM` levels (the
counts keep each pair's exact similarity), and a :class:`PileWarning` says where it was
applied.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from .._support.arrays import Floats, Index, Int64s, Ints
from ..errors import PileWarning

__all__ = ["DENSE_LIMIT", "NEIGHBOURS", "QUANTUM", "PileWarning", "near_candidates", "sparse_assign", "warn_pile"]

DENSE_LIMIT = 250_000
"""Blocks with more gold x predicted pairs than this are paired over a sparse candidate graph."""

NEIGHBOURS = 4
"""How many nearest spans of the other side (before and after, in start and in end order) a span is compared with."""

QUANTUM = 4096
"""Similarities in a pile are paired on a grid of ``1/QUANTUM`` of the largest (the pairs keep their exact
similarity in the counts)."""


def warn_pile(where: str, n_gold: int, n_pred: int) -> None:
    import warnings

    warnings.warn(PileWarning(
        f"{where}: {n_gold} gold and {n_pred} predicted spans overlap in one block ({n_gold * n_pred} pairs); "
        f"each span was compared with its {NEIGHBOURS} nearest spans of the other side in start and end order "
        "and with those of equal extent (see accord.match.sparse)"), stacklevel=3)


def _window(sorted_keys: Floats, queries: Floats, k: int) -> tuple[Index, Index]:
    """For each query, the positions of the ``k`` sorted keys before and ``k`` after its insertion point."""
    n = len(sorted_keys)
    pos = np.searchsorted(sorted_keys, queries)
    offsets = np.arange(-k, k)
    cand = pos[:, None] + offsets[None, :]
    ok = (cand >= 0) & (cand < n)
    q = np.broadcast_to(np.arange(len(queries))[:, None], cand.shape)
    return q[ok], cand[ok]


def _equal_extent(gs: Int64s, ge: Int64s, ps: Int64s, pe: Int64s, k: int
                  ) -> tuple[Index, Index]:
    """Pairs of equal (start, end): every gold span with up to ``2k`` predicted spans of its extent (by rank)."""
    keys_g = np.stack([gs, ge], axis=1)
    keys_p = np.stack([ps, pe], axis=1)
    allk = np.concatenate([keys_g, keys_p])
    _, inv = np.unique(allk, axis=0, return_inverse=True)
    inv = inv.reshape(-1)
    ig, ip = inv[: len(gs)], inv[len(gs):]
    order = np.argsort(ip, kind="stable")
    sorted_ip = ip[order]
    lo = np.searchsorted(sorted_ip, ig, "left")
    hi = np.minimum(np.searchsorted(sorted_ip, ig, "right"), lo + 2 * k)
    count = hi - lo
    g = np.repeat(np.arange(len(gs)), count)
    within = np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count, count)
    p = order[np.repeat(lo, count) + within]
    return g, p


def near_candidates(gs: Int64s, ge: Int64s, ps: Int64s, pe: Int64s,
                    g_group: Int64s | None = None, p_group: Int64s | None = None,
                    k: int = NEIGHBOURS) -> tuple[Int64s, Int64s]:
    """Candidate (gold, predicted) index pairs: nearest neighbours in start and end order, both ways,
    overall and (when groups such as labels are given) within the group, plus equal extents.

    Returns unique pairs sorted by gold index, then predicted index. O((n + m) k log(n + m)).
    """
    parts_g: list[Ints] = []
    parts_p: list[Ints] = []

    def add(a_start: Floats, a_idx: Index, b_start: Floats, b_idx: Index, gold_first: bool) -> None:
        if not len(a_idx) or not len(b_idx):
            return
        order = np.lexsort((b_idx, b_start))
        q, c = _window(b_start[order], a_start, k)
        a, b = a_idx[q], b_idx[order][c]
        parts_g.append(a if gold_first else b)
        parts_p.append(b if gold_first else a)

    groups = [(np.arange(len(gs)), np.arange(len(ps)))]
    if g_group is not None and p_group is not None:
        for v in np.intersect1d(g_group, p_group):
            groups.append((np.flatnonzero(g_group == v), np.flatnonzero(p_group == v)))
    for gi, pi in groups:
        for gk, pk in ((gs, ps), (ge, pe)):
            add(gk[gi].astype(np.float64), gi, pk[pi].astype(np.float64), pi, True)
            add(pk[pi].astype(np.float64), pi, gk[gi].astype(np.float64), gi, False)
    eg, ep = _equal_extent(gs, ge, ps, pe, k)
    parts_g.append(eg)
    parts_p.append(ep)
    g = np.concatenate(parts_g).astype(np.int64)
    p = np.concatenate(parts_p).astype(np.int64)
    key = np.unique(g * max(len(ps), 1) + p)
    return key // max(len(ps), 1), key % max(len(ps), 1)


def sparse_assign(rows: Int64s, cols: Int64s, similarity: npt.NDArray[np.floating[Any]], n_rows: int, n_cols: int,
                  *, integer_weights: bool = False) -> tuple[Int64s, Int64s]:
    """A one-to-one pairing of maximum summed similarity over the given candidate edges.

    Similarities are rounded to :data:`QUANTUM` levels of the largest (the assignment is
    several times slower on arbitrary floats); among pairings of equal rounded sum, more
    pairs and then more exact matches (1.0) win, as in :func:`accord.match.assign.assign`.
    With ``integer_weights`` the weights are non-negative integers (below 2**50) that already
    encode every priority (SemEval's lexicographic weights) and are used as they are.

    Returns the paired (row, column) indices with a positive similarity, by row.
    """
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import min_weight_full_bipartite_matching

    keep = similarity > 0
    r, c, s = rows[keep], cols[keep], similarity[keep].astype(np.float64)
    if not len(r):
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    if integer_weights:
        if not (np.all(s == np.rint(s)) and s.max() < 2.0 ** 50):
            raise ValueError("integer_weights: the weights must be integers below 2**50")
        value = s
    else:
        # each rounded unit is worth more than all tie bonuses together: a pair adds 1, an exact match 1 more
        bonus_room = 2.0 * (min(n_rows, n_cols) + 1)
        units = np.maximum(np.rint(s / s.max() * QUANTUM), 1.0)
        value = units * bonus_room + 1.0 + (s >= 1.0)
    big = float(value.max() + 1.0)
    # weights are positive: with B above every value, a candidate pair costs 2B - value, an unpaired
    # item 1.5B, the mirror edge between the two partners of a pair B; so a pairing's cost is a
    # constant minus its summed value
    n = n_rows + n_cols
    rr = np.concatenate([r, np.arange(n_rows), n_rows + np.arange(n_cols), n_rows + c])
    cc = np.concatenate([c, n_cols + np.arange(n_rows), np.arange(n_cols), n_cols + r])
    ww = np.concatenate([2.0 * big - value, np.full(n_rows, 1.5 * big), np.full(n_cols, 1.5 * big),
                         np.full(len(r), big)])
    graph = coo_matrix((ww, (rr, cc)), shape=(n, n)).tocsr()
    graph.sum_duplicates()
    match = min_weight_full_bipartite_matching(graph)[1]
    paired_rows = np.flatnonzero(match[:n_rows] < n_cols)
    return paired_rows.astype(np.int64), match[paired_rows].astype(np.int64)
