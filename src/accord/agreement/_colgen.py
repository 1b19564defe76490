"""The exact alignment of γ on dense units by column generation, without listing every candidate.

Where many units of every annotator lie over one stretch, the candidate unitary alignments of a
component number in the hundreds of millions (each unit can align with hundreds of each other
annotator's): :mod:`._alignment` cannot list them. This module solves such a component exactly
from the pairs of units alone (the compatible pairs, ``d(u, v) <= (C(n, 2) + n - 1) Δ∅``, at most
a few million), building tuples only where the duals of a linear program ask for them.

Reduced costs as sums over pairs. With a dual value ``y_u`` for every unit (the empty unit has
0, and differs from any unit by ``Δ∅``), the reduced cost of a unitary alignment ``t`` (its
``n`` slots, some empty) splits over the :math:`P = \\binom{n}{2}` pairs of slots:

.. math:: rc(t) = \\delta(t) - \\sum_{u \\in t} y_u = \\sum_{i<j} w(t_i, t_j), \\qquad
          w(u, v) = \\frac{d(u, v)}{P} - \\frac{y_u + y_v}{n - 1}.

So the least ``w`` of a unit with any unit (or the empty one) of each other annotator bounds
from below every tuple a partial tuple can still become: the *pricing* grows tuples one
annotator at a time from the pairs that can still reach a reduced cost ``<= θ``, dropping a
partial tuple as soon as its bound passes ``θ``. It lists every tuple of reduced cost ``<= θ``
(those of the candidates' tests, :func:`accord.agreement._alignment.candidate_alignments`) and
no other.

Column generation. The restricted master is the linear relaxation of the set partitioning over
the singletons and the tuples generated so far (HiGHS through :func:`scipy.optimize.linprog`).
Its duals ``π`` are smoothed towards the duals ``ȳ`` of the best bound so far (Wentges): the
pricing runs at ``βȳ + (1 - β)π`` and adds, for every unit, its tuple of least reduced cost
under ``π``. Every pricing gives a Lagrangian bound on the integer optimum,

.. math:: z^* \\ge \\sum_u y_u + \\sum_u \\min\\Bigl(0, \\min_{t:\\, u = \\mathrm{first}(t)} rc(t)\\Bigr),

(``first(t)`` the unit of its first annotator: each unit is the first of at most one tuple of an exact
cover, so the cover's reduced costs add up unit by unit); the generation stops when the best bound
reaches the master's value (the relaxation's optimum over all candidates).

Integer solution. The relaxation's tuples above one half and an integer program over the units
they leave give a cover of cost ``UB``; when ``UB`` equals the bound it is optimal. Else every
tuple of a cover of cost at most ``UB`` has a reduced cost (under ``ȳ``) of at most ``UB - LB``
(the other tuples' reduced costs are at least the bound's terms, each unit the first of one tuple):
the pricing lists those within ``τ`` of the bound (a small ``τ`` first), and HiGHS's integer
program over them, the singletons and the best cover gives a new ``UB``; once ``UB - LB <= τ``
every tuple that could do better was in the program, so its cover is optimal (else ``τ`` becomes
the gap and it runs again, over :func:`second_band`'s tuples only). Its integer programs
(:mod:`._colgen_mip`) run within what is left of the budget. Where that list would
pass :data:`MAX_FIXED_COLUMNS` (or the pricing :data:`MAX_PRICED` partial tuples), an integer program is not
solved within its time, the generation does not converge within :data:`MAX_ROUNDS`, or the alignments of one γ
(the observed continuum and its samples together: :func:`time_budget`) pass :data:`COLGEN_SECONDS` of CPU (or
``--time-limit``), the component is refused with an
:class:`~accord.agreement._alignment.AlignmentError`: nothing is approximated.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from math import comb
from typing import Any

import numpy as np

from ._alignment_base import ADVICE, MIP_SECONDS, Alignment, AlignmentError, pair_table
from ._colgen_mip import cover_program
from ._continua import Continua
from ._dissimilarity import Dissimilarity

__all__ = ["COLGEN_SECONDS", "ColumnGeneration", "DENSE_PAIRS", "dense_alignment", "MAX_FIXED_COLUMNS", "MAX_PRICED",
           "MAX_ROUNDS", "DIRECT_COLUMNS", "second_band", "solve_dense", "time_budget"]

MAX_ROUNDS = 300
"""Rounds of column generation before a component is refused."""

MAX_PRICED = 1_000_000
"""The most partial tuples the pricing may hold at once (a component past it is refused)."""

MAX_FIXED_COLUMNS = 300_000
"""The most tuples the final integer program may take after reduced-cost fixing (past it: refused)."""

DIRECT_COLUMNS = 150_000
"""Where the tuples within the whole gap of the first cover number at most this, the integer program takes them
at once (one program); past it a small gap is tried first."""

COLGEN_SECONDS = 120.0
"""The CPU seconds the column generation of one γ may spend by default (its observed continuum and every sample
together; ``--time-limit`` sets another): past them, the component at work is refused."""

_BUDGET: ContextVar[tuple[float, float] | None] = ContextVar("accord_gamma_budget", default=None)
"""The deadline (:func:`time.process_time`) and the seconds of the :func:`time_budget` at work, if any."""

_NESTED: ContextVar[bool] = ContextVar("accord_gamma_nested", default=False)
"""Whether :func:`dense_alignment` is solving a small component through the listing path (no second detour)."""


@contextmanager
def time_budget(seconds: float | None = None) -> Iterator[None]:
    """Every :func:`dense_alignment` inside spends, together, at most ``seconds`` of CPU from now
    (:data:`COLGEN_SECONDS` when None); past them the component at work is refused.

    Raises
    ------
    OptionError
        ``seconds`` not a positive finite number.
    """
    from ..errors import OptionError

    if seconds is not None and not (0 < float(seconds) < float("inf")):
        raise OptionError(f"--time-limit must be a positive number of seconds, got {seconds!r}")
    limit = COLGEN_SECONDS if seconds is None else float(seconds)
    token = _BUDGET.set((time.process_time() + limit, limit))
    try:
        yield
    finally:
        _BUDGET.reset(token)

_SMOOTHING = 0.7
_BEAM = 3
_START = (0.2, 0.4)
_FIRST_TAU = 0.05
_TOLERANCE = 1e-9


@dataclass
class ColumnGeneration:
    """What the solver did for one component: rounds, tuples generated, and the bounds."""

    rounds: int = 0
    columns: int = 0
    lower_bound: float = float("-inf")
    relaxation: float = float("nan")
    upper_bound: float = float("inf")
    fixed: int = 0
    """Tuples listed by reduced-cost fixing (0 when the first integer program met the bound)."""
    history: list[tuple[float, float]] = field(default_factory=list)
    """(master's value, best bound) after every round."""


class _Overflow(Exception):
    """The pricing passed its limit of partial tuples."""


class _Pairs:
    """The compatible pairs of two annotators ``a < b`` of one component, sorted by (first, second)."""

    def __init__(self, x: np.ndarray, z: np.ndarray, d: np.ndarray, m: int):
        order = np.lexsort((z, x))
        self.x, self.z, self.d = x[order], z[order], d[order]
        self.m = m
        self.by_z = np.argsort(self.z, kind="stable")


def _error(units: Continua, why: str, what: str) -> Exception:

    doc = units.documents[int(units.document[0])] if len(units) else "?"
    per = np.bincount(units.annotator, minlength=units.n_annotators)
    where = f"document {doc!r}" + (f" ({what})" if what else "")
    return AlignmentError(
        f"{where}: {len(units)} units ({'/'.join(str(int(x)) for x in per)} of the {units.n_annotators} annotators) "
        f"over [{float(units.start.min()):g}, {float(units.end.max()):g}) in one connected component: {why}: "
        f"{ADVICE}")


class _Component:
    """One component (units numbered 0..m-1) and its pricing."""

    def __init__(self, units: Continua, diss: Dissimilarity, what: str):

        self.units, self.diss, self.what = units, diss, what
        n = units.n_annotators
        self.n, self.m = n, len(units)
        self.p = comb(n, 2)
        self.delta = diss.delta_empty
        self.ann = units.annotator.astype(np.int64)
        bound = (self.p + n - 1) * self.delta
        self.pairs: dict[tuple[int, int], _Pairs] = {}
        for a in range(n):
            for b in range(a + 1, n):
                codes, d = pair_table(units, a, b, diss, bound)
                self.pairs[(a, b)] = _Pairs(codes // self.m, codes % self.m, d, self.m)
        self.n_pairs = max((len(pr.d) for pr in self.pairs.values()), default=0)

    # -- costs ---------------------------------------------------------------------------------
    def costs(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Disorder of tuples ``rows`` and whether they pass the candidates' tests."""
        u = self.units
        n, delta = self.n, self.delta
        real = rows >= 0
        k = real.sum(axis=1)
        total = np.zeros(len(rows))
        per_unit = np.zeros(rows.shape)
        for a in range(n):
            for b in range(a + 1, n):
                both = real[:, a] & real[:, b]
                d = np.full(len(rows), delta)
                if both.any():
                    i, j = rows[both, a], rows[both, b]
                    d[both] = self.diss.pairs(u.start[i], u.end[i], u.category[i], u.start[j], u.end[j],
                                              u.category[j])
                    per_unit[both, a] += d[both]
                    per_unit[both, b] += d[both]
                total += d
        limit_unit = (self.p + k - 1) * delta
        ok = (total <= k * self.p * delta * (1 + _TOLERANCE)) & \
            np.all(per_unit <= limit_unit[:, None] * (1 + _TOLERANCE) + 1e-12, axis=1)
        return total / self.p, ok | (k == 1)

    # -- pricing -------------------------------------------------------------------------------
    def price(self, y: np.ndarray, theta: float | np.ndarray, beam: int | None = None
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every tuple of two units or more (of the candidates) whose reduced cost under ``y`` is at most ``theta``
        (one number, or one a unit: the threshold of the tuples whose first unit, in the annotators' order, it
        is): ``(rows, disorder, reduced cost)``. With a ``beam``, only that many partial tuples of least bound are
        kept for each first unit (a fast search for good tuples, not all of them).

        Raises
        ------
        _Overflow
            More than :data:`MAX_PRICED` partial tuples at once (:data:`_BEAM_PARTIALS` a unit with a beam).
        """
        n, m, p = self.n, self.m, self.p
        # with a beam the partial tuples are at most beam x units, their extensions beam x pairs
        limit = MAX_PRICED if beam is None else 2 ** 62
        q = 1.0 / (n - 1)
        w_empty = self.delta / p
        w_alone = w_empty - y * q                                   # a unit with the empty unit
        per_first = np.broadcast_to(np.asarray(theta, dtype=float), (m,))
        top = float(per_first.max()) if m else 0.0
        tol = 1e-9 * (1.0 + abs(top)) + 1e-12
        # least w of each unit with each annotator (the empty unit included); e: an empty slot with annotator c
        least = np.repeat(w_alone[:, None], n, axis=1)
        weights: dict[tuple[int, int], np.ndarray] = {}
        g = np.full((n, n), w_empty)
        for (a, b), pr in self.pairs.items():
            w = pr.d / p - (y[pr.x] + y[pr.z]) * q
            weights[(a, b)] = w
            if len(w):
                starts = np.flatnonzero(np.r_[True, pr.x[1:] != pr.x[:-1]])
                least[pr.x[starts], b] = np.minimum(least[pr.x[starts], b], np.minimum.reduceat(w, starts))
                zs = pr.z[pr.by_z]
                starts = np.flatnonzero(np.r_[True, zs[1:] != zs[:-1]])
                least[zs[starts], a] = np.minimum(least[zs[starts], a], np.minimum.reduceat(w[pr.by_z], starts))
                g[a, b] = g[b, a] = min(g[a, b], float(w.min()))
        e = np.full(n, w_empty)
        for c in range(n):
            mine = self.ann == c
            if mine.any():
                e[c] = min(w_empty, float(w_alone[mine].min()))
        for a in range(n):
            for b in range(n):
                if a != b:
                    g[a, b] = min(g[a, b], e[a], e[b])
        # the pairs that can still be in such a tuple (the first annotator's unit is its tuple's first)
        kept: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}
        by_weight: dict[tuple[int, int], tuple[np.ndarray, np.ndarray, float, float]] = {}
        low_least = least.copy()
        for c in range(n):
            own_c = self.ann == c
            if own_c.any():
                low_least[own_c, c] = np.inf
        least_of = np.array([[float(low_least[self.ann == j, c].min()) if (self.ann == j).any() and c != j else 0.0
                              for c in range(n)] for j in range(n)])
        for (a, b), pr in self.pairs.items():
            others = [c for c in range(n) if c not in (a, b)]
            reach = weights[(a, b)].copy()
            for c in others:
                reach += least[pr.x, c] + least[pr.z, c]
            reach += sum(g[c, c2] for i, c in enumerate(others) for c2 in others[i + 1:])
            ok = reach <= (per_first[pr.x] if a == 0 else top) + tol
            kept[(a, b)] = (pr.x[ok] * m + pr.z[ok], weights[(a, b)][ok])
            wk = weights[(a, b)][ok]
            span = float(wk.max() - wk.min()) + 1.0 if len(wk) else 1.0
            low_w = float(wk.min()) if len(wk) else 0.0
            by_w = np.lexsort((wk, pr.x[ok]))
            by_weight[(a, b)] = (pr.x[ok][by_w] * span + (wk[by_w] - low_w), by_w, span, low_w)
        # grow the tuples one annotator at a time
        rows = np.full((1, 0), -1, dtype=np.int64)
        partial = np.zeros(1)
        first = np.full(1, -1, dtype=np.int64)
        for j in range(n):
            future = list(range(j + 1, n))
            rest_g = sum(g[c, c2] for i, c in enumerate(future) for c2 in future[i + 1:])
            parts_rows, parts_w, parts_first = [], [], []
            # slot j empty
            add = np.where(rows >= 0, w_alone[np.maximum(rows, 0)], w_empty).sum(axis=1)
            parts_rows.append(np.hstack([rows, np.full((len(rows), 1), -1, dtype=np.int64)]))
            parts_w.append(partial + add)
            parts_first.append(first)
            # a first unit at slot j
            lonely = np.flatnonzero(first < 0)
            own = np.flatnonzero(self.ann == j)
            if len(lonely) and len(own):
                base = rows[lonely[:1]]
                parts_rows.append(np.hstack([np.repeat(base, len(own), axis=0), own[:, None]]))
                parts_w.append(partial[lonely[0]] + j * w_alone[own])
                parts_first.append(own)
            # a unit of slot j with the first unit of a partial tuple
            for a in range(j):
                chosen = np.flatnonzero((first >= 0) & (self.ann[np.maximum(first, 0)] == a))
                if not len(chosen):
                    continue
                codes, wv = kept[(a, j)]
                wkeys, by_w, span, low_w = by_weight[(a, j)]
                f = first[chosen]
                # the units v of slot j in order of w(f, v), cut where the tuple's bound passes its threshold
                others_lb = partial[chosen] + rest_g + sum(least_of[j, c] for c in future)
                for c in range(j):
                    if c == a:
                        continue
                    member = rows[chosen, c]
                    others_lb = others_lb + np.where(member >= 0, least[np.maximum(member, 0), j], e[j])
                for c in future:
                    others_lb = others_lb + np.where(rows[chosen] >= 0, least[np.maximum(rows[chosen], 0), c],
                                                     e[c]).sum(axis=1)
                slack = per_first[f] + tol - others_lb
                lo = np.searchsorted(wkeys, f * span, side="left")
                seg_hi = np.searchsorted(wkeys, (f + 1) * span, side="left")
                cut = np.searchsorted(wkeys, f * span + np.maximum(slack - low_w, -1.0) + 1e-7, side="right")
                hi = np.clip(cut, lo, seg_hi)
                counts = hi - lo
                total = int(counts.sum())
                if not total:
                    continue
                if total > limit:
                    raise _Overflow()
                at = by_w[np.repeat(lo, counts) + np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts)]
                src = np.repeat(chosen, counts)
                v = codes[at] - np.repeat(f, counts) * m
                grown = rows[src]
                acc = partial[src] + wv[at] + a * w_alone[v]           # the first unit; the empty slots before it
                keep = np.ones(total, dtype=bool)
                for c in range(a + 1, j):
                    member = grown[:, c]
                    has = member >= 0
                    ccodes, cw = kept[(c, j)]
                    if len(ccodes):
                        query = np.maximum(member, 0) * m + v
                        pos = np.minimum(np.searchsorted(ccodes, query), len(ccodes) - 1)
                        found = ccodes[pos] == query
                        keep &= ~has | found
                        acc = acc + np.where(has, np.where(found, cw[pos], 0.0), w_alone[v])
                    else:
                        keep &= ~has
                        acc = acc + w_alone[v]
                parts_rows.append(np.hstack([grown[keep], v[keep][:, None]]))
                parts_w.append(acc[keep])
                parts_first.append(np.repeat(f, counts)[keep])
            rows = np.vstack(parts_rows)
            partial = np.concatenate(parts_w)
            first = np.concatenate(parts_first)
            # bound of what the partial tuples can still become
            reach = partial + rest_g
            for c in future:
                reach = reach + np.where(rows >= 0, least[np.maximum(rows, 0), c], e[c]).sum(axis=1)
            alive = reach <= np.where(first >= 0, per_first[np.maximum(first, 0)], top) + tol
            if beam is not None and j < n - 1:
                order = np.lexsort((reach, first))
                order = order[alive[order]]
                group = first[order]
                starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
                rank = np.arange(len(order)) - np.repeat(starts, np.diff(np.r_[starts, len(order)]))
                alive = np.zeros(len(rows), dtype=bool)
                alive[order[(rank < beam) | (group < 0)]] = True
            rows, partial, first = rows[alive], partial[alive], first[alive]
            if len(rows) > limit:
                raise _Overflow()
        real = (rows >= 0).sum(axis=1)
        rows, first = rows[real >= 2], first[real >= 2]
        disorder, ok = self.costs(rows)
        rows, disorder, first = rows[ok], disorder[ok], first[ok]
        reduced = disorder - np.where(rows >= 0, y[np.maximum(rows, 0)], 0.0).sum(axis=1)
        keep = reduced <= per_first[first] + tol
        return rows[keep], disorder[keep], reduced[keep]

    def best_by_first(self, y: np.ndarray, rows: np.ndarray, reduced: np.ndarray) -> np.ndarray:
        """The least reduced cost, under ``y``, of a tuple (the singletons included) whose first unit is each unit,
        from the tuples ``rows`` (0 at most)."""
        share = np.minimum(0.0, self.delta - y)
        if len(rows):
            first = rows[np.arange(len(rows)), np.argmax(rows >= 0, axis=1)]
            np.minimum.at(share, first, reduced)
        return share


def _matrix(rows: np.ndarray, m: int) -> Any:
    from scipy import sparse

    cand, col = np.nonzero(rows >= 0)
    return sparse.csc_array((np.ones(len(cand)), (rows[cand, col], cand)), shape=(m, len(rows)))


class _Master:
    """The restricted master's linear relaxation, kept between rounds: HiGHS (the copy SciPy ships) takes the new
    tuples as columns and starts from the last basis; without it, :func:`scipy.optimize.linprog` solves it anew."""

    def __init__(self, m: int):
        self.m = m
        self.rows: list[np.ndarray] = []
        self.costs: list[np.ndarray] = []
        self.highs: Any = None
        try:
            from scipy.optimize._highspy import _core  # type: ignore[import-not-found]
        except ImportError:                     # an older SciPy: solved anew every round
            return
        highs = _core._Highs()
        highs.setOptionValue("output_flag", False)
        ones = np.ones(m)
        highs.addRows(m, ones, ones, 0, np.zeros(m, dtype=np.int32), np.zeros(0, dtype=np.int32), np.zeros(0))
        self.highs = highs

    def add(self, rows: np.ndarray, disorder: np.ndarray) -> None:
        self.rows.append(rows)
        self.costs.append(disorder)
        if self.highs is None or not len(rows):
            return
        real = rows >= 0
        counts = real.sum(axis=1)
        starts = np.r_[0, np.cumsum(counts)[:-1]].astype(np.int32)
        index = rows[real].astype(np.int32)
        self.highs.addCols(len(rows), disorder.astype(float), np.zeros(len(rows)), np.full(len(rows), np.inf),
                           int(counts.sum()), starts, index, np.ones(len(index)))

    def primal(self) -> np.ndarray | None:
        """The last relaxation's values of the tuples (None without HiGHS kept between rounds)."""
        if self.highs is None:
            return None
        return np.asarray(self.highs.getSolution().col_value, dtype=float)

    def solve(self) -> tuple[float, np.ndarray]:
        """The relaxation's value and duals (one a unit)."""
        if self.highs is not None:
            self.highs.run()
            status = self.highs.getModelStatus()
            if str(status).endswith("kOptimal"):
                return float(self.highs.getInfo().objective_function_value), \
                    np.asarray(self.highs.getSolution().row_dual, dtype=float)
        from scipy.optimize import linprog

        rows, disorder = np.vstack(self.rows), np.concatenate(self.costs)
        result = linprog(disorder, A_eq=_matrix(rows, self.m), b_eq=np.ones(self.m), bounds=(0, None),
                         method="highs")
        if result.status != 0 or result.fun is None:

            raise AlignmentError(f"the linear program of column generation was not solved: {result.message}")
        return float(result.fun), np.asarray(result.eqlin.marginals, dtype=float)


class _Columns:
    """The tuples generated so far, each once."""

    def __init__(self, n: int, m: int):
        self.rows = np.full((m, n), -1, dtype=np.int64)
        self.seen: set[bytes] = set()
        self.chunks: list[np.ndarray] = []
        self.costs: list[np.ndarray] = []

    def add(self, rows: np.ndarray, disorder: np.ndarray, master: _Master | None = None) -> int:
        fresh = []
        for i, row in enumerate(rows):
            key = row.tobytes()
            if key not in self.seen:
                self.seen.add(key)
                fresh.append(i)
        if fresh:
            self.chunks.append(rows[fresh])
            self.costs.append(disorder[fresh])
            if master is not None:
                master.add(rows[fresh], disorder[fresh])
        return len(fresh)

    def all(self, singles: np.ndarray, delta: float) -> tuple[np.ndarray, np.ndarray]:
        rows = np.vstack([singles, *self.chunks])
        disorder = np.concatenate([np.full(len(singles), delta), *self.costs])
        return rows, disorder


def _best_per_unit(rows: np.ndarray, reduced: np.ndarray, m: int, per_unit: int = 2) -> np.ndarray:
    """Indices of the tuples of least reduced cost for each unit (``per_unit`` of them)."""
    if not len(rows):
        return np.zeros(0, dtype=np.int64)
    cand, col = np.nonzero(rows >= 0)
    unit = rows[cand, col]
    order = np.lexsort((reduced[cand], unit))
    unit, cand = unit[order], cand[order]
    starts = np.flatnonzero(np.r_[True, unit[1:] != unit[:-1]])
    rank = np.arange(len(unit)) - np.repeat(starts, np.diff(np.r_[starts, len(unit)]))
    return np.unique(cand[rank < per_unit])


def solve_dense(units: Continua, diss: Dissimilarity, what: str = "", deadline: float | None = None,
                seconds: float = COLGEN_SECONDS) -> tuple[np.ndarray, np.ndarray, ColumnGeneration]:
    """The optimal alignment of one component ``units`` (rows 0..m-1): ``(tuples, disorder, info)``,
    ``tuples[i, a]`` a row of ``units`` or -1; refused past ``deadline`` (:func:`time.process_time`), the end of
    a budget of ``seconds`` (named in the refusal).

    Raises
    ------
    AlignmentError
        The generation did not converge within :data:`MAX_ROUNDS`, the pricing passed
        :data:`MAX_PRICED` partial tuples, or reduced-cost fixing left more than :data:`MAX_FIXED_COLUMNS`
        tuples: the optimum could not be proved (never an approximation).
    """

    comp = _Component(units, diss, what)
    n, m, delta = comp.n, comp.m, comp.delta
    info = ColumnGeneration()
    singles = np.full((m, n), -1, dtype=np.int64)
    singles[np.arange(m), comp.ann] = np.arange(m)
    cols = _Columns(n, m)
    master = _Master(m)
    master.add(singles, np.full(m, delta))
    for share in _START:             # a start: good tuples when every unit is worth a share of the empty unit
        y0 = np.full(m, share * delta)
        rows, disorder, reduced = comp.price(y0, 0.0, _BEAM)
        pick = _best_per_unit(rows, reduced, m)
        cols.add(rows[pick], disorder[pick], master)
    last = float("inf")
    center: np.ndarray | None = None
    best = float("-inf")
    value = float("inf")
    for info.rounds in range(1, MAX_ROUNDS + 1):
        if deadline is not None and time.process_time() > deadline:
            raise _error(units, f"column generation did not reach its bound within {_budget_words(seconds)}", what)
        value, pi = master.solve()
        tol = 1e-9 * max(1.0, abs(value))
        if best >= value - tol:
            break
        # smoothed duals while the master's value falls; the master's own once it stalls
        smoothing = _SMOOTHING if center is not None and value < last - 1e-6 * max(1.0, abs(value)) else 0.0
        last = value
        while True:
            y = pi if center is None or smoothing == 0 else smoothing * center + (1 - smoothing) * pi
            rows, disorder, reduced = comp.price(y, 0.0, _BEAM)          # good tuples fast: the thresholds
            try:
                rows, disorder, reduced = comp.price(y, comp.best_by_first(y, rows, reduced))
                exact = True
            except _Overflow:                                              # the good tuples only, no bound
                exact = False
            if exact:
                bound = float(y.sum() + comp.best_by_first(y, rows, reduced).sum())
                if bound > best:
                    best, center = bound, y
            at_pi = disorder - np.where(rows >= 0, pi[np.maximum(rows, 0)], 0.0).sum(axis=1)
            useful = at_pi < -tol
            if useful.any():
                break
            if smoothing > 0:
                smoothing = 0.0 if smoothing < 0.2 else smoothing / 2     # mispricing: closer to π
            elif not exact:
                raise _error(units, f"the pricing passed {MAX_PRICED:,} partial tuples", what)
            else:
                break
        info.history.append((value, best))
        if not useful.any():                  # no tuple of negative reduced cost under π: the master is optimal
            best, center = max(best, value), pi
            break
        rows, disorder, at_pi = rows[useful], disorder[useful], at_pi[useful]
        pick = _best_per_unit(rows, at_pi, m)
        cols.add(rows[pick], disorder[pick], master)
    else:
        raise _error(units, f"column generation did not reach its bound in {MAX_ROUNDS} rounds", what)
    info.lower_bound, info.relaxation = best, value
    if deadline is not None and time.process_time() > deadline:
        raise _error(units, f"its exact alignment was not found within {_budget_words(seconds)}", what)
    all_rows, all_cost = cols.all(singles, delta)
    info.columns = len(all_rows)
    assert center is not None
    y = center
    # a cover near the relaxation: its tuples above one half kept, the units they leave covered by an integer
    # program over their generated tuples; then every tuple that can be in a better cover, listed and solved over
    primal = master.primal()
    taken = np.flatnonzero(primal > 0.5) if primal is not None else np.zeros(0, dtype=np.int64)
    matrix = _matrix(all_rows, m)
    cover = matrix @ (np.isin(np.arange(len(all_rows)), taken)).astype(float)
    if (cover > 1.5).any():
        taken, cover = taken[:0], np.zeros(m)
    free_units = cover < 0.5
    touches_taken = np.where(all_rows >= 0, ~free_units[np.maximum(all_rows, 0)], False).any(axis=1)
    free = np.flatnonzero(~touches_taken)
    chosen = taken
    if free_units.any():
        left = MIP_SECONDS if deadline is None else deadline - time.process_time()
        rest = cover_program(all_cost[free], matrix[np.flatnonzero(free_units)][:, free], left)
        if not rest.solved:
            raise _error(units, f"the integer program over the generated tuples failed ({rest.message})", what)
        chosen = np.concatenate([taken, free[rest.chosen]])
    upper = float(all_cost[chosen].sum())
    cover_rows, cover_cost = all_rows[chosen], all_cost[chosen]
    info.upper_bound = upper
    tol = 1e-9 * max(1.0, abs(upper))
    # every tuple of a cover of cost at most UB has a reduced cost of at most UB - LB: the integer program over
    # the tuples within tau (and the best cover so far) is optimal once its cover is within tau of the
    # bound; the whole gap at once where its tuples are few enough, else a small tau first (a small program)
    tau = upper - best
    listed: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
    if tau > tol:
        try:
            listed = comp.price(y, tau + tol)
        except _Overflow:
            listed = None
        if listed is None or len(listed[0]) > DIRECT_COLUMNS:
            listed, tau = None, min(tau, _FIRST_TAU * max(abs(best), delta) / max(m, 1) * 10)
    done: float | None = None        # the last program took every tuple within this of the bound
    while upper - best > tol:
        if deadline is not None and time.process_time() > deadline:
            raise _error(units, f"its exact alignment was not found within {_budget_words(seconds)}", what)
        gap = upper - best
        tau = min(max(tau, 0.0), gap)
        try:
            rows, disorder, reduced = listed if listed is not None else comp.price(y, tau + tol)
            listed = None
        except _Overflow:
            raise _error(units, f"the bound of column generation left a gap of {gap:.6g} and more than "
                         f"{MAX_PRICED:,} partial tuples within {tau:.6g} of it: the optimum could not be proved",
                         what) from None
        if done is not None:
            band = second_band(reduced, done, gap, tol)
            rows, disorder = rows[band], disorder[band]
        info.fixed = len(rows)
        if len(rows) > MAX_FIXED_COLUMNS:
            raise _error(units, f"the bound of column generation left a gap of {gap:.6g} and {len(rows):,} tuples "
                         f"within {tau:.6g} of it, more than {MAX_FIXED_COLUMNS:,}: the optimum could not be proved",
                         what)
        fixed = np.vstack([singles, rows, cover_rows])
        fixed_cost = np.concatenate([np.full(m, delta), disorder, cover_cost])
        left = MIP_SECONDS if deadline is None else deadline - time.process_time()
        # no start handed to HiGHS: the best cover as its first incumbent made it slower (a sample of dense
        # 3 x 1,000: 43 against 26 CPU-s); the cover is among the columns all the same
        result = cover_program(fixed_cost, _matrix(fixed, m), left)
        if not result.solved:
            raise _error(units, f"the integer program over {len(fixed):,} tuples within {tau:.6g} of the bound "
                         f"was not solved ({result.message}) within "
                         f"{_budget_words(seconds) if deadline is not None else f'{MIP_SECONDS:g} s'}", what)
        pick = result.chosen
        cover_rows, cover_cost = fixed[pick], fixed_cost[pick]
        upper = float(cover_cost.sum())
        info.upper_bound = upper
        if upper - best <= tau + tol:               # every tuple that could do better was in the program
            break
        done, tau = tau, upper - best
    return cover_rows, cover_cost, info


def second_band(reduced: np.ndarray, done: float, gap: float, tol: float = 0.0) -> np.ndarray:
    """Which tuples (of reduced costs ``reduced``, all within ``gap`` of the bound) the next integer program needs
    once one has taken every tuple within ``done`` of the bound and its cover ends ``gap`` above it.

    A cover cheaper than that one leaves the bound by less than ``gap``, its tuples' reduced costs (less the bound's
    terms, all at most 0) adding up to less than ``gap``; it has a tuple past ``done`` (else the last program had
    found it), so every other tuple of it is within ``gap - done``. The tuples within ``gap - done`` and those past
    ``done`` are enough (with the singletons and the last cover); the others, between ``gap - done`` and ``done``,
    cannot be in a better cover. With ``gap >= 2 done`` that is every tuple.

    Returns
    -------
    numpy.ndarray
        A mask over ``reduced``.
    """
    return (reduced <= gap - done + tol) | (reduced > done - tol)

DENSE_PAIRS = 20_000
"""A component of :func:`dense_alignment` with more compatible pairs than this is solved by column generation;
a smaller one by :func:`accord.agreement._alignment.best_alignment` (its candidates listed)."""

def _budget_words(seconds: float) -> str:
    """The budget of a refusal, and how to give more."""
    return f"{seconds:g} CPU-s (γ's time limit for its exact alignments; --time-limit or time_limit= allows more)"


def dense_alignment(units: Continua, diss: Dissimilarity, what: str,
                    listed: Callable[[Continua, Dissimilarity, str], Alignment]) -> Alignment:
    """The optimal alignment of ``units`` (three annotators or more) where listing the candidates was refused:
    every document split into the components of its compatible pairs, each dense one (over :data:`DENSE_PAIRS`
    pairs) solved by column generation (:func:`solve_dense`), the others by ``listed`` (the caller's
    :func:`~accord.agreement._alignment.best_alignment`, handed in: this module does not import its caller).
    Returns an :class:`~accord.agreement._alignment_base.Alignment`; its ``candidates`` count the tuples weighed.

    Raises
    ------
    AlignmentError
        A component whose optimum could not be proved (see :func:`solve_dense`).
    """
    from scipy import sparse
    from scipy.sparse.csgraph import connected_components


    n = units.n_annotators
    bound = (comb(n, 2) + n - 1) * diss.delta_empty
    budget = _BUDGET.get()
    deadline, seconds = budget if budget is not None else (time.process_time() + COLGEN_SECONDS, COLGEN_SECONDS)
    found_rows: list[np.ndarray] = []
    found_cost: list[np.ndarray] = []
    weighed = 0
    for d, piece in enumerate(units.document_slices()):
        if piece.stop == piece.start:
            continue
        rows = np.arange(piece.start, piece.stop)
        doc_units = units.take_document(d)
        size = len(rows)
        us, vs = [], []
        for a in range(n):
            for b in range(a + 1, n):
                codes, _ = pair_table(doc_units, a, b, diss, bound)
                us.append(codes // size)
                vs.append(codes % size)
        u, v = np.concatenate(us), np.concatenate(vs)
        graph = sparse.coo_matrix((np.ones(len(u)), (u, v)), shape=(size, size))
        n_comp, label = connected_components(graph, directed=False)
        per_pairs = np.bincount(label[u], minlength=n_comp)
        order = np.argsort(label, kind="stable")
        bounds = np.flatnonzero(np.r_[True, label[order][1:] != label[order][:-1], True])
        for start, stop in zip(bounds[:-1], bounds[1:]):
            members = order[start:stop]
            comp_units = doc_units.take_rows(0, members)
            solved = None
            if per_pairs[label[members[0]]] <= DENSE_PAIRS and not _NESTED.get():
                nested = _NESTED.set(True)
                try:
                    small = listed(comp_units, diss, what)
                    solved = (small.units, small.disorder)
                    weighed += small.candidates
                except AlignmentError:
                    solved = None
                finally:
                    _NESTED.reset(nested)
            if solved is None:
                tuples, disorder, info = solve_dense(comp_units, diss, what, deadline, seconds)
                solved = (tuples, disorder)
                weighed += info.columns + info.fixed
            local, disorder = solved
            found_rows.append(np.where(local >= 0, rows[members[np.maximum(local, 0)]], -1))
            found_cost.append(disorder)
    if not found_rows:
        return Alignment(np.zeros((0, n), dtype=np.int64), np.zeros(0), np.zeros(0, dtype=np.int64))
    picked = np.vstack(found_rows)
    disorder = np.concatenate(found_cost)
    first_unit = picked[np.arange(len(picked)), np.argmax(picked >= 0, axis=1)]
    order = np.lexsort((first_unit, units.document[first_unit]))
    return Alignment(picked[order], disorder[order], units.document[first_unit[order]], max(weighed, 1))
