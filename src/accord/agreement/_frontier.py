"""Exact covers of long, thin components by dynamic programming along the continuum.

The candidate unitary alignments of sparse units join a document into long components (a chain of
units, each able to align with its neighbours), too long for a bit mask over all their units
(:func:`accord.agreement._alignment._solve_components`) but thin: a candidate's units are close
in the order of their starts. The units of a component are numbered by (start, end, annotator);
a partial cover is the lowest unit it leaves uncovered, its *position*, and the mask of the units
after it that it already covers (bit ``b`` for unit ``position + b``). The next candidate is one
whose lowest unit is the position (every exact cover is reached this way, once); partial covers of
a component with the same position and mask keep the cheaper, so the least cost over all exact
covers is found. All components advance together one position at a time.

This is exact whatever the candidates. A component is left to the integer program (the returned
mask) when one of its candidates spans more than 62 units in that order, or when it has more than
:data:`MAX_FRONTIER_STATES` partial covers at one position (units so dense that many covers stay
open side by side). Past :data:`MAX_FRONTIER_TOTAL` partial covers in one call, the components still open are
left to it too, or, when asked (``stop_when_crowded``: a call over several documents, which the caller then aligns
apart, so that what one document gets does not depend on the others beside it), :class:`FrontierCrowded` is raised.
"""

from __future__ import annotations

import numpy as np

from ._alignment_base import rank_table
from ._columns import GrowingColumns
from ._continua import Continua

__all__ = ["MAX_FRONTIER_STATES", "MAX_FRONTIER_TOTAL", "FrontierCrowded", "solve_frontier"]

MAX_FRONTIER_STATES = 2000
"""A component with more partial covers than this at one position goes to the integer program."""

MAX_FRONTIER_TOTAL = 8_000_000
"""More partial covers than this in one call: the components still open go to the integer program."""

_SPAN = 62


class FrontierCrowded(Exception):
    """More than :data:`MAX_FRONTIER_TOTAL` partial covers in a call asked to stop there (``stop_when_crowded``)."""


def _popcount(mask: np.ndarray) -> np.ndarray:
    """The number of bits set in each (non-negative) mask."""
    if hasattr(np, "bitwise_count"):
        return np.bitwise_count(mask).astype(np.int64)
    bits = np.unpackbits(np.ascontiguousarray(mask, dtype=np.int64).view(np.uint8)).reshape(len(mask), 64)
    return bits.sum(axis=1).astype(np.int64)


def _lowest_zero(mask: np.ndarray) -> np.ndarray:
    """The index of the lowest zero bit of each (non-negative, below 2**62) mask."""
    bit = (~mask) & (mask + 1)
    return np.log2(bit.astype(np.float64)).astype(np.int64)


def _first_cheapest(key: np.ndarray, cost: np.ndarray) -> np.ndarray:
    """The index of the first of the cheapest of each key (in order of their index), in order of the keys."""
    order = np.argsort(key)          # not stable: the first of equal costs is found below
    key = key[order]
    new_key = np.empty(len(key), dtype=bool)
    new_key[:1] = True
    np.not_equal(key[1:], key[:-1], out=new_key[1:])
    group = np.cumsum(new_key) - 1
    sorted_cost = cost[order]
    at = np.flatnonzero(sorted_cost == np.minimum.reduceat(sorted_cost, np.flatnonzero(new_key))[group])
    return np.minimum.reduceat(order[at], np.flatnonzero(np.r_[True, group[at][1:] != group[at][:-1]]))


def solve_frontier(tuples: np.ndarray, disorder: np.ndarray, comp: np.ndarray, units: Continua,
                   delta_empty: float, *, stop_when_crowded: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Exact covers of the components ``comp`` (a label per candidate) at least total disorder.

    Returns the indices of the chosen candidates and a mask of the candidates whose component was
    left to the integer program (see the module docstring).

    Raises
    ------
    FrontierCrowded
        ``stop_when_crowded`` and more than :data:`MAX_FRONTIER_TOTAL` partial covers.
    """
    if not len(tuples):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=bool)
    n = tuples.shape[1]
    removal = (n - 1) * delta_empty / (n * (n - 1) / 2)      # the most taking a unit out of a tuple may cost
    if comp.min() >= 0 and comp.max() < 4 * len(comp) + 64:    # labels of components, as numbered by scipy
        table, n_comp = rank_table(comp)
        comp_index = table[comp]
    else:
        comp_index = np.unique(comp, return_inverse=True)[1].reshape(-1)
        n_comp = int(comp_index.max()) + 1
    # column by column (no array of every member): each unit's component, then its rank in its component
    columns = [(column, column >= 0) for column in tuples.T]
    n_ids = int(tuples.max()) + 1
    unit_comp = np.full(n_ids, -1, dtype=np.int64)
    for column, has in columns:
        unit_comp[column[has]] = comp_index[has]
    unit_ids = np.flatnonzero(unit_comp >= 0)
    unit_comp = unit_comp[unit_ids]
    order = np.lexsort((units.annotator[unit_ids], units.end[unit_ids], units.start[unit_ids], unit_comp))
    comp_sorted = unit_comp[order]
    begins = np.flatnonzero(np.r_[True, comp_sorted[1:] != comp_sorted[:-1]])
    rank = np.full(n_ids, -1, dtype=np.int64)
    rank[unit_ids[order]] = np.arange(len(order)) - np.repeat(begins, np.diff(np.r_[begins, len(order)]))
    comp_size = np.bincount(unit_comp, minlength=n_comp)
    ranks = [(np.where(has, rank[np.maximum(column, 0)], -1), has) for column, has in columns]
    low = np.full(len(tuples), np.iinfo(np.int64).max)
    high = np.full(len(tuples), -1, dtype=np.int64)
    for r, has in ranks:
        np.minimum(low, np.where(has, r, low), out=low)
        np.maximum(high, r, out=high)
    hard = np.zeros(n_comp, dtype=bool)
    hard[comp_index[high - low > _SPAN]] = True
    # only the candidates of components that may be solved here go on (a component with a candidate spanning more
    # than _SPAN units is left to the integer program before anything else is built for it)
    live = np.flatnonzero(~hard[comp_index])
    low = low[live]
    mask = np.zeros(len(live), dtype=np.int64)
    for r, has in ranks:
        mask |= np.where(has[live], np.left_shift(np.int64(1), np.minimum(r[live] - low, _SPAN)), 0)
    # the candidates by (component, lowest unit): those of unit ``begins[c] + p`` are ``by_key[ptr[.]:ptr[. + 1]]``
    lowest = begins[comp_index[live]] + low
    sort = np.argsort(lowest, kind="stable")
    by_key = live[sort]
    key_mask, key_disorder = mask[sort], disorder[by_key]
    ptr = np.zeros(len(unit_ids) + 1, dtype=np.int64)
    np.cumsum(np.bincount(lowest, minlength=len(unit_ids)), out=ptr[1:])

    # partial covers kept (one per component, position and mask): component, mask, cost, parent, candidate;
    # the children of a position wait in their buckets (component, mask, cost, parent, candidate) until reached
    roots = np.flatnonzero(~hard)
    spans = high[live] - low
    width = int(spans.max()) + 1 if len(spans) else 1      # the bits a mask may use
    packed = n_comp < 2 ** (62 - width)                     # (component, mask) as one key
    store = GrowingColumns((np.int64, np.int64, np.float64, np.int64, np.int64))
    buckets: dict[int, list[tuple[np.ndarray, ...]]] = {
        0: [(roots, np.zeros(len(roots), dtype=np.int64), np.zeros(len(roots)), np.full(len(roots), -1, dtype=np.int64),
             np.full(len(roots), -1, dtype=np.int64))]}
    done: list[np.ndarray] = []
    while buckets:
        position = min(buckets)
        parts = buckets.pop(position)
        c, m, cost, parent, picks = (np.concatenate([p[i] for p in parts]) for i in range(5))
        alive = ~hard[c]
        if not alive.all():
            c, m, cost, parent, picks = c[alive], m[alive], cost[alive], parent[alive], picks[alive]
        if len(c) > 1:
            if packed:                  # by key, then the cheapest of each key (the first of equal costs)
                keep = _first_cheapest(np.left_shift(c, width) | m, cost)
            else:
                keep = np.lexsort((cost, m, c))
                keep = keep[np.r_[True, (c[keep][1:] != c[keep][:-1]) | (m[keep][1:] != m[keep][:-1])]]
            c, m, cost, parent, picks = c[keep], m[keep], cost[keep], parent[keep], picks[keep]
            # bound: from position p, covering the units of a mask m costs F(p, m) within
            # [F(p, {}) - |m| delta, F(p, {}) + |m| (n - 1) delta / C(n, 2)] (add them as singletons, or take
            # them out of the tuples of a cover of every unit): a partial cover whose cost - |m| delta exceeds
            # another's cost + |m'| (n - 1) delta / C(n, 2) cannot lead to an optimal cover
            comp_starts = np.empty(len(c), dtype=bool)
            comp_starts[0] = True
            np.not_equal(c[1:], c[:-1], out=comp_starts[1:])
            seg = np.flatnonzero(comp_starts)                           # the components, in order
            seg_id = np.cumsum(comp_starts) - 1
            bits = _popcount(m)
            best = np.minimum.reduceat(cost + bits * removal, seg)[seg_id]
            worse = cost - bits * delta_empty > best + 1e-9 * (1.0 + np.abs(best))
            # the same against the cheapest partial cover (m*, c*) of the component, bit by bit: F(p, m*) is at
            # most F(p, m) + |m* - m| (n - 1) delta / C(n, 2) + |m - m*| delta
            least = np.minimum.reduceat(cost, seg)
            at_least = np.flatnonzero(cost == least[seg_id])
            star = at_least[np.searchsorted(at_least, seg)][seg_id]       # the first of each component
            m_star = m[star]
            reach = least[seg_id] + _popcount(m_star & ~m) * removal + _popcount(m & ~m_star) * delta_empty
            worse |= cost > reach + 1e-9 * (1.0 + np.abs(reach))
            kept = np.add.reduceat((~worse).astype(np.int64), seg)
            crowded = kept > MAX_FRONTIER_STATES
            if store.size > MAX_FRONTIER_TOTAL:
                if stop_when_crowded:
                    raise FrontierCrowded(f"more than {MAX_FRONTIER_TOTAL:,} partial covers")
                crowded[:] = True
            if crowded.any():
                hard[c[seg[crowded]]] = True
                worse |= crowded[seg_id]
            if worse.any():
                better = ~worse
                c, m, cost, parent, picks = c[better], m[better], cost[better], parent[better], picks[better]
        ids = np.arange(store.size, store.size + len(c))
        store.append(c, m, cost, parent, picks)
        complete = position >= comp_size[c]
        if complete.any():
            done.append(ids[complete])
            c, m, cost, ids = c[~complete], m[~complete], cost[~complete], ids[~complete]
        where = begins[c] + position
        lo = ptr[where]
        counts = ptr[where + 1] - lo
        n_new = int(counts.sum())
        if not n_new:
            continue
        tried_source = np.repeat(np.arange(len(c)), counts)
        tried = np.repeat(lo - np.cumsum(counts) + counts, counts) + np.arange(n_new)     # in the order by_key
        old_mask, added = m[tried_source], key_mask[tried]
        fits = np.flatnonzero((old_mask & added) == 0)
        new_mask = old_mask[fits] | added[fits]
        step = _lowest_zero(new_mask).astype(np.uint8)         # 1 to 63: a stable sort by counting
        order_pos = np.argsort(step, kind="stable")
        step = step[order_pos]
        fits = fits[order_pos]
        source, at = tried_source[fits], tried[fits]
        new_picks = by_key[at]
        new_mask = np.right_shift(new_mask[order_pos], step)
        new_cost = cost[source] + key_disorder[at]
        new_comp, new_parent = c[source], ids[source]
        per_step = np.bincount(step, minlength=_SPAN + 2)
        steps = np.flatnonzero(per_step)
        ends_at = np.cumsum(per_step)
        for s, b in zip(steps.tolist(), ends_at[steps].tolist()):
            a = b - int(per_step[s])
            buckets.setdefault(position + s, []).append(
                (new_comp[a:b], new_mask[a:b], new_cost[a:b], new_parent[a:b], new_picks[a:b]))
    all_comp, all_cost, parents, cands = store.column(0), store.column(2), store.column(3), store.column(4)
    ends = np.concatenate(done) if done else np.zeros(0, dtype=np.int64)
    # a complete cover was stored at its component's size, with the last candidate it took
    ends = ends[~hard[all_comp[ends]]]
    best = ends[np.lexsort((all_cost[ends], all_comp[ends]))]
    best = best[np.r_[True, all_comp[best][1:] != all_comp[best][:-1]]] if len(best) else best
    solved = np.zeros(n_comp, dtype=bool)
    solved[all_comp[best]] = True
    hard |= ~solved
    chosen: list[np.ndarray] = []
    state = best
    while len(state):                       # back from each best complete cover to its root
        chosen.append(cands[state])
        state = parents[state]
        state = state[state >= 0]
    picked = np.concatenate(chosen) if chosen else np.zeros(0, dtype=np.int64)
    return picked[picked >= 0], hard[comp_index]
