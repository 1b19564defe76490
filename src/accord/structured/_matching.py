"""Matching of collections and its normalizers (sections 2 and 3 of the paper).

``match(sim, constraint)`` is the unnormalized matching score of two collections,

.. math:: \\Sigma^{\\diamond}[\\phi](P, R) = \\max_{M \\in \\mathcal{M}^{\\diamond}} \\sum_{(p, r) \\in M} \\phi(p, r)

over matchings ``M`` obeying the constraint ``1:1`` (a partial bijection, Kuhn-Munkres),
``N:1`` (each predicted item in at most one pair), ``1:N`` (each reference item in at most
one pair) or ``N:N`` (any pairs). Normalizers turn it into a similarity, with
``m = Σ(P, R)``, ``p = Σ(P, P)``, ``r = Σ(R, R)``:

* precision ``m / p``, recall ``m / r``;
* F1 ``2m / (p + r)`` (equal to ``2PR / (P + R)``), F-beta ``(1 + β²)PR / (β²P + R)``;
* Jaccard ``m / (p + r - m)``.

A ratio whose denominator is 0 is 1.0 when both sides are empty (identical: nothing to
find, nothing found) and 0.0 otherwise. Because a normalized matching is itself a
similarity, it can be nested to any depth (CEAF's entity similarity is an F1 over
mentions). Pairs are computed on the predicted side as rows, the reference as columns.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

import numpy as np

from ..errors import OptionError
from ..match.assign import CONSTRAINTS, assign
from ._similarity import Similarity, _as_similarity, exact

__all__ = ["Match", "MatchScore", "match", "sequence_match", "precision", "recall", "f1", "fbeta", "jaccard",
           "micro"]


class MatchScore(float):
    """A normalized score that is also a plain ``float`` (its value), with the counts behind it.

    Attributes
    ----------
    precision, recall, f1, jaccard : float
    match : float
        ``Σ(P, R)``, the matching score: the numerator of precision.
    gold_match : float
        The numerator of recall: ``match`` under a one-to-one matching. Where several
        items of one side may pair with one item of the other (``N:1``, ``1:N``, ``N:N``),
        the credit an item receives is capped at its own score ``Σ(x, x)``, on each side, so
        that neither numerator exceeds its total and no rate exceeds 1 (two predicted copies
        of one reference mention are one mention found, not two).
    pred_total, gold_total : float
        ``Σ(P, P)`` and ``Σ(R, R)``.
    pairs : list of (int, int, float)
        Matched (predicted index, reference index, similarity), for inspection.
    """

    match: float
    gold_match: float
    pred_total: float
    gold_total: float
    pairs: list[tuple[int, int, float]]
    beta: float

    def __new__(cls, value: float, match: float, pred_total: float, gold_total: float,
                pairs: list[tuple[int, int, float]], beta: float = 1.0,
                gold_match: float | None = None) -> MatchScore:
        obj = super().__new__(cls, value)
        obj.match, obj.pred_total, obj.gold_total, obj.pairs, obj.beta = match, pred_total, gold_total, pairs, beta
        obj.gold_match = match if gold_match is None else gold_match
        return obj

    def _ratio(self, num: float, den: float) -> float:
        if den:
            return num / den
        return 1.0 if not self.pred_total and not self.gold_total else 0.0

    @property
    def precision(self) -> float:
        return self._ratio(self.match, self.pred_total)

    @property
    def recall(self) -> float:
        return self._ratio(self.gold_match, self.gold_total)

    @property
    def f1(self) -> float:
        if self.gold_match == self.match:
            return self._ratio(self.match, (self.pred_total + self.gold_total) / 2)
        if self.pred_total and self.gold_total:   # 2PR / (P + R) as one division of the counts
            den = self.match * self.gold_total + self.gold_match * self.pred_total
            return 2 * self.match * self.gold_match / den if den else 0.0
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def fbeta(self) -> float:
        p, r, b2 = self.precision, self.recall, self.beta ** 2
        return (1 + b2) * p * r / (b2 * p + r) if b2 * p + r else 0.0

    @property
    def jaccard(self) -> float:
        m = (self.match + self.gold_match) / 2
        return self._ratio(m, self.pred_total + self.gold_total - m)

    def to_dict(self) -> dict[str, float]:
        return {"precision": self.precision, "recall": self.recall, "f1": self.f1, "match": self.match,
                "gold_match": self.gold_match, "pred_total": self.pred_total, "gold_total": self.gold_total}

    def __repr__(self) -> str:
        return (f"MatchScore({float(self):.6g}: P={self.precision:.4f} R={self.recall:.4f} F1={self.f1:.4f}, "
                f"match={self.match:g}, pred={self.pred_total:g}, gold={self.gold_total:g})")


class Match(Similarity):
    """The unnormalized matching score of two collections under a constraint."""

    normalized = False

    def __init__(self, sim: Similarity, constraint: str):
        if constraint not in CONSTRAINTS:
            raise OptionError(f"unknown matching constraint {constraint!r}; expected one of {', '.join(CONSTRAINTS)}")
        self.sim, self.constraint = sim, constraint

    def compute(self, pred: Collection[Any], gold: Collection[Any]) -> tuple[float, list[tuple[int, int, float]]]:
        """The matching score and the matched pairs ``(pred index, gold index, similarity)``."""
        p, g = _items(pred), _items(gold)
        if not p or not g:
            return 0.0, []
        if self.sim is exact and self.constraint == "1:1":
            return _exact_pairs(p, g)
        m = np.zeros((len(p), len(g)))
        sim = self.sim
        for i, a in enumerate(p):
            for j, b in enumerate(g):
                m[i, j] = sim(a, b)
        if (m < 0).any():
            raise OptionError(f"similarity {sim!r} returned a negative value")
        if self.constraint == "N:1":
            rows, cols = _one_sided(m, self._own(p), self._own(g))
        elif self.constraint == "1:N":
            cols, rows = _one_sided(m.T, self._own(g), self._own(p))
            order = np.lexsort((cols, rows))
            rows, cols = rows[order], cols[order]
        else:
            rows, cols = assign(m, self.constraint)
        pairs = [(int(i), int(j), float(m[i, j])) for i, j in zip(rows, cols)]
        return float(sum(s for _, _, s in pairs)), pairs

    def __call__(self, pred: Collection[Any], gold: Collection[Any]) -> float:
        return self.compute(pred, gold)[0]

    def _own(self, items: list[Any]) -> np.ndarray:
        """Each item's own score ``sim(x, x)``: the most credit it can give or take (1 when normalized)."""
        if self.sim.normalized:
            return np.ones(len(items))
        return np.array([float(self.sim(x, x)) for x in items])

    def self_score(self, x: Collection[Any]) -> float:
        items = _items(x)
        if self.sim.normalized and self.constraint != "N:N":
            # each pair scores at most 1 and the identity matching scores 1 per item
            return float(len(items))
        return self.compute(items, items)[0]

    def __repr__(self) -> str:
        return f"match({self.sim!r}, {self.constraint!r})"


def _one_sided(m: np.ndarray, row_cap: np.ndarray, col_cap: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """An ``N:1`` matching (each row in at most one pair) that is best for both sides.

    Each row takes a column of its highest similarity (capped at its own score), which makes
    the row side's numerator ``Σ_i max_j min(m_ij, row_cap_i)`` as large as it can be. Among
    those choices, the one that gives the columns the most credit ``Σ_j min(Σ_{i→j} m_ij,
    col_cap_j)`` is taken: several rows that could each fall on one of two equal columns (a
    reference entity repeated, a mention in two entities of one role) are spread over them
    rather than piled on the first, so that no collection scored against itself loses
    credit. When the first choice of every row already leaves every column within its cap,
    it is that optimum; otherwise the rows with a choice are settled by a small integer
    program (:func:`scipy.optimize.milp`).
    """
    allowed, rows, cols, free = _choices(m, row_cap)
    if not rows.size:
        return rows, cols
    load = np.bincount(cols, weights=m[rows, cols], minlength=m.shape[1])
    tol = 1e-9 * max(1.0, float(m.max()))
    if not free.size or (load <= col_cap + tol).all():
        return rows, cols
    return rows, _spread(m, allowed, rows, cols, free, col_cap)


def _choices(m: np.ndarray, row_cap: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The columns each row may take (those of its best capped score), the rows with a positive score, the first
    choice of each (its most similar allowed column) and the rows with more than one choice."""
    t = np.minimum(m, row_cap[:, None])
    best = t.max(axis=1)
    tol = 1e-9 * max(1.0, float(best.max()))
    rows = np.flatnonzero(best > 0).astype(np.int64)
    allowed = (t >= best[:, None] - tol) & (best[:, None] > 0)
    cols = np.argmax(np.where(allowed, m, -1.0), axis=1)[rows].astype(np.int64)
    free = rows[allowed[rows].sum(axis=1) > 1]
    return allowed, rows, cols, free


def _spread(m: np.ndarray, allowed: np.ndarray, rows: np.ndarray, cols: np.ndarray, free: np.ndarray,
            col_cap: np.ndarray, program: bool = False) -> np.ndarray:
    """The columns of ``rows`` that maximise ``Σ_j min(load_j, col_cap_j)``, the rows in ``free`` choosing
    among their ``allowed`` columns, the others keeping ``cols``: by :func:`_spread_units` when every choice is
    worth 1 and the caps are whole (unless ``program``), else by an integer program."""
    if not free.size:
        return cols
    from scipy.optimize import Bounds, LinearConstraint, milp
    from scipy.sparse import coo_matrix

    is_free = np.isin(rows, free)
    fixed = np.bincount(cols[~is_free], weights=m[rows[~is_free], cols[~is_free]], minlength=m.shape[1])
    fi, fj = np.nonzero(allowed[free])
    if not program and (m[free[fi], fj] == 1.0).all() and (col_cap == np.round(col_cap)).all():
        return _spread_units(allowed, rows, cols, free, fixed, col_cap)
    nx = len(fi)
    touched = np.unique(fj)
    ycol = {int(j): nx + k for k, j in enumerate(touched)}
    nv = nx + len(touched)
    a_rows, a_cols, a_vals, lo, hi = [], [], [], [], []
    r = 0
    for k in range(len(free)):            # each free row takes exactly one of its columns
        members = np.flatnonzero(fi == k)
        a_rows += [r] * len(members)
        a_cols += members.tolist()
        a_vals += [1.0] * len(members)
        lo.append(1.0)
        hi.append(1.0)
        r += 1
    for j in touched:                     # y_j <= fixed_j + sum_i m_ij x_ij
        members = np.flatnonzero(fj == j)
        a_rows += [r] * (len(members) + 1)
        a_cols += members.tolist() + [ycol[int(j)]]
        a_vals += (-m[free[fi[members]], j]).tolist() + [1.0]
        lo.append(-np.inf)
        hi.append(float(fixed[j]))
        r += 1
    c = np.zeros(nv)
    c[nx:] = -1.0
    upper = np.ones(nv)
    upper[nx:] = col_cap[touched]
    integrality = np.zeros(nv, dtype=np.int64)
    integrality[:nx] = 1
    a = coo_matrix((np.asarray(a_vals), (np.asarray(a_rows, dtype=np.int64),
                                                       np.asarray(a_cols, dtype=np.int64))), shape=(r, nv)).tocsr()
    res = milp(c, integrality=integrality, bounds=Bounds(0, upper), constraints=[LinearConstraint(a, lo, hi)],
               options={"mip_rel_gap": 0.0})
    if res.x is None:  # pragma: no cover - feasible: every free row has an allowed column
        raise OptionError(f"the N:1 matching program failed: {res.message}")
    out = cols.copy()
    where = {int(i): k for k, i in enumerate(rows)}
    for x in np.flatnonzero(res.x[:nx] > 0.5):
        out[where[int(free[fi[x]])]] = fj[x]
    return out


def _spread_units(allowed: np.ndarray, rows: np.ndarray, cols: np.ndarray, free: np.ndarray, fixed: np.ndarray,
                  col_cap: np.ndarray) -> np.ndarray:
    """:func:`_spread` when every choice is worth 1 and the caps are whole (φ⊆, φ3 of single mentions): each
    column keeps ``cap - fixed load`` free places, and a largest matching of the free rows to the places
    (Kuhn-Munkres) fills the most; a row left without a place takes its first allowed column."""
    from scipy.optimize import linear_sum_assignment

    room = np.clip(col_cap - fixed, 0, len(free)).astype(np.int64)
    slot_col = np.repeat(np.arange(len(room)), room)
    out = cols.copy()
    if slot_col.size:
        gain = allowed[free][:, slot_col].astype(np.float64)
        r, c = linear_sum_assignment(gain, maximize=True)
        placed = gain[r, c] > 0
        where = {int(i): k for k, i in enumerate(rows)}
        for i, j in zip(free[r[placed]], slot_col[c[placed]]):
            out[where[int(i)]] = j
    return out


def _items(x: Any) -> list[Any]:
    if x is None:
        return []
    if isinstance(x, (str, bytes)) or not isinstance(x, Iterable):
        raise OptionError(f"expected a collection of items to match, got {type(x).__name__} {x!r}")
    return list(x)


def _exact_pairs(p: list[Any], g: list[Any]) -> tuple[float, list[tuple[int, int, float]]]:
    """1:1 matching under equality by hashing: equal items pair in order of occurrence."""
    try:
        where: dict[Any, list[int]] = {}
        for j, b in enumerate(g):
            where.setdefault(b, []).append(j)
    except TypeError:  # unhashable items: compare pairwise
        pairs, used = [], set()
        for i, a in enumerate(p):
            for j, b in enumerate(g):
                if j not in used and a == b:
                    used.add(j)
                    pairs.append((i, j, 1.0))
                    break
        return float(len(pairs)), pairs
    pairs = []
    for i, a in enumerate(p):
        free = where.get(a)
        if free:
            pairs.append((i, free.pop(0), 1.0))
    return float(len(pairs)), pairs


def match(sim: Any = exact, constraint: str = "1:1") -> Match:
    """``Σ^⋄[sim]``: the best total similarity of a matching between two collections."""
    return Match(_as_similarity(sim, "match"), constraint)


class _SequenceMatch(Match):
    """Order-preserving matching (equation 37): a weighted longest common subsequence."""

    def __init__(self, sim: Similarity):
        self.sim, self.constraint = sim, "1:1"

    def compute(self, pred: Collection[Any], gold: Collection[Any]) -> tuple[float, list[tuple[int, int, float]]]:
        p, g = _items(pred), _items(gold)
        n, k = len(p), len(g)
        if not n or not k:
            return 0.0, []
        w = np.array([[self.sim(a, b) for b in g] for a in p], dtype=float)
        best = np.zeros((n + 1, k + 1))
        for i in range(1, n + 1):
            row, prev = best[i], best[i - 1]
            for j in range(1, k + 1):
                row[j] = max(prev[j], row[j - 1], prev[j - 1] + w[i - 1, j - 1])
        pairs, i, j = [], n, k
        while i and j:
            if best[i, j] == best[i - 1, j]:
                i -= 1
            elif best[i, j] == best[i, j - 1]:
                j -= 1
            else:
                pairs.append((i - 1, j - 1, float(w[i - 1, j - 1])))
                i, j = i - 1, j - 1
        pairs.reverse()
        return float(best[n, k]), pairs

    def __repr__(self) -> str:
        return f"sequence_match({self.sim!r})"


def sequence_match(sim: Any = exact) -> Match:
    """Matching of two sequences that preserves order: weighted LCS by dynamic programming.

    ``sequence_match()((1, 2, 3, 4, 5), (1, 3, 5, 7, 9)) == 3`` (the paper's example).
    """
    return _SequenceMatch(_as_similarity(sim, "sequence_match"))


class _Normalized(Similarity):
    def __init__(self, inner: Match, kind: str, beta: float = 1.0):
        if not isinstance(inner, Match):
            raise OptionError(f"{kind}() normalizes a matching, e.g. {kind}(match(sim)); got {inner!r}")
        self.inner, self.kind, self.beta = inner, kind, beta

    def __call__(self, pred: Any, gold: Any) -> MatchScore:
        m, pairs = self.inner.compute(pred, gold)
        pt, gt = self.inner.self_score(pred), self.inner.self_score(gold)
        gm = m
        if self.inner.constraint != "1:1":
            m, gm = _capped(self.inner, pred, gold, pairs)
        s = MatchScore(0.0, m, pt, gt, pairs, self.beta, gm)
        return MatchScore(getattr(s, self.kind), m, pt, gt, pairs, self.beta, gm)

    def self_score(self, x: Any) -> float:
        return 1.0

    def __repr__(self) -> str:
        return f"{self.kind}({self.inner!r})"


def _capped(inner: Match, pred: Any, gold: Any, pairs: list[tuple[int, int, float]]) -> tuple[float, float]:
    """The precision and recall numerators of a many-to-one matching: each item's summed credit
    capped at its own score (see :class:`MatchScore`)."""
    p, g = _items(pred), _items(gold)
    got_p: dict[int, float] = {}
    got_g: dict[int, float] = {}
    for i, j, s in pairs:
        got_p[i] = got_p.get(i, 0.0) + s
        got_g[j] = got_g.get(j, 0.0) + s
    sim = inner.sim

    def own(x: Any) -> float:
        return 1.0 if sim.normalized else float(sim(x, x))

    return (sum(min(v, own(p[i])) for i, v in got_p.items()),
            sum(min(v, own(g[j])) for j, v in got_g.items()))


def precision(inner: Match) -> Similarity:
    """``Σ(P, R) / Σ(P, P)``."""
    return _Normalized(inner, "precision")


def recall(inner: Match) -> Similarity:
    """``Σ(P, R) / Σ(R, R)``."""
    return _Normalized(inner, "recall")


def f1(inner: Match) -> Similarity:
    """``2 Σ(P, R) / (Σ(P, P) + Σ(R, R))``, the Dice score."""
    return _Normalized(inner, "f1")


def fbeta(inner: Match, beta: float) -> Similarity:
    """``(1 + β²) P R / (β² P + R)``."""
    if beta <= 0:
        raise OptionError(f"beta must be positive, got {beta}")
    return _Normalized(inner, "fbeta", beta)


def jaccard(inner: Match) -> Similarity:
    """``Σ(P, R) / (Σ(P, P) + Σ(R, R) - Σ(P, R))``."""
    return _Normalized(inner, "jaccard")


def micro(scores: Iterable[MatchScore]) -> MatchScore:
    """Micro average over documents: summed matching scores over summed totals (F1 value)."""
    m = gm = pt = gt = 0.0
    beta = 1.0
    for s in scores:
        if not isinstance(s, MatchScore):
            raise OptionError(f"micro() adds MatchScore results of a normalized metric, got {s!r}")
        m, gm, pt, gt, beta = m + s.match, gm + s.gold_match, pt + s.pred_total, gt + s.gold_total, s.beta
    out = MatchScore(0.0, m, pt, gt, [], beta, gm)
    return MatchScore(out.f1, m, pt, gt, [], beta, gm)

