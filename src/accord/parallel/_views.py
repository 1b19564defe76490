"""The report page's span views from shards: what each worker keeps of its documents for the page, and its merge.

``accord report --jobs N`` (and ``--dask``) scores every system in shards as ``accord score`` does. For the page,
each worker also evaluates its documents' spans (CLUEval's classes, :func:`accord.clueval._shard_views.shard_views`,
handed to the runner through :data:`VIEWS`) and sends
back, besides the count tables, only what the page shows of them (:class:`ShardViews`): the error rows, the text of
each row's context, the spans of both sides as numbers (document, start, end, label) and the confusion counts. The
caller joins them into a :class:`LightEvaluation` per system, which the error browser reads as it reads an evaluation
(:func:`accord.clueval._browser.error_browser_data`), so that the page is the page of one process, byte for byte,
while the documents stay in the workers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

__all__ = ["VIEWS", "ShardViews", "LightEvaluation", "LightRow", "RowColumns", "merge_views"]

VIEWS: ContextVar[tuple[Callable[..., Any], int, bool] | None] = ContextVar("accord_report_views", default=None)
"""Set while ``accord report`` scores a system, to the function that makes a shard's views
(:func:`accord.clueval._shard_views.shard_views`: handed over, this package imports no mode), the page's leniency
level and its labelled flag: the shards then keep the span views of their documents."""


class LightRow(NamedTuple):
    """What the page reads of an error row (:class:`accord.clueval.ErrorRow`): its kind (``FN``/``FP``), class,
    document, extent, label and context extent."""

    kind: str
    klass: str
    document: str
    start: int
    end: int
    label: str
    context: tuple[int, int]


_NAMES = ("kind", "klass", "document", "label")
"""The columns of :class:`RowColumns` that hold names (codes into one list of names each)."""


@dataclass
class RowColumns(Sequence[LightRow]):
    """Error rows as columns, one entry per row: the names (kind, class, document, label) as codes into a list of
    each, the extents as integers. A row costs about 40 bytes, not the several hundred of an :class:`ErrorRow`
    with its texts and the other side's spans (which the page does not show): the page of 10M tokens lists
    hundreds of thousands of them. Iterating gives each row as a :class:`LightRow`, made as it is read."""

    names: dict[str, list[str]]
    codes: dict[str, np.ndarray]
    start: np.ndarray
    end: np.ndarray
    context_start: np.ndarray
    context_end: np.ndarray

    @classmethod
    def of(cls, rows: Iterable[Any]) -> RowColumns:
        """The columns of rows that have the attributes of a :class:`LightRow`."""
        index: dict[str, dict[str, int]] = {k: {} for k in _NAMES}
        codes: dict[str, list[int]] = {k: [] for k in _NAMES}
        extents: list[tuple[int, int, int, int]] = []
        for r in rows:
            for k in _NAMES:
                known = index[k]
                value = getattr(r, k)
                codes[k].append(known.setdefault(value, len(known)))
            extents.append((r.start, r.end, *r.context))
        table = np.asarray(extents, dtype=np.int64).reshape(-1, 4)
        return cls({k: list(index[k]) for k in _NAMES}, {k: _narrow(np.asarray(codes[k], dtype=np.int64))
                                                         for k in _NAMES},
                   *(_narrow(np.ascontiguousarray(table[:, j])) for j in range(4)))

    def __len__(self) -> int:
        return len(self.start)

    def __getitem__(self, k: Any) -> Any:
        if isinstance(k, slice):
            return [self[j] for j in range(*k.indices(len(self)))]
        kind, klass, document, label = (self.names[c][int(self.codes[c][k])] for c in _NAMES)
        return LightRow(kind, klass, document, int(self.start[k]), int(self.end[k]), label,
                        (int(self.context_start[k]), int(self.context_end[k])))

    def __iter__(self) -> Iterator[LightRow]:
        names = [(self.names[k], self.codes[k].tolist()) for k in _NAMES]
        columns = [c.tolist() for c in (self.start, self.end, self.context_start, self.context_end)]
        for k, (start, end, a, b) in enumerate(zip(*columns)):
            kind, klass, document, label = (table[codes[k]] for table, codes in names)
            yield LightRow(kind, klass, document, start, end, label, (a, b))

    @staticmethod
    def join(parts: Sequence[RowColumns], position: dict[str, int]) -> RowColumns:
        """The rows of ``parts`` in the order of the page: by document (its ``position``), start, longer spans
        first, FN before FP (the order of :func:`accord.clueval._browser.error_rows`; rows equal in all four keep
        their order)."""
        names: dict[str, list[str]] = {}
        codes: dict[str, np.ndarray] = {}
        for k in _NAMES:
            merged = sorted({n for p in parts for n in p.names[k]}) if parts else []
            code = {n: j for j, n in enumerate(merged)}
            names[k] = merged
            codes[k] = np.concatenate([np.asarray([code[n] for n in p.names[k]], dtype=np.int64)[p.codes[k]]
                                       if len(p) else np.zeros(0, dtype=np.int64) for p in parts]) if parts else \
                np.zeros(0, dtype=np.int64)
        start, end, a, b = (np.concatenate([getattr(p, c).astype(np.int64) for p in parts]) if parts else
                            np.zeros(0, dtype=np.int64) for c in ("start", "end", "context_start", "context_end"))
        rank = np.asarray([position[d] for d in names["document"]], dtype=np.int64)
        # kinds and labels sorted by name above: a code's order is its name's
        order = np.lexsort((codes["kind"], -end, start, rank[codes["document"]] if len(rank) else codes["document"]))
        return RowColumns(names, {k: _narrow(v[order]) for k, v in codes.items()},
                          *(_narrow(x[order]) for x in (start, end, a, b)))


def _narrow(values: np.ndarray) -> np.ndarray:
    """Integers in 32 bits when they fit (the positions and codes of the page: half the bytes), else as given."""
    if values.dtype == np.int64 and (not len(values) or -(2 ** 31) <= int(values.min()) and
                                     int(values.max()) < 2 ** 31):
        return values.astype(np.int32)
    return values


@dataclass
class ShardViews:
    """What the page shows of one shard's documents for one system (see the module's docstring).

    ``documents``: the ids in the evaluation's order, with each one's extent on the axis and whether its context
    is characters; ``gold``/``pred``: ``(document index, start, end, label code)`` arrays, positions in the
    document; ``texts``: each row context's pieces by ``(document, start, end)``.
    """

    labels: list[str]
    documents: list[str]
    extents: list[int]
    gold: tuple[np.ndarray, ...]
    pred: tuple[np.ndarray, ...]
    rows: RowColumns
    texts: dict[tuple[str, int, int], Any]
    confusion: np.ndarray
    note: str | None = None


def _compact(tokens: Any) -> Any:
    """A context's tokens as one string joined by spaces when that keeps them apart (no token empty or holding a
    space: split again when the page is made, :class:`_Pieces`), else (and when there is none) as a list."""
    tokens = list(tokens)
    if not tokens or any(not t or " " in t for t in tokens):
        return tokens
    return " ".join(tokens)


def _length(doc: Any) -> int:
    return len(doc.text) if doc.text is not None else len(doc.tokens or ())


def _relative(table: Any, bases: np.ndarray) -> tuple[np.ndarray, ...]:
    doc = np.asarray(table.doc, dtype=np.int64)
    start = np.asarray(table.start, dtype=np.int64)
    return (doc, start - bases[doc] if len(doc) else start, np.asarray(table.end, dtype=np.int64) - (
        bases[doc] if len(doc) else 0), np.asarray(table.label, dtype=np.int64))


@dataclass(frozen=True)
class LightTable:
    """A side's spans on the joined axis, sorted by position (what the browser reads of a span table)."""

    start: np.ndarray
    end: np.ndarray
    label: np.ndarray

    def __len__(self) -> int:
        return len(self.start)


class _Pieces:
    """A document's context pieces by extent: ``pieces[a:b]`` is the text stored for the context ``[a, b)``."""

    def __init__(self, by_extent: dict[tuple[int, int], Any], tokens: bool):
        self._by_extent, self._tokens = by_extent, tokens

    def __getitem__(self, extent: slice) -> Any:
        stored = self._by_extent[(extent.start, extent.stop)]
        return stored.split(" ") if self._tokens and isinstance(stored, str) else stored


@dataclass
class _ContextDocument:
    tokens: Any = None
    text: Any = None


@dataclass
class LightDocument:
    id: str
    base: int
    document: _ContextDocument


@dataclass
class LightEvaluation:
    """One system's evaluation as the page reads it, joined from its shards' :class:`ShardViews`."""

    labels: list[str]
    documents: list[LightDocument]
    gold: LightTable
    pred: LightTable
    rows: Sequence[LightRow] = field(default_factory=list)
    confusion: Any = None


def merge_views(parts: Sequence[ShardViews], order: Sequence[str]) -> LightEvaluation | str:
    """One system's views from its shards' (in shard order), its documents in ``order`` (the documents' order of
    the serial evaluation: gold documents in file order, then those only predicted); or the note of a part that
    has none."""
    for p in parts:
        if p.note is not None:
            return p.note
    labels = sorted({n for p in parts for n in p.labels})
    code = {n: k for k, n in enumerate(labels)}
    rank = {d: k for k, d in enumerate(order)}
    docs = sorted(((rank.get(d, len(rank)), d, extent, s, i) for s, p in enumerate(parts)
                   for i, (d, extent) in enumerate(zip(p.documents, p.extents))), key=lambda e: e[0])
    extents = np.asarray([e[2] for e in docs], dtype=np.int64)
    bases = np.concatenate([[0], np.cumsum(extents + 1)[:-1]]).astype(np.int64) if len(docs) else extents
    base_of = {(s, i): int(b) for (_, _, _, s, i), b in zip(docs, bases.tolist())}
    texts: dict[str, dict[tuple[int, int], Any]] = {}
    chars: dict[str, bool] = {}
    for p in parts:
        for (d, a, b), (pieces, tokens) in p.texts.items():
            texts.setdefault(d, {})[(a, b)] = pieces
            chars[d] = not tokens
    documents = []
    for _, d, _, s, i in docs:
        pieces = _Pieces(texts.get(d, {}), not chars.get(d))
        documents.append(LightDocument(d, base_of[(s, i)], _ContextDocument(text=pieces) if chars.get(d) else
                                       _ContextDocument(tokens=pieces)))
    sides = []
    for k in (0, 1):
        starts, ends, codes = [], [], []
        for s, p in enumerate(parts):
            doc, start, end, label = (p.gold, p.pred)[k]
            offset = np.asarray([base_of[(s, i)] for i in range(len(p.documents))], dtype=np.int64)
            remap = np.asarray([code[n] for n in p.labels], dtype=np.int64)
            starts.append(start + offset[doc] if len(doc) else start)
            ends.append(end + offset[doc] if len(doc) else end)
            codes.append(remap[label] if len(label) else label)
        start, end, label = (np.concatenate(x) if x else np.zeros(0, dtype=np.int64) for x in (starts, ends, codes))
        at = np.lexsort((end, start))
        sides.append(LightTable(_narrow(start[at]), _narrow(end[at]), _narrow(label[at])))
    size = len(labels) + 1
    confusion = np.zeros((size, size), dtype=np.int64)
    for p in parts:
        where = np.asarray([code[n] for n in p.labels] + [len(labels)], dtype=np.int64)
        confusion[np.ix_(where, where)] += p.confusion
    position = {d.id: k for k, d in enumerate(documents)}
    rows = RowColumns.join([p.rows for p in parts], position)
    return LightEvaluation(labels, documents, sides[0], sides[1], rows, confusion)
