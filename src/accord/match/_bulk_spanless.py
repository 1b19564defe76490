"""The last spanless group of every document (a task's relations, most often) paired for all documents at once.

:meth:`~accord.match.engine.Pairer.align` pairs a document's groups in order; the last group, when it is spanless,
is left to :func:`pair_deferred`, called once for all the documents of a batch: their implied spans are cut into
blocks by one sort (each document's positions shifted past the previous document's, so that blocks never cross
documents), the shape codes of every annotation are computed in one pass, the geometry of every block (whether
the implied spans of a row and a column are apart) is one array operation, and the similarity of the
pairs whose targets were not paired with each other is read from a table indexed by (gold shape, predicted shape,
apart), filled once per combination the corpus holds. What stays per block is what decides its pairs: the rows
and columns in the canonical order of their content keys, the linked pairs (a target of the row paired with a
target of the column, :func:`~accord.match.shapes._linked`) scored one by one, and the assignment.

The pairs, their order in each document, their similarities, error tokens and ties are those of
:meth:`~accord.match.engine.Pairer._pair_group` (``tests/fuzz/test_bulk_spanless.py`` checks both ways on random
corpora): the same matrices in the same row and column order go to the same :func:`~accord.match.assign.assign`.
A document whose group has an annotation with a span or without an implied span, or a corpus whose shapes cannot
be coded (an unhashable value), is paired by :meth:`~accord.match.engine.Pairer._pair_group` as before.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import chain, compress, repeat
from operator import invert, is_, itemgetter
from typing import TYPE_CHECKING, Any

import numpy as np

from .._support.arrays import Floats, Index, Int64s
from ..model import Annotation
from ._content import target_text
from ._records import CLASH, MATCH, Pair
from .assign import assign_by_content
from .blocks import overlap_blocks
from .shapes import _code, _codes, _linked, _linked_score, _single_targets, spanless_block_scores
from .similarity import Context, Shape
from .similarity import Result as SimilarityResult
from .sparse import DENSE_LIMIT

if TYPE_CHECKING:
    from .engine import DocumentAlignment, Pairer

__all__ = ["Deferred", "pair_deferred"]

Deferred = tuple["DocumentAlignment", list[Annotation], list[Annotation], Index, Index, Context]
"""A document's last spanless group left by ``align``: its alignment, annotations, the group's gold and predicted
indices, and the document's context (the pairs of its earlier groups)."""

Tokens = tuple[tuple[str, ...], tuple[str, ...]]

Names = tuple[tuple[str, ...], tuple[str, ...]] | tuple[()]
"""Of a relation's attribute names (in their order): the names sorted and the head of each one's part of its
attribute content (``('arg1', ``); ``()`` for names that are not all strings."""

SAME_NAMES_FROM = 12
"""Blocks of at least this many relations on a side have their content keys put together a column at a time
(:func:`_same_relations`; below it, the passes cost more than they save: 40k annotations of the benchmark, 11.5 M
instructions fewer than without them and 18.8 M fewer than with them on every block)."""

TABLE_CELLS = 1 << 22
"""The largest (gold shape, predicted shape, apart) table; with more shapes, blocks use
:func:`~accord.match.shapes.spanless_block_scores`."""


def pair_deferred(pairer: Pairer, items: Sequence[Deferred], content_key: Callable[..., Any]) -> None:
    """Pair the deferred groups of many documents, recording the pairs in each document's alignment.

    ``content_key`` is the engine's sort key of an annotation by content, which orders a block's rows and columns
    as the engine orders them."""
    ready: list[tuple[Deferred, Int64s, Int64s]] = []
    g_parts: list[list[Annotation]] = []
    p_parts: list[list[Annotation]] = []
    for item in items:
        out, gold, pred, gi, pi, ctx = item
        g_anns = list(map(gold.__getitem__, gi.tolist()))
        gsp = _spans(g_anns, ctx.implied)
        psp = None
        if gsp is not None:
            p_anns = list(map(pred.__getitem__, pi.tolist()))
            psp = _spans(p_anns, ctx.implied)
        if gsp is None or psp is None:
            pairer._pair_group(gold, pred, gi, pi, False, ctx, out)
        else:
            ready.append((item, gsp, psp))
            g_parts.append(g_anns)
            p_parts.append(p_anns)
    if not ready:
        return
    bulk = Context(pairer.label, pairer.task, shape_codes=pairer._shape_codes, by_shape=pairer._by_shape)
    g_flat = list(chain.from_iterable(g_parts))
    p_flat = list(chain.from_iterable(p_parts))
    g_labels = [lbl for (o, _, _, gi, _, _), _, _ in ready for lbl in map(o.gold_label.__getitem__, gi.tolist())]
    p_labels = [lbl for (o, _, _, _, pi, _), _, _ in ready for lbl in map(o.pred_label.__getitem__, pi.tolist())]
    g_codes = _group_codes(g_flat, g_labels, bulk)
    p_codes = _group_codes(p_flat, p_labels, bulk)
    if g_codes is None or p_codes is None:
        for (out, gold, pred, gi, pi, ctx), _, _ in ready:
            pairer._pair_group(gold, pred, gi, pi, False, ctx, out)
        return
    _pair_ready(pairer, ready, g_codes, p_codes, content_key)


def _spans(anns: list[Annotation], implied: Callable[[Annotation], tuple[int, int] | None]) -> Int64s | None:
    """The implied span (``implied``, :meth:`~accord.match.similarity.Context.implied`) of each annotation of a
    spanless group, as rows (start, end); None when one has a span or has no implied span (the group is then paired
    by :meth:`~accord.match.engine.Pairer._pair_group`). When every annotation is a relation whose values are all
    spanned annotations, each one's span is the extent of its targets (what
    :func:`~accord.match.similarity.implied_span` gives it), taken for the group at once: the targets' starts and
    ends in one list each, reduced by relation in numpy."""
    if not anns:
        return np.zeros((0, 2), dtype=np.int64)
    if _all_relations(anns):
        attrs = list(map(_ATTRIBUTES, anns))
        targets = list(chain.from_iterable(map(dict.values, attrs)))
        starts = list(map(_START, targets))
        ends = list(map(_END, targets))
        if None not in starts and None not in ends:
            at = np.zeros(len(anns), dtype=np.intp)
            np.cumsum(np.fromiter(map(len, attrs), np.intp, len(attrs))[:-1], out=at[1:])
            out = np.empty((len(anns), 2), dtype=np.int64)
            out[:, 0] = np.minimum.reduceat(np.array(starts, dtype=np.int64), at)
            out[:, 1] = np.maximum.reduceat(np.array(ends, dtype=np.int64), at)
            return out
    spans = []
    for a in anns:
        if a.start is not None:
            return None
        got = implied(a)
        if got is None:
            return None
        spans.append(got)
    return np.array(spans, dtype=np.int64).reshape(-1, 2)


def _all_relations(anns: list[Annotation]) -> bool:
    """Whether every annotation is spanless and has attributes, all of whose values are annotations (checked in C
    passes over the group)."""
    attrs = list(map(_ATTRIBUTES, anns))
    return (all(map(is_, map(_START, anns), repeat(None))) and 0 not in map(len, attrs)
            and _TARGET_TYPE.issuperset(map(type, chain.from_iterable(map(dict.values, attrs)))))


def _group_codes(anns: list[Annotation], labels: list[str], ctx: Context) -> Int64s | None:
    """:func:`~accord.match.shapes._codes` of a group. When every annotation is a spanless relation (every value an
    annotation: its shape is its labels and attribute names, :func:`~accord.match.shapes._code`), the codes are
    looked up by those, ``_code`` called once per distinct one in the order of their first annotations (which
    numbers the codes as ``_codes`` numbers them); otherwise the general ``_codes``."""
    if not anns or not _all_relations(anns):
        return _codes(anns, labels, ctx)
    attrs = list(map(_ATTRIBUTES, anns))
    keys = list(zip(labels, map(_LABEL, anns), map(tuple, attrs)))
    first = dict(zip(reversed(keys), range(len(keys) - 1, -1, -1)))    # each key's first annotation
    code_of = {}
    for key, k in sorted(first.items(), key=_SECOND):
        code = _code(anns[k], labels[k], (labels[k], key[1], True, id(attrs[k])), ctx)
        if code is None:
            return None
        code_of[key] = code
    return np.fromiter(map(code_of.__getitem__, keys), np.int64, len(keys))


_LABEL = itemgetter(0)
_ATTRIBUTES = itemgetter(3)
_SECOND = itemgetter(1)
_FIRST = itemgetter(0)
_FRAGMENTS = itemgetter(5)
_TOKENS = itemgetter(1, 2)
_START = itemgetter(1)
_END = itemgetter(2)


def _blocks(gs: np.ndarray, ge: np.ndarray, ps: np.ndarray, pe: np.ndarray, g_doc: np.ndarray, p_doc: np.ndarray,
            n_docs: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`~accord.match.blocks.overlap_blocks` of the gold and the predicted spans of many documents, each
    document's positions moved past the previous document's (blocks never reach over two documents; their ids in
    the order of the documents, then of the positions)."""
    lo = np.full(n_docs, np.iinfo(np.int64).max)
    hi = np.full(n_docs, np.iinfo(np.int64).min)
    np.minimum.at(lo, g_doc, gs)
    np.minimum.at(lo, p_doc, ps)
    np.maximum.at(hi, g_doc, ge)
    np.maximum.at(hi, p_doc, pe)
    present = lo <= hi
    width = np.where(present, hi - lo, 0) + 2
    base = np.concatenate([[0], np.cumsum(width)[:-1]]) - np.where(present, lo, 0)
    block = overlap_blocks(np.concatenate([gs + base[g_doc], ps + base[p_doc]]),
                           np.concatenate([ge + base[g_doc], pe + base[p_doc]]))
    return block[:len(gs)], block[len(gs):]


def _pair_ready(pairer: Pairer, ready: list[tuple[Deferred, Int64s, Int64s]],
                g_codes: np.ndarray, p_codes: np.ndarray, _content_key: Callable[..., Any]) -> None:

    n_docs = len(ready)
    g_count = np.fromiter((len(r[1]) for r in ready), np.int64, n_docs)
    p_count = np.fromiter((len(r[2]) for r in ready), np.int64, n_docs)
    g_span = np.concatenate([r[1] for r in ready])
    p_span = np.concatenate([r[2] for r in ready])
    g_doc = np.repeat(np.arange(n_docs), g_count)
    p_doc = np.repeat(np.arange(n_docs), p_count)
    gb, pb = _blocks(g_span[:, 0], g_span[:, 1], p_span[:, 0], p_span[:, 1], g_doc, p_doc, n_docs)
    both = np.intersect1d(gb, pb)
    if len(both) == 0:
        return
    g_order = np.argsort(gb, kind="stable")
    p_order = np.argsort(pb, kind="stable")
    g_sorted, p_sorted = gb[g_order], pb[p_order]
    g_lo = np.searchsorted(g_sorted, both, "left").tolist()
    g_hi = np.searchsorted(g_sorted, both, "right").tolist()
    p_lo = np.searchsorted(p_sorted, both, "left").tolist()
    p_hi = np.searchsorted(p_sorted, both, "right").tolist()
    # each member's document-local index, in the order of the blocks
    g_local = np.concatenate([r[0][3] for r in ready]).astype(np.int64)[g_order].tolist()
    p_local = np.concatenate([r[0][4] for r in ready]).astype(np.int64)[p_order].tolist()
    g_codes, p_codes = g_codes[g_order], p_codes[p_order]
    gs, ge = g_span[g_order, 0], g_span[g_order, 1]
    ps, pe = p_span[p_order, 0], p_span[p_order, 1]
    doc_of_block = g_doc[g_order][g_lo].tolist()
    g_code_list, p_code_list = g_codes.tolist(), p_codes.tolist()
    gs_list, ge_list, ps_list, pe_list = gs.tolist(), ge.tolist(), ps.tolist(), pe.tolist()

    sim = pairer.similarity
    keep_clash = sim.clash
    known = pairer._by_shape
    n_shapes = len(pairer._shape_codes)
    table = _ShapeTable(sim, known, keep_clash, n_shapes) if 2 * n_shapes * n_shapes <= TABLE_CELLS else None
    names_seen: dict[tuple[Any, ...], Names] = {}

    for b, (a0, a1, b0, b1) in enumerate(zip(g_lo, g_hi, p_lo, p_hi)):
        (out, gold, pred, _, _, ctx), _, _ = ready[doc_of_block[b]]
        if a1 - a0 == 1 and b1 - b0 == 1:     # one gold and one predicted annotation: no order to settle
            i, j = g_local[a0], p_local[b0]
            r, h = gold[i], pred[j]
            apart = ge_list[a0] <= ps_list[b0] or gs_list[a0] >= pe_list[b0]
            if apart and gs_list[a0] == ge_list[a0] == ps_list[b0] == pe_list[b0]:
                apart = False
            key = (g_code_list[a0], p_code_list[b0], int(apart))
            if _is_linked(r, h, ctx):
                s, rt, ht = _linked_score(sim, r, h, key, ctx)
            else:
                got = known.get(key)
                if got is None:
                    got = known[key] = sim(r, h, ctx)
                s, rt, ht = got
            if s > 0 and (keep_clash or s >= 1.0):
                _record(out, i, j, s, rt, ht, MATCH, CLASH, Pair)
            continue
        bg = np.array(g_local[a0:a1], dtype=np.intp)
        bp = np.array(p_local[b0:b1], dtype=np.intp)
        if len(bg) * len(bp) > DENSE_LIMIT:
            pairer._pair_pile(gold, pred, bg, bp, ctx, out)
            continue
        # the canonical order of Pairer._pair_block: rows and columns sorted by content
        g_in, p_in = out.incoming("gold"), out.incoming("pred")
        contents = out.contents
        gkeys = _content_keys(gold, out.gold_label, g_local[a0:a1], gs_list[a0:a1], ge_list[a0:a1], g_in, contents,
                              _content_key, names_seen)
        pkeys = _content_keys(pred, out.pred_label, p_local[b0:b1], ps_list[b0:b1], pe_list[b0:b1], p_in, contents,
                              _content_key, names_seen)
        order_g = sorted(range(len(bg)), key=gkeys.__getitem__)
        order_p = sorted(range(len(bp)), key=pkeys.__getitem__)
        bg, bp = bg[order_g], bp[order_p]
        g_list, p_list = bg.tolist(), bp.tolist()
        g_anns = [gold[i] for i in g_list]
        p_anns = [pred[j] for j in p_list]
        og = np.asarray(order_g, dtype=np.intp) + a0
        op = np.asarray(order_p, dtype=np.intp) + b0
        if table is not None:
            m, tokens_of = table.block(g_anns, p_anns, g_codes[og], p_codes[op], gs[og], ge[og], ps[op], pe[op], ctx)
        else:
            got_block = spanless_block_scores(sim, g_anns, p_anns, [out.gold_label[i] for i in g_list],
                                              [out.pred_label[j] for j in p_list], ctx)
            assert got_block is not None   # the shapes were coded above
            m, tokens_of = got_block
        rows, cols = assign_by_content(m, [gkeys[k] for k in order_g], [pkeys[k] for k in order_p])
        for x, y in zip(rows.tolist(), cols.tolist()):
            rt, ht = tokens_of(x, y)
            _record(out, g_list[x], p_list[y], float(m[x, y]), rt, ht, MATCH, CLASH, Pair)


def _content_keys(anns: Sequence[Annotation], labels: Sequence[str], idx: list[int], starts: list[int],
                  ends: list[int], incoming: dict[int, Any], contents: dict[int, str] | None,
                  content_key: Callable[..., Any], names_seen: dict[tuple[Any, ...], Names]) -> list[Any]:
    """The engine's content keys (``content_key``) of ``anns[i]`` for each i of ``idx``, their implied spans
    given: the attribute content of a relation (every value an annotation) put together here, as the engine's
    ``_attribute_content`` writes it (the parts of its targets kept in ``contents`` under ``~id(target)``, the
    relation's under its ``id``), without two calls of Python code a relation; the others from ``content_key``.
    ``names_seen`` keeps :data:`Names` of the attribute names met so far."""
    if contents is None:
        return [content_key(anns[i], labels[i], incoming, (s0, e0), contents) for i, s0, e0 in zip(idx, starts, ends)]
    same = _same_relations(anns, labels, idx, starts, ends, incoming, contents, names_seen) \
        if len(idx) >= SAME_NAMES_FROM else None
    if same is not None:
        return same
    out = []
    for i, s0, e0 in zip(idx, starts, ends):
        a = anns[i]
        got = contents.get(id(a))
        if got is None and a.fragments is None:
            attrs = a.attributes
            names = names_seen.get(tuple(attrs))
            if names is None:
                keys = tuple(attrs)
                names = names_seen[keys] = (tuple(sorted(keys)), tuple(f"({k!r}, " for k in sorted(keys))) \
                    if keys and all(type(k) is str for k in keys) else ()
            if names and _TARGET_TYPE.issuperset(map(type, attrs.values())):
                parts = []
                for k, head in zip(*names):
                    v = attrs[k]
                    part = contents.get(~id(v))
                    if part is None:
                        part = contents[~id(v)] = target_text(v)
                    parts.append(head + part + ")")
                got = contents[id(a)] = "[" + ", ".join(parts) + "]"
        if got is None:
            out.append(content_key(a, labels[i], incoming, (s0, e0), contents))
        else:
            out.append((labels[i], (s0, e0), a.fragments or (), a.label, got,
                        incoming.get(id(a), ()) if id(a) in incoming else ()))   # (a relation is seldom pointed to)
    return out


_TARGET_TYPE = frozenset([Annotation])


def _same_relations(anns: Sequence[Annotation], labels: Sequence[str], idx: list[int], starts: list[int],
                    ends: list[int], incoming: dict[int, Any], contents: dict[int, str],
                    names_seen: dict[tuple[Any, ...], Names]) -> list[Any] | None:
    """:func:`_content_keys` of a block whose annotations are relations with the same attribute names (in one
    order), every value an annotation, none pointed to: each relation's attribute content put together from its
    targets' parts a column of the block at a time (``str.join`` over the columns, one ``map`` each), the parts of
    targets met for the first time written once. None for any other block (then one relation at a time)."""
    sel = list(map(anns.__getitem__, idx))
    attrs = list(map(_ATTRIBUTES, sel))
    kinds = set(map(tuple, attrs))
    if len(kinds) != 1 or not incoming.keys().isdisjoint(map(id, sel)) or set(map(_FRAGMENTS, sel)) != {None}:
        return None
    keys = kinds.pop()
    names = names_seen.get(keys)
    if names is None:
        names = names_seen[keys] = (tuple(sorted(keys)), tuple(f"({k!r}, " for k in sorted(keys))) \
            if keys and all(type(k) is str for k in keys) else ()
    if not names or not _TARGET_TYPE.issuperset(map(type, chain.from_iterable(map(dict.values, attrs)))):
        return None
    pieces: list[Any] = []
    for k, (name, head) in enumerate(zip(*names)):
        targets = list(map(itemgetter(name), attrs))
        parts = list(map(contents.get, map(invert, map(id, targets))))
        if None in parts:
            for n in [n for n, part in enumerate(parts) if part is None]:
                v = targets[n]
                part = contents.get(~id(v))
                if part is None:
                    part = contents[~id(v)] = target_text(v)
                parts[n] = part
        pieces.append(repeat(("[" if k == 0 else "), ") + head))
        pieces.append(parts)
    pieces.append(repeat(")]"))
    strings = list(map("".join, zip(*pieces)))
    contents.update(zip(map(id, sel), strings))
    return list(zip(_labels_of(labels, idx), zip(starts, ends), repeat(()), map(_LABEL, sel), strings, repeat(())))


def _labels_of(labels: Sequence[str], idx: list[int]) -> list[str]:
    """``labels[i]`` for each i of ``idx``."""
    return list(map(labels.__getitem__, idx))


def _record(out: DocumentAlignment, i: int, j: int, s: float, rt: tuple[str, ...], ht: tuple[str, ...],
            match: int, clash: int, pair: Callable[..., object]) -> None:
    """:meth:`~accord.match.engine.Pairer._record` without the context's pair (no later group reads it)."""
    if s >= 1.0:
        out.gold_status[i] = out.pred_status[j] = match
        out.pairs.append(pair(i, j, s))    # type: ignore[arg-type]  # a Pair
    else:
        out.gold_status[i] = out.pred_status[j] = clash
        out.pairs.append(pair(i, j, s, rt, ht))    # type: ignore[arg-type]  # a Pair


def _is_linked(r: Annotation, h: Annotation, ctx: Context) -> bool:
    """Whether a target of ``r`` was paired with a target of ``h`` (:func:`~accord.match.shapes._linked_pairs`)."""
    if not r.attributes or not h.attributes:
        return False
    r_targets = [id(t) for t in r.referenced()]
    if not r_targets:
        return False
    h_targets = {id(t) for t in h.referenced()}
    if not h_targets:
        return False
    partners = ctx.partner_index()
    return any(pid in h_targets for t in r_targets for pid in partners.get(t, ()))


class _ShapeTable:
    """The similarity of unlinked pairs by (gold shape, predicted shape, apart): one array lookup a block, the
    similarity called once per combination not yet in the pairer's memo (``by_shape``)."""

    def __init__(self, sim: object, known: dict[Shape, SimilarityResult], keep_clash: bool, n_shapes: int):
        self.sim = sim
        self.known = known
        self.keep_clash = keep_clash
        self.width = max(n_shapes, 1)
        self.values = np.full(2 * self.width * self.width, np.nan)
        self.results: dict[int, SimilarityResult] = {}

    def _grow(self, n_shapes: int) -> None:
        """Room for shape codes made since the table was: the table re-indexed for the new width."""
        width = max(n_shapes, 1)
        values = np.full(2 * width * width, np.nan)
        results: dict[int, SimilarityResult] = {}
        old = self.width
        for k, res in self.results.items():
            pair, apart = divmod(k, 2)
            g, p = divmod(pair, old)
            nk = (g * width + p) * 2 + apart
            values[nk] = self.values[k]
            results[nk] = res
        self.width, self.values, self.results = width, values, results

    def block(self, gold: list[Annotation], pred: list[Annotation], gc: np.ndarray, pc: np.ndarray,
              gs: np.ndarray, ge: np.ndarray, ps: np.ndarray, pe: np.ndarray, ctx: Context
              ) -> tuple[Floats, Callable[[int, int], Tokens]]:
        """The block's matrix (zero where a pair is not kept) and the error tokens of any cell, as
        :func:`~accord.match.shapes.spanless_block_scores` gives them."""
        top = int(max(gc.max(), pc.max())) + 1
        if top > self.width:
            self._grow(top)
        width = self.width
        sim = self.sim
        keep_clash = self.keep_clash
        disjoint = (ge[:, None] <= ps[None, :]) | (gs[:, None] >= pe[None, :])
        same_point = (gs == ge)[:, None] & (ps == pe)[None, :] & (gs[:, None] == ps[None, :])
        apart = disjoint & ~same_point
        key = (gc[:, None] * width + pc[None, :]) * 2 + apart
        linked = _linked(gold, pred, ctx)
        m = self.values[key]
        unknown = np.isnan(m) & ~linked
        if unknown.any():
            wanted, first = np.unique(key[unknown], return_index=True)
            ux, uy = np.nonzero(unknown)
            known = self.known
            for k, at in zip(wanted.tolist(), first.tolist()):
                x, y = int(ux[at]), int(uy[at])
                pair, a = divmod(k, 2)
                memo_key = (pair // width, pair % width, a)
                got = known.get(memo_key)
                if got is None:
                    got = known[memo_key] = sim(gold[x], pred[y], ctx)   # type: ignore[operator]  # a Similarity
                s = got[0]
                self.values[k] = s if s > 0 and (keep_clash or s >= 1.0) else 0.0
                self.results[k] = got
            m = self.values[key]
        tokens: dict[tuple[int, int], Tokens] = {}
        link_x, link_y = np.nonzero(linked)
        if len(link_x):
            m[link_x, link_y] = 0.0
            tokens = self._linked_scores(gold, pred, gc, pc, link_x, link_y, apart[link_x, link_y], m, ctx)
        results = self.results

        def tokens_of(x: int, y: int) -> Tokens:
            got = tokens.get((x, y))
            if got is not None:
                return got
            res = results[int(key[x, y])]
            return res[1], res[2]

        return m, tokens_of


    def _linked_scores(self, gold: list[Annotation], pred: list[Annotation], gc: np.ndarray, pc: np.ndarray,
                       link_x: Index, link_y: Index, apart: np.ndarray, m: Floats, ctx: Context
                       ) -> dict[tuple[int, int], Tokens]:
        """The linked pairs' similarities written into ``m`` (where kept) and their error tokens, as
        :func:`~accord.match.shapes._linked_score` gives them: by the pair of shapes, the geometry and the score of
        each (gold target, predicted target) pair, looked up in the memo, the similarity called on the first pair
        of each combination not in it. When every row and every column of the linked pairs has the same number of
        single targets, their keys are put together a column at a time (one ``map`` over the pairs for each
        (row target, column target) place); otherwise pair by pair."""
        sim = self.sim
        known = self.known
        paired = ctx.paired
        lx, ly, la = link_x.tolist(), link_y.tolist(), apart.tolist()
        row_ids: dict[int, Any] = {x: _single_target_ids(gold[x]) for x in dict.fromkeys(lx)}   # (list or None)
        col_ids: dict[int, Any] = {y: _single_target_ids(pred[y]) for y in dict.fromkeys(ly)}
        r_sizes = {-1 if t is None else len(t) for t in row_ids.values()}
        h_sizes = {-1 if t is None else len(t) for t in col_ids.values()}
        gcl, pcl = gc.tolist(), pc.tolist()
        shapes = list(zip(map(gcl.__getitem__, lx), map(pcl.__getitem__, ly), la))
        got_all: list[Any]
        if len(r_sizes) == 1 and len(h_sizes) == 1 and -1 not in r_sizes and -1 not in h_sizes:
            (nr,), (nh,) = r_sizes, h_sizes
            r_of = list(map(row_ids.__getitem__, lx))
            h_of = list(map(col_ids.__getitem__, ly))
            places = [list(map(paired.get, zip(map(itemgetter(i), r_of), map(itemgetter(j), h_of))))
                      for i in range(nr) for j in range(nh)]
            links = list(zip(*places)) if places else [()] * len(lx)
            fulls: list[Any] = list(zip(shapes, links))
            got_all = list(map(known.get, fulls))
            if None in got_all:
                for k in [k for k, got in enumerate(got_all) if got is None]:
                    got = known.get(fulls[k])
                    if got is None:
                        got = known[fulls[k]] = sim(gold[lx[k]], pred[ly[k]], ctx)   # type: ignore[operator]
                    got_all[k] = got
        else:
            got_all = []
            for x, y, shape in zip(lx, ly, shapes):
                r_ids, h_ids = row_ids[x], col_ids[y]
                if r_ids is None or h_ids is None:
                    got_all.append(sim(gold[x], pred[y], ctx))   # type: ignore[operator]  # a Similarity
                    continue
                full = (shape, tuple([paired.get((i, j)) for i in r_ids for j in h_ids]))
                got = known.get(full)
                if got is None:
                    got = known[full] = sim(gold[x], pred[y], ctx)   # type: ignore[operator]  # a Similarity
                got_all.append(got)
        s = np.fromiter(map(_FIRST, got_all), np.float64, len(got_all))
        keep = (s > 0) & (s >= 1.0) if not self.keep_clash else s > 0
        m[link_x[keep], link_y[keep]] = s[keep]
        kept = keep.tolist()
        return dict(zip(zip(compress(lx, kept), compress(ly, kept)), map(_TOKENS, compress(got_all, kept))))


def _single_target_ids(ann: Annotation) -> list[int] | None:
    """The ``id`` of each target of an annotation in the order of its attributes
    (:func:`~accord.match.shapes._single_targets`); None when a set or list holds targets."""
    targets = _single_targets(ann)
    return None if targets is None else [id(t) for t in targets]
