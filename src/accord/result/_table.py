"""Count tables: additive counts per document and row, the currency of every result."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import MergeError, TallyError

__all__ = ["ALL", "Row", "CountTable", "SentenceCounts", "label_table", "document_table", "row_order"]

Row = tuple[str, ...]
"""A row key: ``("all",)`` (every item), ``("label", L)``, ``("aggregation", NAME)``,
``("decomposition", L, SUBSET)``, or another group a mode defines; its first element is the group."""

ALL: Row = ("all",)


@dataclass(frozen=True, eq=False)
class SentenceCounts:
    """The counts of each document's sentences: the sub-units a bootstrap over sentences resamples.

    Document ``d`` has ``sizes[d] >= 1`` sentences, numbered document by document (the sentences of
    document 0 first); a document without sentence boundaries is one sentence. The counts are kept as
    sparse cells: ``value[k]`` of field ``field[k]`` in row ``row[k]`` of sentence ``unit[k]``, each
    (sentence, row, field) at most once. The cells of a document's sentences add up to the document's
    counts (checked when a :class:`CountTable` is made), so a corpus of many sentences costs memory in
    proportion to what it counts, not to sentences x rows.
    """

    sizes: np.ndarray
    unit: np.ndarray
    row: np.ndarray
    field: np.ndarray
    value: np.ndarray

    @property
    def n_units(self) -> int:
        return int(self.sizes.sum())

    @classmethod
    def from_items(cls, sizes: np.ndarray, unit: np.ndarray, row: np.ndarray, field: np.ndarray,
                   value: np.ndarray | None, n_rows: int, n_fields: int, dtype: type = np.int64) -> SentenceCounts:
        """Cells summed from counted items: item ``k`` adds ``value[k]`` (1 when ``value`` is None) to field
        ``field[k]`` of row ``row[k]`` of sentence ``unit[k]``."""
        unit, row, field = (np.asarray(a, dtype=np.int64) for a in (unit, row, field))
        key = (unit * n_rows + row) * n_fields + field
        cells, where = np.unique(key, return_inverse=True)
        weights = np.ones(len(key)) if value is None else np.asarray(value, dtype=np.float64)
        summed = np.bincount(where.reshape(-1), weights=weights, minlength=len(cells))
        if np.dtype(dtype).kind in "iu":
            summed = np.rint(summed)
        keep = summed != 0
        cells = cells[keep]
        # narrow columns: a cell costs 4 + 4 + 2 bytes of place and its value (not 32 bytes), as big corpora have
        # millions of them
        unit_type = np.int32 if int(np.sum(sizes)) < 2 ** 31 else np.int64
        return cls(np.asarray(sizes, dtype=np.int64), (cells // (n_rows * n_fields)).astype(unit_type),
                   ((cells // n_fields) % n_rows).astype(np.int32 if n_rows < 2 ** 31 else np.int64),
                   (cells % n_fields).astype(np.int16), summed[keep].astype(dtype))

    def per_document(self, n_rows: int, n_fields: int, dtype: Any) -> np.ndarray:
        """The counts of each document: ``(documents, rows, fields)``, the sum of its sentences' cells."""
        doc_of_unit = np.repeat(np.arange(len(self.sizes), dtype=np.int64), self.sizes)
        size = len(self.sizes) * n_rows * n_fields
        out = np.bincount((doc_of_unit[self.unit] * n_rows + self.row) * n_fields + self.field,
                          weights=self.value.astype(np.float64), minlength=size)
        if np.dtype(dtype).kind in "iu":
            out = np.rint(out)
        return out.reshape(len(self.sizes), n_rows, n_fields).astype(dtype)

    def with_rows(self, where: np.ndarray) -> SentenceCounts:
        """The same cells with row ``r`` renumbered ``where[r]`` (a table's rows united with another's)."""
        return SentenceCounts(self.sizes, self.unit, np.asarray(where, dtype=np.int64)[self.row], self.field,
                              self.value)

    def take(self, positions: np.ndarray) -> SentenceCounts:
        """The sentences of the documents at ``positions`` (in that order), renumbered."""
        offsets = np.concatenate([[0], np.cumsum(self.sizes)])
        doc_of_unit = np.repeat(np.arange(len(self.sizes), dtype=np.int64), self.sizes)
        new_sizes = self.sizes[positions]
        new_offsets = np.concatenate([[0], np.cumsum(new_sizes)])
        new_position = np.full(len(self.sizes), -1, dtype=np.int64)
        new_position[positions] = np.arange(len(positions))
        doc = doc_of_unit[self.unit]
        kept = new_position[doc] >= 0
        unit = new_offsets[new_position[doc[kept]]] + (self.unit[kept] - offsets[doc[kept]])
        order = np.argsort(unit, kind="stable")
        return SentenceCounts(new_sizes, unit[order], self.row[kept][order], self.field[kept][order],
                              self.value[kept][order])

    @staticmethod
    def concat(parts: Sequence[SentenceCounts]) -> SentenceCounts:
        """The sentences of several tables' documents, in order (rows already renumbered alike)."""
        shift = np.concatenate([[0], np.cumsum([p.n_units for p in parts])])
        return SentenceCounts(np.concatenate([p.sizes for p in parts]),
                              np.concatenate([p.unit + s for p, s in zip(parts, shift)]),
                              np.concatenate([p.row for p in parts]), np.concatenate([p.field for p in parts]),
                              np.concatenate([p.value for p in parts]))


@dataclass(frozen=True, eq=False)
class CountTable:
    """Counts of a measure: ``values[d, r, f]`` is count ``fields[f]`` of row ``rows[r]`` in document
    ``documents[d]``.

    Every count is additive: the counts of a set of documents are the sums of their rows, so two
    tables over disjoint documents add up (:meth:`__add__`) to the table of scoring them together,
    and every total, by-label and by-document figure is a sum over one axis of ``values``.
    Integer tables are ``int64``; a table with fractional credits (B-cubed numerators, BDM credit,
    similarity sums) is ``float64``.

    ``sentences``, when the scoring knew each item's sentence, holds the same counts by sentence
    (:class:`SentenceCounts`): what ``--resample sentences`` draws from. It follows every reordering and
    addition of tables; a table without it (read back from JSON, or from a mode without sentences)
    resamples documents only.
    """

    fields: tuple[str, ...]
    documents: tuple[str, ...]
    rows: tuple[Row, ...]
    values: np.ndarray
    sentences: SentenceCounts | None = None

    def __post_init__(self) -> None:
        shape = (len(self.documents), len(self.rows), len(self.fields))
        if self.values.shape != shape:
            raise TallyError(f"count table of shape {self.values.shape}, expected {shape} "
                             "(documents x rows x fields)")
        if len(set(self.documents)) != len(self.documents):
            raise TallyError("a count table holds a document twice")
        if len(set(self.rows)) != len(self.rows):
            raise TallyError("a count table holds a row twice")
        if self.sentences is not None:
            sc = self.sentences
            if len(sc.sizes) != len(self.documents) or (len(sc.sizes) and int(sc.sizes.min()) < 1):
                raise TallyError("sentence counts need one or more sentences for every document of the table")
            by_document = sc.per_document(len(self.rows), len(self.fields), self.values.dtype)
            same = np.array_equal(by_document, self.values) if self.is_integer else \
                np.allclose(by_document, self.values, rtol=1e-12, atol=1e-9)
            if not same:
                raise TallyError("the sentences' counts do not add up to their documents' counts")

    @classmethod
    def build(cls, fields: Sequence[str], cells: Iterable[tuple[str, Row, Sequence[float]]],
              documents: Sequence[str] = (), *, dtype: type = np.int64) -> CountTable:
        """A table from ``(document, row, counts)`` cells (cells of one document and row add up).

        ``documents`` fixes the order of documents (others follow in order of appearance), so a
        document without any cell still has its (zero) rows. Rows are ordered by :func:`row_order`.
        """
        doc_index: dict[str, int] = {d: k for k, d in enumerate(dict.fromkeys(documents))}
        row_index: dict[Row, int] = {}
        triples = []
        for doc, row, counts in cells:
            d = doc_index.setdefault(doc, len(doc_index))
            r = row_index.setdefault(row, len(row_index))
            triples.append((d, r, counts))
        rows = sorted(row_index, key=row_order)
        remap = np.empty(len(rows), dtype=np.int64)
        for k, row in enumerate(rows):
            remap[row_index[row]] = k
        values: np.ndarray = np.zeros((len(doc_index), len(rows), len(fields)), dtype=dtype)
        for d, r, counts in triples:
            values[d, remap[r]] += np.asarray(counts, dtype=dtype)
        return cls(tuple(fields), tuple(doc_index), tuple(rows), values)

    @property
    def is_integer(self) -> bool:
        return self.values.dtype.kind in "iu"

    def group(self, name: str) -> list[int]:
        """Indices of the rows of one group (``"label"``, ``"aggregation"``, ...), in table order."""
        return [k for k, row in enumerate(self.rows) if row[0] == name]

    def total(self) -> np.ndarray:
        """Counts of every row summed over documents: ``(rows, fields)``."""
        total: np.ndarray = self.values.sum(axis=0)
        return total

    def take(self, documents: Sequence[str]) -> CountTable:
        """The table of ``documents`` (a reordering of some or all of its documents), in that order."""
        index = {d: k for k, d in enumerate(self.documents)}
        where = np.fromiter((index[d] for d in documents), dtype=np.int64, count=len(documents))
        sentences = None if self.sentences is None else self.sentences.take(where)
        return CountTable(self.fields, tuple(documents), self.rows, self.values[where], sentences)

    @classmethod
    def concat(cls, tables: Sequence[CountTable]) -> CountTable:
        """The table of several tables over disjoint documents, in order: ``tables[0] + tables[1] + ...`` in
        one copy.

        Raises
        ------
        MergeError
            If the fields differ or a document is in two tables.
        """
        if len(tables) == 1:
            return tables[0]
        fields = tables[0].fields
        for t in tables[1:]:
            if t.fields != fields:
                raise MergeError(f"cannot add count tables of fields {fields} and {t.fields}")
        documents = tuple(d for t in tables for d in t.documents)
        if len(set(documents)) != len(documents):
            from collections import Counter

            twice = sorted(d for d, n in Counter(documents).items() if n > 1)[0]
            raise MergeError(f"cannot merge results that both hold document {twice!r}: merge adds up results "
                             "over disjoint documents")
        rows = tuple(sorted({r for t in tables for r in t.rows}, key=row_order))
        dtype = np.result_type(*(t.values.dtype for t in tables))
        values = np.zeros((len(documents), len(rows), len(fields)), dtype=dtype)
        offset = 0
        for t in tables:
            where = [rows.index(r) for r in t.rows]
            values[offset:offset + len(t.documents), where] = t.values
            offset += len(t.documents)
        return cls(fields, documents, rows, values, _joined_sentences(tables, rows))

    def __add__(self, other: CountTable) -> CountTable:
        """The table of both documents sets: rows united, documents of ``self`` first.

        Raises
        ------
        MergeError
            If the fields differ or a document is in both tables.
        """
        if not isinstance(other, CountTable):
            return NotImplemented
        if other.fields != self.fields:
            raise MergeError(f"cannot add count tables of fields {self.fields} and {other.fields}")
        both = set(self.documents) & set(other.documents)
        if both:
            raise MergeError(f"cannot merge results that both hold document {sorted(both)[0]!r}: merge adds up "
                             "results over disjoint documents")
        rows = tuple(sorted(set(self.rows) | set(other.rows), key=row_order))
        dtype = np.result_type(self.values.dtype, other.values.dtype)
        values = np.zeros((len(self.documents) + len(other.documents), len(rows), len(self.fields)), dtype=dtype)
        for offset, table in ((0, self), (len(self.documents), other)):
            where = [rows.index(r) for r in table.rows]
            values[offset:offset + len(table.documents), where] = table.values
        return CountTable(self.fields, self.documents + other.documents, rows, values,
                          _joined_sentences([self, other], rows))


def _joined_sentences(tables: Sequence[CountTable], rows: tuple[Row, ...]) -> SentenceCounts | None:
    """The sentences of tables added up, rows renumbered to ``rows`` (None unless every table has them)."""
    if any(t.sentences is None for t in tables):
        return None
    return SentenceCounts.concat([t.sentences.with_rows(np.array([rows.index(r) for r in t.rows], dtype=np.int64))
                                  for t in tables if t.sentences is not None])


_GROUP_ORDER = {"all": 0, "label": 1, "aggregation": 2, "decomposition": 3}


def row_order(row: Row) -> tuple[Any, ...]:
    """The canonical order of rows: the total, labels, aggregations, decompositions, then other groups;
    by name inside a group."""
    return (_GROUP_ORDER.get(row[0], len(_GROUP_ORDER)), row[0], row[1:])


def label_table(fields: Sequence[str], documents: Sequence[str], labels: Sequence[str],
                columns: Sequence[tuple[np.ndarray, np.ndarray, np.ndarray | None]],
                dtype: type = np.int64, sentences: tuple[np.ndarray, Sequence[np.ndarray]] | None = None
                ) -> CountTable:
    """A table of the total and label rows from item codes, by counting.

    ``columns[f] = (doc, label, weight)`` gives, for count ``fields[f]``, the document and label code of
    each counted item (and its weight, or ``None`` for 1); label codes index ``labels``. The total row is
    the sum of the label rows, labels are ordered by name. ``sentences = (sizes, units)`` also counts by
    sentence: ``units[f]`` is the sentence of each item of ``columns[f]`` (see :class:`SentenceCounts`).
    """
    n_doc, n_lab = len(documents), len(labels)
    order = sorted(range(n_lab), key=lambda k: labels[k])
    position = np.empty(n_lab, dtype=np.int64)
    position[order] = np.arange(n_lab)
    values: np.ndarray = np.zeros((n_doc, 1 + n_lab, len(fields)), dtype=dtype)
    for f, (doc, label, weight) in enumerate(columns):
        if n_lab == 0 or len(doc) == 0:
            continue
        cells = np.bincount(np.asarray(doc, dtype=np.int64) * n_lab + position[np.asarray(label, dtype=np.int64)],
                            weights=weight, minlength=n_doc * n_lab)
        values[:, 1:, f] = cells.reshape(n_doc, n_lab).astype(dtype)
    values[:, 0] = values[:, 1:].sum(axis=1)
    rows = (ALL,) + tuple(("label", labels[k]) for k in order)
    by_sentence = None
    if sentences is not None:
        sizes, units = sentences
        unit = np.concatenate([np.asarray(u, dtype=np.int64) for u in units] * 2) if len(units) else \
            np.zeros(0, dtype=np.int64)
        item_label = [1 + position[np.asarray(lab, dtype=np.int64)] for _, lab, _ in columns]
        field = [np.full(len(lab), f, dtype=np.int64) for f, (_, lab, _) in enumerate(columns)]
        item_weight = [np.ones(len(lab)) if w is None else np.asarray(w, dtype=np.float64) for _, lab, w in columns]
        total = [np.zeros(len(lab), dtype=np.int64) for _, lab, _ in columns]
        empty = np.zeros(0, dtype=np.int64)
        by_sentence = SentenceCounts.from_items(
            sizes, unit, np.concatenate(item_label + total) if columns else empty,
            np.concatenate(field * 2) if columns else empty, np.concatenate(item_weight * 2) if columns else None,
            len(rows), len(fields), dtype)
    return CountTable(tuple(fields), tuple(documents), rows, values, by_sentence)


def document_table(fields: Sequence[str], documents: Sequence[str], values: np.ndarray) -> CountTable:
    """A table with one total row per document: ``values`` of shape ``(documents, fields)``."""
    values = np.asarray(values)
    return CountTable(tuple(fields), tuple(documents), (ALL,), values.reshape(len(documents), 1, len(fields)))
