"""Candidate blocks: groups of items that may pair, found by sorting, never by all pairs."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .._support.arrays import Int64s, Ints

__all__ = ["overlap_blocks", "exact_pairs", "row_ids"]


def overlap_blocks(start: Ints, end: Ints) -> Int64s:
    """Block ids of half-open intervals: connected groups of overlapping intervals.

    Intervals that merely touch (``a.end == b.start``) fall in different blocks, as in
    MAT's segmentation. A zero-length interval ``[p, p)`` belongs to the block of an
    interval that contains ``p`` strictly inside, and zero-length intervals at one point
    share a block (their overlap is 1.0), whatever else touches ``p``. Cost: one sort,
    O(n log n).

    Returns
    -------
    numpy.ndarray of int
        A block id per interval, numbered in order of position.
    """
    n = len(start)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    order = np.lexsort((end, start))
    s = start[order]
    e = end[order]
    reach = np.maximum.accumulate(e)
    new = np.empty(n, dtype=bool)
    new[0] = True
    new[1:] = s[1:] >= reach[:-1]
    # a zero-length interval strictly inside another still belongs to it (s < reach), and one
    # right after a zero-length interval at the same point joins it: (p, p) sorts before (p, q)
    point = s == e
    new[1:] &= ~(point[1:] & point[:-1] & (s[1:] == s[:-1]))
    ids_sorted = np.cumsum(new) - 1
    ids = np.empty(n, dtype=np.int64)
    ids[order] = ids_sorted
    return ids


def row_ids(keys: Int64s) -> Int64s:
    """One int64 id per row of an integer key matrix; equal rows get equal ids."""
    keys = np.asarray(keys, dtype=np.int64)
    if keys.ndim == 1:
        return keys
    if keys.shape[0] == 0:
        return np.zeros(0, dtype=np.int64)
    lo = keys.min(axis=0)
    span = keys.max(axis=0) - lo + 1
    total = 1.0
    for v in span.tolist():
        total *= float(v)
    if total < 2**62:
        ids = np.zeros(keys.shape[0], dtype=np.int64)
        for j in range(keys.shape[1]):
            ids = ids * span[j] + (keys[:, j] - lo[j])
        return ids
    _, inverse = np.unique(keys, axis=0, return_inverse=True)
    ids = inverse.reshape(-1).astype(np.int64)
    return ids


def exact_pairs(gold_keys: Ints, pred_keys: Ints) -> tuple[Int64s, Int64s]:
    """Pair gold and predicted items whose key rows are equal, by hashing and sorting.

    Duplicated keys pair one to one in order of occurrence (two identical gold spans and
    one identical predicted span make one pair and one missing item).

    Returns
    -------
    gold_index, pred_index : numpy.ndarray of int
    """
    gold_keys = np.asarray(gold_keys, dtype=np.int64)
    pred_keys = np.asarray(pred_keys, dtype=np.int64)
    ng = len(gold_keys)
    if ng == 0 or len(pred_keys) == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    width = gold_keys.shape[1] if gold_keys.ndim == 2 else 1
    allk = row_ids(np.concatenate([gold_keys.reshape(ng, width), pred_keys.reshape(len(pred_keys), width)]))
    g, p = allk[:ng], allk[ng:]
    g_rank, p_rank = _ranks(g), _ranks(p)
    base = int(allk.min())
    ranks = max(int(g_rank.max()), int(p_rank.max())) + 1
    if (int(allk.max()) - base) < (2**62) // ranks:
        # (id, rank) as one integer, ordered as the pairs are: an intersection of integers, not of records
        gi: np.ndarray = (g - base) * ranks + g_rank
        pi: np.ndarray = (p - base) * ranks + p_rank
    else:
        gi, pi = _records(g, g_rank), _records(p, p_rank)
    _, ig, ip = np.intersect1d(gi, pi, assume_unique=True, return_indices=True)
    return ig.astype(np.int64), ip.astype(np.int64)


def _ranks(ids: Int64s) -> Int64s:
    """The occurrence rank of each id among the equal ids before it."""
    n = len(ids)
    order = np.argsort(ids, kind="stable")
    sorted_ids = ids[order]
    first = np.empty(n, dtype=bool)
    first[0] = True
    first[1:] = sorted_ids[1:] != sorted_ids[:-1]
    group_start = np.maximum.accumulate(np.where(first, np.arange(n), 0))
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.arange(n) - group_start
    return rank


def _records(ids: Int64s, rank: Int64s) -> npt.NDArray[np.void]:
    out = np.empty(len(ids), dtype=[("id", np.int64), ("rank", np.int64)])
    out["id"] = ids
    out["rank"] = rank
    return out
