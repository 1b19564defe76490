"""The standard metrics of information extraction, derived in the framework (sections 2.1 to 3.3, 6).

Each function returns a metric built only by composing :mod:`accord.structured`'s
similarities, matchings and normalizers; call it as ``metric(pred, gold)`` to get a
:class:`~accord.structured._matching.MatchScore` (a float with ``precision``, ``recall``,
``f1`` and the matched pairs). Records are read by field name, so dataclasses, named
tuples and dicts all work:

* a mention has ``left`` and ``right`` (both inclusive or both exclusive, as long as the two
  sides agree);
* a relation has ``type``, ``subj``, ``obj``; a dependency ``gov``, ``dep``, ``rel``;
* an event has ``trig`` (with ``mention`` and ``type``) and ``args`` (each with ``mention``
  and ``role``);
* a role-filler argument has ``role`` and ``entity`` (a collection of mentions).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from typing import Any, cast

from ..errors import OptionError
from ._matching import f1, match, precision, recall
from ._similarity import Similarity, exact, field, func, product, threshold

__all__ = ["mention", "relation_f1", "uas", "las", "event_trigger_f1", "event_argument_f1", "ceaf_ree",
           "ceaf_rme_subset", "ceaf_rme_phi3", "ceaf_ree_phi3", "ceaf_ree_phi4", "singleton_mentions", "token_f1",
           "head_word", "phi3", "phi4", "muc_link", "subset", "entity_sets", "ceaf_m", "ceaf_e", "muc_recall",
           "level_type_similarity", "ancestor_f1", "ancestor_chain", "Parents", "memberships", "bcub_recall",
           "bcub_precision", "span_iou", "scirex_mention", "scirex_entity", "scirex_f1", "event_argument_set_f1"]

mention: Similarity = product(left=exact, right=exact)
"""Exact offsets: ``δ(left) × δ(right)`` (equation 8)."""


def relation_f1(strict: bool = True) -> Similarity:
    """Relation F1 over sets of relations (equation 10).

    ``strict``: type and both argument mentions exact; otherwise *boundaries*: both
    argument mentions exact, the type ignored.
    """
    rel = product(type=exact, subj=mention, obj=mention) if strict else product(subj=mention, obj=mention)
    return f1(match(rel, "1:1"))


uas: Similarity = f1(match(product(gov=exact, dep=exact), "1:1"))
"""Unlabelled attachment score: F1 over edges on governor and dependent (equation 11)."""

las: Similarity = f1(match(product(gov=exact, dep=exact, rel=exact), "1:1"))
"""Labelled attachment score: governor, dependent and relation (equation 12)."""


def _trigger(classification: bool) -> Similarity:
    return product(mention=mention, type=exact) if classification else product(mention=mention)


def event_trigger_f1(classification: bool = True, *, trigger_field: str = "trig") -> Similarity:
    """Trigger F1 over sets of events (equation 15): mention exact, and the type when classifying."""
    return f1(match(field(trigger_field, _trigger(classification)), "1:1"))


def event_argument_f1(classification: bool = True, *, trigger_field: str = "trig") -> Similarity:
    """Argument F1 over sets of events (equation 16): matched arguments of events whose triggers match.

    The event similarity is ``trig × Σ↔args[mention × role]`` (an unnormalized count of
    matched arguments), so the F1 counts arguments, not events. Identification drops the
    role (the trigger's type is kept, as the convention is that an argument needs a
    correct trigger).
    """
    arg = product(mention=mention, role=exact) if classification else product(mention=mention)
    return f1(match(product(**{trigger_field: _trigger(True)}, args=match(arg, "1:1")), "1:1"))


# ---------------------------------------------------------------------------- entities
def _mentions(x: Any) -> set[Hashable]:
    items = x.mentions if hasattr(x, "mentions") else x
    if isinstance(items, Mapping) and "mentions" in items:
        items = items["mentions"]
    try:
        return {_key(m) for m in items}
    except TypeError:
        raise OptionError(f"an entity must be a collection of mentions, got {x!r}") from None


def _key(m: Any) -> Hashable:
    if isinstance(m, Mapping):
        return (m["start"], m["end"]) if "start" in m else (m["left"], m["right"])
    if hasattr(m, "left") and hasattr(m, "right"):
        return (m.left, m.right)
    return m if isinstance(m, Hashable) else tuple(m)


def _phi3(p: Any, r: Any) -> float:
    return float(len(_mentions(p) & _mentions(r)))


def _phi4(p: Any, r: Any) -> float:
    a, b = _mentions(p), _mentions(r)
    return 2 * len(a & b) / (len(a) + len(b)) if a or b else 0.0


def _subset(p: Any, r: Any) -> float:
    a = _mentions(p)
    return 1.0 if a and a <= _mentions(r) else 0.0


def _muc_link(p: Any, r: Any) -> float:
    return float(max(0, len(_mentions(p) & _mentions(r)) - 1))


phi3: Similarity = func(_phi3, normalized=False)
"""CEAF's ``φ3(P, R) = |P ∩ R|``, unnormalized (equation 17)."""
phi4: Similarity = func(_phi4)
"""CEAF's ``φ4(P, R) = 2|P ∩ R| / (|P| + |R|)`` (equation 18)."""
muc_link: Similarity = func(_muc_link, normalized=False)
"""MUC's shared links ``max(0, |P ∩ R| - 1)`` (equation 21)."""
subset: Similarity = func(_subset)
"""``φ⊆(P, R) = [∅ ≠ P ⊆ R]`` (equation 25)."""

ceaf_m: Similarity = f1(match(phi3, "1:1"))
"""CEAFm over sets of entities: precision and recall of ``Σ↔[φ3]``."""
ceaf_e: Similarity = f1(match(phi4, "1:1"))
"""CEAFe over sets of entities (equation 19)."""
muc_recall: Similarity = f1(match(muc_link, "N:N"))
"""MUC over sets of entities (equation 22): ``.recall`` and ``.precision`` are MUC's (over
the shared links; a mention missing from the other side counts as its own part)."""


def memberships(entities: Collection[Collection[Hashable]]) -> list[dict[str, Any]]:
    """B-cubed's data structure (section 3.2): one ``{"mention", "entity"}`` record per mention,
    the entity being the frozenset of its mentions."""
    out: list[dict[str, Any]] = []
    for e in entities:
        members = frozenset(_mentions(e))
        out.extend({"mention": m, "entity": members} for m in members)
    return out


bcub_recall: Similarity = recall(match(product(mention=exact, entity=recall(match(exact))), "1:1"))
"""B-cubed recall over :func:`memberships` (equation 23): each reference mention scores the
share of its reference entity found in the predicted entity holding it."""
bcub_precision: Similarity = precision(match(product(mention=exact, entity=precision(match(exact))), "1:1"))
"""B-cubed precision over :func:`memberships` (equation 24), the sides' roles swapped."""


def ceaf_ree() -> Similarity:
    """CEAF-REE (Du et al., 2021, equation 26): 1:1 role-filler entities, role exact and ``φ⊆``."""
    return f1(match(product(role=exact, entity=subset), "1:1"))


def ceaf_ree_phi3() -> Similarity:
    """CEAF-REE with ``φ3`` for the entities (the paper's partial-credit variant, section 6): 1:1, role exact."""
    return f1(match(product(role=exact, entity=phi3), "1:1"))


def ceaf_ree_phi4() -> Similarity:
    """CEAF-REE with ``φ4`` for the entities: 1:1, role exact."""
    return f1(match(product(role=exact, entity=phi4), "1:1"))


def _token_f1(p: Any, r: Any) -> float:
    (ps, pe), (rs, re_) = _bounds(p), _bounds(r)
    inter = max(0, min(pe, re_) - max(ps, rs))
    return 2 * inter / ((pe - ps) + (re_ - rs)) if (pe - ps) + (re_ - rs) else 0.0


token_f1: Similarity = func(_token_f1)
"""Token F1 of two half-open mention spans (SQuAD's overlap credit on token indices):
``2 |P ∩ R| / (|P| + |R|)``, 0 when both are empty."""


def _head(m: Any) -> Any:
    if isinstance(m, Mapping) and "head" in m:
        return m["head"]
    if isinstance(m, (tuple, list)) and len(m) == 3:
        return m[2]
    raise OptionError(f"a head-word mention needs a head: {{'start', 'end', 'head'}} or (start, end, head); "
                      f"got {m!r}")


def _same_head(p: Any, r: Any) -> float:
    return 1.0 if _head(p) == _head(r) else 0.0


head_word: Similarity = func(_same_head)
head_word.__doc__ = """Head-word match of two mentions: 1 when they have the same head, else 0.

A mention is ``{"start": s, "end": e, "head": h}`` or ``(s, e, h)``, ``h`` its head's token index (or the head word
itself). Chen et al. (2023, section 6, "Partial Credit") name head-word matching among the "more relaxed mention
similarities" than exact match, for mentions whose extent annotators disagree on; use it where
:data:`mention` would demand the same span::

    from accord import structured as S
    relation = S.product(type=S.exact, arg1=S.head_word, arg2=S.head_word)
    S.f1(S.match(relation, "1:1"))(predicted, gold)

A mention without a head is an :class:`~accord.errors.OptionError`.
"""


def singleton_mentions(records: Sequence[Any]) -> list[dict[str, Any]]:
    """Predicted role-filler entities as singleton entities, one per mention (CEAF-RME, equations 27 and 28:
    "predicted mentions as singleton entities"), each keeping its role."""
    return [{**r, "entity": (m,)} for r in records for m in r["entity"]]


def ceaf_rme_subset() -> Similarity:
    """CEAF-RME with ``φ⊆`` (Chen et al., 2023, equation 27): predicted mentions as singleton
    entities, each matched to at most one reference entity (``N:1``).

    A mention that fits several reference entities equally well goes where it credits the
    reference side most (see :func:`accord.structured._matching._one_sided`), so a key scored
    against itself is 1 even when it repeats an entity. IterX's script credits the first such
    entity in file order; the two agree when each mention lies in one entity of its role."""
    return f1(match(product(role=exact, entity=subset), "N:1"))


def ceaf_rme_phi3() -> Similarity:
    """CEAF-RME with ``φ3`` (equation 28), ``N:1``, each reference entity's credit capped at its
    number of mentions. IterX's script pairs entities one to one for ``φ3`` (a reference entity
    earns one predicted mention at most); the two agree when no entity receives two."""
    return f1(match(product(role=exact, entity=phi3), "N:1"))


# ---------------------------------------------------------------------------- SciREX
def _bounds(m: Any) -> tuple[int, int]:
    try:
        span: Any = _key(m)   # a (start, end) pair, or the error below
        s, e = span
        return int(s), int(e)
    except (TypeError, ValueError, KeyError):
        raise OptionError(f"a mention must be a (start, end) span, got {m!r}") from None


def _span_iou(p: Any, r: Any, inclusive: bool = False) -> float:
    (ps, pe), (rs, re_) = _bounds(p), _bounds(r)
    if inclusive:
        pe, re_ = pe + 1, re_ + 1
    inter = min(pe, re_) - max(ps, rs)
    if inter <= 0:
        return 0.0
    return inter / ((pe - ps) + (re_ - rs) - inter)


span_iou: Similarity = func(_span_iou)
"""Jaccard of the token index sets of two half-open spans ``[start, end)``:
``|P ∩ R| / |P ∪ R|``, equal to ``jaccard(match(exact))(range(*p), range(*r))`` computed
from the bounds."""


def scirex_mention(*, inclusive: bool = False) -> Similarity:
    """SciREX's mention match (equation 29): ``⟦Jaccard(indices) > 0.5⟧``.

    Spans are half-open ``[start, end)`` as SciREX writes them, or inclusive with
    ``inclusive=True``.
    """
    iou = span_iou if not inclusive else func(lambda p, r: _span_iou(p, r, True))
    return threshold(iou, 0.5)


def scirex_entity(*, inclusive: bool = False, role_field: str = "role") -> Similarity:
    """SciREX's role-filler entity match (equation 30): same role, and more than half of the
    predicted entity's mentions match one of the reference entity's mentions.

    ``⟦role⟧ × ⟦precision↔[N:1][Mention](mentions) > 0.5⟧``. The N:1 matching lets every
    predicted mention find a reference mention on its own, as SciREX maps each predicted
    span to the first gold span it overlaps by more than half.
    """
    ment = threshold(precision(match(scirex_mention(inclusive=inclusive), "N:1")), 0.5)
    return product(**{role_field: exact, "mentions": ment})


def scirex_f1(*, inclusive: bool = False, role_field: str = "role") -> Similarity:
    """The SciREX n-ary relation F1 (equations 29 to 31, Jain et al., 2020).

    A relation is a record with ``args``, a collection of role-filler entities (``role``
    and ``mentions``); two relations match when every argument matches,
    ``⟦F1↔[1:1][RFE](args) = 1⟧``, and relations are matched 1:1 and scored by F1.
    """
    rfe = scirex_entity(inclusive=inclusive, role_field=role_field)
    nary = field("args", threshold(f1(match(rfe, "1:1")), 1.0, inclusive=True))
    return f1(match(nary, "1:1"))


# ---------------------------------------------------------------------------- hierarchy
def level_type_similarity(depth: int) -> Similarity:
    """Level-based partial credit for hierarchical types (equation 38).

    Types are sequences of levels ``(t1, ..., tD)`` from the most general; ``d`` is the
    length of the longest common prefix (the depth of the most specific correct type) and
    the similarity is ``2^(d - D)`` when ``d > 0``, else 0.
    """
    if depth < 1:
        raise OptionError(f"depth must be at least 1, got {depth}")

    def sim(p: Sequence[Any], r: Sequence[Any]) -> float:
        d = 0
        for a, b in zip(p, r):
            if a != b:
                break
            d += 1
        d = min(d, depth)
        return 2.0 ** (d - depth) if d > 0 else 0.0

    return func(sim)


Parents = Mapping[Hashable, Hashable | None] | Callable[[Hashable], Hashable | None]
"""A hierarchy: a mapping or a function giving a value's parent, ``None`` at a root."""


def ancestor_chain(value: Hashable, parent: Parents) -> list[Hashable]:
    """``value`` followed by its ancestors, nearest first; a cycle is an :class:`OptionError`."""
    get = parent.get if isinstance(parent, Mapping) else parent
    out: list[Hashable] = []
    seen: set[Hashable] = set()
    t: Hashable | None = value
    while t is not None:
        if t in seen:
            raise OptionError(f"the hierarchy has a cycle through {t!r}")
        seen.add(t)
        out.append(t)
        t = get(t)
    return out


def ancestor_f1(parent: Parents) -> Similarity:
    """F1 of the ancestor sets of two types (equation 39): ``F1↔[δ](A(P), A(R))``.

    ``A(t)`` is ``t`` and all its ancestors, following ``parent`` (a mapping or a function
    giving the parent type, ``None`` at a root). A cycle is an error.
    """
    inner = f1(match(exact, "1:1"))
    return func(lambda p, r: float(inner(ancestor_chain(p, parent), ancestor_chain(r, parent))))


def entity_sets(clusters: Collection[Collection[Sequence[int]]]) -> list[frozenset[tuple[int, int]]]:
    """Coreference clusters as entities (frozensets of ``(start, end)`` mentions) for the metrics above."""
    return [frozenset((int(s), int(e)) for s, e in c) for c in clusters]


# ---------------------------------------------------------------------------- TextEE's argument sets
class _ArgumentSet(Similarity):
    """Arguments of two lists of events as sets of tuples, scored ``F1↔[1:1][δ]`` (TextEE's scorer)."""

    normalized = True

    def __init__(self, attached: bool, classification: bool, trigger_field: str):
        self.attached, self.classification, self.trigger_field = attached, classification, trigger_field
        self.inner = f1(match(exact, "1:1"))

    def tuples(self, events: Any) -> list[tuple[Any, ...]]:
        out: set[tuple[Any, ...]] = set()
        for e in events:
            trig = e[self.trigger_field]
            head = (tuple(cast("Iterable[Any]", _key(trig["mention"]))), trig["type"]) if self.attached else (
                trig["type"],)
            for a in e["args"]:
                out.add(head + (tuple(cast("Iterable[Any]", _key(a["mention"]))),)
                        + ((a["role"],) if self.classification else ()))
        return sorted(out, key=repr)

    def __call__(self, pred: Any, gold: Any) -> float:
        return self.inner(self.tuples(pred), self.tuples(gold))

    def __repr__(self) -> str:
        return f"argument_set(attached={self.attached}, classification={self.classification})"


def event_argument_set_f1(classification: bool = True, *, attached: bool = True,
                          trigger_field: str = "trig") -> Similarity:
    """Argument F1 as TextEE's scorer counts it: each side's arguments a *set* of tuples (a repeated argument
    counts once), matched exactly.

    ``attached``: an argument is ``(trigger mention, trigger type, argument mention[, role])`` (TextEE's
    ``argument_attached_*``); otherwise ``(trigger type, argument mention[, role])``, found under any trigger of
    the right type (TextEE's Arg-I and Arg-C). ``classification`` keeps the role.
    """
    return _ArgumentSet(attached, classification, trigger_field)
