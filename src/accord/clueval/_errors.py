"""Error tables: every false negative and false positive, with the spans it overlaps on the other side.

A row describes one *problem* span (a gold span that is not a hit at the chosen level:
a false negative; or a predicted span that is not a hit: a false positive) together with
every span of the other side that overlaps it, whether or not the evaluation counted the
overlap (a partial overlap is simply a miss for the scores, but the table shows it).

The class of a row is the span's coverage class: ``tiling``, ``overlap`` or ``partial``
(some overlap), ``FN`` or ``FP`` (nothing on the other side overlaps), or ``exact`` and
``superset`` when only the label is wrong (labelled scores). The rows are sorted by
position. As in CLUEval, a row shows one problem span and the other side's spans over it,
never the problem span's own neighbours.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass

import numpy as np

from ..errors import OptionError
from ..match.coverage import CLASS_NAMES, NONE
from ..model import Document
from ._evaluate import ClueEvaluation, leniency_level

__all__ = ["ErrorRow", "OtherSpan", "error_table", "CONTEXT_WINDOW"]

CONTEXT_WINDOW = 12
"""Tokens shown either side of a span when its document has no sentences (six times as
many characters in documents whose spans are character offsets)."""


@dataclass(frozen=True)
class OtherSpan:
    """A span of the other side that overlaps the problem span (document token offsets)."""

    start: int
    end: int
    label: str
    text: str


@dataclass(frozen=True)
class ErrorRow:
    """One false negative (``kind == "FN"``) or false positive (``"FP"``).

    Positions are token offsets in the document (``start``/``end``, half-open) and corpus
    positions (``cpos``, inclusive first and last token, as CWB counts them; equal to the
    offsets when the documents carry no corpus positions). ``context`` is the token extent
    shown around the span (its sentences).
    """

    kind: str
    klass: str
    document: str
    start: int
    end: int
    cpos: tuple[int, int]
    label: str
    text: str
    token_ids: tuple[str, str] | None
    others: tuple[OtherSpan, ...]
    other_start: int | None
    other_end: int | None
    other_cpos: tuple[int, int] | None
    other_token_ids: tuple[str, str] | None
    context: tuple[int, int]

    @property
    def other_labels(self) -> str:
        """The other spans' labels, ``|``-joined in order."""
        return "|".join(o.label for o in self.others)

    @property
    def other_text(self) -> str:
        """The other spans' texts in order: a space between touching spans, `` … `` over a gap."""
        out = ""
        for i, o in enumerate(self.others):
            if i:
                out += " " if self.others[i - 1].end == o.start else " … "
            out += o.text
        return out


def _context(doc: Document, start: int, end: int) -> tuple[int, int]:
    if doc.unit == "char":
        n = len(doc.text or "")
        window = 6 * CONTEXT_WINDOW
    else:
        n = len(doc.tokens) if doc.tokens is not None else end
        window = CONTEXT_WINDOW
    sentences = doc.sentences
    if sentences and len(sentences) > 1:
        starts = [a for a, _ in sentences]
        first = max(bisect_right(starts, start) - 1, 0)
        last = max(bisect_left(starts, max(end, start + 1)) - 1, first)
        return sentences[first][0], max(sentences[last][1], end)
    if sentences and sentences[0][1] - sentences[0][0] <= 4 * window:
        return sentences[0]
    return max(0, start - window), min(n, end + window)


def error_table(ev: ClueEvaluation, side: str, level: int | str = 1, labelled: bool = True) -> list[ErrorRow]:
    """The rows for every error of one side at a level.

    Parameters
    ----------
    ev : ClueEvaluation
    side : {"gold", "pred"}
        ``"gold"``: the false negatives (recall's misses), with the overlapping predicted
        spans; ``"pred"``: the false positives, with the overlapping gold spans.
    level, labelled
        Which spans count as hits (see :meth:`ClueEvaluation.hits`).

    Returns
    -------
    list of ErrorRow
        In order of position.
    """
    if side not in ("gold", "pred"):
        raise OptionError(f"error table side must be 'gold' or 'pred', not {side!r}")
    level = leniency_level(level)
    table, other, cover = ((ev.gold, ev.pred, ev.recall_cover) if side == "gold"
                           else (ev.pred, ev.gold, ev.precision_cover))
    kind = "FN" if side == "gold" else "FP"
    misses = np.flatnonzero(~ev.hits(side, level, labelled))
    rows = []
    for i in misses.tolist():
        d = ev.documents[int(table.doc[i])]
        doc = d.document
        base = d.base
        ann = table.annotations[i]
        assert ann.start is not None and ann.end is not None  # span tables hold spanned annotations
        meta = doc.metadata or {}
        cpos0 = int(meta.get("cpos", 0))
        ids = meta.get("token_ids")
        others = []
        for j in range(int(cover.lo[i]), int(cover.hi[i])):
            o = other.annotations[j]
            others.append(OtherSpan(int(other.start[j]) - base, int(other.end[j]) - base, o.label,
                                    doc.surface(int(other.start[j]) - base, int(other.end[j]) - base)))
        k = int(cover.klass[i])
        klass = kind if k == NONE else CLASS_NAMES[k]
        o_start = min(o.start for o in others) if others else None
        o_end = max(o.end for o in others) if others else None
        lo = min(ann.start, o_start if o_start is not None else ann.start)
        hi = max(ann.end, o_end if o_end is not None else ann.end)
        rows.append(ErrorRow(
            kind=kind, klass=klass, document=d.id, start=ann.start, end=ann.end,
            cpos=(cpos0 + ann.start, cpos0 + ann.end - 1), label=ann.label, text=doc.surface(ann.start, ann.end),
            token_ids=(ids[ann.start], ids[ann.end - 1]) if ids is not None else None,
            others=tuple(others), other_start=o_start, other_end=o_end,
            other_cpos=(cpos0 + o_start, cpos0 + o_end - 1) if o_start is not None and o_end is not None else None,
            other_token_ids=(ids[o_start], ids[o_end - 1]) if ids is not None and o_start is not None
            and o_end is not None else None,
            context=_context(doc, lo, hi)))
    return rows
