"""CLUEval's lenient span evaluation: coverage classes, leniency levels, recall and precision.

Recall classifies every gold span by how the predicted spans cover it; precision classifies
every predicted span by how the gold spans cover it (:mod:`accord.match.coverage`). A span
is a true positive at leniency level ``L`` when its class is among the first ``L`` of

1. ``exact``, 2. ``superset``, 3. ``tiling``, 4. ``overlap``

and, for labelled scores, the label of the covering (joined) span equals its own. Then

.. math::

    R_L = \\frac{|\\{g \\in G : g \\text{ hit at } L\\}|}{|G|}, \\qquad
    P_L = \\frac{|\\{p \\in P : p \\text{ hit at } L\\}|}{|P|}, \\qquad
    F_L = \\frac{2 P_L R_L}{P_L + R_L}

The two true-positive counts differ in general, and that asymmetry is intended: a
predicted span ``[New York City]`` over gold ``[New York]`` + ``[City]`` makes both gold
spans hits at level 2 (each has a superset), while the predicted span is covered by two
gold spans that tile it: a hit only from level 3 on. Recall and precision never decrease
from level 1 to 4. At level 1, labelled, both counts are the number of exact matches
with equal labels: the strict score of seqeval's default mode and conlleval.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import OptionError, TallyError
from ..match.coverage import CLASS_NAMES, Coverage, coverage_classes
from ..metrics.prf import f_from_counts, json_rate, safe_ratio
from ..model import Corpus
from ._spans import DocumentPair, SpanTable, span_tables

__all__ = ["LEVELS", "leniency_level", "ClueCounts", "ClueEvaluation", "evaluate_spans"]

LEVELS = ("exact", "superset", "tiling", "overlap")


def leniency_level(value: int | str) -> int:
    """A leniency level 1-4, given by number or by name (``exact`` ... ``overlap``)."""
    if isinstance(value, str):
        text = value.strip().lower()
        if text in LEVELS:
            return LEVELS.index(text) + 1
        if text.isdigit():
            value = int(text)
    if isinstance(value, (int, np.integer)) and 1 <= int(value) <= 4:
        return int(value)
    raise OptionError(f"--leniency must be 1-4 or one of {', '.join(LEVELS)}; got {value!r}")


@dataclass(frozen=True)
class ClueCounts:
    """Counts at one level: spans of each side and their true positives.

    ``gold_hits`` (recall's true positives) and ``pred_hits`` (precision's) are counted
    separately; ``missed = gold - gold_hits`` and ``unsupported = pred - pred_hits``.
    """

    gold: int = 0
    pred: int = 0
    gold_hits: int = 0
    pred_hits: int = 0

    @property
    def missed(self) -> int:
        """False negatives: gold spans that are not hits."""
        return self.gold - self.gold_hits

    @property
    def unsupported(self) -> int:
        """False positives: predicted spans that are not hits."""
        return self.pred - self.pred_hits

    def rates(self, beta: float = 1.0, zero_division: str = "zero") -> tuple[float, float, float]:
        """Precision ``pred_hits / pred``, recall ``gold_hits / gold`` and their F-beta."""
        p = safe_ratio(self.pred_hits, self.pred, zero_division)
        r = safe_ratio(self.gold_hits, self.gold, zero_division)
        return p, r, f_from_counts(self.pred_hits, self.pred, self.gold_hits, self.gold, beta, p, r)

    def to_dict(self, beta: float = 1.0, zero_division: str = "zero") -> dict[str, Any]:
        """The JSON block: counts, false negatives and positives, rates."""
        p, r, f = self.rates(beta, zero_division)
        return {"gold": self.gold, "pred": self.pred, "gold_hits": self.gold_hits, "pred_hits": self.pred_hits,
                "false_negatives": self.missed, "false_positives": self.unsupported,
                "precision": json_rate(p), "recall": json_rate(r), "f1": json_rate(f)}


@dataclass
class ClueEvaluation:
    """The coverage classes of both sides of a paired corpus, and every score derived from them.

    Attributes
    ----------
    gold, pred : SpanTable
    recall_cover : Coverage
        The gold spans classified against the predicted ones.
    precision_cover : Coverage
        The predicted spans classified against the gold ones.
    labels : list of str
        Label codes to names.
    documents : list of DocumentPair
    """

    gold: SpanTable
    pred: SpanTable
    recall_cover: Coverage
    precision_cover: Coverage
    labels: list[str]
    documents: list[DocumentPair]
    beta: float = 1.0
    zero_division: str = "zero"

    def __post_init__(self) -> None:
        self._by_id = {d.id: d for d in self.documents}

    def __repr__(self) -> str:
        return (f"<ClueEvaluation {len(self.documents)} documents, {len(self.gold)} gold and {len(self.pred)} "
                f"predicted spans, {len(self.labels)} labels>")

    def document(self, doc_id: str) -> DocumentPair:
        """The document pair with this id."""
        return self._by_id[doc_id]

    def hits(self, side: str, level: int | str, labelled: bool = True) -> np.ndarray:
        """Boolean per span of ``side`` (``"gold"`` or ``"pred"``): a true positive at ``level``."""
        level = leniency_level(level)
        table, cover = (self.gold, self.recall_cover) if side == "gold" else (self.pred, self.precision_cover)
        hit = cover.klass < level
        if labelled:
            hit &= cover.label == table.label
        return hit

    def counts(self, level: int | str, labelled: bool = True, by: str | None = None) -> Any:
        """Counts at one level: a :class:`ClueCounts`, or a dict of them by ``"label"`` or
        ``"document"`` (gold spans under their label, predicted spans under theirs)."""
        gh = self.hits("gold", level, labelled)
        ph = self.hits("pred", level, labelled)
        if by is None:
            out = ClueCounts(len(self.gold), len(self.pred), int(gh.sum()), int(ph.sum()))
            self._check(out, level, labelled)
            return out
        if by == "label":
            keys, gk, pk = self.labels, self.gold.label, self.pred.label
        elif by == "document":
            keys, gk, pk = [d.id for d in self.documents], self.gold.doc, self.pred.doc
        else:
            raise OptionError(f"counts by {by!r}: expected 'label' or 'document'")
        k = len(keys)
        g = np.bincount(gk, minlength=k)
        p = np.bincount(pk, minlength=k)
        gt = np.bincount(gk[gh], minlength=k)
        pt = np.bincount(pk[ph], minlength=k)
        table = {key: ClueCounts(int(g[i]), int(p[i]), int(gt[i]), int(pt[i])) for i, key in enumerate(keys)}
        if by == "label":
            table = dict(sorted(table.items()))
        return table

    def _check(self, c: ClueCounts, level: Any, labelled: bool) -> None:
        if c.gold_hits > c.gold or c.pred_hits > c.pred or len(self.recall_cover.klass) != c.gold or \
                len(self.precision_cover.klass) != c.pred:
            raise TallyError(f"CLUEval counts at level {level} ({'labelled' if labelled else 'unlabelled'}) lost "
                             f"or doubled a span: {c}")

    def class_counts(self, side: str, by: str | None = None) -> Any:
        """How many spans of ``side`` fall in each coverage class (exact ... none), overall or by label.

        The classes partition the spans: the counts sum to the number of spans of the side
        (checked).
        """
        table, cover = (self.gold, self.recall_cover) if side == "gold" else (self.pred, self.precision_cover)
        total = np.bincount(cover.klass, minlength=len(CLASS_NAMES))
        if int(total.sum()) != len(table):
            raise TallyError(f"coverage classes of the {side} side do not add up to its {len(table)} spans")
        if by is None:
            return dict(zip(CLASS_NAMES, map(int, total)))
        if by != "label":
            raise OptionError(f"class counts by {by!r}: expected 'label'")
        k = len(self.labels)
        grid = np.bincount(table.label * len(CLASS_NAMES) + cover.klass, minlength=k * len(CLASS_NAMES))
        grid = grid.reshape(k, len(CLASS_NAMES))
        return {self.labels[i]: dict(zip(CLASS_NAMES, map(int, grid[i]))) for i in sorted(
            range(k), key=self.labels.__getitem__)}

    def levels(self) -> Iterable[tuple[int, bool]]:
        """Every (level, labelled) combination, level by level."""
        for level in range(1, 5):
            for labelled in (True, False):
                yield level, labelled


def _blank_gaps(table: Any, docs: Sequence[Any]) -> np.ndarray | None:
    """For consecutive spans of ``table`` (sorted on the shared axis), whether they are in one document of
    characters with only whitespace between them: they touch, as the same spans in tokens do (``New York`` +
    ``City`` tile ``New York City``). ``None`` where no document has a text (spans in tokens)."""
    texts = [d.document.text for d in docs]
    if len(table.start) < 2 or all(t is None for t in texts):
        return None
    start, end, doc = np.asarray(table.start), np.asarray(table.end), np.asarray(table.doc)
    same = (doc[1:] == doc[:-1]) & (start[1:] > end[:-1])
    joined = np.zeros(len(start) - 1, dtype=bool)
    for k in np.flatnonzero(same).tolist():
        d = docs[int(doc[k])]
        text = d.document.text
        if text is not None:
            joined[k] = text[int(end[k]) - d.base:int(start[k + 1]) - d.base].isspace()
    return joined


def evaluate_spans(gold: Corpus, pred: Corpus, *, allow_missing: str | None = None, beta: float = 1.0,
                   zero_division: str = "zero") -> ClueEvaluation:
    """Classify both sides of a paired corpus (documents paired by id, tokens checked).

    Parameters
    ----------
    gold, pred : Corpus
        Each document's spans must not overlap or nest (checked).
    allow_missing : {None, "empty", "skip"}
        Documents found on one side only (see :func:`accord.pipeline.pair_documents`).

    Returns
    -------
    ClueEvaluation
    """
    from ..pipeline import pair_documents

    pairs = pair_documents(gold, pred, allow_missing)
    g, p, labels, docs = span_tables(pairs)
    recall_cover = coverage_classes(g.start, g.end, p.start, p.end, p.label, _blank_gaps(p, docs))
    precision_cover = coverage_classes(p.start, p.end, g.start, g.end, g.label, _blank_gaps(g, docs))
    return ClueEvaluation(g, p, recall_cover, precision_cover, labels, docs, beta, zero_division)
