"""From a tag-level alignment to scored intervals: MAT's token, pseudo-token and character scoring.

The tag-level pairing (:mod:`accord.match.engine`) decides which annotations pair. Then,
per document, as MAT's scorer does (``../shared/notes/mat-scorer.md`` section 2.5):

1. for each pair of spanned annotations, the part of the gold span outside the predicted
   one becomes a *missing* interval and the part of the predicted span outside the gold
   one a *spurious* interval; the intersection is re-paired with the *token similarity*,
   the pair's similarity with both spans cut to the intersection (so the span counts as
   equal and only the label and the attributes matter): 1 is a match, between 0 and 1 a
   clash, 0 a missing and a spurious interval;
2. unpaired annotations become whole missing or spurious intervals;
3. all missing and spurious intervals are cut at every boundary among them and re-paired
   per elementary interval by the token similarity (one to one, Kuhn-Munkres): gold
   ``a b c d`` against predicted ``a b`` + ``c d`` then scores as a full match.

The result is a list of intervals ``(start, end, status, gold label, predicted label)``
that the units (:mod:`accord.units._counts`) measure in characters, whitespace
pseudo-tokens or tokens.
"""

from __future__ import annotations

from collections import defaultdict
from typing import NamedTuple

import numpy as np

from ..match.assign import assign
from ..match.engine import DocumentAlignment
from ..match.similarity import Context, Similarity
from ..model import Annotation

__all__ = ["Interval", "MATCHED", "CLASHED", "MISSING", "SPURIOUS", "scored_intervals"]

MATCHED, CLASHED, MISSING, SPURIOUS = "match", "clash", "missing", "spurious"


class Interval(NamedTuple):
    """A scored stretch of the signal; labels are ``None`` on the side that has no annotation."""

    start: int
    end: int
    status: str
    gold_label: str | None
    pred_label: str | None


class _Piece(NamedTuple):
    start: int
    end: int
    ann: Annotation
    label: str


def _token_similarity(similarity: Similarity, r: Annotation, h: Annotation, a: int, b: int, ctx: Context) -> float:
    s, _, _ = similarity(r._replace(start=a, end=b, fragments=None), h._replace(start=a, end=b, fragments=None),
                         ctx)
    return float(s)


def scored_intervals(alignment: DocumentAlignment, similarity: Similarity, ctx: Context,
                     skip_labels: frozenset[str] = frozenset()) -> list[Interval]:
    """The scored intervals of one document (spanned annotations only).

    Parameters
    ----------
    alignment : DocumentAlignment
        The tag-level pairing of the document.
    similarity : Similarity
        The similarity that paired it; it also gives the token similarity.
    ctx : Context
        The pairing context (labels, task, earlier pairs for annotation-valued attributes).
    skip_labels : frozenset of str
        Labels left out (the token annotations themselves, e.g. MAT's ``lex``).
    """
    gold, pred = alignment.gold, alignment.pred
    out: list[Interval] = []
    missing: list[_Piece] = []
    spurious: list[_Piece] = []

    def spanned(ann: Annotation, label: str) -> bool:
        return ann.start is not None and label not in skip_labels and ann.end is not None and ann.end > ann.start

    paired_g, paired_p = set(), set()
    for pair in alignment.pairs:
        r, h = gold[pair.gold], pred[pair.pred]
        rl, hl = alignment.gold_label[pair.gold], alignment.pred_label[pair.pred]
        if not (spanned(r, rl) and spanned(h, hl)):
            continue
        paired_g.add(pair.gold)
        paired_p.add(pair.pred)
        # the stretches both cover (one for contiguous spans; several when a span is discontinuous), scored by the
        # similarity of the two annotations cut to the stretch; what only one covers is missing or spurious
        shared = [(max(a, c), min(b, d)) for a, b in r.pieces for c, d in h.pieces if max(a, c) < min(b, d)]
        if not shared:
            missing.extend(_Piece(a, b, r, rl) for a, b in r.pieces if a < b)
            spurious.extend(_Piece(c, d, h, hl) for c, d in h.pieces if c < d)
            continue
        for a, b in shared:
            s = _token_similarity(similarity, r, h, a, b, ctx)
            if s >= 1.0:
                out.append(Interval(a, b, MATCHED, rl, hl))
            elif s > 0:
                out.append(Interval(a, b, CLASHED, rl, hl))
            else:
                missing.append(_Piece(a, b, r, rl))
                spurious.append(_Piece(a, b, h, hl))
        missing.extend(_Piece(a, b, r, rl) for a, b in _outside(r.pieces, shared))
        spurious.extend(_Piece(a, b, h, hl) for a, b in _outside(h.pieces, shared))
    for k, (r, rl) in enumerate(zip(gold, alignment.gold_label)):
        if k not in paired_g and spanned(r, rl):
            missing.extend(_Piece(a, b, r, rl) for a, b in r.pieces if a < b)
    for k, (h, hl) in enumerate(zip(pred, alignment.pred_label)):
        if k not in paired_p and spanned(h, hl):
            spurious.extend(_Piece(a, b, h, hl) for a, b in h.pieces if a < b)
    out.extend(_repair_leftovers(missing, spurious, similarity, ctx))
    out.sort(key=lambda iv: (iv.start, iv.end))
    return out


def _outside(pieces: tuple[tuple[int, int], ...], shared: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The parts of ``pieces`` that no stretch of ``shared`` covers (both sorted, disjoint)."""
    out = []
    for a, b in pieces:
        at = a
        for c, d in shared:
            if d <= at or c >= b:
                continue
            if c > at:
                out.append((at, c))
            at = max(at, d)
        if at < b:
            out.append((at, b))
    return out


def _cut(pieces: list[_Piece], bounds: np.ndarray) -> list[_Piece]:
    cut = []
    for p in pieces:
        lo, hi = np.searchsorted(bounds, [p.start, p.end]).tolist()
        points = bounds[lo:hi + 1].tolist()
        for a, b in zip(points, points[1:]):
            cut.append(_Piece(a, b, p.ann, p.label))
    return cut


def _repair_leftovers(missing: list[_Piece], spurious: list[_Piece], similarity: Similarity, ctx: Context
                      ) -> list[Interval]:
    """Cut the missing and spurious intervals at every boundary among them and re-pair each elementary interval."""
    if not missing and not spurious:
        return []
    bounds = np.unique(np.array([x for p in missing + spurious for x in (p.start, p.end)], dtype=np.int64))
    by_interval: dict[tuple[int, int], tuple[list[_Piece], list[_Piece]]] = defaultdict(lambda: ([], []))
    for p in _cut(missing, bounds):
        by_interval[(p.start, p.end)][0].append(p)
    for p in _cut(spurious, bounds):
        by_interval[(p.start, p.end)][1].append(p)
    out = []
    for (a, b), (ms, ss) in by_interval.items():
        used_m, used_s = set(), set()
        if ms and ss:
            sim = np.array([[_token_similarity(similarity, m.ann, s.ann, a, b, ctx) for s in ss] for m in ms])
            rows, cols = assign(sim, "1:1")
            for x, y in zip(rows.tolist(), cols.tolist()):
                status = MATCHED if sim[x, y] >= 1.0 else CLASHED
                out.append(Interval(a, b, status, ms[x].label, ss[y].label))
                used_m.add(x)
                used_s.add(y)
        out.extend(Interval(a, b, MISSING, m.label, None) for x, m in enumerate(ms) if x not in used_m)
        out.extend(Interval(a, b, SPURIOUS, None, s.label) for y, s in enumerate(ss) if y not in used_s)
    return out
