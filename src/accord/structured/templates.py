"""Template extraction: the MUC-4 slot-filler score and BETTER's Granular product score (section 3.4, appendices C, D).

A template is a record with ``type`` and ``fillers``, each filler a record with ``slot`` and
``value``. The value of a *set-fill* slot is a categorical value (a string); the value of a
*string-fill* slot is, in the reference, an entity given as a list of its mention strings
and, in the prediction, one mention string (or a list, any of which may match). A filler is
string-fill when its reference value is a list.

The overall MUC-4 score (equation 32) is the F1 over slot fillers of the best 1:1
template alignment:

.. math:: F_1\\Sigma^{1:1}_{templates}\\big[\\delta(type) \\times \\Sigma^{1:1}_{fillers}[\\delta(slot)
          \\times \\phi_T(value)]\\big]

so the matching score counts filler credit and each side's total is its number of fillers.
``φ_set(P, R)`` is 1 when ``P = R``, 1/2 when ``P`` is a strict descendant of ``R`` in the
slot's value hierarchy (equation 33), else 0. ``φ_str(P, R)`` is 1 when the predicted
string shares a word that is not a premodifier with some mention of the reference entity
(equations 48, 49: the automatic version), compared case-insensitively, words split on whitespace.
The original evaluation's rules (appendix C: the interactive half credit, recorded as judgements,
and the alignment constraint on seven key slots) are :func:`accord.structured.muc4_original` (module ``_muc4``,
built on these fills); Chen et al. (2023)'s one-sided relaxed string fills (equations 27, 28 as ``φ_T``) are
:func:`accord.structured.muc4_rme` (module ``_muc4_rme``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable
from typing import Any

import numpy as np

from ..errors import OptionError
from ..match.assign import assign
from ._matching import MatchScore, _items, f1, match
from ._similarity import Similarity, _as_similarity, exact, func, get_field, product
from .ie import Parents, ancestor_chain

__all__ = ["set_fill", "string_fill", "slot_filler", "muc4_score", "muc4_subset", "attack_half_credit", "BetterScore",
           "better_score"]


def _ancestors(value: Hashable, parent: Parents | None) -> list[Hashable]:
    return [] if parent is None else ancestor_chain(value, parent)[1:]


def set_fill(parent: Parents | None = None) -> Similarity:
    """MUC-4's ``φ_set`` (equation 33): 1 if equal, 1/2 if the predicted value is a strict
    descendant of the reference value (``parent`` gives each value's parent, ``None`` at a
    root), else 0."""

    def phi(p: Any, r: Any) -> float:
        if p == r:
            return 1.0
        try:
            return 0.5 if r in _ancestors(p, parent) else 0.0
        except TypeError:  # an unhashable value has no place in the hierarchy
            return 0.0

    return func(phi)


def _words(s: Any, premodifiers: frozenset[str]) -> set[str]:
    if not isinstance(s, str):
        raise OptionError(f"a string-fill value must be a string, got {s!r}")
    return {w for w in s.lower().split() if w not in premodifiers}


def string_fill(premodifiers: Collection[str] = ()) -> Similarity:
    """MUC-4's ``φ_str`` for template alignment (equations 48, 49): 1 if a predicted mention
    shares a word other than a premodifier with a mention of the reference entity."""
    pre = frozenset(w.lower() for w in premodifiers)

    def phi(p: Any, r: Any) -> float:
        pred = [p] if isinstance(p, str) else list(p)
        ref = [r] if isinstance(r, str) else list(r)
        ref_words = set().union(*(_words(m, pre) for m in ref)) if ref else set()
        return 1.0 if any(_words(m, pre) & ref_words for m in pred) else 0.0

    return func(phi)


def slot_filler(*, set_similarity: Any = None, string_similarity: Any = None) -> Similarity:
    """``δ(slot) × φ_T(value)`` with ``φ_T`` chosen per filler: string-fill when the
    reference value is a list (an entity's mentions), else set-fill.

    A predicted value equal to the reference value scores 1 whatever ``φ_T`` gives it, so that a
    filler always matches itself (an entity of no mention, or of premodifiers only, shares no
    word with anything)."""
    phi_set = _as_similarity(set_similarity, "set_similarity") if set_similarity is not None else set_fill()
    phi_str = _as_similarity(string_similarity, "string_similarity") if string_similarity is not None \
        else string_fill()

    def phi(p: Any, r: Any) -> float:
        ref = get_field(r, "value")
        pv = get_field(p, "value")
        if _same_value(pv, ref):
            return 1.0  # the reference's own value (even one the similarities give nothing: no word, no mention)
        if isinstance(ref, (list, tuple)):
            return phi_str(pv, ref)
        if isinstance(pv, (list, tuple)):
            return 0.0  # an entity predicted for a set-fill slot
        return phi_set(pv, ref)

    return _SlotFiller(phi)


def _same_value(p: Any, r: Any) -> bool:
    if isinstance(r, (list, tuple)) and isinstance(p, (list, tuple)):
        return list(p) == list(r)
    return type(p) is type(r) and p == r


class _SlotFiller(Similarity):
    """``δ(slot) × φ(value)``, normalized (each of its parts is)."""

    def __init__(self, phi: Callable[[Any, Any], float]):
        self.phi = phi

    def __call__(self, pred: Any, gold: Any) -> float:
        if get_field(pred, "slot") != get_field(gold, "slot"):
            return 0.0
        return float(self.phi(pred, gold))

    def self_score(self, x: Any) -> float:
        return 1.0

    def __repr__(self) -> str:
        return "slot_filler"


def _template(type_similarity: Any, filler: Similarity) -> Similarity:
    return product(type=_as_similarity(type_similarity, "type_similarity"), fillers=match(filler, "1:1"))


def muc4_score(*, set_parent: Parents | None = None, premodifiers: Collection[str] = (),
               type_similarity: Any = exact) -> Similarity:
    """The MUC-4 overall score (equation 32): F1 over slot fillers of the best template alignment.

    Parameters
    ----------
    set_parent : mapping or callable, optional
        The hierarchy of set-fill values (value -> parent) for ``φ_set``'s half credit.
    premodifiers : collection of str
        Words that do not count as an overlap for ``φ_str``.
    type_similarity : similarity
        Template types; ``exact`` by default. The original evaluation also gave half credit
        for the generic ``attack`` predicted in place of a specific type; a function says so:
        ``func(lambda p, r: 1.0 if p == r else 0.5 if p == "attack" else 0.0)``.
    """
    filler = slot_filler(set_similarity=set_fill(set_parent), string_similarity=string_fill(premodifiers))
    return f1(match(_template(type_similarity, filler), "1:1"))


def _attack(p: Any, r: Any) -> float:
    return 1.0 if p == r else 0.5 if p == "attack" else 0.0


attack_half_credit: Similarity = func(_attack)
"""Template types as the original MUC-4 evaluation scored them: 1 for the same type, 0.5 for the generic
``attack`` predicted in place of a specific type (bombing, kidnapping...), else 0."""


def _subset_fill(p: Any, r: Any) -> float:
    pred = {p} if isinstance(p, str) else set(p)
    ref = {r} if isinstance(r, str) else set(r)
    return 1.0 if pred and pred <= ref else 0.0


def muc4_subset(*, set_parent: Parents | None = None, type_similarity: Any = exact) -> Similarity:
    """MUC-4 with ``φ⊆`` for string fills (Du et al. 2021b; the paper's equation 32 with ``T = φ⊆``): a predicted
    string fill earns 1 when every predicted mention string is a mention of the reference entity, else 0."""
    filler = slot_filler(set_similarity=set_fill(set_parent), string_similarity=func(_subset_fill))
    return f1(match(_template(type_similarity, filler), "1:1"))


class BetterScore(float):
    """BETTER's Granular score (a float, the product), with its two factors.

    Attributes
    ----------
    type_score : MatchScore
        F1 of template types under the alignment.
    filler_score : MatchScore
        F1 over slot fillers under the same alignment (the MUC-4 form, equation 32).
    pairs : list of (int, int, float)
        The template alignment: (predicted index, reference index, filler credit).
    """

    type_score: MatchScore
    filler_score: MatchScore
    pairs: list[tuple[int, int, float]]

    def __new__(cls, type_score: MatchScore, filler_score: MatchScore,
                pairs: list[tuple[int, int, float]]) -> BetterScore:
        obj = super().__new__(cls, type_score.f1 * filler_score.f1)
        obj.type_score, obj.filler_score, obj.pairs = type_score, filler_score, pairs
        return obj

    def to_dict(self) -> dict[str, float]:
        return {"score": float(self), "type_f1": self.type_score.f1, "filler_precision": self.filler_score.precision,
                "filler_recall": self.filler_score.recall, "filler_f1": self.filler_score.f1,
                "filler_match": self.filler_score.match, "type_match": self.type_score.match,
                "pred_templates": self.type_score.pred_total, "gold_templates": self.type_score.gold_total,
                "pred_fillers": self.filler_score.pred_total, "gold_fillers": self.filler_score.gold_total}

    def __repr__(self) -> str:
        return (f"BetterScore({float(self):.6g} = type F1 {self.type_score.f1:.4f} x filler F1 "
                f"{self.filler_score.f1:.4f})")


def _f1_score(m: float, pred_total: float, gold_total: float, pairs: list[tuple[int, int, float]]) -> MatchScore:
    value = MatchScore(0.0, m, pred_total, gold_total, pairs).f1
    return MatchScore(value, m, pred_total, gold_total, pairs)


class _Better(Similarity):
    def __init__(self, type_similarity: Similarity, filler: Similarity):
        self.type_sim = type_similarity
        self.template = _template(type_similarity, filler)

    def __call__(self, pred: Any, gold: Any) -> BetterScore:
        p, g = _items(pred), _items(gold)
        fill = np.array([[self.template(a, b) for b in g] for a in p], dtype=float).reshape(len(p), len(g))
        typ = np.array([[self.type_sim(get_field(a, "type"), get_field(b, "type")) for b in g] for a in p],
                       dtype=float).reshape(len(p), len(g))
        pairs: list[tuple[int, int, float]] = []
        if fill.size:
            # best filler credit first; among alignments with that credit, the most type credit
            # (credit differences below 1e-6 are taken as ties)
            eta = 1e-6 / (1 + min(fill.shape))
            rows, cols = assign(fill + eta * typ, "1:1")
            pairs = [(int(i), int(j), float(fill[i, j])) for i, j in zip(rows, cols)]
        fm = sum(s for _, _, s in pairs)
        tm = float(sum(typ[i, j] for i, j, _ in pairs))
        fp = sum(self.template.self_score(a) for a in p)
        fg = sum(self.template.self_score(b) for b in g)
        return BetterScore(_f1_score(tm, float(len(p)), float(len(g)), pairs), _f1_score(fm, fp, fg, pairs), pairs)

    def self_score(self, x: Any) -> float:
        return 1.0

    def __repr__(self) -> str:
        return "better_score"


def better_score(*, filler_similarity: Any = None, type_similarity: Any = exact) -> Similarity:
    """BETTER Granular's score (appendix D): type F1 times slot-filler F1 under one alignment.

    .. math:: F_1\\Sigma_{templates}[\\delta(type)] \\cdot F_1\\Sigma_{templates}[\\delta(type) \\times
              \\Sigma_{fillers}[\\delta(slot) \\times \\phi_T]]

    The product is not a sum over aligned pairs, so, as the paper suggests, the alignment
    maximises the second factor (non-zero only for pairs whose types match); among the
    alignments that do, one with the most type credit is taken, so that two templates of
    one type with no filler in common still count for the first factor. Both factors are
    then read off that alignment. ``filler_similarity`` defaults to :func:`slot_filler`
    (MUC-4's ``φ_set``/``φ_str``); BETTER defines a ``φ_T`` per filler type.
    """
    filler = _as_similarity(filler_similarity, "filler_similarity") if filler_similarity is not None \
        else slot_filler()
    return _Better(_as_similarity(type_similarity, "type_similarity"), filler)
