"""Pairing key and response annotations of one type: GATE's greedy pass or an optimal assignment.

Candidates are the (key, response) pairs that are coextensive or overlap, found by sorting
the spans into overlap blocks (never all pairs). In a pile (an overlap block of more than
:data:`accord.match.sparse.DENSE_LIMIT` key x response pairs) only the nearest spans are
candidates (:mod:`accord.match.sparse`), so GATE's exact counts hold for every block but piles.
Each candidate gets GATE's value:

========  ==========================================  =====
outcome   condition                                   value
========  ==========================================  =====
correct   coextensive and compatible                  3
partial   overlapping, not coextensive, compatible    2
mismatch  coextensive, not compatible                 1
wrong     overlapping, not coextensive, incompatible  0
========  ==========================================  =====

``gate`` pairing follows ``gate.util.AnnotationDiffer`` (``../shared/notes/gate-evaluation.md``
section 1): each candidate's score is its value minus the values of the other candidates
sharing its key or its response, computed once; candidates are taken greedily by
decreasing score, ties going to the candidate created last (keys and responses in input
order, key-major). The result depends on that order and need not maximise the total value.

``optimal`` pairing maximises the summed value of correct and partial pairs over one-to-one
pairings (Kuhn-Munkres inside each overlap block); mismatch and wrong pairs are then formed
among what is left only where they cost nothing. It does not depend on the order of the
annotations.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..errors import OptionError
from ..match.assign import assign
from ..match.blocks import overlap_blocks
from ..match.fragments import refine
from ..match.sparse import DENSE_LIMIT, near_candidates, sparse_assign, warn_pile
from ..model import Annotation

__all__ = ["PAIRINGS", "CORRECT", "PARTIAL", "MISMATCH", "WRONG", "candidates", "pair", "compatibility"]

PAIRINGS = ("gate", "optimal")
CORRECT, PARTIAL, MISMATCH, WRONG = 3, 2, 1, 0


def candidates(ks: np.ndarray, ke: np.ndarray, rs: np.ndarray, re: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """All (key, response) pairs that are coextensive or overlap, key-major.

    Overlap is GATE's: ``r.end > k.start and r.start < k.end`` (a zero-length annotation
    overlaps another only strictly inside it); coextensive spans always pair, zero-length
    ones included.

    Returns
    -------
    key_index, response_index, coextensive : numpy.ndarray
    """
    nk, nr = len(ks), len(rs)
    empty = np.zeros(0, dtype=np.int64)
    if nk == 0 or nr == 0:
        return empty, empty, np.zeros(0, dtype=bool)
    start = np.concatenate([ks, rs]).astype(float)
    end = np.concatenate([ke, re]).astype(float)
    # a zero-length span is widened by half a unit only to find its block: the blocks are a
    # superset of the candidates, the exact predicates below decide
    zero = start == end
    start[zero] -= 0.5
    end[zero] += 0.5
    block = overlap_blocks(start, end)
    kb, rb = block[:nk], block[nk:]
    nb = int(block.max()) + 1
    pairs_in_block = np.bincount(kb, minlength=nb) * np.bincount(rb, minlength=nb)
    piles = np.flatnonzero(pairs_in_block > DENSE_LIMIT)
    extra_k: list[np.ndarray] = []
    extra_r: list[np.ndarray] = []
    if len(piles):
        # a pile: nearest-neighbour candidates only (the documented bound of accord.match.sparse)
        for b in piles.tolist():
            kk, rr = np.flatnonzero(kb == b), np.flatnonzero(rb == b)
            warn_pile("Annotation Diff", len(kk), len(rr))
            cg, cp = near_candidates(ks[kk], ke[kk], rs[rr], re[rr])
            extra_k.append(kk[cg])
            extra_r.append(rr[cp])
        pile = np.zeros(nb, dtype=bool)
        pile[piles] = True
        rb = np.where(pile[rb], -1, rb)   # responses of a pile take part in no other expansion
    r_order = np.argsort(rb, kind="stable")
    rb_sorted = rb[r_order]
    first = np.searchsorted(rb_sorted, kb, side="left")
    count = np.searchsorted(rb_sorted, kb, side="right") - first
    if len(piles):
        count[np.isin(kb, piles)] = 0
    key_index = np.repeat(np.arange(nk, dtype=np.int64), count)
    offsets = np.arange(int(count.sum()), dtype=np.int64) - np.repeat(np.cumsum(count) - count, count)
    resp_index = r_order[np.repeat(first, count) + offsets].astype(np.int64)
    if extra_k:
        key_index = np.concatenate([key_index] + extra_k)
        resp_index = np.concatenate([resp_index] + extra_r)
    # within a key, responses in input order
    order = np.lexsort((resp_index, key_index))
    key_index, resp_index = key_index[order], resp_index[order]
    a0, a1, b0, b1 = ks[key_index], ke[key_index], rs[resp_index], re[resp_index]
    coext = (a0 == b0) & (a1 == b1)
    keep = coext | ((b1 > a0) & (b0 < a1))
    return key_index[keep], resp_index[keep], coext[keep]


def _gate_greedy(ki: np.ndarray, ri: np.ndarray, value: np.ndarray, nk: int, nr: int) -> np.ndarray:
    """Indices of the candidates GATE's AnnotationDiffer takes, in the order it takes them."""
    key_sum = np.bincount(ki, weights=value, minlength=nk)
    resp_sum = np.bincount(ri, weights=value, minlength=nr)
    # value - (others sharing the key) - (others sharing the response)
    score = 3 * value - key_sum[ki] - resp_sum[ri]
    # descending score; among equal scores the later candidate first (a stable ascending
    # sort, then reversed)
    order = np.lexsort((-np.arange(len(ki)), -score))
    used_k = np.zeros(nk, dtype=bool)
    used_r = np.zeros(nr, dtype=bool)
    taken = []
    for c in order.tolist():
        k, r = ki[c], ri[c]
        if not used_k[k] and not used_r[r]:
            used_k[k] = used_r[r] = True
            taken.append(c)
    return np.asarray(taken, dtype=np.int64)


def _optimal(ki: np.ndarray, ri: np.ndarray, value: np.ndarray, nk: int, nr: int) -> np.ndarray:
    """Candidates of a maximum-value one-to-one pairing (correct 3, partial 2; others only if free)."""
    if len(ki) == 0:
        return np.zeros(0, dtype=np.int64)
    # connected components of the candidate graph (keys, then responses, as nodes)
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    n = nk + nr
    graph = coo_matrix((np.ones(len(ki)), (ki, ri + nk)), shape=(n, n))
    comp = connected_components(graph, directed=False)[1][ki]
    weight = np.where(value >= PARTIAL, value.astype(float), 1e-6)
    taken: list[int] = []
    order = np.argsort(comp, kind="stable")
    bounds = np.flatnonzero(np.diff(comp[order])) + 1
    for group in np.split(order, bounds):
        if len(group) == 1:
            taken.append(int(group[0]))
            continue
        keys, kpos = np.unique(ki[group], return_inverse=True)
        resps, rpos = np.unique(ri[group], return_inverse=True)
        if len(keys) * len(resps) > DENSE_LIMIT:
            rows, cols = sparse_assign(kpos, rpos, weight[group], len(keys), len(resps))
            lookup = {(int(a), int(b)): int(c) for a, b, c in zip(kpos, rpos, group)}
            taken.extend(lookup[(int(a), int(b))] for a, b in zip(rows, cols))
            continue
        sim = np.zeros((len(keys), len(resps)))
        sim[kpos, rpos] = weight[group]
        rows, cols = assign(sim, "1:1")
        lookup = {(int(a), int(b)): int(c) for a, b, c in zip(kpos, rpos, group)}
        taken.extend(lookup[(int(a), int(b))] for a, b in zip(rows, cols))
    return np.asarray(sorted(taken), dtype=np.int64)


def pair(ks: np.ndarray, ke: np.ndarray, rs: np.ndarray, re: np.ndarray,
         compatible: Callable[[int, int], bool] | np.ndarray, pairing: str = "gate",
         annotations: tuple[Sequence[Annotation], Sequence[Annotation]] | None = None
         ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pair keys and responses of one type.

    Parameters
    ----------
    ks, ke, rs, re : numpy.ndarray of int
        Key and response starts and ends.
    compatible : callable ``(key_index, response_index) -> bool`` or numpy.ndarray
        Whether the response's features include the key's significant ones; an array gives
        the answer for every candidate (in :func:`candidates` order).
    pairing : {"gate", "optimal"}
    annotations : (keys, responses), optional
        The annotations themselves: where one has a discontinuous span, coextensive and
        overlapping are decided on its pieces (:mod:`accord.match.fragments`).

    Returns
    -------
    key_index, response_index, value : numpy.ndarray
        The pairs made and their values (3 correct, 2 partial, 1 mismatch, 0 wrong).
    """
    if pairing not in PAIRINGS:
        raise OptionError(f"unknown pairing {pairing!r}; expected one of {', '.join(PAIRINGS)}")
    ki, ri, coext = candidates(ks, ke, rs, re)
    if annotations is not None and len(ki):
        coext, overlap = refine(ki, ri, coext, np.ones(len(ki), dtype=bool), *annotations)
        keep = coext | overlap
        if not keep.all():   # extents that overlap, pieces that do not
            ki, ri, coext = ki[keep], ri[keep], coext[keep]
            if isinstance(compatible, np.ndarray):
                compatible = compatible[keep]
    if isinstance(compatible, np.ndarray):
        compat = compatible
    else:
        compat = np.fromiter((compatible(k, r) for k, r in zip(ki.tolist(), ri.tolist())), dtype=bool,
                             count=len(ki))
    value = np.where(coext, np.where(compat, CORRECT, MISMATCH), np.where(compat, PARTIAL, WRONG)).astype(np.int64)
    chosen = (_gate_greedy if pairing == "gate" else _optimal)(ki, ri, value, len(ks), len(rs))
    return ki[chosen], ri[chosen], value[chosen]


def compatibility(keys: Sequence[Any], responses: Sequence[Any], significant: Sequence[str] | None,
                  as_strings: bool) -> Callable[[int, int], bool]:
    """The compatibility test of :func:`pair` for annotations with ``attributes``."""
    from ._features import subsumes

    if significant is not None and len(significant) == 0:
        return lambda k, r: True
    return lambda k, r: subsumes(responses[r].attributes, keys[k].attributes, significant, as_strings=as_strings)
