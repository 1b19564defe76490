"""The best variable mapping of a latent matching by branch and bound, without an integer program solver.

Used where the item constraint is implied (exact plain fields, no repeated item: :func:`._latent.latent_match`),
which is Smatch's case: the score of a mapping is the sum of the candidate item pairs all of whose variable pairs
it maps. The search assigns the predicted variables one after the other (each to a free reference variable, or to
none) and prunes a branch when its bound, the score of the candidates already decided plus, for the undecided
candidates, an item's score shared out over the variable pairs it still needs with each variable taking its best
partner's share (the smaller of that sum over the predicted and over the reference variables), cannot beat the
best mapping found. When the search ends the best mapping is proved optimal, as the integer program would prove it
(the same optimum; among equally good mappings it may keep another one). It gives up (``None``) past a budget of
work (:data:`WORK`), and the integer program decides; Smatch's graphs of a few dozen variables take a few dozen
branches.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__: list[str] = []

Candidate = tuple[int, int, float, tuple[tuple[Any, Any], ...]]

WORK = 300_000
"""Candidates the bounds may visit (each branch visits every candidate once) before the search gives up and the
integer program decides: a tenth of a second of Python at most (real AMR pairs need far less; random graphs of
few concepts, where many mappings tie, may reach it)."""

_EPS = 1e-9


def best_mapping(cand: Sequence[Candidate], work: int = WORK) -> tuple[float, dict[Any, Any]] | None:
    """The optimal score and an optimal mapping (predicted variable -> reference variable), or None past ``work``.

    The first branch followed takes, variable after variable, the partner that unlocks the most (a greedy mapping);
    later branches must beat the best mapping found.
    """
    free_score = sum(c[2] for c in cand if not c[3])
    needing = [c for c in cand if c[3]]
    pred_vars: dict[Any, int] = {}
    gold_vars: dict[Any, int] = {}
    for _, _, _, need in needing:
        for va, vb in need:
            pred_vars.setdefault(va, len(pred_vars))
            gold_vars.setdefault(vb, len(gold_vars))
    # each candidate as (score, ((pred index, gold index), ...)); a candidate needing two reference variables for
    # one predicted variable (or the reverse) can never be met by a one-to-one mapping
    items: list[tuple[float, tuple[tuple[int, int], ...]]] = []
    for _, _, score, need in needing:
        pairs = tuple(dict.fromkeys((pred_vars[va], gold_vars[vb]) for va, vb in need))
        if _consistent(pairs):
            items.append((score, pairs))
    n_pred, n_gold = len(pred_vars), len(gold_vars)
    # order: the predicted variables with most at stake first
    stake = [0.0] * n_pred
    for score, pairs in items:
        for a, _ in pairs:
            stake[a] += score
    order = sorted(range(n_pred), key=lambda a: -stake[a])
    by_pred: list[list[int]] = [[] for _ in range(n_pred)]
    for k, (_, pairs) in enumerate(items):
        for a in {a for a, _ in pairs}:
            by_pred[a].append(k)

    assign = [-1] * n_pred       # -1 undecided, -2 mapped to nothing, else the reference variable's index
    used = [False] * n_gold
    best_score = -1.0
    best_assign: list[int] | None = None
    budget = [work]

    def bound() -> float:
        """Decided score plus the shared-out bound of what is still open (see the module)."""
        decided = 0.0
        share_a: dict[tuple[int, int], float] = {}
        for score, pairs in items:
            open_pairs = 0
            alive = True
            for a, b in pairs:
                got = assign[a]
                if got == -1:
                    if used[b]:
                        alive = False
                        break
                    open_pairs += 1
                elif got != b:
                    alive = False
                    break
            if not alive:
                continue
            if not open_pairs:
                decided += score
                continue
            share = score / open_pairs
            for a, b in pairs:
                if assign[a] == -1:
                    share_a[(a, b)] = share_a.get((a, b), 0.0) + share
        best_a: dict[int, float] = {}
        best_b: dict[int, float] = {}
        for (a, b), s in share_a.items():
            if s > best_a.get(a, 0.0):
                best_a[a] = s
            if s > best_b.get(b, 0.0):
                best_b[b] = s
        return decided + min(sum(best_a.values()), sum(best_b.values()))

    def options(a: int) -> list[int]:
        """The free reference variables some live candidate pairs ``a`` with, most promising first."""
        gain: dict[int, float] = {}
        for k in by_pred[a]:
            score, pairs = items[k]
            ok = True
            for x, b in pairs:
                got = assign[x]
                if (got == -1 and used[b] and x != a) or (got not in (-1, b)):
                    ok = False
                    break
            if not ok:
                continue
            for x, b in pairs:
                if x == a and not used[b]:
                    gain[b] = gain.get(b, 0.0) + score
        return sorted(gain, key=lambda b: (-gain[b], b))

    def search(depth: int) -> bool:
        nonlocal best_score, best_assign
        budget[0] -= len(items) + 1
        if budget[0] < 0:
            return False
        ub = bound()
        if ub <= best_score + _EPS:
            return True
        if depth == len(order):
            best_score, best_assign = ub, assign.copy()     # every variable decided: the bound is the score
            return True
        a = order[depth]
        for b in options(a):
            assign[a] = b
            used[b] = True
            ok = search(depth + 1)
            used[b] = False
            assign[a] = -1
            if not ok:
                return False
        assign[a] = -2
        ok = search(depth + 1)
        assign[a] = -1
        return ok

    if not search(0):
        return None
    if best_assign is None:     # pragma: no cover - the first branch reaches a leaf (a score of at least 0)
        return None
    pred_names = list(pred_vars)
    gold_names = list(gold_vars)
    return best_score + free_score, {pred_names[a]: gold_names[b] for a, b in enumerate(best_assign) if b >= 0}


def _consistent(pairs: tuple[tuple[int, int], ...]) -> bool:
    """Whether the variable pairs one candidate needs can hold together under a one-to-one mapping."""
    fwd: dict[int, int] = {}
    back: dict[int, int] = {}
    for a, b in pairs:
        if fwd.setdefault(a, b) != b or back.setdefault(b, a) != a:
            return False
    return True
