"""MUC-4 with Chen et al. (2023)'s one-sided relaxed fillers (the paper's appendix C, "MUC-4: Recent Work").

Equations 27 and 28 score role-filler entities with predicted mentions taken as singleton entities,
each matched to at most one reference entity (``N:1``); Chen et al. (2023) report MUC-4 with them as
``φ_T`` for string fills. Here a template pair is scored so: a predicted string fill giving several
mentions becomes one filler per mention; each predicted filler goes to at most one reference filler
of its slot; under ``φ⊆`` a predicted mention earns 1 when it is a mention of the reference entity and
a reference entity counts once for recall however many of its mentions were found (so precision and
recall have different numerators); under ``φ3`` the credit is the shared mention count, the reference
entity's own score its number of mentions (the recall denominator counts mentions). Set fills keep
``φ_set``. Templates are aligned one to one (type equal), for the most predicted-side credit, as
IterX's scorer aligns them.
"""

from __future__ import annotations

import warnings
from typing import Any, cast

import numpy as np

from ..errors import AccordWarning, OptionError
from ..match.assign import assign
from ._matching import MatchScore, _items, f1, match
from ._similarity import Similarity, _as_similarity, exact, get_field
from .ie import Parents

__all__ = ["muc4_rme"]


class _Filler(Similarity):
    """``δ(slot) × φ(value)`` for a singleton predicted mention against a reference filler."""

    def __init__(self, phi: str, set_similarity: Similarity):
        self.phi, self.set_sim = phi, set_similarity
        self.normalized = phi == "subset"

    def __call__(self, pred: Any, gold: Any) -> float:
        if get_field(pred, "slot") != get_field(gold, "slot"):
            return 0.0
        pv, ref = get_field(pred, "value"), get_field(gold, "value")
        if isinstance(ref, (list, tuple)):
            ms = {pv} if isinstance(pv, str) else set(pv) if isinstance(pv, (list, tuple)) else set()
            shared = len(ms & set(ref))
            if self.phi == "phi3":
                return float(shared)
            return 1.0 if ms and shared == len(ms) else 0.0
        if isinstance(pv, (list, tuple)):
            return 0.0
        return float(self.set_sim(pv, ref))

    def self_score(self, x: Any) -> float:
        v = get_field(x, "value")
        if self.phi == "phi3" and isinstance(v, (list, tuple)):
            return float(len(set(v)))
        return 1.0

    def __repr__(self) -> str:
        return f"muc4_rme_filler({self.phi})"


def _singletons(template: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for f in _items(get_field(template, "fillers")):
        v = get_field(f, "value")
        if isinstance(v, (list, tuple)):
            out.extend({"slot": get_field(f, "slot"), "value": m} for m in v)
        else:
            out.append({"slot": get_field(f, "slot"), "value": v})
    return out


def _reference_fillers(template: Any) -> list[Any]:
    """The reference fillers, less string fills of no mention (nothing could find them), with a warning."""
    fillers = _items(get_field(template, "fillers"))
    kept = [f for f in fillers if not (isinstance(get_field(f, "value"), (list, tuple)) and not get_field(f, "value"))]
    if len(kept) < len(fillers):
        warnings.warn(AccordWarning(f"MUC-4 one-sided scores: {len(fillers) - len(kept)} reference string fill(s) "
                                    f"without a mention left out (template type {get_field(template, 'type')!r})"),
                      stacklevel=4)
    return kept


class _Rme(Similarity):
    def __init__(self, filler: _Filler, type_similarity: Similarity):
        self.filler, self.type_sim = filler, type_similarity
        self.inner = f1(match(filler, "N:1"))

    def __call__(self, pred: Any, gold: Any) -> MatchScore:
        p = [(get_field(t, "type"), _singletons(t)) for t in _items(pred)]
        g = [(get_field(t, "type"), _reference_fillers(t)) for t in _items(gold)]
        pm = np.zeros((len(p), len(g)))
        gm = np.zeros((len(p), len(g)))
        for i, (pt_, pf) in enumerate(p):
            for j, (gt_, gf) in enumerate(g):
                t = float(self.type_sim(pt_, gt_))
                if t:
                    s = cast(MatchScore, self.inner(pf, gf))
                    pm[i, j], gm[i, j] = t * s.match, t * s.gold_match
        pairs: list[tuple[int, int, float]] = []
        if pm.size:
            rows, cols = assign(pm + 1e-9 * gm, "1:1")
            pairs = [(int(i), int(j), float(pm[i, j])) for i, j in zip(rows, cols) if pm[i, j] or gm[i, j]]
        m = float(sum(pm[i, j] for i, j, _ in pairs))
        gmatch = float(sum(gm[i, j] for i, j, _ in pairs))
        ptot = float(sum(self.filler.self_score(f) for _, fs in p for f in fs))
        gtot = float(sum(self.filler.self_score(f) for _, fs in g for f in fs))
        s = MatchScore(0.0, m, ptot, gtot, pairs, 1.0, gmatch)
        return MatchScore(s.f1, m, ptot, gtot, pairs, 1.0, gmatch)

    def self_score(self, x: Any) -> float:
        return 1.0

    def __repr__(self) -> str:
        return f"muc4_rme({self.filler.phi})"


def muc4_rme(phi: str = "subset", *, set_parent: Parents | None = None, type_similarity: Any = exact) -> Similarity:
    """MUC-4 with a one-sided relaxed ``φ_T`` for string fills (Chen et al. 2023; equations 27, 28 as ``φ_T``).

    Parameters
    ----------
    phi : {"subset", "phi3"}
        ``φ⊆`` (equation 27: a predicted mention is right when it is one of the entity's; recall counts
        entities found) or ``φ3`` (equation 28: shared mentions; recall counts the entity's mentions).
    set_parent : mapping or callable, optional
        The hierarchy of set-fill values for ``φ_set`` (equation 33).
    type_similarity : similarity
        Template types, ``exact`` by default.
    """
    from .templates import set_fill

    if phi not in ("subset", "phi3"):
        raise OptionError(f"muc4_rme: phi is 'subset' or 'phi3', got {phi!r}")
    return _Rme(_Filler(phi, set_fill(set_parent)), _as_similarity(type_similarity, "type_similarity"))
