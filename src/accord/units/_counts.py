"""Scored intervals measured in tokens, whitespace pseudo-tokens or characters; MAT's accuracies and
the confusability matrix.

Units of an interval ``[a, b)`` (the document's signal is its text, or its tokens joined
by single spaces, spans mapped onto it):

``character``
    ``b - a``; the test size is the length of the signal.
``pseudo-token``
    the whitespace-separated pieces of the signal, cut at every boundary of a scored
    annotation (either side): ``cnt[b] - cnt[a]`` where ``cnt[x]`` counts the pieces of the
    cut signal before ``x``; the test size is ``cnt[len(signal)]``. A word split by an
    annotation boundary counts once on each side of the boundary.
``token``
    the tokens inside the interval: those of a token-unit document, or, for a document with
    text, the token annotations (``token_labels``, MAT's ``lex``) of the predicted side;
    the test size is their number. When a boundary falls inside a token, token scoring is
    abandoned for the whole run, as MAT does (the reason is reported).

Counts follow the tag level (:mod:`accord.pairs._tally`): a match under the gold label, a clash
as ``gold_clash`` under the gold label and ``pred_clash`` under the predicted label,
missing under the gold label, spurious under the predicted label. With ``T`` the test size
of the row, ``M`` missing, ``S`` spurious and ``C`` the gold-side clashes:

.. math::

    \\text{tag-sensitive accuracy} = \\frac{T - M - S - C}{T}, \\qquad
    \\text{tag-blind accuracy} = \\frac{T - M - S}{T}

and each error rate is one minus its accuracy (1.0 accuracy when ``T = 0``).

The confusability matrix counts units by (predicted label, gold label), ``None`` standing
for no annotation: a match or a clash counts under both labels, missing units under
(``None``, gold label), spurious units under (predicted label, ``None``), and the units no
interval covers under (``None``, ``None``). It is not built when the intervals of one side
overlap (a unit would take part in two pairs).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from ..errors import OptionError
from ..match.engine import DocumentAlignment, Pairer
from ..match.similarity import Context
from ..metrics.counts import Counts
from ..model import TOKEN_OFFSETS, Annotation, Document
from ._intervals import CLASHED, MATCHED, MISSING, SPURIOUS, Interval, scored_intervals

__all__ = ["UNITS", "UnitScores", "score_units", "accuracies"]

UNITS = ("token", "pseudo-token", "character")
_FIELD = {MATCHED: 0, MISSING: 3, SPURIOUS: 4}


def accuracies(counts: Counts, test_units: int) -> dict[str, float]:
    """MAT's tag-sensitive and tag-blind accuracy and error rate of one row."""
    if test_units == 0:
        sensitive = blind = 1.0
    else:
        sensitive = (test_units - counts.missing - counts.spurious - counts.gold_clash) / test_units
        blind = (test_units - counts.missing - counts.spurious) / test_units
    return {"tag_sensitive_accuracy": sensitive, "tag_sensitive_error_rate": 1 - sensitive,
            "tag_blind_accuracy": blind, "tag_blind_error_rate": 1 - blind}


@dataclass
class UnitScores:
    """One unit's counts: by label and document, the test sizes, the confusability matrix.

    ``skipped`` holds the reason when the unit could not be scored (token boundaries),
    ``confusability_note`` the reason when the matrix could not be built.
    """

    unit: str
    by_document: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    test_units: dict[str, int] = field(default_factory=dict)
    confusability: Counter | None = field(default_factory=Counter)
    skipped: str | None = None
    confusability_note: str | None = None

    def counts(self, label: str | None = None, document: str | None = None) -> Counts:
        """Counts of a label (all labels when ``None``) in a document (all when ``None``)."""
        total = np.zeros(5, dtype=np.int64)
        for doc, rows in self.by_document.items():
            if document is not None and doc != document:
                continue
            for lbl, row in rows.items():
                if label is None or lbl == label:
                    total += row
        return Counts.from_array(total)

    @property
    def labels(self) -> list[str]:
        return sorted({lbl for rows in self.by_document.values() for lbl in rows})

    def test_size(self, document: str | None = None) -> int:
        """The test size: of one document, or summed over the corpus."""
        if document is not None:
            return self.test_units.get(document, 0)
        return sum(self.test_units.values())


class _Signal:
    """A document's signal with its tokens, as character offsets."""

    def __init__(self, gold: Document | None, pred: Document | None, token_labels: frozenset[str]):
        doc = pred if pred is not None else gold
        assert doc is not None
        self.doc = doc
        if doc.text is not None:
            self.text = doc.text
            self.offsets = None
            toks = sorted((a.start, a.end) for a in doc.annotations
                          if a.label in token_labels and a.start is not None)
            placed = [d.metadata[TOKEN_OFFSETS] for d in (pred, gold) if d is not None and d.metadata
                      and TOKEN_OFFSETS in d.metadata]
            if not toks and placed:     # a token side placed on the text (accord.pipeline._offset_units): its tokens
                toks = list(zip(placed[0][0].tolist(), placed[0][1].tolist()))
            self.token_starts = np.array([s for s, _ in toks], dtype=np.int64) if toks else None
            self.token_ends = np.array([e for _, e in toks], dtype=np.int64) if toks else None
        else:
            if doc.tokens is None:
                raise OptionError(f"document {doc.id!r} has neither text nor tokens; token, pseudo-token and "
                                  "character scores need one of them")
            tokens = doc.tokens
            lengths = np.array([len(t) for t in tokens], dtype=np.int64)
            starts = np.concatenate([[0], np.cumsum(lengths + 1)[:-1]]) if len(tokens) else np.zeros(0, np.int64)
            self.text = " ".join(tokens)
            self.token_starts = starts.astype(np.int64)
            self.token_ends = (starts + lengths).astype(np.int64)
            # token offset k -> character offset: starts for k < n, the end of the text for k == n
            self.offsets = np.append(self.token_starts, len(self.text))

    def char_span(self, start: int, end: int) -> tuple[int, int]:
        """A non-empty span of the document in characters of the signal."""
        if self.offsets is None:
            return start, end
        assert self.token_ends is not None  # set with the offsets
        return int(self.offsets[start]), int(self.token_ends[end - 1])

    def to_chars(self, al: DocumentAlignment) -> DocumentAlignment:
        """The alignment with its spans in characters of the signal (token-unit documents), so that
        the spaces between tokens are scored as MAT scores them in a text."""
        if self.offsets is None:
            return al

        def convert(anns: Sequence[Annotation]) -> list[Annotation]:
            out = []
            for a in anns:
                if a.fragments is not None:
                    pieces = tuple(self.char_span(x, y) for x, y in a.fragments if y > x)
                    a = a._replace(start=pieces[0][0], end=pieces[-1][1], fragments=pieces)
                elif a.start is not None and a.end is not None and a.end > a.start:
                    start, end = self.char_span(a.start, a.end)
                    a = a._replace(start=start, end=end)
                out.append(a)
            return out
        return replace(al, gold=convert(al.gold), pred=convert(al.pred))

    def pseudo_counter(self, bounds: Iterable[int]) -> dict[int, int]:
        """``cnt[x]`` for every boundary ``x`` and the end of the signal."""
        points = sorted(set(bounds) | {len(self.text)})
        cnt, total, prev = {0: 0}, 0, 0
        for x in points:
            total += len(self.text[prev:x].split())
            cnt[x] = total
            prev = x
        return cnt


def score_units(alignments: Sequence[DocumentAlignment], pairer: Pairer, units: Sequence[str] = UNITS, *,
                token_labels: str | Collection[str] = ("lex",), confusability: str | None = "token"
                ) -> dict[str, UnitScores]:
    """Score aligned documents in tokens, pseudo-tokens and/or characters.

    Parameters
    ----------
    alignments : sequence of DocumentAlignment
        The tag-level pairing (``accord.score`` builds it).
    pairer : Pairer
        What paired them (its similarity gives the token similarity).
    units : sequence of {"token", "pseudo-token", "character"}
    token_labels : str or collection of str
        In documents with text, the labels of the token annotations (not scored themselves).
    confusability : {"token", "pseudo-token", "character", None}
        The unit of the confusability matrix (MAT: tokens, or pseudo-tokens without tokens).

    Returns
    -------
    dict of unit name to UnitScores
    """
    for u in units:
        if u not in UNITS:
            raise OptionError(f"unknown unit {u!r}; expected one of {', '.join(UNITS)}")
    out = {u: UnitScores(u) for u in units}
    for s in out.values():
        if s.unit != confusability:
            s.confusability = None
    skip = frozenset({token_labels} if isinstance(token_labels, str) else token_labels)
    for al in alignments:
        ctx = Context(pairer.label, pairer.task, {}, al.gold_doc, al.pred_doc)
        ctx.add_pairs(((id(al.gold[p.gold]), id(al.pred[p.pred])), p.similarity) for p in al.pairs)
        signal = _Signal(al.gold_doc, al.pred_doc, skip)
        intervals = scored_intervals(signal.to_chars(al), pairer.similarity, ctx, skip)
        for unit, scores in out.items():
            if scores.skipped:
                continue
            measure, test = _measure(unit, signal, al, skip)
            if measure is None:
                _abandon(scores, test)  # test holds the reason here
                continue
            rows = scores.by_document.setdefault(al.doc_id, {})
            amounts = [measure(iv.start, iv.end) for iv in intervals]
            if any(a is None for a in amounts):
                _abandon(scores, f"an annotation boundary falls inside a token (document {al.doc_id!r}); token "
                                 "scoring is abandoned, as MAT does")
                continue
            scores.test_units[al.doc_id] = test
            for iv, n in zip(intervals, amounts):
                if iv.status == CLASHED:
                    assert iv.gold_label is not None and iv.pred_label is not None  # a clash has both sides
                    rows.setdefault(iv.gold_label, [0] * 5)[1] += n
                    rows.setdefault(iv.pred_label, [0] * 5)[2] += n
                else:
                    label = iv.pred_label if iv.status == SPURIOUS else iv.gold_label
                    assert label is not None  # the side the interval has
                    rows.setdefault(label, [0] * 5)[_FIELD[iv.status]] += n
            if scores.confusability is not None:
                _confuse(scores, intervals, amounts, measure, test, al.doc_id)
    return out


def _abandon(scores: UnitScores, reason: str) -> None:
    """Give up a unit for the whole run, keeping the reason."""
    scores.skipped = reason
    scores.by_document.clear()
    scores.test_units.clear()
    scores.confusability = None


def _measure(unit: str, signal: _Signal, al: DocumentAlignment, token_labels: frozenset[str]):
    """A function giving the units of ``[a, b)`` (``None`` off a token boundary) and the test size."""
    if unit == "character":
        return (lambda a, b: b - a), len(signal.text)
    if unit == "pseudo-token":
        bounds: set[int] = set()
        for doc in (al.gold_doc, al.pred_doc):
            for ann in (doc.annotations if doc is not None else ()):
                if ann.start is not None and ann.end is not None and ann.end > ann.start and \
                        ann.label not in token_labels:
                    for x, y in ann.pieces:
                        bounds.update(signal.char_span(x, y))
        cnt = signal.pseudo_counter(bounds)
        return (lambda a, b: cnt[b] - cnt[a]), cnt[len(signal.text)]
    starts, ends = signal.token_starts, signal.token_ends
    if starts is None:
        return None, (f"document {al.doc_id!r} has no token annotations labelled "
                      f"{', '.join(map(repr, sorted(token_labels)))}; token scoring "
                      "needs them (or token-unit documents)")
    assert ends is not None  # set with the starts
    start_set, end_set = set(starts.tolist()), set(ends.tolist())

    def tokens(a: int, b: int) -> int | None:
        if a not in start_set and a not in end_set or b not in end_set and b not in start_set:
            return None
        return int(np.searchsorted(ends, b, "right") - np.searchsorted(starts, a, "left"))
    return tokens, len(starts)


def _confuse(scores: UnitScores, intervals: list[Interval], amounts: list[int], measure, test: int,  # noqa: ANN001
             doc_id: str) -> None:
    """Add one document to the confusability matrix (dropped when a side's intervals overlap)."""
    for side in ("gold_label", "pred_label"):
        own = sorted((iv.start, iv.end) for iv in intervals if getattr(iv, side) is not None)
        if any(b > c for (_, b), (c, _) in zip(own, own[1:])):
            scores.confusability = None
            scores.confusability_note = (f"document {doc_id!r}: annotations of one side overlap, so a unit "
                                            "would take part in two pairs")
            return
    cells = scores.confusability
    assert cells is not None  # the caller adds a document only while the matrix is kept
    for iv, n in zip(intervals, amounts):
        if n:
            cells[(iv.pred_label, iv.gold_label)] += n
    covered = 0
    for a, b in _union((iv.start, iv.end) for iv in intervals):
        covered += measure(a, b)
    if test - covered:
        cells[(None, None)] += test - covered


def _union(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[list[int]] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return [(a, b) for a, b in out]
