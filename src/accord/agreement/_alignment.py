"""The optimal alignment of γ, found exactly on sparse candidates.

A *unitary alignment* takes at most one unit of each of the ``n`` annotators (the others give the
empty unit). Its disorder is the mean dissimilarity over the :math:`\\binom{n}{2}` pairs of its
members, a pair with an empty unit counting :math:`\\Delta_\\varnothing`:

.. math:: \\delta(\\breve a) = \\binom{n}{2}^{-1} \\sum_{i<j} d(\\breve a_i, \\breve a_j).

An *alignment* partitions every unit of a document into unitary alignments; the observed disorder
is the least total over alignments divided by the mean number of units per annotator,
:math:`\\delta = \\min_{\\bar a} \\sum_{\\breve a \\in \\bar a} \\delta(\\breve a) \\,/\\, (N / n)`
(Mathet et al. 2015, section 4).

Candidates. A unitary alignment with ``k`` units whose member ``u`` has
:math:`\\sum_{v} d(u, v) > (\\binom{n}{2} + k - 1)\\Delta_\\varnothing` is strictly improved by taking
``u`` out on its own, and one whose disorder exceeds :math:`k \\Delta_\\varnothing` by splitting all
its units apart: neither can be in an optimal alignment. So only pairs of units with
:math:`d(u, v) \\le (\\binom{n}{2} + n - 1)\\Delta_\\varnothing` can be aligned, which bounds how far
apart they can be (a window found by sorting and binary search), and the candidates are the
tuples of mutually compatible units that pass both tests. Every optimal alignment survives
(ties included); pygamma-agreement enumerates the full product of the annotators' units with the
weaker test :math:`\\delta \\le n \\Delta_\\varnothing`.

Solving. Choosing candidates that cover every unit exactly once at the least total disorder is a
set-partitioning integer program (a multidimensional assignment, NP-hard from three annotators on);
it splits into the connected components of the candidates. A component of one unit is its
singleton. For two annotators, small components are solved together by dynamic programming over
bit masks and each larger one is a minimum-weight perfect matching (an assignment problem, exact
at any density). From three annotators on, every component is first solved by dynamic programming
along the continuum (:mod:`._frontier`: partial covers by their lowest uncovered unit and a mask of
the units after it, which stays small where units are sparse, however long the component); a
component where that crowds past its limit of partial covers is an integer program: its linear relaxation
first (HiGHS through :func:`scipy.optimize.linprog`; a solution that is integral, checked to be an
exact cover of the cost of the relaxation's bound, is optimal), else the integer program solved to
optimality (relative gap 0) by HiGHS through :func:`scipy.optimize.milp` over the candidates that
reduced-cost fixing keeps (see :func:`_solve`). A component of more than
:data:`~accord.agreement._sifting.SIFT_CANDIDATES` candidates (many annotators: 8 × 200 sparse units make one of
600,000) is solved by column generation over its list (:mod:`._sifting`), a continuum of several documents too large
to list at once (a batch of γ's samples) document by document.

Limits (three annotators or more). Where units are so dense that a component has more than
:data:`MAX_LP_CANDIDATES` candidates, or more than :data:`MAX_COMPONENT_CANDIDATES` left by the
fixing of a fractional relaxation (many units of every annotator over one stretch, at the default
positional weight), its exact alignment would take minutes to hours: it is refused with an
:class:`AlignmentError` naming the document, the stretch, its units and candidates, as is an
integer program not solved within :data:`MIP_SECONDS`. Nothing is approximated.
"""

from __future__ import annotations

import math
from math import comb
from typing import Any

import numpy as np

from ._alignment_base import ADVICE as _ADVICE
from ._alignment_base import MAX_CANDIDATES, MIP_SECONDS, Alignment, AlignmentError
from ._alignment_base import TOLERANCE as _TOLERANCE
from ._alignment_base import mip as _mip
from ._alignment_base import pair_table as _pair_table
from ._alignment_jobs import ALIGNMENT_JOBS, CANDIDATES_PER_UNIT, align_apart
from ._columns import GrowingColumns
from ._continua import Continua
from ._dissimilarity import Dissimilarity
from ._frontier import FrontierCrowded, solve_frontier
from ._sifting import SIFT_CANDIDATES, solve_listed

__all__ = ["Alignment", "AlignmentError", "best_alignment", "candidate_alignments", "MAX_CANDIDATES",
           "MAX_COMPONENT_CANDIDATES", "MAX_LP_CANDIDATES", "MIP_SECONDS"]

MAX_LP_CANDIDATES = 200_000
"""A component with more candidate unitary alignments than this is refused before it is solved (its
linear relaxation alone takes seconds, for the observed alignment and again for every sample)."""

MAX_COMPONENT_CANDIDATES = 60_000
"""A component with more candidates than this whose linear relaxation is fractional is refused: its
integer program grows faster than linearly (10,000 candidates: about a second; 100,000: over a
minute, for the observed alignment and again for every sample of the expected disorder)."""

def _dense_error(units: Continua, members: np.ndarray, count: int, what: str, at_least: bool = False,
                 fractional: bool = False) -> AlignmentError:
    """The error for a component (units ``members``) with ``count`` candidates."""
    doc = units.documents[int(units.document[members[0]])]
    per = np.bincount(units.annotator[members], minlength=units.n_annotators)
    where = f"document {doc!r}" + (f" ({what})" if what else "")
    return AlignmentError(
        f"{where}: {len(members)} units ({'/'.join(str(int(x)) for x in per)} of the {units.n_annotators} "
        f"annotators) over [{float(units.start[members].min()):g}, {float(units.end[members].max()):g}) have "
        f"{'at least ' if at_least else ''}{count:,} candidate unitary alignments in one connected component, "
        + (f"a fractional linear relaxation and more than the integer program's limit of "
           f"{MAX_COMPONENT_CANDIDATES:,}" if fractional else
           f"more than the exact alignment's limit of {MAX_LP_CANDIDATES:,}") + f": {_ADVICE}")


def _lookup(codes: np.ndarray, values: np.ndarray, query: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(found, value)`` of each query code in the sorted ``codes``."""
    if not len(codes):
        return np.zeros(len(query), dtype=bool), np.zeros(len(query))
    at = np.minimum(np.searchsorted(codes, query), len(codes) - 1)
    found = codes[at] == query
    return found, np.where(found, values[at], 0.0)


DENSE_LOOKUP_CELLS = 6_250_000
"""A continuum whose pairs of annotators hold at most this many pairs of units in all (the units of one annotator
times those of the other, summed over the pairs of annotators: 50 MB of tables) looks its compatible pairs up in a
table per pair of annotators instead of by binary search in each pair's sorted codes (3 annotators of 1,000 units
each: 3 million cells)."""


class _PairLookup:
    """The dissimilarity of compatible pairs of units (from :func:`pair_table`'s tables), looked up by unit."""

    def __init__(self, tables: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]], units: Continua):
        n_units = len(units)
        self.tables, self.n_units = tables, n_units
        self.blocks: dict[tuple[int, int], np.ndarray] | None = None
        counts = np.bincount(units.annotator, minlength=units.n_annotators)
        if sum(int(counts[a]) * int(counts[b]) for a, b in tables) > DENSE_LOOKUP_CELLS:
            return
        # each unit's index among its annotator's units; one more slot, 0, read for "no unit" (-1)
        order = np.argsort(units.annotator, kind="stable")
        self.local = np.zeros(n_units + 1, dtype=np.int64)
        self.local[order] = np.arange(n_units) - np.repeat(np.cumsum(counts) - counts, counts)
        self.width = counts
        # where every annotator's units are one run of rows (one document), a unit's index is its row less the
        # run's first: a pair's cell is found without reading ``local``
        first = np.full(units.n_annotators, -1, dtype=np.int64)
        first[units.annotator[::-1]] = np.arange(n_units)[::-1]
        self.offsets = first if all(counts[a] == 0 or np.all(units.annotator[first[a]:first[a] + counts[a]] == a)
                                    for a in range(units.n_annotators)) else None
        self.blocks = {}
        for (a, b), (codes, values) in tables.items():
            block = np.full(int(counts[a]) * int(counts[b]), np.nan)
            block[self.local[codes // n_units] * int(counts[b]) + self.local[codes % n_units]] = values
            self.blocks[(a, b)] = block

    def values(self, a: int, b: int, u: np.ndarray, v: np.ndarray) -> np.ndarray:
        """The table's value of each pair of units ``u`` of annotator ``a`` and ``v`` of ``b`` (NaN where not
        compatible; a -1 in ``u`` reads some cell of the table). Only with :attr:`blocks`."""
        assert self.blocks is not None
        block, width = self.blocks[(a, b)], int(self.width[b])
        if not len(block):                      # an annotator without units here (a document, a sample)
            return np.full(len(u), np.nan)
        if self.offsets is None:
            return block[self.local[u] * width + self.local[v]]
        shift = int(self.offsets[a]) * width + int(self.offsets[b])
        return block[np.clip(u * width + (v - shift), 0, len(block) - 1)]

    def get(self, a: int, b: int, u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(found, d)`` of units ``u`` of annotator ``a`` (-1: none, never found) and ``v`` of annotator ``b``
        (``d`` 0 where not found)."""
        if self.blocks is None:
            codes, values = self.tables[(a, b)]
            return _lookup(codes, values, u * self.n_units + v)
        value = self.values(a, b, u, v)
        found = (u >= 0) & ~np.isnan(value)
        return found, np.where(found, value, 0.0)


def _check_pair_components(units: Continua, tables: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]],
                           limit: float, what: str) -> str:
    """Refuse, before any tuple is built, a component of the graph of pairs with ``d <= limit`` (each such pair is a
    candidate of two units) holding more than :data:`MAX_LP_CANDIDATES` of them. Returns the densest such component,
    described for a message (or ``""`` when the pairs are few)."""
    from scipy import sparse
    from scipy.sparse.csgraph import connected_components

    n_units = len(units)
    kept = [codes[values <= limit * (1 + _TOLERANCE)] for codes, values in tables.values()]
    codes = np.concatenate(kept) if kept else np.zeros(0, dtype=np.int64)
    if len(codes) <= 10_000:
        return ""
    u, v = codes // n_units, codes % n_units
    graph = sparse.coo_matrix((np.ones(len(codes)), (u, v)), shape=(n_units, n_units))
    _, label = connected_components(graph, directed=False)
    per = np.bincount(label[u], minlength=n_units)
    worst = int(np.argmax(per))
    members = np.flatnonzero(label == worst)
    if per[worst] > MAX_LP_CANDIDATES:
        raise _dense_error(units, members, int(per[worst]), what, at_least=True)
    return (f"the densest stretch: document {units.documents[int(units.document[members[0]])]!r}, {len(members)} "
            f"units over [{float(units.start[members].min()):g}, {float(units.end[members].max()):g})")


_GROW_SLICE = 1 << 20
"""The most pairs tried at once when the partial tuples are extended by one annotator's units."""


def candidate_alignments(units: Continua, diss: Dissimilarity, what: str = "") -> tuple[np.ndarray, np.ndarray]:
    """Every unitary alignment that may belong to an optimal alignment: ``(tuples, disorders)`` with
    ``tuples[i, a]`` a unit of annotator ``a`` or -1 (see the module docstring for the tests).

    Raises
    ------
    AlignmentError
        A component with more than :data:`MAX_LP_CANDIDATES` candidates of two units (found from the pairs,
        before the tuples are built), or more than :data:`MAX_CANDIDATES` pairs or candidates in all. ``what`` says
        what the units are, in the message.
    """
    n = units.n_annotators
    n_units = len(units)
    pairs_n = comb(n, 2)
    delta = diss.delta_empty
    bound = (pairs_n + n - 1) * delta
    tables = {(a, b): _pair_table(units, a, b, diss, bound) for a in range(n) for b in range(a + 1, n)}
    # a candidate of two units u, v: d(u, v) + (C(n, 2) - 1) delta <= 2 C(n, 2) delta, and the per-unit test alike
    densest = ""
    if n > 2:          # two annotators' components are assignment problems, solved exactly at any density
        densest = _check_pair_components(units, tables, (pairs_n + 1) * delta, what)
    pairs = _PairLookup(tables, units)
    # a member's summed dissimilarity to the others only grows as a tuple grows, and may not pass
    # (C(n, 2) + n - 1) delta in a candidate: a partial tuple past it is dropped before it is extended
    grow_limit = bound * (1 + _TOLERANCE) + 1e-12

    def extend(a: int, j: int, chosen: np.ndarray, f: np.ndarray, lo: np.ndarray, counts: np.ndarray) -> None:
        """The partial tuples ``chosen`` (first unit ``f``, of annotator ``a``) extended by each unit of annotator
        ``j`` compatible with their first (``counts`` of them from ``lo`` in the pair table) that passes the tests,
        appended to the parts."""
        codes, values = tables[(a, j)]
        n_new = int(counts.sum())
        offsets = np.arange(n_new) - np.repeat(np.cumsum(counts) - counts, counts)
        at = np.repeat(lo, counts) + offsets
        v = codes[at] - np.repeat(f, counts) * n_units
        # the tests on the columns that change (each column gets one addition), before any row is copied
        source = np.repeat(chosen, counts)
        new_sum = values[at].copy()
        changed = {a: sums[source, a] + new_sum}
        keep = changed[a] <= grow_limit
        for c in range(a + 1, j):      # members after the first must be compatible with v too
            member = rows[source, c]
            has = member >= 0
            found, value = pairs.get(c, j, member, v)
            keep &= ~has | found
            changed[c] = sums[source, c] + value
            keep &= changed[c] <= grow_limit
            new_sum += value
        keep &= new_sum <= grow_limit
        grown = rows[source[keep]]
        grown_sums = sums[source[keep]]
        for c, column in changed.items():
            grown_sums[:, c] = column[keep]
        still = (grown_sums <= grow_limit).all(axis=1)      # the other columns (they passed when built)
        parts_rows.append(np.hstack([grown[still], v[keep][still][:, None]]))
        parts_sums.append(np.hstack([grown_sums[still], new_sum[keep][still][:, None]]))
        parts_first.append(np.repeat(f, counts)[keep][still])

    rows = np.full((1, 0), -1, dtype=np.int64)
    sums = np.zeros((1, 0))
    first = np.full(1, -1, dtype=np.int64)
    for j in range(n):
        parts_rows = [np.hstack([rows, np.full((len(rows), 1), -1, dtype=np.int64)])]
        parts_sums = [np.hstack([sums, np.zeros((len(rows), 1))])]
        parts_first = [first]
        empty = first < 0
        own = np.flatnonzero(units.annotator == j)
        if empty.any() and len(own):
            base = rows[empty][:1]
            parts_rows.append(np.hstack([np.repeat(base, len(own), axis=0), own[:, None]]))
            parts_sums.append(np.zeros((len(own), j + 1)))
            parts_first.append(own)
        for a in range(j):
            chosen = np.flatnonzero((first >= 0) & (units.annotator[np.maximum(first, 0)] == a))
            if not len(chosen):
                continue
            codes, values = tables[(a, j)]
            f = first[chosen]
            lo = np.searchsorted(codes, f * n_units)
            hi = np.searchsorted(codes, (f + 1) * n_units)
            counts = hi - lo
            n_new = int(counts.sum())
            if not n_new:
                continue
            if (n_new + sum(len(r) for r in parts_rows)) * (j + 1) > MAX_CANDIDATES * 3:     # cells of the tuples
                raise AlignmentError(f"more than {MAX_CANDIDATES * 3 // (j + 1):,} candidate unitary alignments"
                                     f"{f' ({what})' if what else ''}{f' ({densest})' if densest else ''}: {_ADVICE}")
            # extended a slice of the partial tuples at a time (the same rows in the same order): the pairs tried
            # before the tests, several times the candidates kept, are never all in memory at once
            ends = np.cumsum(counts)
            cuts = np.unique(np.r_[np.searchsorted(ends, np.arange(_GROW_SLICE, n_new, _GROW_SLICE)), len(counts)])
            for start, stop in zip(np.r_[0, cuts[:-1]].tolist(), cuts.tolist()):
                if stop <= start:
                    continue
                extend(a, j, chosen[start:stop], f[start:stop], lo[start:stop], counts[start:stop])
        rows = np.vstack(parts_rows)
        sums = np.vstack(parts_sums)
        first = np.concatenate(parts_first)
    # each member's summed dissimilarity to the others, added up in the order of the annotators as the tuples
    # grew (the same sums, in the same order, as pair by pair here)
    # (the row of no unit, the root every tuple grew from, is the first row: the others are views, not copies)
    assert first[0] < 0
    per_unit = sums[1:]
    rows = rows[1:]
    real = rows >= 0
    k = real.sum(axis=1)
    total = np.zeros(len(rows))
    if pairs.blocks is not None:       # every row of a pair at once, its columns read once (the same sums)
        has = [rows[:, a] >= 0 for a in range(n)]
        for a in range(n):
            for b in range(a + 1, n):
                total += np.where(has[a] & has[b], pairs.values(a, b, rows[:, a], rows[:, b]), delta)
    else:
        for a in range(n):
            for b in range(a + 1, n):
                both = real[:, a] & real[:, b]
                d = np.full(len(rows), delta)
                if both.any():
                    d[both] = pairs.get(a, b, rows[both, a], rows[both, b])[1]
                total += d
    limit_unit = (pairs_n + k - 1) * delta
    keep = (total <= k * pairs_n * delta * (1 + _TOLERANCE)) & \
        np.all(per_unit <= limit_unit[:, None] * (1 + _TOLERANCE) + 1e-12, axis=1)
    keep |= k == 1
    return rows[keep], total[keep] / pairs_n


def best_alignment(units: Continua, diss: Dissimilarity, what: str = "") -> Alignment:
    """The alignment of least total disorder of every document of ``units`` (exact).

    Raises
    ------
    AlignmentError
        Units too dense for the exact alignment (see the module's Limits), named with ``what`` they are.
    """
    n = units.n_annotators
    units.check_positive("γ")
    if len(units) == 0:
        return Alignment(np.zeros((0, n), dtype=np.int64), np.zeros(0), np.zeros(0, dtype=np.int64))
    if ALIGNMENT_JOBS.get() > 1 and n >= 3 and len(units.documents) > 1:   # several processes (--jobs): groups of
        return _in_processes(units, diss, what, ALIGNMENT_JOBS.get())     # documents (two annotators: one
    per_unit = CANDIDATES_PER_UNIT.get()                                   # assignment, refused as a whole)
    if per_unit is not None and n >= 3 and len(units) * per_unit > MAX_CANDIDATES:
        slices = _filled(units)
        if len(slices) > 1:  # γ's samples denser than the observed continuum could list together: each document
            return _by_document(units, diss, what, slices)     # apart, without a listing of them all refused first
    try:
        listed: tuple[np.ndarray, np.ndarray] | None = candidate_alignments(units, diss, what)
    except AlignmentError:
        if n < 3:
            raise
        listed = None        # (the way on is taken outside this block: the error's frames hold the partial tuples)
    if listed is not None:
        found = _align_listed(units, diss, what, *listed)
        if found is not None:
            return found
        del listed           # a component the pricing over its list gave up on: its candidates are not kept
    slices = _filled(units)
    if len(slices) > 1:      # too many in all (many samples of γ at once), or a component given up: each document
        return _by_document(units, diss, what, slices)     # apart (so that no document waits on another's way)
    from ._colgen import dense_alignment  # too dense to list, or to price over the list: column generation from the
    return dense_alignment(units, diss, what, best_alignment)       # pairs (agreement/_colgen.py)


def _filled(units: Continua) -> list[slice]:
    """The rows of each document that has units."""
    return [piece for piece in units.document_slices() if piece.stop > piece.start]


def _align_listed(units: Continua, diss: Dissimilarity, what: str, tuples: np.ndarray,
                  disorder: np.ndarray) -> Alignment | None:
    """The alignment of least total disorder over the candidates ``(tuples, disorder)`` of ``units`` (see
    :func:`best_alignment`); ``None`` when a component priced over its list (:mod:`._sifting`) was given up, or
    when the dynamic program over the components of several documents passed its total of partial covers (the
    caller then aligns each document apart)."""
    n = units.n_annotators
    n_comp, label, firsts = _unit_components(tuples, len(units))   # units linked by a candidate of two or more
    size = np.bincount(label, minlength=n_comp)
    alone = size[label[firsts]] == 1
    chosen = np.zeros(len(tuples), dtype=bool)
    chosen[alone] = True                   # the singleton of a unit with no partner
    open_cand = np.flatnonzero(~alone)
    weighed = len(tuples)      # the candidates weighed: those of a component priced over its list, the tuples its
    if len(open_cand):         # programs took
        comp = label[firsts[open_cand]]
        if n == 2:
            picked_small, hard = _solve_components(tuples[open_cand], disorder[open_cand], comp, units)
        else:                            # small and long thin components: dynamic programming along the continuum
            try:                         # (over several documents, each is aligned apart past its total of covers)
                picked_small, hard = solve_frontier(tuples[open_cand], disorder[open_cand], comp, units,
                                                    diss.delta_empty,
                                                    stop_when_crowded=bool(units.document[0] != units.document[-1]))
            except FrontierCrowded:
                return None
        chosen[open_cand[picked_small]] = True
        rest = open_cand[hard]
        del open_cand, comp, picked_small, hard
        if n == 2 and len(rest):         # two annotators: an assignment problem, exact at any density
            chosen[rest[_solve_pairs(tuples[rest], disorder[rest])]] = True
            rest = rest[:0]
        per_component = np.bincount(label[firsts[rest]], minlength=n_comp)
        large = per_component[label[firsts[rest]]] > SIFT_CANDIDATES
        for one in _split_by(rest[large], label[firsts[rest[large]]]):   # priced over the list (_sifting.py)
            try:
                found, work = solve_listed(tuples[one], disorder[one],
                                           lambda t, d: _exact_cover(t, d, units, diss.delta_empty, what))
            except AlignmentError:
                return None
            chosen[one[found]] = True
            weighed += work - len(one)
        rest = rest[~large]
        by_comp = np.argsort(label[firsts[rest]], kind="stable")
        rest = rest[by_comp]
        comps = label[firsts[rest]]
        bounds = np.flatnonzero(np.r_[True, comps[1:] != comps[:-1], True]) if len(rest) else np.zeros(1, int)
        for a, b in zip(bounds[:-1], bounds[1:]):      # each large component, an integer program of its own
            one = rest[a:b]
            chosen[one[_solve(tuples[one], disorder[one], units, what)]] = True
    picked = tuples[chosen]
    first_unit = picked[np.arange(len(picked)), np.argmax(picked >= 0, axis=1)]
    order = np.lexsort((first_unit, units.document[first_unit]))
    picked = picked[order]
    return Alignment(picked, disorder[chosen][order], units.document[first_unit[order]], weighed, len(tuples))


GROUP_CANDIDATES = 500_000
"""With ``--jobs``: about how many candidate alignments a group of documents aligned together in one process holds
(estimated from the candidates per unit the observed continuum listed, for γ's samples; from the first document's,
for several observed documents)."""


def _in_processes(units: Continua, diss: Dissimilarity, what: str, jobs: int) -> Alignment:
    """The optimal alignment of the documents of ``units`` in groups of whole documents, aligned in ``jobs``
    processes (:mod:`._alignment_jobs`). The groups are a multiple of the processes, sized by the candidates per unit
    (:data:`~._alignment_jobs.CANDIDATES_PER_UNIT`, else the first document's, aligned here first): sparse units of
    many short documents in few groups, listed together in one pass each as one process would; dense ones document
    by document, whose listing together would be refused. Each group costs a pass along its continuum: 30 samples of
    5 x 500 sparse units take 2.9 CPU-s in one group, 2.5 in 2, 3.0 in 4, 4.0 in 8 and 8.8 document by document."""
    slices = [(piece, d) for d, piece in enumerate(units.document_slices()) if piece.stop > piece.start]
    per_unit = CANDIDATES_PER_UNIT.get()
    groups: list[tuple[slice, int, int]] = []
    aligned: list[Alignment] = []
    if per_unit is None:
        first_rows, first = slices[0]
        groups.append((first_rows, first, first + 1))
        aligned.append(best_alignment(units.take_documents(*groups[0]), diss, what))
        per_unit = aligned[0].listed / (first_rows.stop - first_rows.start) or math.inf    # (0: too many to list)
        slices = slices[1:]
    if slices:
        begin = slices[0][1]
        rest = len(units) - slices[0][0].start
        if per_unit < math.inf:
            count = jobs * max(1, math.ceil(rest * per_unit / (GROUP_CANDIDATES * jobs)))
            groups += _document_groups(units, count, begin)
        else:
            groups += [(piece, d, d + 1) for piece, d in slices]
        aligned += align_apart(best_alignment, [units.take_documents(*group) for group in groups[len(aligned):]],
                               diss, what)
    return _joined(groups, aligned)


def _document_groups(units: Continua, count: int, begin: int = 0) -> list[tuple[slice, int, int]]:
    """At most ``count`` groups of whole consecutive documents from document ``begin`` on, of about as many units
    each, those with units: ``(rows, first document, document after the last)``."""
    per_document = units.units_per_document()[begin:]
    ends = np.cumsum(per_document)
    total = int(ends[-1]) if len(ends) else 0
    cuts = np.unique(np.searchsorted(ends, np.arange(1, count) * (total / count), side="left") + 1)
    bounds = np.r_[0, cuts[(cuts > 0) & (cuts < len(per_document))], len(per_document)]
    rows = np.r_[0, ends] + (len(units) - total)
    return [(slice(int(rows[a]), int(rows[b])), int(a) + begin, int(b) + begin)
            for a, b in zip(bounds[:-1], bounds[1:]) if rows[b] > rows[a]]


def _by_document(units: Continua, diss: Dissimilarity, what: str, slices: list[slice]) -> Alignment:
    """The optimal alignment of every document of ``slices`` (rows of ``units``), each aligned on its own."""
    groups = [(piece, int(units.document[piece.start]), int(units.document[piece.start]) + 1) for piece in slices]
    return _joined(groups, align_apart(best_alignment, [units.take_documents(*g) for g in groups], diss, what))


def _joined(groups: list[tuple[slice, int, int]], aligned: list[Alignment]) -> Alignment:
    """The alignments of groups of whole documents (``(rows, first, stop)``, each aligned on its own: an alignment
    never joins two documents) as one of all their units."""
    picked = [np.where(one.units >= 0, one.units + rows.start, -1) for (rows, _, _), one in zip(groups, aligned)]
    return Alignment(np.vstack(picked), np.concatenate([one.disorder for one in aligned]),
                     np.concatenate([one.document + first for (_, first, _), one in zip(groups, aligned)]),
                     sum(one.candidates for one in aligned), sum(one.listed for one in aligned))


def _split_by(rows: np.ndarray, label: np.ndarray) -> list[np.ndarray]:
    """``rows`` grouped by their ``label`` (in order of the labels)."""
    order = np.argsort(label, kind="stable")
    rows, label = rows[order], label[order]
    cuts = np.flatnonzero(label[1:] != label[:-1]) + 1
    return [part for part in np.split(rows, cuts) if len(part)]


def _exact_cover(tuples: np.ndarray, disorder: np.ndarray, units: Continua, delta: float, what: str) -> np.ndarray:
    """Indices of an exact cover at least cost of the units of ``tuples`` (any number of components, three
    annotators or more): dynamic programming along the continuum, else an integer program a component."""
    comp = _components(tuples)
    picked, hard = solve_frontier(tuples, disorder, comp, units, delta)
    chosen = [picked]
    for one in _split_by(np.flatnonzero(hard), comp[hard]):
        chosen.append(one[_solve(tuples[one], disorder[one], units, what)])
    return np.concatenate(chosen)


MAX_STATES = 4096
"""A component with more partial covers than this at one step goes to the integer program."""

DP_CANDIDATES = 1500
"""A component with more candidates than this goes to the integer program directly (its partial covers
would outgrow :data:`MAX_STATES`)."""


def _solve_components(tuples: np.ndarray, disorder: np.ndarray, comp: np.ndarray,
                      units: Continua) -> tuple[np.ndarray, np.ndarray]:
    """Exact covers of many small components at once, by dynamic programming over bit masks.

    The units of a component are numbered by position; a partial cover is a bit mask, and the
    next candidate to add is one whose lowest unit is the lowest unit not yet covered (every
    exact cover is reached this way, once). Partial covers of one component with the same mask
    keep the cheaper: the least cost over all covers is found for every component, all components
    advancing together one unit at a time. Returns the indices of the chosen candidates and a
    mask of the candidates whose component was too large (over 62 units, :data:`DP_CANDIDATES`
    candidates or :data:`MAX_STATES` partial covers) and is left to the integer program.
    """
    real = tuples >= 0
    cand, col = np.nonzero(real)
    members = tuples[cand, col]
    unit_ids, unit_pos = np.unique(members, return_inverse=True)
    unit_comp = np.zeros(len(unit_ids), dtype=np.int64)
    unit_comp[unit_pos] = comp[cand]
    order = np.lexsort((units.annotator[unit_ids], units.end[unit_ids], units.start[unit_ids], unit_comp))
    comp_sorted = unit_comp[order]
    begins = np.flatnonzero(np.r_[True, comp_sorted[1:] != comp_sorted[:-1]])
    rank = np.empty(len(unit_ids), dtype=np.int64)
    rank[order] = np.arange(len(order)) - np.repeat(begins, np.diff(np.r_[begins, len(order)]))
    comp_ids, comp_index = np.unique(comp, return_inverse=True)
    comp_size = np.zeros(len(comp_ids), dtype=np.int64)
    np.maximum.at(comp_size, comp_index[cand], rank[unit_pos] + 1)
    hard_comp = (comp_size > 62) | (np.bincount(comp_index, minlength=len(comp_ids)) > DP_CANDIDATES)
    local = rank[unit_pos]
    mask = np.zeros(len(tuples), dtype=np.int64)
    np.bitwise_or.at(mask, cand, np.left_shift(np.int64(1), np.where(hard_comp[comp_index[cand]], 0, local)))
    low = np.full(len(tuples), 63, dtype=np.int64)
    np.minimum.at(low, cand, local)
    full = np.where(hard_comp, 0, np.left_shift(np.int64(1), np.minimum(comp_size, 62)) - 1)
    # candidates by (component, lowest unit)
    by_key = np.argsort(comp_index * 64 + low, kind="stable")
    keys = (comp_index * 64 + low)[by_key]
    # states: component, mask, cost, parent state, candidate
    roots = np.flatnonzero(~hard_comp)
    states = GrowingColumns((np.int64, np.int64, np.float64, np.int64, np.int64))
    states.append(roots, np.zeros(len(roots), dtype=np.int64), np.zeros(len(roots)),
                  np.full(len(roots), -1, dtype=np.int64), np.full(len(roots), -1, dtype=np.int64))
    buckets: list[list[np.ndarray]] = [[] for _ in range(64)]
    buckets[0].append(np.arange(len(roots)))
    total = len(roots)
    hard = hard_comp.copy()
    done: list[np.ndarray] = []

    for u in range(63):
        if not buckets[u]:
            continue
        ids = np.concatenate(buckets[u])
        buckets[u] = []
        allc, allm, allcost = states.column(0), states.column(1), states.column(2)
        ids = ids[~hard[allc[ids]]]
        if not len(ids):
            continue
        c, m, cost = allc[ids], allm[ids], allcost[ids]
        keep = np.lexsort((cost, m, c))
        c, m, ids, cost = c[keep], m[keep], ids[keep], cost[keep]
        first = np.r_[True, (c[1:] != c[:-1]) | (m[1:] != m[:-1])]
        c, m, ids, cost = c[first], m[first], ids[first], cost[first]
        crowded = np.bincount(c, minlength=len(comp_ids)) > MAX_STATES
        if crowded.any():
            hard |= crowded
            alive = ~crowded[c]
            c, m, ids, cost = c[alive], m[alive], ids[alive], cost[alive]
        lo = np.searchsorted(keys, c * 64 + u, side="left")
        hi = np.searchsorted(keys, c * 64 + u, side="right")
        counts = hi - lo
        n_new = int(counts.sum())
        if not n_new:
            continue
        offsets = np.arange(n_new) - np.repeat(np.cumsum(counts) - counts, counts)
        picks = by_key[np.repeat(lo, counts) + offsets]
        parent = np.repeat(ids, counts)
        old_mask = np.repeat(m, counts)
        fits = (old_mask & mask[picks]) == 0
        picks, parent, old_mask = picks[fits], parent[fits], old_mask[fits]
        new_comp = np.repeat(c, counts)[fits]
        new_mask = old_mask | mask[picks]
        new_cost = np.repeat(cost, counts)[fits] + disorder[picks]
        new_ids = np.arange(total, total + len(picks))
        total += len(picks)
        states.append(new_comp, new_mask, new_cost, parent, picks)
        complete = new_mask == full[new_comp]
        done.append(new_ids[complete])
        rest = ~complete
        nxt = new_mask[rest]
        lowest = np.log2((~nxt) & (nxt + 1)).astype(np.int64)
        order_low = np.argsort(lowest, kind="stable")
        rest_ids = new_ids[rest][order_low]
        values, starts, counts = np.unique(lowest[order_low], return_index=True, return_counts=True)
        for value, start, count in zip(values, starts, counts):
            buckets[int(value)].append(rest_ids[start:start + count])
    allc, allcost, parents, cands = states.column(0), states.column(2), states.column(3), states.column(4)
    ends = np.concatenate(done) if done else np.zeros(0, dtype=np.int64)
    ends = ends[~hard[allc[ends]]]
    best = ends[np.lexsort((allcost[ends], allc[ends]))]
    best = best[np.r_[True, allc[best][1:] != allc[best][:-1]]] if len(best) else best
    chosen: list[np.ndarray] = []
    state = best
    while len(state):                       # back from each best complete cover to its root
        chosen.append(cands[state])
        state = parents[state]
        state = state[state >= 0]
    picked = np.concatenate(chosen) if chosen else np.zeros(0, dtype=np.int64)
    return picked[picked >= 0], hard[comp_index]


def _solve_pairs(tuples: np.ndarray, disorder: np.ndarray) -> np.ndarray:
    """Indices of the candidates of an exact cover at least total disorder, for two annotators.

    A unit of the first annotator goes with one of the second, or alone: a minimum-weight perfect
    matching between (first annotator's units + one stand-in per unit of the second) and (second
    annotator's units + one stand-in per unit of the first). A unit matched to its own stand-in is
    alone; the stand-ins of a pair match each other (an edge per candidate pair suffices). Every
    weight is shifted by the same constant (every perfect matching has the same number of edges), so
    that no weight is 0 (an absent edge, to the solver).
    """
    from scipy import sparse
    from scipy.sparse.csgraph import min_weight_full_bipartite_matching

    first, second = tuples[:, 0], tuples[:, 1]
    left = np.unique(first[first >= 0])
    right = np.unique(second[second >= 0])
    n_left, n_right = len(left), len(right)
    pair = (first >= 0) & (second >= 0)
    alone_left = (first >= 0) & (second < 0)
    alone_right = (first < 0) & (second >= 0)
    li = np.searchsorted(left, np.maximum(first, 0))
    ri = np.searchsorted(right, np.maximum(second, 0))
    pairs = np.flatnonzero(pair)
    rows = np.concatenate([li[pair], li[alone_left], n_left + ri[alone_right], n_left + ri[pairs]])
    cols = np.concatenate([ri[pair], n_right + li[alone_left], ri[alone_right], n_right + li[pairs]])
    shift = 1.0 + float(disorder.max(initial=0.0))
    weights = np.concatenate([disorder[pair], disorder[alone_left], disorder[alone_right], np.zeros(len(pairs))])
    size = n_left + n_right
    graph = sparse.csr_array((weights + shift, (rows, cols)), shape=(size, size))
    matched_rows, matched_cols = min_weight_full_bipartite_matching(graph)
    index = {}
    for k, (r, c) in enumerate(zip(rows[:len(rows) - len(pairs)], cols[:len(cols) - len(pairs)])):
        index[(int(r), int(c))] = k
    candidates = np.concatenate([np.flatnonzero(pair), np.flatnonzero(alone_left), np.flatnonzero(alone_right)])
    picked = [candidates[index[(int(r), int(c))]] for r, c in zip(matched_rows, matched_cols)
              if (int(r), int(c)) in index]
    return np.array(picked, dtype=np.int64)


def _cover_from_relaxation(disorder: np.ndarray, matrix: Any, real: np.ndarray, pick: np.ndarray,
                           reduced: np.ndarray) -> np.ndarray | None:
    """A good exact cover (its candidates' indices) near a fractional relaxation, for the bound of reduced-cost
    fixing; None if the integer program of the rest fails.

    The candidates the relaxation takes above one half are disjoint (each unit's values sum to 1): they are kept,
    and only the units they leave uncovered are covered by an integer program over those units' candidates of least
    reduced cost (and their singletons): a small problem where the relaxation was fractional, instead of one over
    the whole component.
    """
    taken = np.flatnonzero(pick)
    covered = (matrix @ pick.astype(float)) > 0.5
    if (matrix @ pick.astype(float) > 1.5).any():      # not disjoint (a relaxation at its tolerances): no shortcut
        taken, covered = taken[:0], np.zeros(len(covered), dtype=bool)
    n_free = int((~covered).sum())
    if not n_free:
        return taken
    free = np.flatnonzero((matrix.T @ covered.astype(float)) == 0)     # candidates of uncovered units only
    if len(free) > 6 * n_free:
        single = real[free].sum(axis=1) == 1
        free = free[single | (reduced[free] <= np.sort(reduced[free])[5 * n_free])]
    trial = _mip(disorder, matrix[np.flatnonzero(~covered)], free)
    if trial.status != 0 or trial.x is None:
        return None
    return np.concatenate([taken, free[trial.x > 0.5]])


def _solve(tuples: np.ndarray, disorder: np.ndarray, units: Continua | None = None, what: str = "") -> np.ndarray:
    """Indices of the candidates of an exact cover of their units at least total disorder (one component).

    The linear relaxation first: an integral optimum (checked to be an exact cover at the relaxation's
    bound) is optimal. Else reduced-cost fixing: with the relaxation's bound ``LB`` and duals ``y``, a
    cover that uses candidate ``j`` costs at least ``LB + rc_j`` (``rc = c - Aᵀy``; the candidates at
    their upper bound have ``rc < 0`` and are kept). The relaxation's candidates above one half, and an
    integer program over the units they leave (:func:`_cover_from_relaxation`), give a cover of cost
    ``UB``; every candidate with ``rc_j > UB - LB`` can then be left out, and the integer program over
    the others (and those of that cover) is the exact optimum, usually over a few hundred candidates
    where the component has a hundred thousand.
    """
    from scipy import sparse
    from scipy.optimize import linprog

    real = tuples >= 0
    cand, col = np.nonzero(real)
    used, unit_row = np.unique(tuples[cand, col], return_inverse=True)
    matrix = sparse.csc_array((np.ones(len(cand)), (unit_row, cand)), shape=(len(used), len(tuples)))
    # scipy-stubs type A_eq as dense only, though HiGHS takes a sparse matrix (a dense one would not fit in memory)
    relaxed = linprog(disorder, A_eq=matrix, b_eq=np.ones(len(used)), bounds=(0, 1),  # type: ignore[call-overload]
                      method="highs")
    columns = np.arange(len(tuples))
    if relaxed.status == 0 and relaxed.x is not None:
        pick = relaxed.x > 0.5
        bound = float(relaxed.fun)
        if (np.abs(relaxed.x - pick) < 1e-6).all() and (matrix @ pick.astype(float) == 1).all() and \
                float(disorder[pick].sum()) <= bound + 1e-9 * max(1.0, abs(bound)):
            return np.flatnonzero(pick)        # an integral optimum of the relaxation: optimal
        reduced = disorder - matrix.T @ relaxed.eqlin.marginals
        cover = _cover_from_relaxation(disorder, matrix, real, pick, reduced)
        if cover is not None:
            upper = float(disorder[cover].sum())
            if upper <= bound + 1e-9 * max(1.0, abs(bound)):
                return np.sort(cover)           # a cover at the relaxation's bound: optimal
            margin = 1e-6 * max(1.0, abs(bound), abs(upper))
            columns = np.union1d(np.flatnonzero(reduced <= upper - bound + margin), cover)
    if units is not None and len(columns) > MAX_COMPONENT_CANDIDATES:
        raise _dense_error(units, used, len(tuples), what, fractional=True)
    if units is None or len(columns) == len(tuples):
        return _checked_mip(disorder, matrix, columns, units, used, what, len(tuples))
    # the candidates left by the fixing fall apart into components: small ones by dynamic programming, each
    # other one an integer program of its own
    comp = _components(tuples[columns])
    picked, hard = _solve_components(tuples[columns], disorder[columns], comp, units)
    chosen = [columns[picked]]
    rest = np.flatnonzero(hard)
    rest = rest[np.argsort(comp[rest], kind="stable")]
    bounds = np.flatnonzero(np.r_[True, comp[rest][1:] != comp[rest][:-1], True]) if len(rest) else np.zeros(1, int)
    for a, b in zip(bounds[:-1], bounds[1:]):
        one = columns[rest[a:b]]
        rows = np.flatnonzero(np.asarray(matrix[:, one] @ np.ones(len(one))) > 0)
        chosen.append(one[_checked_mip(disorder[one], matrix[rows][:, one], np.arange(len(one)), units, used[rows],
                                       what, len(tuples))])
    return np.sort(np.concatenate(chosen))


def _unit_components(tuples: np.ndarray, n_units: int) -> tuple[int, np.ndarray, np.ndarray]:
    """The components of units ``0..n_units-1`` linked by the candidates ``tuples`` (each candidate's first unit to
    each of its others, read column by column: no array of every member): their number, each unit's component
    (numbered in the order of their lowest unit) and each candidate's first unit."""
    from scipy import sparse
    from scipy.sparse.csgraph import connected_components

    firsts = tuples[np.arange(len(tuples)), np.argmax(tuples >= 0, axis=1)]
    starts: list[np.ndarray] = []
    others: list[np.ndarray] = []
    for column in tuples.T:
        other = (column >= 0) & (column != firsts)
        starts.append(firsts[other])
        others.append(column[other])
    u, v = np.concatenate(starts), np.concatenate(others)
    del starts, others
    graph = sparse.coo_matrix((np.ones(len(u)), (u, v)), shape=(n_units, n_units))
    del u, v
    n_comp, label = connected_components(graph, directed=False)
    return n_comp, label, firsts


def _components(tuples: np.ndarray) -> np.ndarray:
    """The connected component of each candidate: candidates sharing a unit are in the same one (labels increasing
    with a component's lowest unit, not consecutive)."""
    _, label, firsts = _unit_components(tuples, int(tuples.max()) + 1)
    return label[firsts]


def _checked_mip(disorder: np.ndarray, matrix: Any, columns: np.ndarray, units: Continua | None, used: np.ndarray,
                 what: str, candidates: int) -> np.ndarray:
    """The columns an integer program of :func:`_mip` chooses; its failure an :class:`AlignmentError`."""
    result = _mip(disorder, matrix, columns)
    if result.status == 1 and units is not None:       # a time or iteration limit
        doc = units.documents[int(units.document[used[0]])]
        raise AlignmentError(f"document {doc!r}{f' ({what})' if what else ''}: the exact alignment of {len(used)} "
                             f"units over [{float(units.start[used].min()):g}, {float(units.end[used].max()):g}) "
                             f"({candidates:,} candidates) was not found within {MIP_SECONDS:g} s: {_ADVICE}")
    if result.x is None or result.status != 0:
        raise AlignmentError(f"the integer program of the alignment was not solved: {result.message}")
    return columns[result.x > 0.5]
