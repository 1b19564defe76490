"""Scoring a block of spanless annotations once per pair of shapes, not once per pair.

A relation's implied span reaches over its arguments, so the relations of a document
overlap one another and fall into one block: every gold relation is compared with every
predicted one. Most of those pairs point to annotations that were not paired with each
other in an earlier stratum, and then the similarity cannot tell one such pair from another
of the same *shapes*: what it reads of each side is its labels, its non-annotation
attribute values and how many annotation values each attribute holds (an annotation
value whose target was not paired with the other side's scores 0 whatever the target);
spans only through whether the implied spans overlap.

:func:`spanless_block_scores` therefore

1. gives each annotation a shape code (scoring label, true label, attribute names with
   their values, annotation targets replaced by a marker; equal shapes share a code);
2. finds the *linked* pairs, those where a target of the gold annotation was paired with a
   target of the predicted one (through the partner index of the context: cost in
   proportion to the references, not to the pairs);
3. calls the similarity on one representative of each (gold shape, predicted shape,
   implied spans overlap) combination of the others, and gives the representative's score
   to its whole combination; linked pairs are told apart further by the score each pair
   (gold target, predicted target) received (one call per such combination too), except
   where a set or list holds targets (one call per pair).

The matrix is the one a call on every pair gives, value for value, so the assignment and
its tie-breaking do not change. Similarities promise this property with
:attr:`~accord.match.similarity.Similarity.by_shape`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from itertools import chain, repeat
from operator import is_, is_not, itemgetter
from typing import Any

import numpy as np

from .._support.arrays import Bools, Floats, Int64s
from ..model import SCALAR_TYPES, Annotation, is_aggregate
from .similarity import Context, Shape, Similarity

__all__ = ["shape_of", "spanless_block_scores", "pair_scores"]

Tokens = tuple[tuple[str, ...], tuple[str, ...]]
Result = tuple[float, tuple[str, ...], tuple[str, ...]]


def _value_shape(value: Any) -> Hashable:
    if isinstance(value, Annotation):
        return _TARGET
    if isinstance(value, frozenset):
        targets = sum(1 for v in value if isinstance(v, Annotation))
        return ("set", targets, frozenset(v for v in value if not isinstance(v, Annotation)))
    if is_aggregate(value):
        return ("list", tuple(_value_shape(v) for v in value))
    return ("v", type(value).__name__, value)


_TARGET = ("@",)


def shape_of(ann: Annotation, label: str) -> Shape:
    """What a similarity reads of a spanless annotation besides its targets' pairing: the scoring label, the true
    label, and the attributes in their order (annotation targets as a marker, sets of them by their count)."""
    return (label, ann.label, ann.start is None,
            tuple((name, _value_shape(v)) for name, v in ann.attributes.items()))


_PLAIN = object()
"""Marks the key of an annotation whose values are all plain scalars: its attribute items as they are (values
equal under ``==``, such as ``1`` and ``True``, score alike: the similarities compare values with ``==``)."""


_TARGETS_ONLY = object()
"""Marks the key of an annotation whose values are all annotations: its scoring and true labels, whether it is
spanless and its attribute names (its shape, :func:`shape_of`, is made of those alone)."""
_TARGET_TYPE = {Annotation}


def _codes(anns: Sequence[Annotation], labels: Sequence[str], ctx: Context) -> Int64s | None:
    """The shape code of each annotation (None when a value is unhashable: no shapes). The annotations whose
    attributes object already has a code (readers share one object between rows of equal scalar values) are looked
    up at once: one ``map`` over their keys (scoring label, true label, spanless, ``id`` of the attributes)."""
    shared = ctx.shared_codes
    keys = list(zip(labels, map(_LABEL, anns), map(is_, map(_START, anns), repeat(None)),
                    map(id, map(_ATTRIBUTES, anns))))
    out = list(map(shared.get, keys))
    if None not in out:
        return np.array(out, dtype=np.int64)
    # the others: one call per key (annotations of one key have one shape: their labels and attributes object)
    computed: dict[tuple[str, str, bool, int], int] = {}
    for k in [k for k, code in enumerate(out) if code is None]:
        key = keys[k]
        if key not in computed:
            code = _code(anns[k], labels[k], key, ctx)
            if code is None:
                return None
            computed[key] = code
    # (``computed.get(key, code)``: the key's new code where it had none; a key has a code in one of the two)
    return np.fromiter(map(computed.get, keys, out), np.int64, len(keys))


def _code(a: Annotation, lbl: str, by_object: tuple[str, str, bool, int], ctx: Context) -> int | None:
    """The shape code of one annotation, kept by its ``id`` (and by its attributes object when its values are all
    scalars); None for an unhashable value."""
    known, codes, shared = ctx.shapes, ctx.shape_codes, ctx.shared_codes
    code = known.get(id(a))
    if code is not None:
        return code
    attrs = a.attributes
    code = shared.get(by_object)
    if code is None:
        types = set(map(type, attrs.values()))
        if types == _TARGET_TYPE:   # every value an annotation (a relation): the shape is in the names
            targets_only = (_TARGETS_ONLY, lbl, a.label, a.start is None, tuple(attrs))
            code = codes.get(targets_only)
            if code is None:
                code = codes[targets_only] = codes.setdefault(shape_of(a, lbl), len(codes))
            known[id(a)] = code
            return code
        items = tuple(attrs.items())
        try:
            if SCALAR_TYPES.issuperset(types):
                plain = (_PLAIN, lbl, a.label, a.start is None, items)
                code = codes.get(plain)
                if code is None:
                    code = codes[plain] = codes.setdefault(shape_of(a, lbl), len(codes))
                shared[by_object] = code
            else:   # (a key with a target is never among the plain ones: straight to its shape)
                hash(items)
                code = codes.setdefault(shape_of(a, lbl), len(codes))
        except TypeError:   # an unhashable attribute value given through the Python API: no shapes
            return None
    known[id(a)] = code
    return code


_LABEL = itemgetter(0)
_START = itemgetter(1)
_END = itemgetter(2)
_ATTRIBUTES = itemgetter(3)
_FRAGMENTS = itemgetter(5)


def _linked(gold: Sequence[Annotation], pred: Sequence[Annotation], ctx: Context) -> Bools:
    """Pairs (row, column) where a target of the gold annotation was paired with a target of the predicted one."""
    columns_of: dict[int, list[int]] = {}
    for y, h in enumerate(pred):
        for t in h.referenced():
            columns_of.setdefault(id(t), []).append(y)
    linked = np.zeros((len(gold), len(pred)), dtype=bool)
    if not columns_of:
        return linked
    partners = ctx.partner_index()
    rows: list[int] = []
    cols: list[int] = []
    for x, r in enumerate(gold):
        for t in r.referenced():
            for pid in partners.get(id(t), ()):
                ys = columns_of.get(pid)
                if ys:
                    rows.extend([x] * len(ys))
                    cols.extend(ys)
    if rows:     # set at once: one numpy call per block, not per target
        linked[rows, cols] = True
    return linked


def _implied(anns: Sequence[Annotation], ctx: Context
             ) -> tuple[Bools, Int64s, Int64s]:
    spans = [ctx.implied(a) for a in anns]
    has = np.fromiter((s is not None for s in spans), bool, len(spans))
    arr = np.array([s if s is not None else (0, 0) for s in spans], dtype=np.int64).reshape(-1, 2)
    return has, arr[:, 0], arr[:, 1]


def _apart(gold: Sequence[Annotation], pred: Sequence[Annotation], ctx: Context, *, every_pair: bool = True
           ) -> Bools:
    """Whether the implied spans of a gold and a predicted annotation both exist and do not overlap (two equal
    empty spans overlap): for every pair (a matrix), or with ``every_pair=False`` for ``gold[k]``, ``pred[k]``."""
    g_has, gs, ge = _implied(gold, ctx)
    p_has, ps, pe = _implied(pred, ctx)
    if every_pair:
        g_has, gs, ge = g_has[:, None], gs[:, None], ge[:, None]
    disjoint = (ge <= ps) | (gs >= pe)
    same_point = (gs == ge) & (ps == pe) & (gs == ps)
    apart: Bools = g_has & p_has & disjoint & ~same_point
    return apart


def _text_defaults(ctx: Context) -> bool:
    """Whether the task gives an attribute the text of the span as its default (then a value depends on where the
    annotation is, not on its shape alone)."""
    task = ctx.task
    return task is not None and any(a.default_is_text_span for spec in task.labels.values()
                                    for a in spec.attributes.values())


def pair_scores(similarity: Similarity, gold: Sequence[Annotation], pred: Sequence[Annotation],
                gold_labels: Sequence[str], pred_labels: Sequence[str], ctx: Context) -> list[Result] | None:
    """``similarity(gold[k], pred[k], ctx)`` for every k, one call per combination of the two shapes and of the
    geometry of the two spans (the offsets of the starts and of the ends from each other and the gold width,
    which decide overlap, its ratio and its error tokens; for spanless annotations whether their implied spans
    are apart), and one call per pair whose targets were paired with each other.

    None when the pairs cannot be scored so (a similarity that does not promise ``by_shape``, spanned and
    spanless annotations together, a task whose defaults depend on the text, an unhashable value)."""
    n = len(gold)
    if not similarity.by_shape or n == 0:
        return None
    spanless = gold[0].start is None
    # (each test one C pass over the annotations)
    if any(map(is_not, map(is_, map(_START, chain(gold, pred)), repeat(None)), repeat(spanless))):
        return None
    if not spanless and (_text_defaults(ctx) or any(map(is_not, map(_FRAGMENTS, chain(gold, pred)), repeat(None)))):
        return None     # (the geometry of a discontinuous span is more than its extent)
    g_codes = _codes(gold, gold_labels, ctx)
    p_codes = _codes(pred, pred_labels, ctx)
    if g_codes is None or p_codes is None:
        return None
    if spanless:
        geometry = [_apart(gold, pred, ctx, every_pair=False).astype(np.int64)]
    else:
        gs = np.fromiter(map(_START, gold), np.int64, n)
        ge = np.fromiter(map(_END, gold), np.int64, n)
        ps = np.fromiter(map(_START, pred), np.int64, n)
        pe = np.fromiter(map(_END, pred), np.int64, n)
        geometry = [gs - ps, ge - pe, ge - gs]
    linked = _linked_pairs(gold, pred, ctx)
    known = ctx.by_shape
    out: list[Result] = []
    keys = list(zip(g_codes.tolist(), p_codes.tolist(), *(g.tolist() for g in geometry)))
    if not linked:     # (the first stratum: the entities) every pair by its key, the keys not known yet called once
        got_all: list[Result | None] = list(map(known.get, keys))
        if None in got_all:
            for k in [k for k, got in enumerate(got_all) if got is None]:
                got = known.get(keys[k])
                if got is None:
                    got = known[keys[k]] = similarity(gold[k], pred[k], ctx)
                got_all[k] = got
        return got_all  # type: ignore[return-value]  # every None was filled in
    for k, key in enumerate(keys):
        if k in linked:
            out.append(_linked_score(similarity, gold[k], pred[k], key, ctx))
            continue
        got = known.get(key)
        if got is None:
            got = known[key] = similarity(gold[k], pred[k], ctx)
        out.append(got)
    return out


def _single_targets(ann: Annotation) -> list[Annotation] | None:
    """The targets of an annotation in the order of its attributes; None when a set or list holds targets."""
    out = []
    for v in ann.attributes.values():
        if isinstance(v, Annotation):
            out.append(v)
        elif is_aggregate(v) and any(isinstance(x, Annotation) for x in v):
            return None
    return out


def _linked_score(similarity: Similarity, r: Annotation, h: Annotation, key: Shape, ctx: Context) -> Result:
    """The similarity of a linked pair: what it reads of the pairs of earlier strata is the score of each pair
    (gold target, predicted target), so pairs of the same shapes and geometry whose targets were paired alike
    score alike. Targets in sets or lists are called pair by pair (the order of a set is not the same twice)."""
    r_targets, h_targets = _single_targets(r), _single_targets(h)
    if r_targets is None or h_targets is None:
        return similarity(r, h, ctx)
    paired = ctx.paired
    link = tuple(paired.get((id(a), id(b))) for a in r_targets for b in h_targets)
    full = (key, link)
    known = ctx.by_shape
    got = known.get(full)
    if got is None:
        got = known[full] = similarity(r, h, ctx)
    return got


def _linked_pairs(gold: Sequence[Annotation], pred: Sequence[Annotation], ctx: Context) -> set[int]:
    """The k where a target of ``gold[k]`` was paired with a target of ``pred[k]``."""
    linked: set[int] = set()
    if not ctx.paired:     # nothing paired before (the first stratum: the entities): no pair is linked
        return linked
    partners = None
    for k, (r, h) in enumerate(zip(gold, pred)):
        if not r.attributes or not h.attributes:
            continue
        r_targets = [id(t) for t in r.referenced()]
        if not r_targets:
            continue
        h_targets = {id(t) for t in h.referenced()}
        if not h_targets:
            continue
        if partners is None:
            partners = ctx.partner_index()
        if any(pid in h_targets for t in r_targets for pid in partners.get(t, ())):
            linked.add(k)
    return linked


def spanless_block_scores(similarity: Similarity, gold: Sequence[Annotation], pred: Sequence[Annotation],
                          gold_labels: Sequence[str], pred_labels: Sequence[str], ctx: Context
                          ) -> tuple[Floats, Callable[[int, int], Tokens]] | None:
    """The similarity matrix of a block of spanless annotations (zero where a pair is not kept) and the error
    tokens of any cell, computed by shape as the module says; None when the block cannot be (an annotation with a
    span, an unhashable value, a similarity that does not promise ``by_shape``)."""
    if not similarity.by_shape or any(a.start is not None for a in gold) or any(a.start is not None for a in pred):
        return None
    g_codes = _codes(gold, gold_labels, ctx)
    p_codes = _codes(pred, pred_labels, ctx)
    if g_codes is None or p_codes is None:
        return None
    keep_clash = similarity.clash
    m = np.zeros((len(gold), len(pred)))
    tokens: dict[tuple[int, int], Tokens] = {}
    linked = _linked(gold, pred, ctx)
    apart_all = _apart(gold, pred, ctx)
    link_x, link_y = np.nonzero(linked)
    apart_linked = apart_all[link_x, link_y].tolist() if len(link_x) else []
    for x, y, apart_xy in zip(link_x.tolist(), link_y.tolist(), apart_linked):
        s, rt, ht = _linked_score(similarity, gold[x], pred[y], (int(g_codes[x]), int(p_codes[y]), apart_xy), ctx)
        if s > 0 and (keep_clash or s >= 1.0):
            m[x, y] = s
            tokens[(x, y)] = (rt, ht)
    free_x, free_y = np.nonzero(~linked)
    combo_tokens: list[Tokens] = []
    combo = np.full(m.shape, -1, dtype=np.int64)
    if len(free_x):
        apart = apart_all[free_x, free_y]
        width = int(p_codes.max()) + 1
        key = (g_codes[free_x] * width + p_codes[free_y]) * 2 + apart
        _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
        values = np.zeros(len(first))
        known = ctx.by_shape
        for u, k in enumerate(first.tolist()):
            x, y = int(free_x[k]), int(free_y[k])
            memo_key = (int(g_codes[x]), int(p_codes[y]), int(apart[k]))
            got = known.get(memo_key)
            if got is None:
                got = known[memo_key] = similarity(gold[x], pred[y], ctx)
            s, rt, ht = got
            if s > 0 and (keep_clash or s >= 1.0):
                values[u] = s
            combo_tokens.append((rt, ht))
        inverse = inverse.reshape(-1)
        m[free_x, free_y] = values[inverse]
        combo[free_x, free_y] = inverse

    def tokens_of(x: int, y: int) -> Tokens:
        got = tokens.get((x, y))
        return got if got is not None else combo_tokens[combo[x, y]]

    return m, tokens_of
