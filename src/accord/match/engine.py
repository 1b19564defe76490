"""Pairing of one gold and one predicted document: strata, candidate blocks, assignment.

The order of work follows MAT: strata in order (one stratum holding every label when
none is declared), and inside each stratum the spanned labels before the spanless ones.
Spanned annotations are cut into blocks of overlapping spans; spanless annotations use
their implied span when they have one and are grouped by true label otherwise. Each
block with items on both sides is paired by Kuhn-Munkres on the similarity matrix;
pairs scoring 0 are split into a missing and a spurious item, and so are pairs below
1.0 when the similarity does not keep clashes (strict, lenient). With the strict
similarity, spanned annotations pair by hashing their keys, without any matrix.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import chain, compress, repeat
from operator import is_, itemgetter
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from .._support.arrays import Index, Int64s
from ..errors import PairingError, ProfileError
from ..model import SCALAR_TYPES, Annotation, Document, is_aggregate
from ..model.schema import Task
from ._content import target_text
from ._records import CLASH, MATCH, UNPAIRED, Pair
from .assign import assign_by_content
from .blocks import exact_pairs, overlap_blocks
from .shapes import pair_scores, spanless_block_scores
from .similarity import Context, LenientSimilarity, ProfileSimilarity, Shape, Similarity, StrictSimilarity, implied_span
from .similarity import Result as SimilarityResult
from .sparse import DENSE_LIMIT, near_candidates, sparse_assign, warn_pile

if TYPE_CHECKING:   # the relations' batch is imported when a corpus has one (not for spans alone)
    from ._bulk_spanless import Deferred

__all__ = ["MATCH", "CLASH", "UNPAIRED", "Pair", "DocumentAlignment", "Pairer", "reference_depths"]

Pointers = tuple[tuple[str, str, str | None], ...]
"""How an annotation is pointed to (:func:`_incoming`): the label of each annotation pointing to it, the attribute,
and that annotation's attribute content, sorted."""

ContentKey = tuple[str, tuple[int, int], tuple[tuple[int, int], ...], str, str, Pointers]
"""An annotation's sort key by content (:func:`_content_key`)."""

@dataclass(slots=True)     # no __dict__: a corpus of many small documents holds one of these per document
class DocumentAlignment:
    """The outcome of pairing one document: every item and what became of it.

    ``gold_status`` and ``pred_status`` hold MATCH, CLASH or UNPAIRED (missing on the
    gold side, spurious on the predicted side) for each item.
    """

    doc_id: str
    gold_doc: Document | None
    pred_doc: Document | None
    gold: Sequence[Annotation]
    pred: Sequence[Annotation]
    gold_label: Sequence[str]
    pred_label: Sequence[str]
    pairs: list[Pair] = field(default_factory=list)
    gold_status: npt.NDArray[np.int8] = field(default_factory=lambda: np.zeros(0, dtype=np.int8))
    pred_status: npt.NDArray[np.int8] = field(default_factory=lambda: np.zeros(0, dtype=np.int8))
    pointers: dict[str, dict[int, Pointers]] | None = field(default=None, repr=False, compare=False)
    """How each annotation is pointed to, by side (:func:`_incoming`, computed once per document, when asked)."""

    contents: dict[int, str] | None = field(default=None, repr=False, compare=False)
    """:func:`_attribute_content` of the annotations that needed it, by ``id`` (while the document is paired)."""

    pointing: dict[str, list[tuple[int, Annotation]]] | None = field(default=None, repr=False, compare=False)
    """:func:`_may_point` of each side, by side (while the document is paired)."""

    def incoming(self, side: str) -> dict[int, Pointers]:
        """:func:`_incoming` of the gold or the predicted annotations, computed once."""
        if self.pointers is None:
            self.pointers = {}
        if side not in self.pointers:
            anns = self.gold if side == "gold" else self.pred
            self.pointers[side] = _incoming(anns, self.contents, self.pointing_of(side))
        return self.pointers[side]

    def pointing_of(self, side: str) -> list[tuple[int, Annotation]]:
        """:func:`_may_point` of the gold or the predicted annotations, computed once."""
        if self.pointing is None:
            self.pointing = {}
        got = self.pointing.get(side)
        if got is None:
            got = self.pointing[side] = _may_point(self.gold if side == "gold" else self.pred)
        return got


class Pairer:
    """Pairs documents under one similarity, task, equivalence map and ignore list.

    Parameters
    ----------
    similarity : Similarity
    task : Task or None
    equivalences : dict
        Label -> equivalence class name, applied to effective labels.
    ignore : set of str
        Labels (after equivalence) removed before pairing.
    """

    def __init__(self, similarity: Similarity, task: Task | None = None,
                 equivalences: dict[str, str] | None = None, ignore: Sequence[str] = ()):
        self.similarity = similarity
        self.task = task
        self.equivalences = dict(equivalences or {})
        self.ignore = set(ignore)
        for lbl in self.ignore:
            self.equivalences.pop(lbl, None)
        self._strata = similarity.strata if isinstance(similarity, ProfileSimilarity) else []
        self._shape_codes: dict[Shape, int] = {}
        self._by_shape: dict[Shape, SimilarityResult] = {}
        self.bulk_spanless = True
        """Whether :meth:`align_many` pairs the documents' last spanless groups at once (False: one by one, as
        :meth:`align` alone does; the two give the same pairs)."""
        if task is not None:
            self._check_strata(task)

    # -- labels and processing order --------------------------------------------------
    def label(self, ann: Annotation) -> str:
        """The scoring label: the effective label mapped through the equivalence classes."""
        lbl = self.task.effective_label(ann) if self.task is not None else ann.label
        return self.equivalences.get(lbl, lbl)

    def _spanned(self, ann: Annotation) -> bool:
        if self.task is not None and ann.label in self.task.labels:
            return self.task.labels[ann.label].spanned
        return ann.start is not None

    def _group_of_label(self, label: str, spanned: bool) -> int:
        stratum = 0
        if self._strata:
            assert isinstance(self.similarity, ProfileSimilarity)  # only a MAT profile has strata
            stratum = self.similarity.stratum_of(label)
        return 2 * stratum + (0 if spanned else 1)

    def _check_strata(self, task: Task) -> None:
        for spec in task.labels.values():
            g = self._group_of_label(spec.label, spec.spanned)
            for attr in spec.attributes.values():
                for target, _ in attr.label_restrictions:
                    true = task.true_label(target)
                    tg = self._group_of_label(true, task.labels[true].spanned)
                    if tg == g:
                        raise ProfileError(
                            f"{task.source}: label {spec.label!r} is stratified with an annotation type which "
                            f"refers to it ({true!r}, through attribute {attr.name!r}); put {true!r} in an "
                            "earlier <stratum>")
                    if tg > g:
                        raise ProfileError(
                            f"{task.source}: label {true!r} is referenced by {spec.label!r} (attribute "
                            f"{attr.name!r}) in a stratum before it's paired; put {true!r} in an earlier "
                            "<stratum>")

    # -- pairing ----------------------------------------------------------------------
    def align_many(self, triples: Iterable[tuple[str, Document | None, Document | None]]
                   ) -> list[DocumentAlignment]:
        """:meth:`align` for each ``(doc_id, gold_doc, pred_doc)``, in order.

        Under the strict similarity without a task or attributes, documents whose annotations
        all have spans and point nowhere are paired together: one key (document, start, end,
        label) for all of them, hashed and sorted at once, as :meth:`align` does for each.
        """
        triples = list(triples)
        fast = (self.task is None and not self._strata and type(self.similarity) is StrictSimilarity
                and not self.similarity.attributes)
        out: list[DocumentAlignment | None] = [None] * len(triples)
        batch: list[tuple[int, str, Document | None, Document | None, Sequence[Annotation], Sequence[Annotation],
                          Sequence[str], Sequence[str]]] = []
        flat: tuple[_FlatSide, _FlatSide] | None = None
        if fast:
            shared: dict[tuple[str, ...], tuple[str, ...]] = {}
            g_anns = [() if g is None else g.annotations for _, g, _ in triples]
            p_anns = [() if p is None else p.annotations for _, _, p in triples]
            flat = _FlatSide.of(g_anns, self.equivalences), _FlatSide.of(p_anns, self.equivalences)
            if self.ignore and not all(self.ignore.isdisjoint(side.labels) for side in flat):
                flat = None     # an ignored label occurs: document by document
                label = self._labelled_shared
                candidates = [(k, doc_id, g, p, *label(g, shared), *label(p, shared))
                              for k, (doc_id, g, p) in enumerate(triples)]
            else:   # the documents' own annotations, their labels as shared tuples, without a call per document
                share = shared.setdefault
                g_labels = [share(t, t) for t in flat[0].per_document()]
                p_labels = [share(t, t) for t in flat[1].per_document()]
                candidates = [(k, doc_id, g, p, ga, gl, pa, pl) for k, ((doc_id, g, p), ga, gl, pa, pl) in
                              enumerate(zip(triples, g_anns, g_labels, p_anns, p_labels))]
            # (k, id, gold doc, pred doc, gold, gold labels, pred, pred labels): which documents the batch can pair
            # (every annotation spanned, none pointing), looked at for the whole corpus at once
            if flat is not None and flat[0].plain and flat[1].plain:
                plain = [True] * len(candidates)    # (no annotation spanless or with attributes or pieces)
            else:
                flat = None
                plain = _plain_documents([c[4] for c in candidates], [c[6] for c in candidates])
            for c, ok in zip(candidates, plain):
                if ok:
                    batch.append((c[0], c[1], c[2], c[3], c[4], c[6], c[5], c[7]))
                else:
                    out[c[0]] = self.align(c[1], c[2], c[3])
        elif self.bulk_spanless and self.similarity.by_shape and (self.task is not None or self._strata):
            # each document's last spanless group (the relations) is left for all documents at once
            deferred: list[Deferred] = []
            out = [self.align(doc_id, gold_doc, pred_doc, deferred) for doc_id, gold_doc, pred_doc in triples]
            if deferred:
                from ._bulk_spanless import pair_deferred

                pair_deferred(self, deferred, _content_key)
                for al, *_ in deferred:
                    al.contents = None
                    al.pointers = al.pointing = None
        else:
            out = [self.align(doc_id, gold_doc, pred_doc) for doc_id, gold_doc, pred_doc in triples]
        if batch:
            # the outcomes of all documents are two arrays; each document's are views of them
            n_gold = np.fromiter((len(b[4]) for b in batch), np.int64, len(batch))
            n_pred = np.fromiter((len(b[5]) for b in batch), np.int64, len(batch))
            gold_status = np.full(int(n_gold.sum()), UNPAIRED, dtype=np.int8)
            pred_status = np.full(int(n_pred.sum()), UNPAIRED, dtype=np.int8)
            g_off = np.concatenate([[0], np.cumsum(n_gold)]).tolist()
            p_off = np.concatenate([[0], np.cumsum(n_pred)]).tolist()
            done = []
            for j, (k, doc_id, gold_doc, pred_doc, b_g_anns, b_p_anns, b_g_labels, b_p_labels) in enumerate(batch):
                al = DocumentAlignment(doc_id, gold_doc, pred_doc, b_g_anns, b_p_anns, b_g_labels, b_p_labels, [],
                                       gold_status[g_off[j]:g_off[j + 1]], pred_status[p_off[j]:p_off[j + 1]])
                out[k] = al
                done.append(al)
            _pair_exact_batch(done, gold_status, pred_status, flat)
        return out  # type: ignore[return-value]  # every slot is filled above, by align or by the batch

    def align(self, doc_id: str, gold_doc: Document | None, pred_doc: Document | None,
              defer: list[Deferred] | None = None) -> DocumentAlignment:
        """Pair the annotations of one document pair (either side may be missing).

        With ``defer`` (a task's or a profile's strata, a similarity that scores by shape), the last group when it is
        spanless is not paired but added to ``defer`` for :func:`~accord.match._bulk_spanless.pair_deferred`, which
        pairs it for many documents at once (and the document's working memory is kept until then)."""
        gold, glabels = self._labelled(gold_doc)
        pred, plabels = self._labelled(pred_doc)
        out = DocumentAlignment(doc_id, gold_doc, pred_doc, gold, pred, glabels, plabels)
        gstat = np.full(len(gold), UNPAIRED, dtype=np.int8)
        pstat = np.full(len(pred), UNPAIRED, dtype=np.int8)
        out.gold_status, out.pred_status = gstat, pstat
        if not gold or not pred:
            return out
        out.contents = {}
        ctx = Context(self.label, self.task, {}, gold_doc, pred_doc, shape_codes=self._shape_codes,
                      by_shape=self._by_shape)
        ggroups = self._groups(gold)
        pgroups = self._groups(pred)
        by_depth = self.task is None and not self._strata and (np.any(ggroups % 2) or np.any(pgroups % 2))
        if by_depth:     # without a task, spanless annotations pair after the spanless ones they point to
            ggroups = ggroups + 2 * reference_depths(gold, ggroups, doc_id, "gold")
            pgroups = pgroups + 2 * reference_depths(pred, pgroups, doc_id, "predicted")
        if np.any(ggroups % 2) or np.any(pgroups % 2) or len(self._strata) > 1:
            self._check_references(gold, ggroups, doc_id, "gold", out.pointing_of("gold"))
            self._check_references(pred, pgroups, doc_id, "predicted", out.pointing_of("pred"))
        groups = sorted(set(ggroups.tolist()) | set(pgroups.tolist()))
        if defer is not None and (by_depth or groups[-1] % 2 == 0):
            defer = None
        for g in groups:
            gi = np.flatnonzero(ggroups == g)
            pi = np.flatnonzero(pgroups == g)
            if len(gi) and len(pi):
                if defer is not None and g == groups[-1]:
                    defer.append((out, gold, pred, gi, pi, ctx))
                    return out
                self._pair_group(gold, pred, gi, pi, g % 2 == 0, ctx, out)
        if by_depth and (np.any(ggroups > 1) or np.any(pgroups > 1)):
            # spanless annotations at different depths on the two sides (an argument missed or added) meet once
            # every depth is paired: what is still unpaired on both sides is paired in one last round
            gi = np.flatnonzero((ggroups % 2 == 1) & (gstat == UNPAIRED))
            pi = np.flatnonzero((pgroups % 2 == 1) & (pstat == UNPAIRED))
            depths = set(ggroups[gi].tolist()) | set(pgroups[pi].tolist())
            if len(gi) and len(pi) and len(depths) > 1:   # one depth only: those already met in its round
                self._pair_group(gold, pred, gi, pi, False, ctx, out)
        out.contents = None     # the canonical order's working memory: not kept with the result
        out.pointers = out.pointing = None
        return out

    def _labelled(self, doc: Document | None) -> tuple[list[Annotation], list[str]]:
        """A document's annotations that are not ignored, and their scoring labels."""
        anns = list(doc.annotations) if doc is not None else []
        labels = list(map(_LABEL, anns))
        if self.task is not None:
            # :meth:`label` of each annotation: only labels with an effective attribute read the annotation
            task = self.task
            effective = {name for name, spec in task.labels.items() if spec.effective_attribute is not None}
            if effective and not effective.isdisjoint(labels):
                labels = [task.effective_label(a) if lbl in effective else lbl for a, lbl in zip(anns, labels)]
        if self.equivalences:
            eq = self.equivalences
            labels = [eq.get(lbl, lbl) for lbl in labels]
        if self.ignore and not self.ignore.isdisjoint(labels):
            keep = [k for k, lbl in enumerate(labels) if lbl not in self.ignore]
            anns = [anns[k] for k in keep]
            labels = [labels[k] for k in keep]
        return anns, labels

    def _labelled_shared(self, doc: Document | None, shared: dict[tuple[str, ...], tuple[str, ...]]
                         ) -> tuple[Sequence[Annotation], tuple[str, ...]]:
        """:meth:`_labelled` without a copy: the document's own tuple of annotations when none is ignored, and
        equal tuples of labels shared (through ``shared``), so that a corpus of many small documents holds a few
        label tuples, not one list per document and side."""
        anns: Sequence[Annotation] = doc.annotations if doc is not None else ()
        labels = tuple(map(_LABEL, anns))
        if self.equivalences:
            eq = self.equivalences
            labels = tuple([eq.get(lbl, lbl) for lbl in labels])
        if self.ignore and not self.ignore.isdisjoint(labels):
            keep = [k for k, lbl in enumerate(labels) if lbl not in self.ignore]
            anns = tuple([anns[k] for k in keep])
            labels = tuple([labels[k] for k in keep])
        return anns, shared.setdefault(labels, labels)

    def _groups(self, anns: list[Annotation]) -> Int64s:
        """The processing group of each annotation: 2 * stratum, plus 1 for spanless labels."""
        if self.task is None and not self._strata:
            return np.fromiter(map(is_, map(_START, anns), repeat(None)), dtype=bool, count=len(anns)).astype(np.int64)
        labels = set(map(_LABEL, anns))
        if self.task is None or not labels <= self.task.labels.keys():
            return np.fromiter((self._group_of_label(a.label, self._spanned(a)) for a in anns), np.int64, len(anns))
        # labels of the task: spannedness is the label's, one group per label
        by_label = {lbl: self._group_of_label(lbl, self.task.labels[lbl].spanned) for lbl in labels}
        return np.fromiter(map(by_label.__getitem__, map(_LABEL, anns)), np.int64, len(anns))

    def _check_references(self, anns: list[Annotation], groups: Int64s, doc_id: str, side: str,
                          pointing: list[tuple[int, Annotation]] | None = None) -> None:
        index = dict(zip(map(id, anns), range(len(anns))))
        group = groups.tolist()
        for k, a in _may_point(anns) if pointing is None else pointing:
            for t in a.referenced():
                j = index.get(id(t))
                if j is not None and group[j] >= group[k]:
                    raise PairingError(
                        f"document {doc_id!r} ({side}): {a!r} points to {t!r}, which is not paired before it; "
                        "declare the labels in a task with <stratum> elements so that pointed-to labels come first")

    def _pair_group(self, gold: list[Annotation], pred: list[Annotation], gi: Index, pi: Index,
                    spanned: bool, ctx: Context, out: DocumentAlignment) -> None:
        sim = self.similarity
        if spanned and type(sim) is StrictSimilarity and self._pair_exact(gold, pred, gi, pi, ctx, out):
            return
        if spanned:
            g_sel = list(map(gold.__getitem__, gi.tolist()))    # (the spans read by C maps, not a step each)
            p_sel = list(map(pred.__getitem__, pi.tolist()))
            gs = np.fromiter(map(_START, g_sel), np.int64, len(gi))
            ge = np.fromiter(map(_END, g_sel), np.int64, len(gi))
            ps = np.fromiter(map(_START, p_sel), np.int64, len(pi))
            pe = np.fromiter(map(_END, p_sel), np.int64, len(pi))
            self._pair_blocks(gold, pred, gi, pi, gs, ge, ps, pe, ctx, out)
            return
        # spanless: implied spans where there are any, blocks by true label otherwise
        gsp = [ctx.implied(gold[i]) for i in gi]
        psp = [ctx.implied(pred[i]) for i in pi]
        g_with = np.array([s is not None for s in gsp], dtype=bool)
        p_with = np.array([s is not None for s in psp], dtype=bool)
        if g_with.any() and p_with.any():
            gs = np.array([s[0] for s in gsp if s is not None], dtype=np.int64)
            ge = np.array([s[1] for s in gsp if s is not None], dtype=np.int64)
            ps = np.array([s[0] for s in psp if s is not None], dtype=np.int64)
            pe = np.array([s[1] for s in psp if s is not None], dtype=np.int64)
            self._pair_blocks(gold, pred, gi[g_with], pi[p_with], gs, ge, ps, pe, ctx, out)
        rest_g, rest_p = gi[~g_with], pi[~p_with]
        if len(rest_g) and len(rest_p):
            labels = sorted({gold[i].label for i in rest_g} & {pred[i].label for i in rest_p})
            for lbl in labels:
                bg = np.array([i for i in rest_g if gold[i].label == lbl], dtype=np.int64)
                bp = np.array([i for i in rest_p if pred[i].label == lbl], dtype=np.int64)
                self._pair_block(gold, pred, bg, bp, ctx, out)

    def _pair_exact(self, gold: list[Annotation], pred: list[Annotation], gi: Index, pi: Index,
                    ctx: Context, out: DocumentAlignment) -> bool:
        """Pair by equal (start, end, label, significant attribute values), by hashing.

        Returns False, leaving the work to the blocks, when an attribute value is an
        annotation, a set or a list (those need the similarity's own comparison).
        """
        assert isinstance(self.similarity, StrictSimilarity)  # _pair_group calls this for the strict similarity only
        names = self.similarity.attributes
        gsel = [gold[i] for i in gi.tolist()]
        psel = [pred[i] for i in pi.tolist()]
        gkey: list[object] = [out.gold_label[i] for i in gi.tolist()]
        pkey: list[object] = [out.pred_label[i] for i in pi.tolist()]
        gkey, pkey = _with_pieces(gkey, gsel, pkey, psel)
        if names:
            for side_keys, anns, is_gold in ((gkey, gsel, True), (pkey, psel, False)):
                for k, a in enumerate(anns):
                    vals = tuple(ctx.value(a, n, is_gold) for n in names)
                    if any(isinstance(v, (Annotation, frozenset, tuple)) for v in vals):
                        return False
                    side_keys[k] = (side_keys[k], vals)
        codes = {key: c for c, key in enumerate(set(gkey) | set(pkey))}
        n = len(gsel) + len(psel)
        keys = np.empty((n, 4), dtype=np.int64)
        both = gsel + psel
        keys[:, 0] = np.fromiter(map(_START, both), np.int64, n)
        keys[:, 1] = np.fromiter(map(_END, both), np.int64, n)
        keys[:, 2] = np.fromiter(map(codes.__getitem__, gkey + pkey), np.int64, n)
        # how relations point to each annotation: of equal spans, those pointed to alike pair first, then the
        # rest in the order of their pointers (not of the files)
        g_in, p_in = out.incoming("gold"), out.incoming("pred")
        if g_in or p_in:
            sigs = [g_in.get(id(a), ()) for a in gsel] + [p_in.get(id(a), ()) for a in psel]
            rank = {sig: r for r, sig in enumerate(sorted(set(sigs)))}
            keys[:, 3] = np.fromiter(map(rank.__getitem__, sigs), np.int64, n)
            ng = len(gsel)
            mg, mp = exact_pairs(keys[:ng], keys[ng:])
            rest_g = np.setdiff1d(np.arange(ng), mg)
            rest_p = np.setdiff1d(np.arange(len(psel)), mp)
            rest_g = rest_g[np.argsort(keys[rest_g, 3], kind="stable")]
            rest_p = rest_p[np.argsort(keys[ng + rest_p, 3], kind="stable")]
            mg2, mp2 = exact_pairs(keys[rest_g, :3], keys[ng + rest_p, :3])
            mg = np.concatenate([mg, rest_g[mg2]])
            mp = np.concatenate([mp, rest_p[mp2]])
        else:
            mg, mp = exact_pairs(keys[: len(gsel), :3], keys[len(gsel):, :3])
        g_idx, p_idx = gi[mg], pi[mp]
        out.gold_status[g_idx] = MATCH
        out.pred_status[p_idx] = MATCH
        g_list, p_list = g_idx.tolist(), p_idx.tolist()
        out.pairs.extend(map(Pair, g_list, p_list, repeat(1.0)))
        if g_in or p_in:   # pairs are looked up only through annotations that point to others
            ctx.add_pairs(zip(zip(map(id, map(gold.__getitem__, g_list)), map(id, map(pred.__getitem__, p_list))),
                              repeat(1.0)))
        return True

    def _pair_blocks(self, gold: list[Annotation], pred: list[Annotation], gi: Index, pi: Index,
                     gs: Int64s, ge: Int64s, ps: Int64s, pe: Int64s,
                     ctx: Context, out: DocumentAlignment) -> None:
        ng = len(gi)
        block = overlap_blocks(np.concatenate([gs, ps]), np.concatenate([ge, pe]))
        gb, pb = block[:ng], block[ng:]
        both = np.intersect1d(gb, pb)
        if len(both) == 0:
            return
        g_order = np.argsort(gb, kind="stable")
        p_order = np.argsort(pb, kind="stable")
        g_sorted, p_sorted = gb[g_order], pb[p_order]
        g_lo = np.searchsorted(g_sorted, both, "left")
        g_hi = np.searchsorted(g_sorted, both, "right")
        p_lo = np.searchsorted(p_sorted, both, "left")
        p_hi = np.searchsorted(p_sorted, both, "right")
        gsel = gi[g_order]
        psel = pi[p_order]
        # blocks of one gold and one predicted item (most of them): scored together, one call per shape
        single = (g_hi - g_lo == 1) & (p_hi - p_lo == 1)
        scored: dict[int, tuple[float, tuple[str, ...], tuple[str, ...]]] = {}
        if single.sum() > 1:
            sg, sp = gsel[g_lo[single]].tolist(), psel[p_lo[single]].tolist()
            got = pair_scores(self.similarity, [gold[i] for i in sg], [pred[j] for j in sp],
                              [out.gold_label[i] for i in sg], [out.pred_label[j] for j in sp], ctx)
            if got is not None:
                scored = dict(zip(sg, got))
        keep_clash = self.similarity.clash
        # the single blocks' pairs recorded as :meth:`_record` does, in the same order (the pairs and the context
        # are written as they come; the statuses, one per item, at the end)
        g_at, p_at = gsel.tolist(), psel.tolist()
        matched_g: list[int] = []
        matched_p: list[int] = []
        clashed_g: list[int] = []
        clashed_p: list[int] = []
        append, add_pair = out.pairs.append, ctx.add_pair
        for a0, a1, b0, b1 in zip(g_lo.tolist(), g_hi.tolist(), p_lo.tolist(), p_hi.tolist()):
            if a1 - a0 == 1 and b1 - b0 == 1 and scored:
                i, j = g_at[a0], p_at[b0]
                s, rt, ht = scored[i]
                if s >= 1.0:
                    matched_g.append(i)
                    matched_p.append(j)
                    append(Pair(i, j, s))
                elif s > 0 and keep_clash:
                    clashed_g.append(i)
                    clashed_p.append(j)
                    append(Pair(i, j, s, rt, ht))
                else:
                    continue
                add_pair(id(gold[i]), id(pred[j]), s)
                continue
            self._pair_block(gold, pred, gsel[a0:a1], psel[b0:b1], ctx, out)
        if matched_g:
            out.gold_status[matched_g] = out.pred_status[matched_p] = MATCH
        if clashed_g:
            out.gold_status[clashed_g] = out.pred_status[clashed_p] = CLASH

    def _pair_block(self, gold: list[Annotation], pred: list[Annotation], bg: Index, bp: Index,
                    ctx: Context, out: DocumentAlignment) -> None:
        sim = self.similarity
        keep_clash = sim.clash
        if len(bg) * len(bp) > DENSE_LIMIT:
            self._pair_pile(gold, pred, bg, bp, ctx, out)
            return
        if len(bg) == 1 and len(bp) == 1:
            i, j = int(bg[0]), int(bp[0])
            s, rt, ht = sim(gold[i], pred[j], ctx)
            if s > 0 and (keep_clash or s >= 1.0):
                self._record(i, j, s, rt, ht, gold, pred, ctx, out)
            return
        # canonical order: the rows and columns sorted by content, and the matrix turned by the
        # content of the two sides, so that among tied assignments the one chosen depends neither
        # on the order of the annotations in the files nor on which side is gold
        g_in, p_in = out.incoming("gold"), out.incoming("pred")
        gkeys = [_content_key(gold[i], out.gold_label[i], g_in, ctx.implied(gold[i]) or (-1, -1), out.contents)
                 for i in bg.tolist()]
        pkeys = [_content_key(pred[j], out.pred_label[j], p_in, ctx.implied(pred[j]) or (-1, -1), out.contents)
                 for j in bp.tolist()]
        order_g = sorted(range(len(bg)), key=gkeys.__getitem__)
        order_p = sorted(range(len(bp)), key=pkeys.__getitem__)
        bg, bp = bg[order_g], bp[order_p]
        g_list, p_list = bg.tolist(), bp.tolist()
        by_shape = spanless_block_scores(sim, [gold[i] for i in g_list], [pred[j] for j in p_list],
                                         [out.gold_label[i] for i in g_list], [out.pred_label[j] for j in p_list], ctx)
        if by_shape is not None:
            m, tokens_of = by_shape
        else:
            m = np.zeros((len(bg), len(bp)))
            toks: dict[tuple[int, int], tuple[tuple[str, ...], tuple[str, ...]]] = {}
            for x, i in enumerate(g_list):
                for y, j in enumerate(p_list):
                    s, rt, ht = sim(gold[i], pred[j], ctx)
                    if s > 0 and (keep_clash or s >= 1.0):
                        m[x, y] = s
                        toks[(x, y)] = (rt, ht)

            def tokens_of(x: int, y: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
                return toks[(x, y)]
        rows, cols = assign_by_content(m, [gkeys[k] for k in order_g], [pkeys[k] for k in order_p])
        for x, y in zip(rows.tolist(), cols.tolist()):
            rt, ht = tokens_of(x, y)
            self._record(g_list[x], p_list[y], float(m[x, y]), rt, ht, gold, pred, ctx, out)

    def _pair_pile(self, gold: list[Annotation], pred: list[Annotation], bg: Index, bp: Index,
                   ctx: Context, out: DocumentAlignment) -> None:
        """A block too large for a full matrix: the similarity of nearest-neighbour candidates only, paired by a
        sparse assignment (:mod:`accord.match.sparse`)."""
        warn_pile(f"document {out.doc_id!r}", len(bg), len(bp))

        def extents(anns: list[Annotation], idx: Index) -> tuple[Int64s, Int64s]:
            spans = [(a.start, a.end) if a.start is not None else (implied_span(a) or (0, 0))
                     for a in map(anns.__getitem__, idx.tolist())]
            arr = np.asarray(spans, dtype=np.int64).reshape(-1, 2)
            return arr[:, 0], arr[:, 1]

        gs, ge = extents(gold, bg)
        ps, pe = extents(pred, bp)
        codes: dict[str, int] = {}
        gl = np.fromiter((codes.setdefault(out.gold_label[i], len(codes)) for i in bg.tolist()), np.int64, len(bg))
        pl = np.fromiter((codes.setdefault(out.pred_label[j], len(codes)) for j in bp.tolist()), np.int64, len(bp))
        cg, cp = near_candidates(gs, ge, ps, pe, gl, pl)
        sims = np.zeros(len(cg))
        toks: dict[int, tuple[tuple[str, ...], tuple[str, ...]]] = {}
        sim, keep_clash = self.similarity, self.similarity.clash
        for k, (x, y) in enumerate(zip(cg.tolist(), cp.tolist())):
            s, rt, ht = sim(gold[int(bg[x])], pred[int(bp[y])], ctx)
            if s > 0 and (keep_clash or s >= 1.0):
                sims[k] = s
                toks[k] = (rt, ht)
        rows, cols = sparse_assign(cg, cp, sims, len(bg), len(bp))
        where = {(x, y): k for k, (x, y) in enumerate(zip(cg.tolist(), cp.tolist()))}
        for x, y in zip(rows.tolist(), cols.tolist()):
            k = where[(x, y)]
            rt, ht = toks[k]
            self._record(int(bg[x]), int(bp[y]), float(sims[k]), rt, ht, gold, pred, ctx, out)

    @staticmethod
    def _record(i: int, j: int, s: float, rt: tuple[str, ...], ht: tuple[str, ...],
                gold: list[Annotation], pred: list[Annotation], ctx: Context, out: DocumentAlignment) -> None:
        if s >= 1.0:
            out.gold_status[i] = out.pred_status[j] = MATCH
            out.pairs.append(Pair(i, j, s))
        else:
            out.gold_status[i] = out.pred_status[j] = CLASH
            out.pairs.append(Pair(i, j, s, rt, ht))
        ctx.add_pair(id(gold[i]), id(pred[j]), s)


def _content_value(value: object) -> object:
    if isinstance(value, Annotation):
        return ("@", value.label, -1 if value.start is None else value.start, -1 if value.end is None else value.end)
    if isinstance(value, frozenset):
        return ("set", tuple(sorted(repr(_content_value(v)) for v in value)))
    if isinstance(value, tuple):
        return ("list", tuple(repr(_content_value(v)) for v in value))
    return (type(value).__name__, repr(value))


def _attribute_content(ann: Annotation, contents: dict[int, str]) -> str:
    """The attributes of an annotation by content (targets by label and span), as a string; computed once.

    The string is the ``repr`` of the sorted list of ``(name, value)`` items, a target as ``("@", label, start,
    end)``; when every value is a target (a relation), it is put together from each target's part, kept in
    ``contents`` under ``~id(target)`` (never an ``id``: those are not negative), as targets are shared by many
    relations."""
    got = contents.get(id(ann))
    if got is None:
        attrs = ann.attributes
        if not attrs:
            got = "[]"
        elif _TARGET_TYPE.issuperset(map(type, attrs.values())) and all(type(k) is str for k in attrs):
            parts = []
            for k in sorted(attrs):     # (names are distinct: the order of the sorted items)
                v = attrs[k]
                part = contents.get(~id(v))
                if part is None:
                    part = contents[~id(v)] = target_text(v)
                parts.append(f"({k!r}, {part})")
            got = "[" + ", ".join(parts) + "]"
        else:
            got = repr(sorted([
                (k, ("@", v.label, -1 if v.start is None else v.start, -1 if v.end is None else v.end)
                 if type(v) is Annotation else _content_value(v)) for k, v in attrs.items()]))
        contents[id(ann)] = got
    return got


_TARGET_TYPE = frozenset([Annotation])


def _content_key(ann: Annotation, label: str, incoming: dict[int, Pointers] | None = None,
                 span: tuple[int, int] | None = None, contents: dict[int, str] | None = None) -> ContentKey:
    """A sort key of an annotation by content (scoring label, span, attributes, how others point to it), not by
    its position in its file. ``span`` is its (implied) span when known."""
    if span is None:
        if ann.start is not None:
            assert ann.end is not None  # make_annotation: a start comes with an end
            span = (ann.start, ann.end)
        else:
            span = implied_span(ann) or (-1, -1)
    return (label, span, ann.fragments or (), ann.label, _attribute_content(ann, {} if contents is None else contents),
            (incoming or {}).get(id(ann), ()))


def _incoming(anns: Sequence[Annotation], contents: dict[int, str] | None = None,
              pointing: list[tuple[int, Annotation]] | None = None) -> dict[int, Pointers]:
    """For each annotation another one points to: how it is pointed to, sorted.

    Each pointer is described by the pointing annotation's label, the attribute, and the
    content of all its attributes (other arguments by label and span), so that two equal
    spans that relations with different other arguments point to are told apart.
    """
    out: dict[int, list[tuple[str, Annotation]]] = {}
    for _, a in _may_point(anns) if pointing is None else pointing:
        for name, value in a.attributes.items():
            if isinstance(value, Annotation):
                out.setdefault(id(value), []).append((name, a))
            elif is_aggregate(value):
                for t in value:
                    if isinstance(t, Annotation):
                        out.setdefault(id(t), []).append((name, a))
    return _Pointed(out, {} if contents is None else contents)


class _Pointed(dict):  # type: ignore[type-arg]  # holds the raw pointers; get() gives the described ones
    """:func:`_incoming`'s mapping: the pointers to each annotation are described (the pointing annotation's label,
    the attribute and its attribute content) and sorted when first asked for, as most annotations pointed to are
    never compared in a block (their content key is not needed)."""

    __slots__ = ("_contents", "_described")

    def __init__(self, raw: dict[int, list[tuple[str, Annotation]]], contents: dict[int, str]):
        super().__init__(raw)
        self._contents = contents
        self._described: dict[int, Pointers] = {}

    def get(self, key: int, default: Any = None) -> Any:
        got = self._described.get(key)
        if got is None:
            raw = dict.get(self, key)
            if raw is None:
                return default
            contents = self._contents
            got = self._described[key] = tuple(sorted([(a.label, name, _attribute_content(a, contents))
                                                       for name, a in raw]))
        return got

    def __getitem__(self, key: int) -> Pointers:
        got: Pointers | None = self.get(key)
        if got is None:
            raise KeyError(key)
        return got


def reference_depths(anns: list[Annotation], groups: Int64s, doc_id: str, side: str) -> Int64s:
    """For each annotation, how many spanless annotations it reaches through spanless ones it points to (0 for
    spanned annotations and for spanless ones pointing to spans only); a cycle is a :class:`PairingError`."""
    spanless = (groups % 2 == 1).tolist()
    index = {id(a): k for k, a in enumerate(anns)}
    targets: dict[int, list[int]] = {}
    for k, a in _may_point(anns):
        if spanless[k]:
            targets[k] = [j for t in a.referenced() if (j := index.get(id(t))) is not None and spanless[j]]
    depth = np.zeros(len(anns), dtype=np.int64)
    state = [0] * len(anns)    # 0 new, 1 on the path, 2 done
    for root in targets:
        if state[root]:
            continue
        stack = [(root, 0)]
        path = [root]
        state[root] = 1
        while stack:
            k, next_child = stack[-1]
            children = targets.get(k, [])
            if next_child < len(children):
                stack[-1] = (k, next_child + 1)
                j = children[next_child]
                if state[j] == 1:
                    cycle = path[path.index(j):] + [j]
                    raise PairingError(f"document {doc_id!r} ({side}): annotations point to each other in a cycle: "
                                       + " -> ".join(repr(anns[c]) for c in cycle))
                if state[j] == 0:
                    state[j] = 1
                    stack.append((j, 0))
                    path.append(j)
                continue
            depth[k] = 1 + max((int(depth[j]) for j in children), default=-1)
            state[k] = 2
            stack.pop()
            path.pop()
    return depth


def _with_pieces(gold_keys: list[object], gold: list[Annotation], pred_keys: list[object], pred: list[Annotation]
                 ) -> tuple[list[object], list[object]]:
    """Exact-pairing keys with the pieces of discontinuous spans added (on both sides, when either has one), so
    that equal extents with different pieces do not pair."""
    if not any(map(_FRAGMENTS, gold)) and not any(map(_FRAGMENTS, pred)):
        return gold_keys, pred_keys
    return list(zip(gold_keys, map(_FRAGMENTS, gold))), list(zip(pred_keys, map(_FRAGMENTS, pred)))


class _FlatSide:
    """The annotations of one side of many documents, one after the other: their scoring labels, and their starts
    and ends as arrays when every annotation is ``plain`` (spanned, without attributes or pieces: what the strict
    batch pairs without looking at a document alone), each read once for the batch and the labels of its
    documents."""

    __slots__ = ("sizes", "labels", "starts", "ends", "plain")

    def __init__(self, sizes: Int64s, labels: list[str], starts: Int64s | None, ends: Int64s | None, plain: bool):
        self.sizes, self.labels, self.starts, self.ends, self.plain = sizes, labels, starts, ends, plain

    @classmethod
    def of(cls, docs: Sequence[Sequence[Annotation]], equivalences: dict[str, str] | None = None) -> _FlatSide:
        """The annotations of ``docs``, their labels mapped by ``equivalences`` (as :meth:`Pairer._labelled`)."""
        sizes = np.fromiter(map(len, docs), np.int64, len(docs))
        flat = list(chain.from_iterable(docs))
        n = len(flat)
        labels = list(map(_LABEL, flat))
        if equivalences:
            labels = [equivalences.get(lbl, lbl) for lbl in labels]
        starts = ends = None
        plain = not any(map(_ATTRIBUTES, flat)) and not any(map(_FRAGMENTS, flat))
        if plain:
            try:     # (a spanless annotation's None is no integer)
                starts = np.fromiter(map(_START, flat), np.int64, n)
                ends = np.fromiter(map(_END, flat), np.int64, n)
            except TypeError:
                plain = False
        return cls(sizes, labels, starts, ends, plain)

    def per_document(self) -> Iterable[tuple[str, ...]]:
        """The labels of each document, as tuples."""
        bounds = np.zeros(len(self.sizes) + 1, dtype=np.int64)
        np.cumsum(self.sizes, out=bounds[1:])
        cut = bounds.tolist()
        return map(tuple, map(self.labels.__getitem__, map(slice, cut[:-1], cut[1:])))


def _flat_keys(flat: tuple[_FlatSide, _FlatSide], documents: int) -> list[Int64s]:
    """The exact-pairing keys (document, start, end, label code) of both sides' plain annotations."""
    labels = sorted(set(flat[0].labels) | set(flat[1].labels), key=repr)
    code_of = {lbl: c for c, lbl in enumerate(labels)}
    keys = []
    for side in flat:
        assert side.starts is not None and side.ends is not None    # (plain)
        n = len(side.labels)
        k = np.empty((n, 4), dtype=np.int64)
        k[:, 0] = np.repeat(np.arange(documents), side.sizes)
        k[:, 1] = side.starts
        k[:, 2] = side.ends
        k[:, 3] = np.fromiter(map(code_of.__getitem__, side.labels), np.int64, n)
        keys.append(k)
    return keys


def _pair_exact_batch(alignments: list[DocumentAlignment], gold_status: npt.NDArray[np.int8] | None = None,
                      pred_status: npt.NDArray[np.int8] | None = None,
                      flat: tuple[_FlatSide, _FlatSide] | None = None) -> None:
    """Pair the spanned annotations of many documents by equal (document, start, end, label), at once.

    ``gold_status`` and ``pred_status``, when given, are the outcomes of all the documents' items one after the
    other (each document's ``gold_status`` a view of them): they are set at once. ``flat``, when given, are the
    documents' annotations read already (every one plain, the documents those of ``alignments``).
    """
    if flat is not None:
        n_gold, n_pred = flat[0].sizes, flat[1].sizes
    else:
        n_gold = np.fromiter((len(al.gold) for al in alignments), np.int64, len(alignments))
        n_pred = np.fromiter((len(al.pred) for al in alignments), np.int64, len(alignments))
    if not n_gold.sum() or not n_pred.sum():
        return
    keys = []
    if flat is not None:
        keys = _flat_keys(flat, len(alignments))
    else:
        gold = [a for al in alignments for a in al.gold]
        pred = [a for al in alignments for a in al.pred]
        glabels: list[object] = [lbl for al in alignments for lbl in al.gold_label]
        plabels: list[object] = [lbl for al in alignments for lbl in al.pred_label]
        glabels, plabels = _with_pieces(glabels, gold, plabels, pred)
        code_of = {lbl: c for c, lbl in enumerate(sorted(set(glabels) | set(plabels), key=repr))}
        for anns, labels, counts in ((gold, glabels, n_gold), (pred, plabels, n_pred)):
            n = len(anns)
            k = np.empty((n, 4), dtype=np.int64)
            k[:, 0] = np.repeat(np.arange(len(alignments)), counts)
            k[:, 1] = np.fromiter(map(_START, anns), np.int64, n)
            k[:, 2] = np.fromiter(map(_END, anns), np.int64, n)
            k[:, 3] = np.fromiter(map(code_of.__getitem__, labels), np.int64, n)
            keys.append(k)
    mg, mp = exact_pairs(keys[0], keys[1])
    order = np.argsort(mg, kind="stable")   # by document, then as each document's own pairing orders them
    mg, mp = mg[order], mp[order]
    doc = keys[0][mg, 0]
    g_off = np.concatenate([[0], np.cumsum(n_gold)])
    p_off = np.concatenate([[0], np.cumsum(n_pred)])
    local_g = mg - g_off[doc]
    local_p = mp - p_off[doc]
    if gold_status is not None and pred_status is not None:
        gold_status[mg] = MATCH
        pred_status[mp] = MATCH
        # the pairs made in one pass (Pair's fields, its defaults given), each document's a slice of them
        made = list(map(tuple.__new__, repeat(Pair), zip(local_g.tolist(), local_p.tolist(), repeat(1.0), repeat(()),
                                                         repeat(()))))
        cut = np.flatnonzero(np.diff(doc)) + 1
        lows = [0, *cut.tolist()] if len(made) else []
        for d, lo, hi in zip(doc[lows].tolist(), lows, [*lows[1:], len(made)]):
            alignments[d].pairs.extend(made[lo:hi])
        return
    bounds = np.searchsorted(doc, np.arange(len(alignments) + 1))
    for d, al in enumerate(alignments):
        lo, hi = bounds[d], bounds[d + 1]
        if lo == hi:
            continue
        g_idx, p_idx = local_g[lo:hi], local_p[lo:hi]
        al.gold_status[g_idx] = MATCH
        al.pred_status[p_idx] = MATCH
        al.pairs.extend(map(Pair, g_idx.tolist(), p_idx.tolist(), repeat(1.0)))


def _plain_documents(gold: list[Sequence[Annotation]], pred: list[Sequence[Annotation]]) -> list[bool]:
    """For each document (its gold and predicted annotations), whether every annotation has a span and none may
    point to another (:func:`_may_point`): the spans and attributes of the whole corpus looked at in two passes,
    the few documents with attributes one by one."""
    n = len(gold)
    sizes = np.fromiter(map(len, gold), np.int64, n) + np.fromiter(map(len, pred), np.int64, n)
    flat = [a for g, p in zip(gold, pred) for a in chain(g, p)]
    doc = np.repeat(np.arange(n), sizes)
    spanless = np.fromiter(map(is_, map(_START, flat), repeat(None)), bool, len(flat))
    with_attributes = np.fromiter(map(bool, map(_ATTRIBUTES, flat)), bool, len(flat))
    bad = np.bincount(doc[spanless], minlength=n) > 0
    plain: list[bool] = (~bad).tolist()
    for d in sorted(set(doc[with_attributes].tolist())):
        if plain[d] and (_may_point(gold[d]) or _may_point(pred[d])):
            plain[d] = False
    return plain


def _may_point(anns: Sequence[Annotation]) -> list[tuple[int, Annotation]]:
    """The annotations (with their index) that have a value other than a scalar: those that may point to others.
    An attributes object found to hold scalars only is not looked at again (readers share them between rows)."""
    objects = list(map(_ATTRIBUTES, anns))
    ids = list(map(id, objects))
    # each distinct attributes object looked at once (the list keeps them alive, so their ids stay theirs)
    pointing = {i for i, attrs in dict(zip(ids, objects)).items()
                if attrs and not SCALAR_TYPES.issuperset(map(type, attrs.values()))}
    if not pointing:
        return []
    return list(compress(enumerate(anns), map(pointing.__contains__, ids)))


def make_similarity(profile: str | None, task: Task | None, attributes: Sequence[str] = ()) -> Similarity:
    """The similarity for a profile name: ``strict``, ``lenient``, ``mat`` or a task profile."""
    if profile in (None, "strict") and (profile == "strict" or task is None):
        return StrictSimilarity(tuple(attributes))
    if profile == "lenient":
        return LenientSimilarity(tuple(attributes))
    if profile == "mat":
        spec = task.similarity_profile(None) if task is not None else None
        return ProfileSimilarity(spec, task)
    if task is None:
        raise ProfileError(f"profile {profile!r} needs a task file (--task) that defines it; "
                           "built-in profiles are strict, lenient and mat")
    if profile == "default" and "default" not in {p.name for p in task.similarity_profiles}:
        profile = None      # the name a result gives the task's unnamed profile
    return ProfileSimilarity(task.similarity_profile(profile), task)


Labeler = Callable[[Annotation], str]

_LABEL = itemgetter(0)
_START = itemgetter(1)
_ATTRIBUTES = itemgetter(3)
_END = itemgetter(2)
_FRAGMENTS = itemgetter(5)
