"""Many small assignment problems solved at once, without :mod:`scipy.optimize`, choosing the pairs scipy chooses.

:func:`max_assignments` takes a list of score matrices and returns, for each, the one-to-one assignment of largest
total that :func:`scipy.optimize.linear_sum_assignment` (``maximize=True``) returns: the same shortest augmenting
path method (Crouse 2016, as scipy implements it: the tall matrix transposed, the scores negated, the rows added
one by one, among columns of equal reduced cost the last unassigned one in the scan order, else the first one), run
on every matrix of a batch together with numpy, so that the floating-point operations and the ties resolve exactly
as in scipy. Importing :mod:`scipy.optimize` costs about half a second of CPU; the coreference metrics of a corpus
solve thousands of matrices of a dozen rows, which this does in a few dozen array passes.

Matrices above :data:`LARGEST` cells go to scipy itself (one by one, as before).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["LARGEST", "PLAIN", "max_assignment", "max_assignments"]

LARGEST = 4096
"""Matrices of more cells than this are handed to :func:`scipy.optimize.linear_sum_assignment`."""

PLAIN = 36
"""Matrices of at most this many cells are solved one at a time in plain Python by :func:`max_assignment` (the same
steps; a block of a mention alignment is mostly 1 x 1 or 2 x 2)."""

_BATCH_CELLS = 1 << 21
"""Padded cells of one batch (16 MiB of float64 per array of that shape)."""


def max_assignments(matrices: Sequence[np.ndarray]) -> list[tuple[np.ndarray, np.ndarray]]:
    """The maximum-total one-to-one assignment of each matrix, as ``(rows, cols)`` (rows ascending).

    Parameters
    ----------
    matrices : sequence of 2-D float arrays
        Finite scores.

    Returns
    -------
    list of (numpy.ndarray, numpy.ndarray)
        Per matrix, the row and column indices of the assigned cells, ``min(n, m)`` of them, rows ascending: the
        arrays ``scipy.optimize.linear_sum_assignment(matrix, maximize=True)`` returns.
    """
    out: list[tuple[np.ndarray, np.ndarray] | None] = [None] * len(matrices)
    small: list[int] = []
    for k, m in enumerate(matrices):
        if m.ndim != 2:
            raise ValueError("expected 2-D score matrices")
        if m.size == 0:
            out[k] = (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))
        elif m.size > LARGEST:
            from ._lsap import solver

            rows, cols = solver()(m, maximize=True)
            out[k] = (rows.astype(np.int64), cols.astype(np.int64))
        else:
            small.append(k)
    # the transposed shape (rows <= columns), rows descending so that the problems still adding rows are a prefix
    shape = {k: (min(matrices[k].shape), max(matrices[k].shape)) for k in small}
    small.sort(key=lambda k: (-shape[k][0], -shape[k][1]))
    start = 0
    while start < len(small):
        nr, nc = shape[small[start]]
        stop = start + 1
        width = nc
        while stop < len(small) and (stop + 1 - start) * nr * max(width, shape[small[stop]][1]) <= _BATCH_CELLS:
            width = max(width, shape[small[stop]][1])
            stop += 1
        batch = small[start:stop]
        for k, pair in zip(batch, _solve_batch([matrices[k] for k in batch], nr, width)):
            out[k] = pair
        start = stop
    return [p for p in out if p is not None]


def _solve_batch(mats: list[np.ndarray], NR: int, NC: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """One batch: matrices (any orientation) of at most ``NR`` rows and ``NC`` columns once transposed to be wide,
    ordered by their (wide) row count, descending."""
    B = len(mats)
    cost = np.zeros((B, NR, NC))
    transposed = np.zeros(B, dtype=bool)
    nr = np.zeros(B, dtype=np.int64)
    nc = np.zeros(B, dtype=np.int64)
    for b, m in enumerate(mats):
        t = m.shape[1] < m.shape[0]
        w = m.T if t else m
        transposed[b] = t
        nr[b], nc[b] = w.shape
        cost[b, : w.shape[0], : w.shape[1]] = -np.asarray(w, dtype=np.float64)
    u = np.zeros((B, NR))
    v = np.zeros((B, NC))
    spc = np.full((B, NC), np.inf)
    path = np.full((B, NC), -1, dtype=np.int64)
    col4row = np.full((B, NR), -1, dtype=np.int64)
    row4col = np.full((B, NC), -1, dtype=np.int64)
    SR = np.zeros((B, NR), dtype=bool)
    SC = np.zeros((B, NC), dtype=bool)
    remaining = np.zeros((B, NC), dtype=np.int64)
    nrem = np.zeros(B, dtype=np.int64)
    positions = np.arange(NC, dtype=np.int64)
    for cur in range(NR):
        k = int(np.count_nonzero(nr > cur))     # problems with a row `cur`: a prefix (rows descending)
        if not k:
            break
        idx = np.arange(k)
        # augmenting path from row `cur` in each of the k problems
        remaining[:k] = nc[:k, None] - positions[None, :] - 1
        nrem[:k] = nc[:k]
        SR[:k] = False
        SC[:k] = False
        spc[:k] = np.inf
        min_val = np.zeros(k)
        row = np.full(k, cur, dtype=np.int64)
        sink = np.full(k, -1, dtype=np.int64)
        live = idx
        while len(live):
            i = row[live]
            SR[live, i] = True
            rem = remaining[live]
            valid = positions[None, :] < nrem[live][:, None]
            cols = np.where(valid, rem, 0)
            lc = live[:, None]
            r = ((min_val[live][:, None] + cost[lc, i[:, None], cols]) - u[live, i][:, None]) - v[lc, cols]
            s = spc[lc, cols]
            better = valid & (r < s)
            if better.any():
                bl, bc = np.nonzero(better)
                path[live[bl], cols[bl, bc]] = i[bl]
                spc[live[bl], cols[bl, bc]] = r[bl, bc]
                s = np.where(better, r, s)
            s = np.where(valid, s, np.inf)
            low = s.min(axis=1)
            at_min = valid & (s == low[:, None])
            free_min = at_min & (row4col[lc, cols] == -1)
            has_free = free_min.any(axis=1)
            last_free = NC - 1 - np.argmax(free_min[:, ::-1], axis=1)
            index = np.where(has_free, last_free, np.argmax(at_min, axis=1))
            min_val[live] = low
            j = cols[np.arange(len(live)), index]
            owner = row4col[live, j]
            ends = owner == -1
            sink[live[ends]] = j[ends]
            row[live[~ends]] = owner[~ends]
            SC[live, j] = True
            last = nrem[live] - 1
            remaining[live, index] = remaining[live, last]
            nrem[live] = last
            live = live[~ends]
        # dual variables
        u[:k, cur] += min_val
        others = SR[:k].copy()
        others[:, cur] = False
        assigned = np.where(col4row[:k] >= 0, col4row[:k], 0)
        u[:k] = np.where(others, u[:k] + (min_val[:, None] - spc[idx[:, None], assigned]), u[:k])
        v[:k] = np.where(SC[:k], v[:k] - (min_val[:, None] - spc[:k]), v[:k])
        # augment along the path back to row `cur`
        j = sink.copy()
        going = idx
        while len(going):
            i = path[going, j[going]]
            row4col[going, j[going]] = i
            previous = col4row[going, i]
            col4row[going, i] = j[going]
            j[going] = previous
            going = going[i != cur]
    out = []
    for b in range(B):
        c4r = col4row[b, : nr[b]]
        if transposed[b]:
            order = np.argsort(c4r, kind="stable")
            out.append((c4r[order].astype(np.int64), order.astype(np.int64)))
        else:
            out.append((np.arange(nr[b], dtype=np.int64), c4r.astype(np.int64)))
    return out


def max_assignment(m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One matrix's maximum-total assignment, as :func:`max_assignments` gives it (scipy's pairs): in plain Python
    for up to :data:`PLAIN` cells, else through :func:`max_assignments`."""
    if m.ndim != 2 or m.size == 0 or m.size > PLAIN:
        return max_assignments([m])[0]
    rows_in, cols_in = m.shape
    transposed = cols_in < rows_in
    wide = m.T if transposed else m
    cost = [[-x for x in row] for row in np.asarray(wide, dtype=np.float64).tolist()]
    col4row = _plain_solve(cost)
    if transposed:
        order = sorted(range(len(col4row)), key=col4row.__getitem__)
        return (np.array([col4row[k] for k in order], dtype=np.int64), np.array(order, dtype=np.int64))
    return np.arange(len(col4row), dtype=np.int64), np.array(col4row, dtype=np.int64)


def _plain_solve(cost: list[list[float]]) -> list[int]:
    """The shortest augmenting path of :func:`_solve_batch` on one wide matrix of plain floats: each row's column."""
    nr, nc = len(cost), len(cost[0])
    inf = float("inf")
    u = [0.0] * nr
    v = [0.0] * nc
    path = [-1] * nc
    col4row = [-1] * nr
    row4col = [-1] * nc
    for cur in range(nr):
        spc = [inf] * nc
        sr = [False] * nr
        sc = [False] * nc
        remaining = list(range(nc - 1, -1, -1))
        min_val = 0.0
        i = cur
        sink = -1
        while sink == -1:
            sr[i] = True
            index = -1
            lowest = inf
            row = cost[i]
            for it, j in enumerate(remaining):
                r = ((min_val + row[j]) - u[i]) - v[j]
                if r < spc[j]:
                    path[j] = i
                    spc[j] = r
                if spc[j] < lowest or (spc[j] == lowest and row4col[j] == -1):
                    lowest = spc[j]
                    index = it
            min_val = lowest
            j = remaining[index]
            if row4col[j] == -1:
                sink = j
            else:
                i = row4col[j]
            sc[j] = True
            remaining[index] = remaining[-1]
            remaining.pop()
        u[cur] += min_val
        for k in range(nr):
            if sr[k] and k != cur:
                u[k] += min_val - spc[col4row[k]]
        for j in range(nc):
            if sc[j]:
                v[j] -= min_val - spc[j]
        j = sink
        while True:
            i = path[j]
            row4col[j] = i
            col4row[i], j = j, col4row[i]
            if i == cur:
                break
    return col4row
