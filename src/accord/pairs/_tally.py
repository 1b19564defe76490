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
from itertools import chain, repeat
from operator import itemgetter
from typing import Any

import numpy as np

from ..errors import ProfileError, TallyError
from ..match.engine import MATCH, UNPAIRED, DocumentAlignment
from ..metrics.counts import Counts
from ..model import Annotation, Document
from ..model.schema import ScoreProfileSpec, Task
from ..result._sentence_units import SentenceIndex

__all__ = ["Counts", "Tally", "ScoreRows", "tally"]

@dataclass
class ScoreRows:
    """Which extra rows a score profile asks for, compiled against a task."""

    aggregations: list[tuple[str, frozenset[str]]] = field(default_factory=list)
    attr_decompositions: list[tuple[tuple[str, ...], frozenset[str]]] = field(default_factory=list)
    partitions: list[tuple[str, Callable[[Annotation, Document | None], Any], frozenset[str]]] = field(
        default_factory=list)
    limitation: frozenset[str] | None = None

    @classmethod
    def from_spec(cls, spec: ScoreProfileSpec | None) -> ScoreRows:
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
    (:mod:`accord._support.plugins`)."""
    kind, _, arg = method.partition(":")
    if not arg:
        raise ProfileError(f"partition method {method!r}: expected metadata:KEY, attribute:NAME or module:function")
    if kind == "metadata":
        return lambda ann, doc: (doc.metadata.get(arg) if doc is not None else None)
    if kind == "attribute":
        return lambda ann, doc: ann.attributes.get(arg)
    from .._support.plugins import resolve_method

    return resolve_method(method, "partition method")   # registered or --plugins only: a task file imports nothing


class Tally:
    """Counts per document and row key.

    Row keys are strings: a scoring label, an aggregation name, or ``"LABEL|subset"`` for a
    decomposition row (``subset`` as MAT writes it: ``attr=val,attr2=val2`` or
    ``method=value``).

    The label rows of every document are one array (``documents x labels x counts``, counted for the
    whole corpus at once by :func:`tally`); the rarer aggregation and decomposition rows are kept per
    document. :attr:`docs` and :attr:`doc_totals` give the per-document view.
    """

    def __init__(self) -> None:
        self.documents: dict[str, int] = {}
        self.labels: dict[str, None] = {}
        self.aggregations: dict[str, None] = {}
        self.decompositions: dict[str, dict[str, None]] = {}
        self.label_values = np.zeros((0, 0, 5), dtype=np.int64)
        """``label_values[d, k]``: the counts of label ``list(labels)[k]`` in document ``d``."""
        self.extra: dict[str, dict[str, np.ndarray]] = {}
        """Aggregation and decomposition rows, by document then key."""
        self._docs: dict[str, dict[str, np.ndarray]] | None = None
        self._totals: dict[str, np.ndarray] | None = None
        self.sentence_sizes: np.ndarray | None = None
        """Sentences of each document (:class:`~accord.result._sentence_units.SentenceIndex`), when they were
        tracked."""
        self.sentence_items: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        """Counted label items by sentence: ``(sentence, label code in tally order, field)`` arrays."""
        self.sentence_extra: list[tuple[int, str, int]] = []
        """Aggregation and decomposition counts by sentence: ``(sentence, row key, field)``, one per count."""

    def _row(self, doc: str, key: str) -> np.ndarray:
        self._docs = None
        rows = self.extra.setdefault(doc, {})
        arr = rows.get(key)
        if arr is None:
            arr = rows[key] = np.zeros(5, dtype=np.int64)
        return arr

    @property
    def docs(self) -> dict[str, dict[str, np.ndarray]]:
        """Each document's rows that count something: labels, aggregations and decompositions (built once)."""
        if self._docs is None:
            names = list(self.labels)
            present = np.asarray(self.label_values.any(axis=2))
            self._docs = {}
            for doc, d in self.documents.items():
                rows = {names[k]: self.label_values[d, k] for k in np.flatnonzero(present[d]).tolist()}
                rows.update(self.extra.get(doc, {}))
                self._docs[doc] = rows
        return self._docs

    @property
    def doc_totals(self) -> dict[str, np.ndarray]:
        """Each document's all-labels row (built once: callers look documents up one by one)."""
        if self._totals is None:
            totals = self.label_values.sum(axis=1)
            self._totals = {doc: totals[d] for doc, d in self.documents.items()}
        return self._totals

    def merge(self, other: Tally) -> Tally:
        """Add another tally's counts into this one (documents must not overlap)."""
        for doc in other.documents:
            if doc in self.documents:
                raise TallyError(f"document {doc!r} tallied twice")
        self.sentence_sizes, self.sentence_items, self.sentence_extra = None, [], []   # kept by the count tables
        labels = dict(self.labels)
        labels.update(other.labels)
        values = np.zeros((len(self.documents) + len(other.documents), len(labels), 5), dtype=np.int64)
        values[:len(self.documents), :len(self.labels)] = self.label_values
        where = [list(labels).index(lbl) for lbl in other.labels]
        values[len(self.documents):, where] = other.label_values
        self.label_values, self.labels = values, labels
        for doc in other.documents:
            self.documents[doc] = len(self.documents)
        for doc, rows in other.extra.items():
            self.extra[doc] = {k: v.copy() for k, v in rows.items()}
        self.aggregations.update(other.aggregations)
        for label, subs in other.decompositions.items():
            self.decompositions.setdefault(label, {}).update(subs)
        self._docs = self._totals = None
        return self

    def counts(self, key: str, doc: str | None = None) -> Counts:
        """Counts of one row, for one document or summed over the corpus."""
        if key in self.labels:
            k = list(self.labels).index(key)
            if doc is None:
                return Counts.from_array(self.label_values[:, k].sum(axis=0))
            d = self.documents.get(doc)
            return Counts() if d is None else Counts.from_array(self.label_values[d, k])
        if doc is not None:
            arr = self.extra.get(doc, {}).get(key)
            return Counts() if arr is None else Counts.from_array(arr)
        total = np.zeros(5, dtype=np.int64)
        for rows in self.extra.values():
            arr = rows.get(key)
            if arr is not None:
                total += arr
        return Counts.from_array(total)

    def total(self, doc: str | None = None) -> Counts:
        """The all-labels row, for one document or the corpus."""
        if doc is not None:
            d = self.documents.get(doc)
            return Counts() if d is None else Counts.from_array(self.label_values[d].sum(axis=0))
        return Counts.from_array(self.label_values.sum(axis=(0, 1)))

    def table(self) -> Any:
        """The count table (:class:`~accord.result.CountTable`): every document's total, label, aggregation and
        decomposition rows, documents in tally order, rows in :func:`~accord.result.row_order`."""
        from ..result import ALL, CountTable, PairsKind
        from ..result._table import row_order

        keys: list[tuple[Any, ...]] = [ALL] + [("label", lbl) for lbl in self.labels]
        keys += [("aggregation", name) for name in self.aggregations]
        keys += [("decomposition", lbl, sub) for lbl, subs in self.decompositions.items() for sub in subs]
        rows = sorted(keys, key=row_order)
        position = {row: k for k, row in enumerate(rows)}
        values = np.zeros((len(self.documents), len(rows), 5), dtype=np.int64)
        label_at = [position[("label", lbl)] for lbl in self.labels]
        values[:, label_at] = self.label_values
        values[:, position[ALL]] = self.label_values.sum(axis=1)
        row_of: dict[str, tuple[Any, ...]] = {f"{lbl}|{sub}": ("decomposition", lbl, sub)
                                              for lbl, subs in self.decompositions.items() for sub in subs}
        row_of.update((name, ("aggregation", name)) for name in self.aggregations)
        for doc, extra in self.extra.items():
            d = self.documents[doc]
            for key, arr in extra.items():
                values[d, position[row_of[key]]] += arr
        return CountTable(PairsKind.fields, tuple(self.documents), tuple(rows), values,
                          self._sentences(position, row_of, np.asarray(label_at, dtype=np.int64)))

    def _sentences(self, position: dict, row_of: dict, label_at: np.ndarray) -> Any:
        """The counts by sentence (:class:`~accord.result.SentenceCounts`), or None when not tracked."""
        from ..result import ALL, SentenceCounts

        if self.sentence_sizes is None:
            return None
        units, rows, fields = [], [], []
        for unit, code, f in self.sentence_items:
            units += [unit, unit]
            rows += [label_at[code], np.full(len(unit), position[ALL], dtype=np.int64)]
            fields += [f, f]
        if self.sentence_extra:
            extra_units, extra_keys, extra_fields = zip(*self.sentence_extra)
            units.append(np.asarray(extra_units, dtype=np.int64))
            rows.append(np.asarray([position[row_of[key]] for key in extra_keys], dtype=np.int64))
            fields.append(np.asarray(extra_fields, dtype=np.int64))
        empty = np.zeros(0, dtype=np.int64)
        return SentenceCounts.from_items(self.sentence_sizes, np.concatenate(units) if units else empty,
                                         np.concatenate(rows) if rows else empty,
                                         np.concatenate(fields) if fields else empty, None, len(position), 5)


def _subset(ann: Annotation, attrs: tuple[str, ...], task: Task | None, doc: Document | None) -> str:
    parts = []
    for a in attrs:
        v = task.value(ann, a, doc) if task is not None else ann.attributes.get(a)
        if isinstance(v, frozenset):
            v = ",".join(sorted(map(str, v)))
        parts.append(f"{a}={'<null>' if v is None else v}")
    return ",".join(parts)


_GOLD_FIELD = np.array([0, 1, 3], dtype=np.int64)    # MATCH, CLASH, UNPAIRED -> match, gold_clash, missing
_PRED_FIELD = np.array([-1, 2, 4], dtype=np.int64)   # -> (a match counts once, on the gold side), pred_clash, spurious


def tally(alignments: Iterable[DocumentAlignment], *, task: Task | None = None,
          rows: ScoreRows | None = None) -> Tally:
    """Count the outcomes of aligned documents.

    The label rows of all documents are counted at once: every item's (document, label, outcome) code, one
    ``bincount``; only aggregations and decompositions go item by item.

    Raises
    ------
    TallyError
        If an item was left without an outcome or counted twice (a defect, never bad input).
    """
    rows = rows or ScoreRows()
    out = Tally()
    als = list(alignments)
    doc_of = out.documents
    doc_index = np.fromiter(map(doc_of.setdefault, (al.doc_id for al in als), map(len, repeat(doc_of))),
                            np.int64, len(als))
    _check_outcomes(als)
    first_of: dict[str, DocumentAlignment] = {}
    for al in als:
        first_of.setdefault(al.doc_id, al)
    sentences = SentenceIndex([(al.gold_doc, al.pred_doc) for al in first_of.values()])
    out.sentence_sizes = sentences.sizes if sentences.known else None
    limit = rows.limitation
    sides = []
    for side in ("gold", "pred"):
        labels_of = [al.gold_label if side == "gold" else al.pred_label for al in als]
        sizes = np.fromiter(map(len, labels_of), np.int64, len(als))
        labels = list(chain.from_iterable(labels_of))
        status = (np.concatenate([al.gold_status if side == "gold" else al.pred_status for al in als])
                  if labels else np.zeros(0, dtype=np.int8)).astype(np.int64)
        doc = np.repeat(doc_index, sizes)
        order = np.repeat(2 * np.arange(len(als), dtype=np.int64) + (side == "pred"), sizes)
        starts = _starts(list(chain.from_iterable(al.gold if side == "gold" else al.pred for al in als)))
        unit = sentences.units(doc, starts)
        if limit is not None:
            kept = [k for k, ann in enumerate(chain.from_iterable(
                al.gold if side == "gold" else al.pred for al in als)) if ann.label in limit]
            labels = [labels[k] for k in kept]
            status, doc, order, unit = status[kept], doc[kept], order[kept], unit[kept]
        sides.append((labels, status, doc, order, _GOLD_FIELD if side == "gold" else _PRED_FIELD, unit))
    # labels in the order they are first met: document by document, gold then predicted, by name within one
    code_of: dict[str, int] = {}
    codes = [np.fromiter(map(code_of.setdefault, labels, map(len, repeat(code_of))), np.int64, len(labels))
             for labels, *_ in sides]
    first = np.full(len(code_of), np.iinfo(np.int64).max, dtype=np.int64)
    for code, (_, _, _, order, _, _) in zip(codes, sides):
        np.minimum.at(first, code, order)
    names = list(code_of)
    ranked = sorted(range(len(names)), key=lambda k: (int(first[k]), names[k]))
    rank = np.empty(len(names), dtype=np.int64)
    rank[ranked] = np.arange(len(names), dtype=np.int64)
    out.labels = {names[k]: None for k in ranked}
    n_doc, n_lab = len(doc_of), len(names)
    flat = np.zeros(n_doc * n_lab * 5, dtype=np.int64)
    for code, (_, status, doc, _, field_of, unit) in zip(codes, sides):
        if status.size and (status.min() < 0 or status.max() > UNPAIRED):
            raise TallyError(f"an item with the outcome {int(status.max())}: not a match, a clash or unpaired")
        f = field_of[status]
        counted = f >= 0
        flat += np.bincount(((doc * n_lab + rank[code]) * 5 + f)[counted], minlength=flat.size)
        if out.sentence_sizes is not None:      # kept narrow: the report holds its tally
            narrow = np.int32 if len(unit) < 2 ** 31 and int(out.sentence_sizes.sum()) < 2 ** 31 else np.int64
            out.sentence_items.append((unit[counted].astype(narrow), rank[code][counted].astype(narrow),
                                       f[counted].astype(np.int8)))
    out.label_values = flat.reshape(n_doc, n_lab, 5)
    if rows.aggregations or rows.attr_decompositions or rows.partitions:
        for al in als:
            _tally_extra_rows(out, al, rows, task, sentences)
    return out


def _starts(anns: list[Annotation]) -> np.ndarray:
    """The start of each annotation, -1 for a spanless one: read in one pass when every annotation has one."""
    try:
        return np.fromiter(map(_START, anns), np.int64, len(anns))
    except TypeError:     # (a spanless annotation's None)
        return np.fromiter((-1 if a.start is None else a.start for a in anns), np.int64, len(anns))


_START = itemgetter(1)


def _check_outcomes(als: list[DocumentAlignment]) -> None:
    """Every document's pairs and item outcomes agree: one pair per paired item, matches on both sides alike."""
    if not als:
        return
    counts = []
    for status in ([al.gold_status for al in als], [al.pred_status for al in als]):
        sizes = np.fromiter(map(len, status), np.int64, len(als))
        flat = np.concatenate(status) if sizes.sum() else np.zeros(0, dtype=np.int8)
        doc = np.repeat(np.arange(len(als)), sizes)
        counts.append((np.bincount(doc[flat == MATCH], minlength=len(als)),
                       np.bincount(doc[flat != UNPAIRED], minlength=len(als))))
    n_pairs = np.fromiter(map(len, (al.pairs for al in als)), np.int64, len(als))
    bad = np.flatnonzero((counts[0][0] != counts[1][0]) | (n_pairs != counts[0][1]) | (n_pairs != counts[1][1]))
    if len(bad):
        k = int(bad[0])
        raise TallyError(f"document {als[k].doc_id!r}: pairs and item outcomes disagree ({int(n_pairs[k])} pairs, "
                         f"{int(counts[0][0][k])} gold matches, {int(counts[1][0][k])} predicted)")


def _tally_extra_rows(out: Tally, al: DocumentAlignment, rows: ScoreRows, task: Task | None,
                      sentences: SentenceIndex) -> None:
    """The aggregation and decomposition rows of one document, item by item."""
    doc, limit = al.doc_id, rows.limitation
    d = np.array([out.documents[doc]], dtype=np.int64)
    by_sentence = out.sentence_extra
    for anns, labels, status, field_of, sdoc in ((al.gold, al.gold_label, al.gold_status, (0, 1, 3), al.gold_doc),
                                                 (al.pred, al.pred_label, al.pred_status, (None, 2, 4), al.pred_doc)):
        for i, ann in enumerate(anns):
            f = field_of[int(status[i])]
            if f is None:
                continue
            if limit is not None and ann.label not in limit:
                continue
            unit = int(sentences.units(d, np.array([-1 if ann.start is None else ann.start]))[0])
            for name, labels_of in rows.aggregations:
                if ann.label in labels_of:
                    out._row(doc, name)[f] += 1
                    out.aggregations.setdefault(name, None)
                    by_sentence.append((unit, name, f))
            for attrs, labels_of in rows.attr_decompositions:
                if ann.label in labels_of:
                    sub = _subset(ann, attrs, task, sdoc)
                    out._row(doc, f"{labels[i]}|{sub}")[f] += 1
                    out.decompositions.setdefault(labels[i], {})[sub] = None
                    by_sentence.append((unit, f"{labels[i]}|{sub}", f))
            for method, fn, labels_of in rows.partitions:
                if ann.label in labels_of:
                    v = fn(ann, sdoc)
                    if v is None:
                        continue
                    sub = f"{method}={v}"
                    out._row(doc, f"{labels[i]}|{sub}")[f] += 1
                    out.decompositions.setdefault(labels[i], {})[sub] = None
                    by_sentence.append((unit, f"{labels[i]}|{sub}", f))
