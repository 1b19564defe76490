"""Count tables: additive counts per document and row, the currency of every result."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from ..errors import MergeError, TallyError

__all__ = ["ALL", "Row", "CountTable", "label_table", "document_table", "row_order"]

Row = tuple[str, ...]
"""A row key: ``("all",)`` (every item), ``("label", L)``, ``("aggregation", NAME)``,
``("decomposition", L, SUBSET)``, or another group a mode defines; its first element is the group."""

ALL: Row = ("all",)


@dataclass(frozen=True, eq=False)
class CountTable:
    """Counts of a measure: ``values[d, r, f]`` is count ``fields[f]`` of row ``rows[r]`` in document
    ``documents[d]``.

    Every count is additive: the counts of a set of documents are the sums of their rows, so two
    tables over disjoint documents add up (:meth:`__add__`) to the table of scoring them together,
    and every total, by-label and by-document figure is a sum over one axis of ``values``.
    Integer tables are ``int64``; a table with fractional credits (B-cubed numerators, BDM credit,
    similarity sums) is ``float64``.
    """

    fields: tuple[str, ...]
    documents: tuple[str, ...]
    rows: tuple[Row, ...]
    values: np.ndarray

    def __post_init__(self) -> None:
        shape = (len(self.documents), len(self.rows), len(self.fields))
        if self.values.shape != shape:
            raise TallyError(f"count table of shape {self.values.shape}, expected {shape} "
                             "(documents x rows x fields)")
        if len(set(self.documents)) != len(self.documents):
            raise TallyError("a count table holds a document twice")
        if len(set(self.rows)) != len(self.rows):
            raise TallyError("a count table holds a row twice")

    @classmethod
    def build(cls, fields: Sequence[str], cells: Iterable[tuple[str, Row, Sequence[float]]],
              documents: Sequence[str] = (), *, dtype: type = np.int64) -> "CountTable":
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
        values = np.zeros((len(doc_index), len(rows), len(fields)), dtype=dtype)
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
        return self.values.sum(axis=0)

    def take(self, documents: Sequence[str]) -> "CountTable":
        """The table of ``documents`` (a reordering of some or all of its documents), in that order."""
        index = {d: k for k, d in enumerate(self.documents)}
        where = np.fromiter((index[d] for d in documents), dtype=np.int64, count=len(documents))
        return CountTable(self.fields, tuple(documents), self.rows, self.values[where])

    @classmethod
    def concat(cls, tables: Sequence["CountTable"]) -> "CountTable":
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
        return cls(fields, documents, rows, values)

    def __add__(self, other: "CountTable") -> "CountTable":
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
        return CountTable(self.fields, self.documents + other.documents, rows, values)


_GROUP_ORDER = {"all": 0, "label": 1, "aggregation": 2, "decomposition": 3}


def row_order(row: Row) -> tuple:
    """The canonical order of rows: the total, labels, aggregations, decompositions, then other groups;
    by name inside a group."""
    return (_GROUP_ORDER.get(row[0], len(_GROUP_ORDER)), row[0], row[1:])


def label_table(fields: Sequence[str], documents: Sequence[str], labels: Sequence[str],
                columns: Sequence[tuple[np.ndarray, np.ndarray, np.ndarray | None]],
                dtype: type = np.int64) -> CountTable:
    """A table of the total and label rows from item codes, by counting.

    ``columns[f] = (doc, label, weight)`` gives, for count ``fields[f]``, the document and label code of
    each counted item (and its weight, or ``None`` for 1); label codes index ``labels``. The total row is
    the sum of the label rows, labels are ordered by name.
    """
    n_doc, n_lab = len(documents), len(labels)
    order = sorted(range(n_lab), key=lambda k: labels[k])
    position = np.empty(n_lab, dtype=np.int64)
    position[order] = np.arange(n_lab)
    values = np.zeros((n_doc, 1 + n_lab, len(fields)), dtype=dtype)
    for f, (doc, label, weight) in enumerate(columns):
        if n_lab == 0 or len(doc) == 0:
            continue
        cells = np.bincount(np.asarray(doc, dtype=np.int64) * n_lab + position[np.asarray(label, dtype=np.int64)],
                            weights=weight, minlength=n_doc * n_lab)
        values[:, 1:, f] = cells.reshape(n_doc, n_lab).astype(dtype)
    values[:, 0] = values[:, 1:].sum(axis=1)
    rows = (ALL,) + tuple(("label", labels[k]) for k in order)
    return CountTable(tuple(fields), tuple(documents), rows, values)


def document_table(fields: Sequence[str], documents: Sequence[str], values: np.ndarray) -> CountTable:
    """A table with one total row per document: ``values`` of shape ``(documents, fields)``."""
    values = np.asarray(values)
    return CountTable(tuple(fields), tuple(documents), (ALL,), values.reshape(len(documents), 1, len(fields)))
