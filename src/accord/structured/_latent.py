"""Matching of sets whose items hold latent variables, by integer linear programming (section 4, appendix A.1).

Items are tuples of fields. A field marked :data:`LATENT` may hold a :class:`Var` (a
variable whose identity is only known through a 1:1 mapping between the two sides'
variables, to be found) or a constant; other fields are compared with their similarity.
The score is

.. math:: \\max_{M_V, M} \\sum_{(u, v) \\in M} \\tilde\\phi(u, v)

where ``M_V`` is a 1:1 mapping of variables, ``M`` a matching of items under the
constraint, and ``φ̃(u, v)`` the product of the field similarities, counted only if every
pair of variables in ``u`` and ``v`` is mapped by ``M_V`` (two constants compare by
equality; a variable never equals a constant).

As an ILP (``scipy.optimize.milp``, HiGHS): a binary ``y_ab`` per pair of variables that
some item pair would need, a ``x_k`` per candidate item pair, maximise ``Σ φ̃_k x_k``
subject to ``x_k <= y_ab`` for each variable pair the item pair needs (44), at most one
``y`` per variable on each side (45) and the item constraint (46-47). Given integral
``y`` the ``x`` constraints form a bipartite matching polytope, whose vertices are
integral, so only ``y`` is declared integer. The solution is exact, not a hill-climb.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from ..errors import OptionError
from ..match._constraints import CONSTRAINTS
from ._similarity import Similarity, exact

__all__ = ["Var", "LATENT", "LatentResult", "latent_match"]


class Var(NamedTuple):
    """A latent variable; two ``Var`` are equal only through the mapping being searched."""

    name: str

    def __repr__(self) -> str:     # the named tuple's own text, without its generic formatting (items sort by it)
        return f"Var(name={self[0]!r})"


class _LatentMarker:
    def __repr__(self) -> str:
        return "LATENT"


LATENT = _LatentMarker()
"""Field marker: a ``Var`` or a constant, compared through the variable mapping."""


class LatentResult(NamedTuple):
    """The optimum: its score, the matched item pairs and the variable mapping; ``bound`` is ``None`` when the score
    is proved optimal, else (the integer program stopped by its time limit) an upper bound of the optimum."""

    score: float
    pairs: list[tuple[int, int, float]]
    mapping: dict[Any, Any]
    bound: float | None = None


def _signature(item: Sequence[Any], fields: Sequence[Any]) -> tuple[Any, ...]:
    return tuple(["\0var" if f is LATENT and isinstance(v, Var) else v for v, f in zip(item, fields)])


def latent_match(pred: Sequence[Sequence[Any]], gold: Sequence[Sequence[Any]], fields: Sequence[Any], *,
                 constraint: str = "1:1", time_limit: float | None = None) -> LatentResult:
    """The best matching of items with latent variables (exact, by ILP).

    Parameters
    ----------
    pred, gold : sequence of tuples
        The items; each has ``len(fields)`` fields.
    fields : sequence
        Per field: :data:`LATENT`, or a similarity (``exact`` by default when ``None``).
    constraint : {"1:1", "N:1", "1:N", "N:N"}
        The constraint on item pairs; the variable mapping is always 1:1.
    time_limit : float, optional
        Seconds the integer program may run; stopped there, the result holds the best mapping found and the
        solver's upper ``bound`` of the optimum.
    """
    if constraint not in CONSTRAINTS:
        raise OptionError(f"unknown matching constraint {constraint!r}; expected one of {', '.join(CONSTRAINTS)}")
    fields = [exact if f is None else f for f in fields]
    for k, f in enumerate(fields):
        if f is not LATENT and not isinstance(f, Similarity):
            raise OptionError(f"field {k}: expected LATENT or a similarity, got {f!r}")
    for side, items in (("predicted", pred), ("reference", gold)):
        for item in items:
            if len(item) != len(fields):
                raise OptionError(f"{side} item {item!r} has {len(item)} fields, expected {len(fields)}")
    latent = [k for k, f in enumerate(fields) if f is LATENT]
    plain = [k for k, f in enumerate(fields) if f is not LATENT]

    # candidate item pairs: by hashing when every plain field is exact, else all pairs
    cand: list[tuple[int, int, float, tuple[tuple[Any, Any], ...]]] = []
    if all(fields[k] is exact for k in plain):
        buckets: dict[tuple[Any, ...], list[int]] = {}
        for j, b in enumerate(gold):
            buckets.setdefault(_signature(b, fields), []).append(j)
        pred_signature = [_signature(a, fields) for a in pred]
        pairs_iter = ((i, j) for i, sig in enumerate(pred_signature) for j in buckets.get(sig, ()))
    else:
        pairs_iter = ((i, j) for i in range(len(pred)) for j in range(len(gold)))
    for i, j in pairs_iter:
        a, b = pred[i], gold[j]
        score = 1.0
        for k in plain:
            score *= fields[k](a[k], b[k])
            if score == 0:
                break
        if score <= 0:
            continue
        need = []
        ok = True
        for k in latent:
            va, vb = a[k], b[k]
            if isinstance(va, Var) and isinstance(vb, Var):
                need.append((va, vb))
            elif isinstance(va, Var) or isinstance(vb, Var) or va != vb:
                ok = False
                break
        if ok:
            cand.append((i, j, score, tuple(dict.fromkeys(need))))
    if not cand:
        return LatentResult(0.0, [], {})
    # With exact plain fields and no repeated item on either side, a variable mapping decides
    # which reference item a predicted item can pair with, and distinct items stay distinct:
    # the item constraint holds by itself. A pair then needing one variable pair (an AMR
    # instance or attribute triple) is worth its score whenever that pair is mapped, so its
    # score goes onto the y variable and no x variable is needed.
    implied = all(fields[k] is exact for k in plain) and _unique(pred) and _unique(gold)
    if implied:
        quick = _greedy_if_optimal(cand, pred_signature)
        if quick is not None:
            return quick
        from ._latent_search import best_mapping

        found = best_mapping(cand)
        if found is not None:       # proved optimal by branch and bound, without the integer program
            return _result_of(cand, found[1])
    return _solve(cand, constraint, fold=implied, time_limit=time_limit)


def _greedy_if_optimal(cand: list[tuple[int, int, float, tuple[tuple[Any, Any], ...]]],
                       signature: Sequence[tuple[Any, ...]]) -> LatentResult | None:
    """A greedy variable mapping, returned only when it provably scores the optimum: else None (then the ILP).

    Holds where the item constraint is implied (exact plain fields, no repeated item; see :func:`latent_match`).
    The bound: items pair only within their signature (the fields but the variables; ``signature[i]`` of
    predicted item ``i``), a predicted item with at most one reference item and back, so the score is at most
    ``Σ_signature min(Σ_i max score of i, Σ_j max score of j)``; and an item's score shared out over the variable
    pairs it needs, each variable brings at most its best partner's share. The greedy mapping takes
    variable pairs by the score they unlock (their own items, then the items needing two pairs), keeping the
    mapping one-to-one; when its score reaches the bound no mapping scores more, and no integer program runs.
    """
    best_i: dict[int, float] = {}
    best_j: dict[int, float] = {}
    gain: dict[tuple[Any, Any], float] = {}
    for i, j, score, need in cand:
        best_i[i] = max(best_i.get(i, 0.0), score)
        best_j[j] = max(best_j.get(j, 0.0), score)
        for vp in need:
            gain[vp] = gain.get(vp, 0.0) + (score if len(need) == 1 else score / len(need))
    per_pred: dict[Any, float] = {}
    per_gold: dict[Any, float] = {}
    gold_bucket = {j: signature[i] for i, j, _, _ in cand}
    for i, v in best_i.items():
        per_pred[signature[i]] = per_pred.get(signature[i], 0.0) + v
    for j, v in best_j.items():
        per_gold[gold_bucket[j]] = per_gold.get(gold_bucket[j], 0.0) + v
    bound = sum(min(v, per_gold.get(key, 0.0)) for key, v in per_pred.items())
    # a second bound: an item's score is shared out over the variable pairs it needs, and a variable maps to
    # one variable, so each variable brings at most its best partner's share (items needing none count whole)
    free = sum(score for _, _, score, need in cand if not need)
    best_a: dict[Any, float] = {}
    best_b: dict[Any, float] = {}
    for (va, vb), g in gain.items():
        best_a[va] = max(best_a.get(va, 0.0), g)
        best_b[vb] = max(best_b.get(vb, 0.0), g)
    bound = min(bound, free + min(sum(best_a.values()), sum(best_b.values())))
    mapped_a: dict[Any, Any] = {}
    mapped_b: set[Any] = set()
    for (va, vb), _ in sorted(gain.items(), key=lambda kv: (-kv[1], repr(kv[0]))):
        if va not in mapped_a and vb not in mapped_b:
            mapped_a[va] = vb
            mapped_b.add(vb)
    chosen = [t for t in cand if all(mapped_a.get(va) == vb for va, vb in t[3])]
    score = sum(t[2] for t in chosen)
    if score < bound - 1e-9:
        return None
    return _result_of(cand, mapped_a, chosen)


def _result_of(cand: list[tuple[int, int, float, tuple[tuple[Any, Any], ...]]], mapped: dict[Any, Any],
               chosen: list[tuple[int, int, float, tuple[tuple[Any, Any], ...]]] | None = None) -> LatentResult:
    """The result of a variable mapping where the item constraint is implied: every candidate whose variable
    pairs it maps (``chosen``, when known), and the variable pairs those rely on."""
    if chosen is None:
        chosen = [t for t in cand if all(mapped.get(va) == vb for va, vb in t[3])]
    score = sum(t[2] for t in chosen)
    pairs = sorted((i, j, s) for i, j, s, _ in chosen)
    used = {vp for _, _, _, need in chosen for vp in need}
    return LatentResult(float(score), pairs, {va.name: vb.name for va, vb in used})


def _unique(items: Sequence[Sequence[Any]]) -> bool:
    try:
        return len(set(map(tuple, items))) == len(items)
    except TypeError:
        return False


def _solve(cand: list[tuple[int, int, float, tuple[tuple[Any, Any], ...]]], constraint: str,
           fold: bool = False, time_limit: float | None = None) -> LatentResult:
    import numpy as np
    from scipy.optimize import Bounds, LinearConstraint, milp
    from scipy.sparse import coo_matrix

    ypairs: dict[tuple[Any, Any], int] = {}
    for _, _, _, need in cand:
        for vp in need:
            ypairs.setdefault(vp, len(ypairs))
    folded_cand: list[tuple[int, int, float, tuple[tuple[Any, Any], ...]]] = []
    y_gain = np.zeros(len(ypairs))
    if fold:
        kept = []
        for t in cand:
            if len(t[3]) <= 1:
                folded_cand.append(t)
                if t[3]:
                    y_gain[ypairs[t[3][0]]] += t[2]
            else:
                kept.append(t)
        cand = kept
    nx, ny = len(cand), len(ypairs)
    rows, cols, vals, upper = [], [], [], []
    r = 0
    # x_k - y_ab <= 0, aggregated where an item pairs with one item at most: the pairs of predicted item i that
    # need the variable pair ab sum to at most y_ab (and so for reference item j); valid inequalities that imply
    # the single ones and tighten the relaxation (an item pairs once: by the constraint, or, folded, because
    # distinct items stay distinct under a mapping)
    agg_i = fold or constraint in ("1:1", "N:1")
    agg_j = fold or constraint in ("1:1", "1:N")
    groups: dict[tuple[Any, ...], list[int]] = {}
    for k, (i, j, _, need) in enumerate(cand):
        for vp in need:
            if agg_i:
                groups.setdefault((0, i, vp), []).append(k)
            if agg_j:
                groups.setdefault((1, j, vp), []).append(k)
            if not (agg_i or agg_j):
                groups.setdefault((2, k, vp), []).append(k)
    seen_rows: set[tuple[Any, ...]] = set()
    for (_, _, vp), members in groups.items():
        key = (vp, tuple(members))
        if key in seen_rows:
            continue
        seen_rows.add(key)
        rows += [r] * (len(members) + 1)
        cols += members + [nx + ypairs[vp]]
        vals += [1.0] * len(members) + [-1.0]
        upper.append(0.0)
        r += 1

    def at_most_one(groups: dict[Any, list[int]]) -> None:
        nonlocal r
        for members in groups.values():
            if len(members) > 1:
                rows.extend([r] * len(members))
                cols.extend(members)
                vals.extend([1.0] * len(members))
                upper.append(1.0)
                r += 1

    by_a: dict[Any, list[int]] = {}
    by_b: dict[Any, list[int]] = {}
    for (va, vb), c in ypairs.items():
        by_a.setdefault(va, []).append(nx + c)
        by_b.setdefault(vb, []).append(nx + c)
    at_most_one(by_a)
    at_most_one(by_b)
    if constraint in ("1:1", "N:1") and not fold:
        by_i: dict[int, list[int]] = {}
        for k, (i, _, _, _) in enumerate(cand):
            by_i.setdefault(i, []).append(k)
        at_most_one(by_i)
    if constraint in ("1:1", "1:N") and not fold:
        by_j: dict[int, list[int]] = {}
        for k, (_, j, _, _) in enumerate(cand):
            by_j.setdefault(j, []).append(k)
        at_most_one(by_j)
    cost = np.zeros(nx + ny)
    cost[:nx] = [-s for _, _, s, _ in cand]
    cost[nx:] = -y_gain
    integrality = np.zeros(nx + ny, dtype=np.int64)
    integrality[nx:] = 1
    constraints = []
    if r:
        a = coo_matrix((np.asarray(vals), (np.asarray(rows, dtype=np.int64), np.asarray(cols, dtype=np.int64))),
                       shape=(r, nx + ny)).tocsr()
        constraints.append(LinearConstraint(a, -np.inf, np.asarray(upper)))
    # HiGHS's presolve costs more than it saves on these small programs (half the time of a pair on AMR) and
    # does not change what is optimal: the same stopping rule applies (HiGHS's relative gap, 1e-4 by default,
    # which for Smatch's integer counts below 10,000 triples leaves no room for a worse solution)
    res = milp(cost, integrality=integrality, bounds=Bounds(0, 1), constraints=constraints,
               options={"presolve": False} if time_limit is None else {"presolve": False,
                                                                       "time_limit": float(time_limit)})
    stopped = time_limit is not None and res.status == 1
    if res.x is None:
        if not stopped:  # pragma: no cover - the problem is always feasible (all zeros)
            raise OptionError(f"the matching ILP failed: {res.message}")
        # stopped before any solution: the empty matching, bounded by every candidate's score
        return LatentResult(0.0, [], {}, float(sum(t[2] for t in cand) + sum(t[2] for t in folded_cand)))
    x = res.x
    chosen = [cand[k] for k in range(nx) if x[k] > 0.5]
    chosen += [t for t in folded_cand if all(x[nx + ypairs[vp]] > 0.5 for vp in t[3])]
    pairs = sorted((i, j, s) for i, j, s, _ in chosen)
    # the mapping: variable pairs that some matched pair relies on
    used = {vp for _, _, _, need in chosen for vp in need}
    mapping = {va.name: vb.name for va, vb in used}
    score = float(sum(s for _, _, s in pairs))
    bound = None
    if stopped:
        dual = getattr(res, "mip_dual_bound", None)
        bound = max(score, -float(dual)) if dual is not None and np.isfinite(dual) else \
            float(sum(t[2] for t in cand) + sum(t[2] for t in folded_cand))
    return LatentResult(score, pairs, mapping, bound)
