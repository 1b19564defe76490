"""What a bootstrap or a paired test resamples: documents, or the sentences inside them.

A corpus is a sample of units that vary independently; the bootstrap (Efron & Tibshirani 1993) and the paired
tests are only as good as the number of units they redraw. Many inputs are a single document (a CoNLL file
without ``-DOCSTART-``, tag lists, a dataset without a document column): resampling documents then redraws the
same corpus every time, an interval of width zero and p = 1 for any difference. Resampling sentences is the
convention of single-file NER and MT evaluation (Koehn 2004's paired bootstrap over sentences).

The rule (``--resample auto``, the default): **documents** when the corpus holds at least
:data:`AUTO_DOCUMENTS` of them, else **sentences** when the counts know them, else documents. Fewer than
:data:`FEW_UNITS` units of the chosen kind give a
:class:`~accord.errors.StatisticsWarning` (intervals and tests unreliable); a single unit is a
:class:`~accord.errors.StatisticsError` (nothing to resample).

The sentences' counts are sparse (:class:`~accord.result.SentenceCounts`), so a resample costs one sparse
product: resampling sentences costs what resampling documents costs, per counted cell.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

import numpy as np

from .._support.arrays import Floats, Ints
from ..errors import OptionError, StatisticsError, StatisticsWarning
from ..result._table import CountTable, Row

if TYPE_CHECKING:
    from scipy.sparse import csr_matrix

__all__ = ["AUTO_DOCUMENTS", "FEW_UNITS", "RESAMPLE_CHOICES", "UnitMatrix", "check_unit_count", "resampling_unit",
           "unit_matrix"]

RESAMPLE_CHOICES = ("auto", "documents", "sentences")

AUTO_DOCUMENTS = 30
"""``--resample auto`` resamples documents from this many documents on."""

FEW_UNITS = 20
"""Below this many units, intervals and tests are flagged as unreliable."""


def resampling_unit(tables: Sequence[CountTable], requested: str = "auto") -> str:
    """``"documents"`` or ``"sentences"``: the unit ``requested`` (``auto``: see the module's rule) for tables
    over the same documents.

    Raises
    ------
    OptionError
        ``requested`` is not one of :data:`RESAMPLE_CHOICES`.
    StatisticsError
        Sentences are asked of tables that do not know them (a result read back from JSON, coreference,
        Smatch or record scores, an agreement).
    """
    if requested not in RESAMPLE_CHOICES:
        raise OptionError(f"--resample must be one of {', '.join(RESAMPLE_CHOICES)}; got {requested!r}")
    known = bool(tables) and all(t.sentences is not None for t in tables)
    if requested == "documents":
        return "documents"
    if requested == "sentences":
        if not known:
            raise StatisticsError("--resample sentences: these counts do not know their sentences (a mode or an "
                                  "input without sentence boundaries, or a result merged from JSON); resample "
                                  "documents (--resample documents)")
        return "sentences"
    n_documents = len(tables[0].documents) if tables else 0
    if n_documents >= AUTO_DOCUMENTS or not known:
        return "documents"
    sentences = tables[0].sentences
    assert sentences is not None
    return "sentences" if sentences.n_units >= n_documents else "documents"


def check_unit_count(n: int, unit: str, purpose: str) -> None:
    """Refuse one unit or none (:class:`StatisticsError`); warn below :data:`FEW_UNITS`.

    ``unit`` is ``documents``, ``sentences`` or ``items``; ``purpose`` says what needs them (``an interval``,
    ``a paired test``).
    """
    one = unit[:-1]
    if n <= 1:
        hint = ""
        if unit == "documents":
            hint = ("; resample sentences (--resample sentences) when the input has them, or give the documents "
                    "(-DOCSTART- lines in a column file, document_column= for a dataset)")
        elif unit == "sentences":
            hint = " (the input is one sentence: no interval or test can be drawn from it)"
        raise StatisticsError(f"{purpose} needs two or more {unit} to resample; the input holds "
                              f"{n} {one if n == 1 else unit}"
                              f" (every resample would redraw the same counts: a zero-width interval, p = 1){hint}")
    if n < FEW_UNITS:
        warnings.warn(StatisticsWarning(f"only {n} {unit} to resample: {purpose} over fewer than {FEW_UNITS} {unit} "
                                        "is unreliable (the bootstrap distribution is too coarse)"), stacklevel=3)


class UnitMatrix:
    """Counts of the resampling units as a ``(units, columns)`` matrix: dense for documents, sparse (CSR) for
    sentences, so that a resample's totals are ``weights @ matrix`` either way."""

    def __init__(self, matrix: Floats | csr_matrix[np.float64], unit: str, sizes: Ints | None = None):
        self.matrix, self.unit = matrix, unit
        self.sizes = sizes
        """Sentences: how many each document has (the cut every system compared must share)."""

    @property
    def n(self) -> int:
        return int(self.matrix.shape[0])

    @property
    def width(self) -> int:
        return int(self.matrix.shape[1])

    def weighted_sums(self, weights: Floats) -> Floats:
        """``weights @ matrix`` as a dense ``(b, columns)`` array (``weights``: ``(b, units)``)."""
        if isinstance(self.matrix, np.ndarray):
            return weights @ self.matrix
        sums: Floats = np.asarray((self.matrix.T @ weights.T).T)
        return sums

    def total(self) -> Floats:
        """The column sums: the corpus's counts."""
        return np.asarray(self.matrix.sum(axis=0)).reshape(-1).astype(np.float64)

    def dense(self) -> Floats:
        """The matrix as a dense array (the jackknife's left-out units)."""
        if isinstance(self.matrix, np.ndarray):
            return self.matrix
        dense: Floats = np.asarray(self.matrix.todense())
        return dense

    def __sub__(self, other: UnitMatrix) -> UnitMatrix:
        # units of one kind: both dense or both sparse
        return UnitMatrix(cast("Floats | csr_matrix[np.float64]", self.matrix - other.matrix), self.unit)


def unit_matrix(tables: Sequence[CountTable], documents: tuple[str, ...], unit: str,
                rows: Sequence[Sequence[Row]] | None = None) -> UnitMatrix:
    """The counts of several tables over the same documents side by side, one row per unit.

    ``tables[k]``'s columns are ``rows[k] x fields`` (default: its own rows; a row the table lacks counts zero),
    in the order of ``documents``. A document a table does not hold counts zero when resampling documents.

    Raises
    ------
    StatisticsError
        With sentences: a table lacks a document, or two tables cut a document into different sentences.
    """
    targets = [tuple(t.rows) if rows is None else tuple(rows[k]) for k, t in enumerate(tables)]
    if unit == "documents":
        parts = [_dense_documents(t, documents, target) for t, target in zip(tables, targets)]
        matrix = np.concatenate(parts, axis=1) if parts else np.zeros((len(documents), 0))
        return UnitMatrix(matrix, unit)
    from scipy import sparse

    blocks, sizes = [], None
    for t, target in zip(tables, targets):
        if set(t.documents) != set(documents):
            raise StatisticsError("--resample sentences needs every measure's counts on every document; "
                                  "resample documents (--resample documents)")
        t = t if t.documents == documents else t.take(documents)
        sc = t.sentences
        if sc is None:
            raise StatisticsError("--resample sentences: these counts do not know their sentences; resample "
                                  "documents (--resample documents)")
        if sizes is None:
            sizes = sc.sizes
        elif not np.array_equal(sizes, sc.sizes):
            k = int(np.flatnonzero(sizes != sc.sizes)[0])
            raise StatisticsError(f"document {documents[k]!r} is cut into {int(sizes[k])} sentences in one count "
                                  f"and {int(sc.sizes[k])} in another (the sentences come from the gold side, else "
                                  "the prediction); resample documents (--resample documents)")
        where = np.array([target.index(r) for r in t.rows], dtype=np.int64)
        f = len(t.fields)
        column = where[sc.row] * f + sc.field
        blocks.append(sparse.csr_matrix((sc.value.astype(np.float64), (sc.unit, column)),
                                        shape=(sc.n_units, len(target) * f)))
    if not blocks:
        return UnitMatrix(np.zeros((0, 0)), unit)
    return UnitMatrix(sparse.hstack(blocks, format="csr"), unit, sizes)


def _dense_documents(table: CountTable, documents: tuple[str, ...], target: tuple[Row, ...]) -> Floats:
    """A table's values as ``(documents, target rows * fields)``: zeros for a document or a row it lacks."""
    r, f = len(target), len(table.fields)
    if table.documents == documents and tuple(table.rows) == target:
        return table.values.reshape(len(documents), r * f).astype(np.float64)
    out = np.zeros((len(documents), r, f))
    where = {d: k for k, d in enumerate(table.documents)}
    present = [k for k, d in enumerate(documents) if d in where]
    rows = [target.index(row) for row in table.rows]
    out[np.ix_(present, rows)] = table.values[[where[documents[k]] for k in present]]
    return out.reshape(len(documents), r * f)
