"""Tally: from pairing outcomes to additive count tables.

Every gold item ends as a match, a clash or missing; every predicted item as a match, a
clash or spurious. Counts are kept per document and per row key (a label, an aggregation,
a label decomposed by attribute values or a partition), as MAT does: a match counts under
the gold item's label, a clash counts ``gold_clash`` under the gold label and
``pred_clash`` under the predicted label. The identities

.. math::

    gold = match + gold\\_clash + missing,\\qquad pred = match + pred\\_clash + spurious

hold by construction of :class:`Counts`; :func:`tally` also checks that every item was
counted exactly once and raises :class:`~accord.errors.TallyError` otherwise.

Counts of documents are plain integers that add up, so documents can be tallied apart
(on several processes) and merged with :meth:`Tally.merge`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import repeat
from typing import Any

import numpy as np

from .errors import ProfileError, TallyError
from .match.engine import CLASH, MATCH, UNPAIRED, DocumentAlignment
from .metrics.prf import json_rate, precision_recall_f
from .model import Annotation, Document
from .schema import ScoreProfileSpec, Task

__all__ = ["Counts", "Tally", "ScoreRows", "tally"]

_FIELDS = ("match", "gold_clash", "pred_clash", "missing", "spurious")


@dataclass(frozen=True)
class Counts:
    """Additive outcome counts; ``gold`` and ``pred`` are derived, never stored."""

    match: int = 0
    gold_clash: int = 0
    pred_clash: int = 0
    missing: int = 0
    spurious: int = 0

    @property
    def gold(self) -> int:
        """Gold items: ``match + gold_clash + missing``."""
        return self.match + self.gold_clash + self.missing

    @property
    def pred(self) -> int:
        """Predicted items: ``match + pred_clash + spurious``."""
        return self.match + self.pred_clash + self.spurious

    def __add__(self, other: "Counts") -> "Counts":
        return Counts(*(getattr(self, f) + getattr(other, f) for f in _FIELDS))

    def rates(self, beta: float = 1.0, zero_division: str = "zero") -> tuple[float, float, float]:
        """Precision, recall and F-beta (see :mod:`accord.metrics.prf`)."""
        return precision_recall_f(self.match, self.gold, self.pred, beta=beta, zero_division=zero_division)

    def to_dict(self, beta: float = 1.0, zero_division: str = "zero") -> dict[str, Any]:
        """The JSON count block: counts and rates as fractions."""
        p, r, f = self.rates(beta, zero_division)
        return {"gold": self.gold, "pred": self.pred, "match": self.match, "gold_clash": self.gold_clash,
                "pred_clash": self.pred_clash, "missing": self.missing, "spurious": self.spurious,
                "precision": json_rate(p), "recall": json_rate(r), "f1": json_rate(f)}

    @classmethod
    def from_array(cls, arr: Iterable[int]) -> "Counts":
        return cls(*(int(x) for x in arr))


@dataclass
class ScoreRows:
    """Which extra rows a score profile asks for, compiled against a task."""

    aggregations: list[tuple[str, frozenset[str]]] = field(default_factory=list)
    attr_decompositions: list[tuple[tuple[str, ...], frozenset[str]]] = field(default_factory=list)
    partitions: list[tuple[str, Callable[[Annotation, Document | None], Any], frozenset[str]]] = field(default_factory=list)
    limitation: frozenset[str] | None = None

    @classmethod
    def from_spec(cls, spec: ScoreProfileSpec | None) -> "ScoreRows":
        if spec is None:
            return cls()
        return cls(
            aggregations=[(name, frozenset(labels)) for name, labels in spec.aggregations],
            attr_decompositions=[(attrs, frozenset(labels)) for attrs, labels in spec.attr_decompositions],
            partitions=[(m, _partition_method(m), frozenset(labels)) for m, labels in spec.partition_decompositions],
            limitation=None if spec.label_limitation is None else frozenset(spec.label_limitation),
        )


def _partition_method(method: str) -> Callable[[Annotation, Document | None], Any]:
    """``metadata:KEY`` (a document metadata value), ``attribute:NAME`` or a function the user enabled
    (:mod:`accord._plugins`)."""
    kind, _, arg = method.partition(":")
    if not arg:
        raise ProfileError(f"partition method {method!r}: expected metadata:KEY, attribute:NAME or module:function")
    if kind == "metadata":
        return lambda ann, doc: (doc.metadata.get(arg) if doc is not None else None)
    if kind == "attribute":
        return lambda ann, doc: ann.attributes.get(arg)
    from ._plugins import resolve_method

    return resolve_method(method, "partition method")   # registered or --plugins only: a task file imports nothing


class Tally:
    """Counts per document and row key.

    Row keys are strings: a scoring label, an aggregation name, or ``"LABEL|subset"`` for a
    decomposition row (``subset`` as MAT writes it: ``attr=val,attr2=val2`` or
    ``method=value``).
    """

    def __init__(self) -> None:
        self.docs: dict[str, dict[str, np.ndarray]] = {}
        self.doc_totals: dict[str, np.ndarray] = {}
        self.labels: dict[str, None] = {}
        self.aggregations: dict[str, None] = {}
        self.decompositions: dict[str, dict[str, None]] = {}

    def _row(self, doc: str, key: str) -> np.ndarray:
        rows = self.docs.setdefault(doc, {})
        arr = rows.get(key)
        if arr is None:
            arr = rows[key] = np.zeros(5, dtype=np.int64)
        return arr

    def merge(self, other: "Tally") -> "Tally":
        """Add another tally's counts into this one (documents must not overlap)."""
        for doc, rows in other.docs.items():
            if doc in self.docs:
                raise TallyError(f"document {doc!r} tallied twice")
            self.docs[doc] = {k: v.copy() for k, v in rows.items()}
            self.doc_totals[doc] = other.doc_totals[doc].copy()
        for attr in ("labels", "aggregations"):
            getattr(self, attr).update(getattr(other, attr))
        for label, subs in other.decompositions.items():
            self.decompositions.setdefault(label, {}).update(subs)
        return self

    def counts(self, key: str, doc: str | None = None) -> Counts:
        """Counts of one row, for one document or summed over the corpus."""
        if doc is not None:
            arr = self.docs.get(doc, {}).get(key)
            return Counts() if arr is None else Counts.from_array(arr)
        total = np.zeros(5, dtype=np.int64)
        for rows in self.docs.values():
            arr = rows.get(key)
            if arr is not None:
                total += arr
        return Counts.from_array(total)

    def total(self, doc: str | None = None) -> Counts:
        """The all-labels row, for one document or the corpus."""
        if doc is not None:
            return Counts.from_array(self.doc_totals.get(doc, np.zeros(5, dtype=np.int64)))
        total = np.zeros(5, dtype=np.int64)
        for arr in self.doc_totals.values():
            total += arr
        return Counts.from_array(total)


def _subset(ann: Annotation, attrs: tuple[str, ...], task: Task | None, doc: Document | None) -> str:
    parts = []
    for a in attrs:
        v = task.value(ann, a, doc) if task is not None else ann.attributes.get(a)
        if isinstance(v, frozenset):
            v = ",".join(sorted(map(str, v)))
        parts.append(f"{a}={'<null>' if v is None else v}")
    return ",".join(parts)


def tally(alignments: Iterable[DocumentAlignment], *, task: Task | None = None,
          rows: ScoreRows | None = None) -> Tally:
    """Count the outcomes of aligned documents.

    Raises
    ------
    TallyError
        If an item was left without an outcome or counted twice (a defect, never bad input).
    """
    rows = rows or ScoreRows()
    out = Tally()
    for al in alignments:
        doc = al.doc_id
        out.docs.setdefault(doc, {})
        doc_total = np.zeros(5, dtype=np.int64)
        n_match_gold = int(np.count_nonzero(al.gold_status == MATCH))
        n_match_pred = int(np.count_nonzero(al.pred_status == MATCH))
        if n_match_gold != n_match_pred or len(al.pairs) != int(np.count_nonzero(al.gold_status != UNPAIRED)) \
                or len(al.pairs) != int(np.count_nonzero(al.pred_status != UNPAIRED)):
            raise TallyError(f"document {doc!r}: pairs and item outcomes disagree "
                             f"({len(al.pairs)} pairs, {n_match_gold} gold matches, {n_match_pred} predicted)")
        for side, anns, labels, status, field_of, sdoc in (
            ("gold", al.gold, al.gold_label, al.gold_status, (0, 1, 3), al.gold_doc),
            ("pred", al.pred, al.pred_label, al.pred_status, (None, 2, 4), al.pred_doc),
        ):
            limit = rows.limitation
            counted, counted_status = labels, status
            if limit is not None:
                idx = [i for i, ann in enumerate(anns) if ann.label in limit]
                counted, counted_status = [labels[i] for i in idx], status[np.asarray(idx, dtype=np.int64)]
            if counted:
                # count per label with numpy: one code per (label, outcome)
                # a new label gets the next code: len(code_of) is read just before each setdefault
                code_of: dict[str, int] = {}
                inv = np.fromiter(map(code_of.setdefault, counted, map(len, repeat(code_of))), np.int64,
                                  len(counted))
                cells = np.bincount(inv * 3 + counted_status, minlength=3 * len(code_of)).reshape(len(code_of), 3)
                for lbl in sorted(code_of):
                    k = code_of[lbl]
                    arr = np.zeros(5, dtype=np.int64)
                    for st in (MATCH, CLASH, UNPAIRED):
                        f = field_of[st]
                        if f is not None:
                            arr[f] += cells[k, st]
                    out._row(doc, lbl)[:] += arr
                    out.labels.setdefault(lbl, None)
                    doc_total += arr
            if rows.aggregations or rows.attr_decompositions or rows.partitions:
                for i, ann in enumerate(anns):
                    f = field_of[int(status[i])]
                    if f is None:
                        continue
                    if limit is not None and ann.label not in limit:
                        continue
                    for name, labels_of in rows.aggregations:
                        if ann.label in labels_of:
                            out._row(doc, name)[f] += 1
                            out.aggregations.setdefault(name, None)
                    for attrs, labels_of in rows.attr_decompositions:
                        if ann.label in labels_of:
                            sub = _subset(ann, attrs, task, sdoc)
                            out._row(doc, f"{labels[i]}|{sub}")[f] += 1
                            out.decompositions.setdefault(labels[i], {})[sub] = None
                    for method, fn, labels_of in rows.partitions:
                        if ann.label in labels_of:
                            v = fn(ann, sdoc)
                            if v is None:
                                continue
                            sub = f"{method}={v}"
                            out._row(doc, f"{labels[i]}|{sub}")[f] += 1
                            out.decompositions.setdefault(labels[i], {})[sub] = None
        out.doc_totals[doc] = doc_total
        if rows.limitation is None:
            c = Counts.from_array(doc_total)
            if c.gold != len(al.gold) or c.pred != len(al.pred):
                raise TallyError(f"document {doc!r}: {len(al.gold)} gold and {len(al.pred)} predicted items, "
                                 f"but the tally counts {c.gold} and {c.pred}")
    return out
