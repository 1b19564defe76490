"""The SemEval-2013 (task 9.1) partial-match schemas, as nervaluate reports them, on an optimal pairing.

Gold and predicted spans that overlap may pair, one to one. Each schema judges a pair:

==========  =======================================  =====================================
schema      correct                                  otherwise (the spans overlap)
==========  =======================================  =====================================
strict      same boundaries and same label           incorrect
exact       same boundaries                          incorrect
partial     same boundaries                          partial
type        same label                               incorrect
==========  =======================================  =====================================

An unpaired gold span is *missed*, an unpaired predicted span *spurious*. With
``POS = COR + INC + PAR + MIS`` (possible) and ``ACT = COR + INC + PAR + SPU`` (actual):

.. math::

    P = \\frac{COR + \\tfrac12 PAR}{ACT}, \\qquad R = \\frac{COR + \\tfrac12 PAR}{POS},
    \\qquad F = \\frac{2PR}{P + R}

(``PAR`` is 0 outside the partial schema, so strict, exact and type reduce to ``COR/ACT``
and ``COR/POS``.)

How the pairs are chosen, and where the numbers can differ from nervaluate:

- accord pairs each schema's spans by maximum weight inside each overlap block
  (Kuhn-Munkres, :func:`accord.match.assign.assign`): first as many *correct* pairs as
  possible, then as many pairs as possible, then the larger overlap. nervaluate walks the
  predicted spans in order and takes, for each, the first gold span it overlaps (type: the
  nearest one of the same label), whatever comes later. Where a later predicted span
  would have matched that gold span exactly, nervaluate counts an incorrect and a
  spurious span where accord counts a correct one; the order of the spans in the input
  can change nervaluate's counts, never accord's. On data where every overlap block has
  one gold and one predicted span (most NER output) the two agree.
- Counts by label: a pair counts on its gold span's label for POS (``correct``,
  ``incorrect``, ``partial``, ``missed``) and on its predicted span's label for ACT
  (``correct_act``, ``incorrect_act``, ``partial_act``, ``spurious``), so every count of
  the overall row is the sum of the label rows. nervaluate scores each label on its own,
  dropping the other labels' spans: a gold PER span predicted as LOC is then missed for
  PER and spurious for LOC, and its label rows do not add up to its overall row.
- Discontinuous spans (brat's fragments; nervaluate has none): boundaries are the same
  when every piece is, spans overlap when a piece of one overlaps a piece of the other,
  and the larger overlap is counted on the pieces.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from ..errors import OptionError, TallyError
from ..match.assign import TIE_TOLERANCE, assign
from ..match.axis import layered_tables
from ..match.blocks import overlap_blocks
from ..match.fragments import has_fragments
from ..match.sparse import DENSE_LIMIT, near_candidates, sparse_assign, warn_pile
from ..metrics.prf import f_from_counts, json_rate, safe_ratio
from ..model import Corpus, covered_length, overlap_length, same_extent
from ..result._sentence_units import SentenceIndex

__all__ = ["SCHEMAS", "SchemaCounts", "SemEvalResult", "semeval_schemas"]

SCHEMAS = ("strict", "exact", "partial", "type")
CORRECT, INCORRECT, PARTIAL, UNPAIRED = range(4)


class SchemaCounts(NamedTuple):
    """Counts of one schema in one row (overall, a label or a document).

    ``correct``, ``incorrect``, ``partial`` and ``missed`` count gold spans (POS side);
    ``correct_act``, ``incorrect_act``, ``partial_act`` and ``spurious`` count predicted
    spans (ACT side). Over a whole corpus the pair counts of both sides are equal.
    """

    correct: int = 0
    incorrect: int = 0
    partial: int = 0
    missed: int = 0
    correct_act: int = 0
    incorrect_act: int = 0
    partial_act: int = 0
    spurious: int = 0
    half_credit: bool = False

    @property
    def possible(self) -> int:
        """``COR + INC + PAR + MIS`` (gold spans)."""
        return self.correct + self.incorrect + self.partial + self.missed

    @property
    def actual(self) -> int:
        """``COR + INC + PAR + SPU`` (predicted spans)."""
        return self.correct_act + self.incorrect_act + self.partial_act + self.spurious

    def rates(self, beta: float = 1.0, zero_division: str = "zero") -> tuple[float, float, float]:
        """Precision, recall and F-beta (half credit for partial pairs in the partial and type schemas)."""
        half = 0.5 if self.half_credit else 0.0
        p_num, r_num = self.correct_act + half * self.partial_act, self.correct + half * self.partial
        p = safe_ratio(p_num, self.actual, zero_division)
        r = safe_ratio(r_num, self.possible, zero_division)
        return p, r, f_from_counts(p_num, self.actual, r_num, self.possible, beta, p, r)

    def to_dict(self, beta: float = 1.0, zero_division: str = "zero") -> dict[str, Any]:
        p, r, f = self.rates(beta, zero_division)
        return {"correct": self.correct, "incorrect": self.incorrect, "partial": self.partial,
                "missed": self.missed, "spurious": self.spurious, "correct_act": self.correct_act,
                "incorrect_act": self.incorrect_act, "partial_act": self.partial_act,
                "possible": self.possible, "actual": self.actual,
                "precision": json_rate(p), "recall": json_rate(r), "f1": json_rate(f)}


@dataclass
class SemEvalResult:
    """Outcomes of every gold and predicted span under the four schemas."""

    gold_label: np.ndarray
    pred_label: np.ndarray
    gold_doc: np.ndarray
    pred_doc: np.ndarray
    gold_outcome: dict[str, np.ndarray]
    pred_outcome: dict[str, np.ndarray]
    labels: list[str]
    documents: list[str]
    beta: float = 1.0
    zero_division: str = "zero"
    gold_unit: np.ndarray | None = None
    """The sentence of each gold span (:class:`~accord.result._sentence_units.SentenceIndex`), and of each
    predicted one."""
    pred_unit: np.ndarray | None = None
    sentence_sizes: np.ndarray | None = None
    """The number of sentences of each document."""

    def __repr__(self) -> str:
        return (f"<SemEvalResult {len(self.documents)} documents, {len(self.gold_label)} gold and "
                f"{len(self.pred_label)} predicted spans, {len(self.labels)} labels>")

    def counts(self, schema: str, by: str | None = None) -> Any:
        """A :class:`SchemaCounts` overall, or a dict of them by ``"label"`` or ``"document"``."""
        if schema not in SCHEMAS:
            raise OptionError(f"unknown schema {schema!r}; expected one of {', '.join(SCHEMAS)}")
        go, po = self.gold_outcome[schema], self.pred_outcome[schema]
        half = schema in ("partial", "type")
        if by is None:
            g = np.bincount(go, minlength=4)
            p = np.bincount(po, minlength=4)
            out = _schema_counts(g.tolist() + p.tolist(), half)
            if out.possible != len(go) or out.actual != len(po) or g[:3].sum() != p[:3].sum():
                raise TallyError(f"{schema}: a span was lost or counted twice ({out})")
            return out
        if by == "label":
            keys, gk, pk = self.labels, self.gold_label, self.pred_label
        elif by == "document":
            keys, gk, pk = self.documents, self.gold_doc, self.pred_doc
        else:
            raise OptionError(f"counts by {by!r}: expected 'label' or 'document'")
        k = len(keys)
        g = np.bincount(gk * 4 + go, minlength=4 * k).reshape(k, 4)
        p = np.bincount(pk * 4 + po, minlength=4 * k).reshape(k, 4)
        both = np.concatenate([g, p], axis=1).tolist()
        rows = {key: _schema_counts(row, half) for key, row in zip(keys, both)}
        return dict(sorted(rows.items())) if by == "label" else rows


def _schema_counts(row: list[int], half_credit: bool) -> SchemaCounts:
    """The counts of one row: the four gold outcomes, then the four predicted ones (the fields' order)."""
    return SchemaCounts(row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], half_credit=half_credit)


_Pieces = tuple  # (gold annotations, predicted annotations, gold discontinuous?, predicted discontinuous?)


def _geometry(g: np.ndarray, p: np.ndarray, gs: np.ndarray, ge: np.ndarray, ps: np.ndarray, pe: np.ndarray,
              pieces: _Pieces | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For pairs ``(g[k], p[k])``: the shared length (negative when apart), the length of the union and whether
    the spans are equal; counted on the pieces where a span is discontinuous."""
    over = np.minimum(ge[g], pe[p]) - np.maximum(gs[g], ps[p])
    union = np.maximum(ge[g], pe[p]) - np.minimum(gs[g], ps[p])
    same = (gs[g] == ps[p]) & (ge[g] == pe[p])
    if pieces is not None:
        gann, pann, gfrag, pfrag = pieces
        for k in np.flatnonzero(gfrag[g] | pfrag[p]).tolist():
            r, h = gann[int(g[k])], pann[int(p[k])]
            inter = overlap_length(r, h)
            over[k], union[k] = inter, covered_length(r) + covered_length(h) - inter
            same[k] = same_extent(r, h)
    return over, union, same


def _outcomes(gs: np.ndarray, ge: np.ndarray, gl: np.ndarray, ps: np.ndarray, pe: np.ndarray, pl: np.ndarray,
              pieces: _Pieces | None = None) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Pair and judge all spans (on one axis) under every schema (``pieces``: the annotations in table order and
    which are discontinuous, when some are)."""
    ng, npred = len(gs), len(ps)
    go = {s: np.full(ng, UNPAIRED, dtype=np.int64) for s in SCHEMAS}
    po = {s: np.full(npred, UNPAIRED, dtype=np.int64) for s in SCHEMAS}
    if ng == 0 or npred == 0:
        return go, po
    block = overlap_blocks(np.concatenate([gs, ps]), np.concatenate([ge, pe]))
    gb, pb = block[:ng], block[ng:]
    nb = int(block.max()) + 1
    g_count = np.bincount(gb, minlength=nb)
    p_count = np.bincount(pb, minlength=nb)
    # blocks of one gold and one predicted span: the two overlap, so they pair in every schema
    simple = (g_count == 1) & (p_count == 1)
    gi = np.flatnonzero(simple[gb])
    pi = np.flatnonzero(simple[pb])
    gi = gi[np.argsort(gb[gi], kind="stable")]
    pi = pi[np.argsort(pb[pi], kind="stable")]
    touching = _geometry(gi, pi, gs, ge, ps, pe, pieces)[0] > 0  # False only for empty (or apart) spans
    gi, pi = gi[touching], pi[touching]
    _judge(go, po, gi, pi, gs, ge, gl, ps, pe, pl, pieces)
    # larger blocks: Kuhn-Munkres per block and schema
    hard = np.flatnonzero((g_count >= 1) & (p_count >= 1) & ~simple)
    if len(hard):
        g_order = np.argsort(gb, kind="stable")
        p_order = np.argsort(pb, kind="stable")
        g_bounds = np.searchsorted(gb[g_order], hard), np.searchsorted(gb[g_order], hard, side="right")
        p_bounds = np.searchsorted(pb[p_order], hard), np.searchsorted(pb[p_order], hard, side="right")
        paired: dict[str, tuple[list[np.ndarray], list[np.ndarray]]] = {schema: ([], []) for schema in SCHEMAS}
        # blocks of one span on a side (one gold span overlapped by several predicted ones, or the reverse: nearly
        # all the larger blocks), all at once
        n_g, n_p = g_bounds[1] - g_bounds[0], p_bounds[1] - p_bounds[0]
        star = ((n_g == 1) | (n_p == 1)) & (n_g * n_p <= DENSE_LIMIT)
        if star.any():
            for schema, (rows, cols) in _star_pairs(g_order, g_bounds[0][star], n_g[star], p_order,
                                                    p_bounds[0][star], n_p[star], gs, ge, gl, ps, pe, pl,
                                                    pieces).items():
                paired[schema][0].append(rows)
                paired[schema][1].append(cols)
        for k in np.flatnonzero(~star).tolist():
            bg = g_order[g_bounds[0][k]:g_bounds[1][k]]
            bp = p_order[p_bounds[0][k]:p_bounds[1][k]]
            if len(bg) * len(bp) > DENSE_LIMIT:
                for schema, (rows, cols) in _pile_pairs(bg, bp, gs, ge, gl, ps, pe, pl, pieces).items():
                    paired[schema][0].append(rows)
                    paired[schema][1].append(cols)
                continue
            if pieces is None:
                over = np.minimum(ge[bg][:, None], pe[bp][None, :]) - np.maximum(gs[bg][:, None], ps[bp][None, :])
                union = np.maximum(ge[bg][:, None], pe[bp][None, :]) - np.minimum(gs[bg][:, None], ps[bp][None, :])
                same_bounds = (gs[bg][:, None] == ps[bp][None, :]) & (ge[bg][:, None] == pe[bp][None, :])
            else:
                shape = (len(bg), len(bp))
                over, union, same_bounds = (x.reshape(shape) for x in _geometry(
                    np.repeat(bg, len(bp)), np.tile(bp, len(bg)), gs, ge, ps, pe, pieces))
            overlaps = over > 0
            closeness = np.where(overlaps, over / np.maximum(union, 1), 0.0)
            same_label = gl[bg][:, None] == pl[bp][None, :]
            big = float(min(len(bg), len(bp)) + 1)
            for schema in SCHEMAS:
                correct = {"strict": same_bounds & same_label, "exact": same_bounds, "partial": same_bounds,
                           "type": same_label}[schema] & overlaps
                weight = np.where(overlaps, 1.0 + big * correct + closeness / (2 * big), 0.0)
                rows, cols = assign(weight, "1:1")
                paired[schema][0].append(bg[rows])
                paired[schema][1].append(bp[cols])
        for schema, (gsel, psel) in paired.items():
            _judge({schema: go[schema]}, {schema: po[schema]}, np.concatenate(gsel), np.concatenate(psel),
                   gs, ge, gl, ps, pe, pl, pieces)
    return go, po


def _schema_weights(over: np.ndarray, union: np.ndarray, same_bounds: np.ndarray, same_label: np.ndarray,
                    big: np.ndarray | float) -> dict[str, np.ndarray]:
    """The weight of each pair under each schema (``big``: one more than the smaller side of its block): correct
    pairs first, then as many pairs as possible, then the larger overlap."""
    overlaps = over > 0
    closeness = np.where(overlaps, over / np.maximum(union, 1), 0.0)
    out = {}
    for schema in SCHEMAS:
        correct = {"strict": same_bounds & same_label, "exact": same_bounds, "partial": same_bounds,
                   "type": same_label}[schema] & overlaps
        out[schema] = np.where(overlaps, 1.0 + big * correct + closeness / (2 * big), 0.0)
    return out


def _star_pairs(g_order: np.ndarray, g_lo: np.ndarray, n_g: np.ndarray, p_order: np.ndarray, p_lo: np.ndarray,
                n_p: np.ndarray, gs: np.ndarray, ge: np.ndarray, gl: np.ndarray, ps: np.ndarray, pe: np.ndarray,
                pl: np.ndarray, pieces: _Pieces | None) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """The pairs of blocks with one span on a side (``n_g`` or ``n_p`` is 1), every block and schema at once: the
    single span takes the span of the other side of largest weight, the first of equal ones in the order of the
    input, when that weight is positive; what :func:`~accord.match.assign.assign` gives each block's matrix."""
    sizes = n_g * n_p
    block = np.repeat(np.arange(len(sizes)), sizes)
    first = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    at = np.arange(int(sizes.sum())) - first[block]      # the cell of each pair in its block's matrix, row-major
    g = g_order[g_lo[block] + at // n_p[block]]
    p = p_order[p_lo[block] + at % n_p[block]]
    over, union, same_bounds = _geometry(g, p, gs, ge, ps, pe, pieces)
    big = 2.0   # one more than the smaller side
    out = {}
    for schema, weight in _schema_weights(over, union, same_bounds, gl[g] == pl[p], big).items():
        objective = weight + TIE_TOLERANCE * ((weight > 0) + (weight >= 1.0).astype(float) / 2)
        order = np.lexsort((at, -objective, block))
        head = order[np.flatnonzero(np.diff(block[order], prepend=-1))]
        head = head[weight[head] > 0]
        out[schema] = (g[head], p[head])
    return out


PILE_CLOSENESS = 256
"""In a pile, the closeness of two spans is rounded to 1/256 (coarser beyond a million spans) before the sparse
assignment."""


def _pile_pairs(bg: np.ndarray, bp: np.ndarray, gs: np.ndarray, ge: np.ndarray, gl: np.ndarray, ps: np.ndarray,
                pe: np.ndarray, pl: np.ndarray, pieces: _Pieces | None = None
                ) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """A block too large for a full matrix: the same weights on nearest-neighbour candidates, paired by a
    sparse assignment (:mod:`accord.match.sparse`)."""
    warn_pile("--match semeval", len(bg), len(bp))
    cg, cp = near_candidates(gs[bg], ge[bg], ps[bp], pe[bp], gl[bg], pl[bp])
    g, p = bg[cg], bp[cp]
    over, union, same_bounds = _geometry(g, p, gs, ge, ps, pe, pieces)
    overlaps = over > 0
    closeness = np.where(overlaps, over / np.maximum(union, 1), 0.0)
    same_label = gl[g] == pl[p]
    # the dense weights' priorities in integers: correct pairs first, then overlapping pairs, then the
    # closeness rounded to 1/PILE_CLOSENESS (exact integers keep the order the dense floats give)
    n = float(min(len(bg), len(bp)) + 1)
    grid = float(max(1, min(PILE_CLOSENESS, int(2.0 ** 48 / (n * n)))))   # the integers stay below 2**50
    per_pair = n * grid
    per_correct = n * (per_pair + grid)
    out = {}
    for schema in SCHEMAS:
        correct = {"strict": same_bounds & same_label, "exact": same_bounds, "partial": same_bounds,
                   "type": same_label}[schema] & overlaps
        weight = np.where(overlaps, per_pair + per_correct * correct + np.rint(closeness * grid), 0.0)
        rows, cols = sparse_assign(cg, cp, weight, len(bg), len(bp), integer_weights=True)
        out[schema] = (bg[rows], bp[cols])
    return out


def _judge(go: dict[str, np.ndarray], po: dict[str, np.ndarray], gi: np.ndarray, pi: np.ndarray, gs: np.ndarray,
           ge: np.ndarray, gl: np.ndarray, ps: np.ndarray, pe: np.ndarray, pl: np.ndarray,
           pieces: _Pieces | None = None) -> None:
    """Set the outcome of paired spans ``gi[k]``, ``pi[k]`` in the given schemas."""
    same_bounds = _geometry(gi, pi, gs, ge, ps, pe, pieces)[2]
    same_label = gl[gi] == pl[pi]
    rule = {"strict": (same_bounds & same_label, INCORRECT), "exact": (same_bounds, INCORRECT),
            "partial": (same_bounds, PARTIAL), "type": (same_label, INCORRECT)}
    for schema in go:
        ok, otherwise = rule[schema]
        value = np.where(ok, CORRECT, otherwise)
        go[schema][gi] = value
        po[schema][pi] = value


def semeval_schemas(gold: Corpus, pred: Corpus, *, allow_missing: str | None = None, beta: float = 1.0,
                    zero_division: str = "zero") -> SemEvalResult:
    """Score a paired corpus under the four SemEval-2013 schemas.

    Gold or predicted spans may overlap each other (nested entities): the overlap blocks
    then hold several spans of a side, and the pairing stays one to one.
    """
    from ..pipeline import pair_documents

    pairs = pair_documents(gold, pred, allow_missing)
    documents = [doc_id for doc_id, _, _ in pairs]
    (g, p), labels, bases = layered_tables([(gd, pd) for _, gd, pd in pairs], ("gold", "predicted"),
                                           disjoint=False, doc_ids=documents)
    index = SentenceIndex([(gd, pd) for _, gd, pd in pairs])
    base = np.asarray(bases, dtype=np.int64)
    units = [index.units(t.doc, t.start - base[t.doc]) if len(t) else np.zeros(0, dtype=np.int64) for t in (g, p)]
    gs, ge, gl, gd = g.start, g.end, g.label, g.doc
    ps, pe, pl, pd = p.start, p.end, p.label, p.doc
    pieces = None
    gfrag, pfrag = has_fragments(g.source)[g.order], has_fragments(p.source)[p.order]
    if gfrag.any() or pfrag.any():   # discontinuous spans: overlap and equality counted on their pieces
        pieces = (g.annotations, p.annotations, gfrag, pfrag)
    go, po = _outcomes(gs, ge, gl, ps, pe, pl, pieces)
    return SemEvalResult(gl, pl, gd, pd, go, po, labels, documents, beta, zero_division, units[0], units[1],
                         index.sizes if index.known else None)
