"""Continua: the units several annotators marked on each document, as flat arrays.

The unitizing measures (γ, Krippendorff's uα) see an annotation as a *unit*: a segment
``[start, end)`` of a document's continuum (characters of a text, seconds of a recording) with a
category. :class:`Continua` holds every unit of every annotator and document in parallel numpy
arrays, sorted by document, annotator, start, end and category (the order in which
pygamma-agreement keeps an annotator's units).
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .._support.io import read_text
from ..errors import FormatError, RatingsError

__all__ = ["Continua", "continua_from_corpora", "continua_from_rows", "read_units_table"]


@dataclass(frozen=True)
class Continua:
    """Units of ``annotators`` over ``documents``.

    Attributes
    ----------
    annotators, documents, categories : tuple of str
        Names; ``categories`` sorted (indices into it are the categories of the units).
    document, annotator, category : ndarray of int64
        Per unit: indices into ``documents``, ``annotators`` and ``categories``.
    start, end : ndarray of float64
        Per unit: its segment, ``end >= start`` (a unit of length 0 is a point: Krippendorff's uα gives it no
        length, as DKPro Agreement; γ refuses it, as pygamma-agreement, see :meth:`check_positive`).
    ident : tuple
        Per unit: where it came from (an annotation id, or the row of a table), for reports.
    lengths : ndarray of float64
        Per document: the length of its continuum (the text length when known, else the last end).
    """

    annotators: tuple[str, ...]
    documents: tuple[str, ...]
    categories: tuple[str, ...]
    document: np.ndarray
    annotator: np.ndarray
    category: np.ndarray
    start: np.ndarray
    end: np.ndarray
    ident: tuple[Any, ...] = ()
    lengths: np.ndarray = field(default_factory=lambda: np.zeros(0))

    def __len__(self) -> int:
        return len(self.start)

    @property
    def n_annotators(self) -> int:
        return len(self.annotators)

    def document_slices(self) -> list[slice]:
        """The rows of each document (units are sorted by document)."""
        bounds = np.searchsorted(self.document, np.arange(len(self.documents) + 1))
        return [slice(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:])]

    def units_per_document(self) -> np.ndarray:
        return np.bincount(self.document, minlength=len(self.documents))

    def check_positive(self, measure: str) -> None:
        """Refuse a unit of length 0 (``measure`` divides by lengths), naming the first one."""
        empty = np.flatnonzero(self.end <= self.start)
        if len(empty):
            i = int(empty[0])
            source = f" ({self.ident[i]})" if self.ident else ""
            raise RatingsError(f"document {self.documents[int(self.document[i])]!r}: "
                               f"{self.annotators[int(self.annotator[i])]} has a unit of length 0 at "
                               f"[{self.start[i]:g}, {self.end[i]:g}){source} ({len(empty)} such units in all); "
                               f"{measure} needs units of positive length (pygamma-agreement refuses them too): leave "
                               "them out (--types), or use --unitizing alpha-u, which gives them no length, as DKPro "
                               "Agreement")

    def take_document(self, d: int) -> Continua:
        """One document as a continua of its own (documents renumbered)."""
        return self.take_rows(d, self.document_slices()[d])

    def take_rows(self, d: int, rows: slice | np.ndarray) -> Continua:
        """The units ``rows`` (a slice, or sorted indices) of document ``d`` as a continua of their own (the
        document renumbered 0)."""
        count = rows.stop - rows.start if isinstance(rows, slice) else len(rows)
        ident: tuple[Any, ...] = ()
        if self.ident:
            ident = self.ident[rows] if isinstance(rows, slice) else tuple(self.ident[int(i)] for i in rows)
        return Continua(self.annotators, (self.documents[d],), self.categories, np.zeros(count, dtype=np.int64),
                        self.annotator[rows], self.category[rows], self.start[rows], self.end[rows], ident,
                        self.lengths[d:d + 1] if len(self.lengths) else np.zeros(0))

    def take_documents(self, rows: slice, first: int, stop: int) -> Continua:
        """The units ``rows`` (a slice), all those of the documents ``first`` to ``stop - 1``, as a continua of
        their own (the documents renumbered from 0)."""
        return Continua(self.annotators, self.documents[first:stop], self.categories, self.document[rows] - first,
                        self.annotator[rows], self.category[rows], self.start[rows], self.end[rows],
                        self.ident[rows] if self.ident else (),
                        self.lengths[first:stop] if len(self.lengths) else np.zeros(0))


def _sorted(annotators: Sequence[str], documents: Sequence[str], categories: Sequence[str], document: np.ndarray,
            annotator: np.ndarray, category_names: Sequence[str], start: np.ndarray, end: np.ndarray,
            ident: Sequence[Any], lengths: np.ndarray) -> Continua:
    cats = tuple(sorted(set(categories) | set(category_names)))
    index = {c: i for i, c in enumerate(cats)}
    category = np.fromiter((index[c] for c in category_names), dtype=np.int64, count=len(category_names))
    order = np.lexsort((category, end, start, annotator, document))
    return Continua(tuple(annotators), tuple(documents), cats, document[order], annotator[order], category[order],
                    start[order], end[order], tuple(ident[i] for i in order), lengths)


def continua_from_rows(rows: Iterable[tuple[str, str, float, float, str]], *,
                       annotators: Sequence[str] | None = None, documents: Sequence[str] | None = None,
                       lengths: Mapping[str, float] | None = None, where: str = "the units") -> Continua:
    """Continua from ``(annotator, document, start, end, category)`` rows.

    ``annotators`` and ``documents`` give every annotator and document (one who marked nothing in
    a document still counts); by default those of the rows, in order of appearance. A segment that
    is reversed, or a coordinate that is not a finite number, is an error naming its row (a segment
    of length 0 is a unit at a point).
    """
    ann: list[str] = []
    doc: list[str] = []
    starts: list[float] = []
    ends: list[float] = []
    cats: list[str] = []
    idents: list[Any] = []
    for k, (a, d, s, e, c) in enumerate(rows):
        s, e = float(s), float(e)
        if not (np.isfinite(s) and np.isfinite(e)):
            raise RatingsError(f"{where}: unit {k + 1} ({a}, {d}) has a start or end that is not a finite number")
        if e < s:
            raise RatingsError(f"{where}: unit {k + 1} ({a}, {d}, [{s:g}, {e:g}), {c}) is reversed; a unit needs "
                               "end >= start")
        ann.append(str(a))
        doc.append(str(d))
        starts.append(s)
        ends.append(e)
        cats.append(str(c))
        idents.append(k)
    names = list(annotators) if annotators is not None else list(dict.fromkeys(ann))
    docs = list(documents) if documents is not None else list(dict.fromkeys(doc))
    a_index = {n: i for i, n in enumerate(names)}
    d_index = {n: i for i, n in enumerate(docs)}
    for a in dict.fromkeys(ann):
        if a not in a_index:
            raise RatingsError(f"{where}: annotator {a!r} is not among {', '.join(map(repr, names))}")
    for d in dict.fromkeys(doc):
        if d not in d_index:
            raise RatingsError(f"{where}: document {d!r} is not among the documents given")
    if len(names) < 2:
        raise RatingsError(f"{where}: agreement needs at least two annotators, got {len(names)}"
                           + (f" ({names[0]!r})" if names else ""))
    start = np.array(starts, dtype=np.float64)
    end = np.array(ends, dtype=np.float64)
    document = np.array([d_index[d] for d in doc], dtype=np.int64)
    length = np.zeros(len(docs))
    np.maximum.at(length, document, end)
    if lengths:
        length = np.maximum(length, [float(lengths.get(d, 0.0)) for d in docs])
    return _sorted(names, docs, (), document, np.array([a_index[a] for a in ann], dtype=np.int64), cats, start,
                   end, idents, length)


def continua_from_corpora(corpora: Sequence[Any], names: Sequence[str], *, types: Sequence[str] | None = None,
                          feature: str | None = None) -> Continua:
    """Continua from one corpus per annotator (accord's :class:`~accord.model.Corpus`).

    A unit is an annotation with a span (of a label in ``types`` when given); its category is the
    value of ``feature`` (``""`` when absent) or the label. A discontinuous annotation gives one
    unit per fragment. Every annotator must hold the same documents. A document's continuum ends
    at its text's end when the text is known.
    """
    from ._sources import check_corpus_names, same_documents

    docs = same_documents(corpora, names)
    check_corpus_names(corpora, types, feature)
    wanted = None if types is None else frozenset(types)
    rows: list[tuple[str, str, float, float, str]] = []
    idents: list[Any] = []
    lengths: dict[str, float] = {}
    for c, name in zip(corpora, names):
        for doc_id in docs:
            document = c[doc_id]
            if document.text is not None:
                lengths[doc_id] = max(lengths.get(doc_id, 0.0), float(len(document.text)))
            for a in document.annotations:
                if a.start is None or (wanted is not None and a.label not in wanted):
                    continue
                if feature is not None:
                    value = a.attributes.get(feature, "")
                    category = "" if value is None else str(value)
                else:
                    category = a.label
                for s, e in a.pieces:
                    if e < s:
                        raise RatingsError(f"document {doc_id!r}: {name} has an empty annotation {a.label!r} at "
                                           f"[{s}, {e}) that ends before it starts")
                    rows.append((name, doc_id, s, e, category))
                    idents.append(a.id)
    out = continua_from_rows(rows, annotators=list(names), documents=docs, lengths=lengths)
    return Continua(out.annotators, out.documents, out.categories, out.document, out.annotator, out.category,
                    out.start, out.end, tuple(idents[i] for i in out.ident), out.lengths)


_HEADER_NAMES = {"annotator": ("annotator", "rater", "coder", "annotator_id"),
                 "document": ("document", "doc", "document_id", "doc_id", "file", "uri"),
                 "start": ("start", "begin", "segment_start", "onset"),
                 "end": ("end", "stop", "segment_end", "offset"),
                 "category": ("category", "label", "annotation", "tag", "value")}


def read_units_table(path: str | Path) -> Continua:
    """Read a CSV/TSV table of units.

    With a header naming the columns (``annotator``, ``document``, ``start``, ``end``,
    ``category``; ``document`` may be left out, and ``rater``, ``label``... are accepted), in
    any order. Without a header: four columns ``annotator, category, start, end`` (the file of
    pygamma-agreement's command line; the file is one document) or five columns
    ``annotator, document, start, end, category``.
    """
    p = Path(path)
    text = read_text(p)
    delimiter = "\t" if p.suffix.lower() == ".tsv" or "\t" in text.split("\n", 1)[0] else ","
    table = [r for r in csv.reader(text.splitlines(), delimiter=delimiter)]
    numbered = [(k + 1, [c.strip() for c in r]) for k, r in enumerate(table) if any(c.strip() for c in r)]
    if not numbered:
        raise FormatError("empty file: expected units (annotator, document, start, end, category)", path=p)
    first = [c.lower() for c in numbered[0][1]]
    columns: dict[str, int] = {}
    for key, aliases in _HEADER_NAMES.items():
        for i, c in enumerate(first):
            if c in aliases:
                columns[key] = i
                break
    if columns:
        missing = [k for k in ("annotator", "start", "end", "category") if k not in columns]
        if missing:
            raise FormatError(f"the header has no {', '.join(missing)} column (expected annotator, document, start, "
                              f"end, category)", path=p, line=numbered[0][0])
        body = numbered[1:]
        width = len(first)
    else:
        width = len(numbered[0][1])
        if width == 4:
            columns = {"annotator": 0, "category": 1, "start": 2, "end": 3}
        elif width == 5:
            columns = {"annotator": 0, "document": 1, "start": 2, "end": 3, "category": 4}
        else:
            raise FormatError(f"{width} columns without a header; expected annotator, category, start, end (as "
                              "pygamma-agreement) or annotator, document, start, end, category, or a header naming "
                              "them", path=p, line=numbered[0][0])
        body = numbered
    rows = []
    for line, r in body:
        if len(r) != width:
            raise FormatError(f"{len(r)} cells, expected {width}", path=p, line=line)
        try:
            s, e = float(r[columns["start"]]), float(r[columns["end"]])
        except ValueError:
            raise FormatError(f"start and end must be numbers, got {r[columns['start']]!r} and "
                              f"{r[columns['end']]!r}", path=p, line=line) from None
        if not (np.isfinite(s) and np.isfinite(e)) or e < s:
            raise FormatError(f"the unit [{r[columns['start']]}, {r[columns['end']]}) is not a segment with "
                              "end >= start", path=p, line=line)
        document = r[columns["document"]] if "document" in columns else p.stem
        rows.append((r[columns["annotator"]], document, s, e, r[columns["category"]], line))
    if not rows:
        raise FormatError("no units below the header", path=p)
    out = continua_from_rows([x[:5] for x in rows], where=str(p))
    return Continua(out.annotators, out.documents, out.categories, out.document, out.annotator, out.category,
                    out.start, out.end, tuple(f"{p.name}:{rows[i][5]}" for i in out.ident), out.lengths)
