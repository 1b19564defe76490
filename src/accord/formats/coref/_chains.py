"""The chains of a corpus kept as arrays: ``{document: [entity, ...]}`` without a Python object per mention.

A CoNLL-2012 file of 100,000 mentions read into lists of ``(start, end)`` tuples costs a tuple, two integers and
a list slot per mention, which the scorer then turns back into arrays. :class:`CorefChains` keeps the mentions as
two integer arrays and the entities and documents as offsets into them; it reads as the mapping the readers
return (a document's entities are made when the document is looked up), and gives the scorer its arrays
directly (:meth:`CorefChains.mention_columns`, :meth:`CorefChains.mention_counts`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

import numpy as np

__all__ = ["CorefChains"]

Clusters = list[list[tuple[int, int]]]


class CorefChains(Mapping[str, Clusters]):
    """Documents of entities of inclusive ``(start, end)`` token spans, as arrays.

    Parameters
    ----------
    names : list of str
        The documents, in order (distinct).
    start, end : numpy.ndarray
        Every mention's first and last token, entity after entity.
    entity_bounds : numpy.ndarray
        Entity ``e`` holds mentions ``entity_bounds[e]`` to ``entity_bounds[e + 1]`` (``len`` entities + 1).
    doc_bounds : numpy.ndarray
        Document ``d`` holds entities ``doc_bounds[d]`` to ``doc_bounds[d + 1]`` (``len(names) + 1``).
    """

    __slots__ = ("names", "start", "end", "entity_bounds", "doc_bounds", "_index")

    def __init__(self, names: list[str], start: np.ndarray, end: np.ndarray, entity_bounds: np.ndarray,
                 doc_bounds: np.ndarray):
        self.names = names
        self.start, self.end = start.astype(np.int64, copy=False), end.astype(np.int64, copy=False)
        self.entity_bounds = entity_bounds.astype(np.int64, copy=False)
        self.doc_bounds = doc_bounds.astype(np.int64, copy=False)
        self._index = {name: d for d, name in enumerate(names)}

    def __getitem__(self, name: str) -> Clusters:
        d = self._index[name]
        bounds = self.entity_bounds[int(self.doc_bounds[d]):int(self.doc_bounds[d + 1]) + 1].tolist()
        return _entities(self.start, self.end, bounds)

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

    def __len__(self) -> int:
        return len(self.names)

    def __contains__(self, name: object) -> bool:
        return name in self._index

    def __repr__(self) -> str:
        return f"CorefChains({len(self.names)} documents, {len(self.start)} mentions)"

    def to_dict(self) -> dict[str, Clusters]:
        """The plain mapping ``{document: [[(start, end), ...], ...]}`` (what the readers return)."""
        spans = list(zip(self.start.tolist(), self.end.tolist()))
        bounds = self.entity_bounds.tolist()
        entities = [spans[lo:hi] for lo, hi in zip(bounds, bounds[1:])]
        docs = self.doc_bounds.tolist()
        return {name: entities[lo:hi] for name, lo, hi in zip(self.names, docs, docs[1:])}

    def _positions(self, docs: Sequence[str]) -> np.ndarray | None:
        """Each of ``docs``'s index here (-1 where absent); None when ``docs`` are these documents in this order."""
        if len(docs) == len(self.names) and all(a == b for a, b in zip(docs, self.names)):
            return None
        get = self._index.get
        return np.fromiter((get(d, -1) for d in docs), dtype=np.int64, count=len(docs))

    def mention_counts(self, docs: Sequence[str]) -> np.ndarray:
        """The mentions of each of ``docs`` (0 for a document not here), as float64."""
        per_doc = np.append(np.diff(self.entity_bounds[self.doc_bounds]), 0)    # an absent document: none
        at = self._positions(docs)
        if at is None:
            return per_doc[:-1].astype(np.float64)
        return per_doc[np.where(at >= 0, at, len(self.names))].astype(np.float64)

    def mention_columns(self, docs: Sequence[str]) -> tuple[np.ndarray, ...]:
        """The mentions of ``docs`` (a document not here has none) as the coreference scorer lays them out:
        ``(entity's document, entity's number in its document, entity, document, start, end)``, the first two
        one per entity, the others one per mention, entities numbered in the order of ``docs`` and then of
        their documents (:class:`accord.structured.coref._Side`)."""
        at = self._positions(docs)
        if at is None:
            n_entities = np.diff(self.doc_bounds)
            entities = np.arange(int(self.doc_bounds[-1]), dtype=np.int64)
            mentions: np.ndarray | slice = slice(None)
            size = np.diff(self.entity_bounds)
        else:
            at = np.where(at >= 0, at, len(self.names))     # an absent document: the empty one after the last
            bounds = np.append(self.doc_bounds, self.doc_bounds[-1])
            n_entities = bounds[at + 1] - bounds[at]
            entities = _ranges(bounds[at], n_entities)
            size = self.entity_bounds[entities + 1] - self.entity_bounds[entities]
            mentions = _ranges(self.entity_bounds[entities], size)
        ent_doc = np.repeat(np.arange(len(docs), dtype=np.int64), n_entities)
        first_of_doc = np.cumsum(n_entities) - n_entities
        ent_local = np.arange(len(ent_doc), dtype=np.int64) - np.repeat(first_of_doc, n_entities)
        ent = np.repeat(np.arange(len(ent_doc), dtype=np.int64), size)
        return ent_doc, ent_local, ent, ent_doc[ent], self.start[mentions], self.end[mentions]


def _ranges(lo: np.ndarray, size: np.ndarray) -> np.ndarray:
    """``lo[0] .. lo[0] + size[0] - 1``, then those of ``lo[1]`` ..., one array."""
    total = int(size.sum())
    return np.arange(total, dtype=np.int64) + np.repeat(lo - (np.cumsum(size) - size), size)


def _entities(start: np.ndarray, end: np.ndarray, bounds: list[int]) -> Clusters:
    """The entities whose mentions lie between consecutive ``bounds``."""
    lo, hi = bounds[0], bounds[-1]
    spans = list(zip(start[lo:hi].tolist(), end[lo:hi].tolist()))
    return [spans[a - lo:b - lo] for a, b in zip(bounds, bounds[1:])]
