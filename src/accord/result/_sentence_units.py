"""Which sentence of its document each counted item lies in: the sub-units of ``--resample sentences``.

A document's sentences are its gold side's (:attr:`accord.model.Document.sentences`): the same units for every
system scored against that gold standard. A document whose gold side has no sentences (or no gold side) is one
sentence; a corpus none of whose gold documents has sentences does not know its sentences (:attr:`known`), and
is resampled by documents only. An item belongs to the sentence in which it starts
(the last sentence starting at or before its start; an item before the first sentence, or without a span,
to the first). Sentences are numbered document by document, so the items of a whole corpus are placed by
one ``searchsorted``.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain

import numpy as np

from ..model import Document

__all__ = ["SentenceIndex"]

_SHIFT = np.int64(1) << np.int64(40)
"""Document ``d``'s offsets are keyed ``d * _SHIFT + offset`` (offsets stay far below 2**40)."""


class SentenceIndex:
    """The sentences of the documents ``pairs[d] = (gold, predicted)`` of a count table, in its order.

    Attributes
    ----------
    sizes : numpy.ndarray
        ``sizes[d] >= 1``: the number of sentences of document ``d``.
    known : bool
        Whether some gold document has sentence boundaries (else every document is one "sentence", and the
        counts by sentence would only repeat the documents).
    """

    def __init__(self, pairs: Sequence[tuple[Document | None, Document | None]]):
        extents = [gold.sentences if gold is not None and gold.sentences else None for gold, _ in pairs]
        self.known = any(e is not None for e in extents)
        n = len(extents)
        counts = np.fromiter((len(e) if e else 1 for e in extents), np.int64, n)
        # every document's sentence starts (0 for a document without sentences), keyed by document: sorted and
        # without repeats by one np.unique, whatever order a reader gave them in
        starts = np.fromiter(chain.from_iterable((a for a, _ in e) if e else (0,) for e in extents), np.int64,
                             int(counts.sum()))
        doc = np.repeat(np.arange(n, dtype=np.int64), counts)
        keys = np.sort(doc * _SHIFT + np.maximum(starts, 0))   # np.unique's result: it would import numpy.ma
        self._keys = keys[np.concatenate(([True], keys[1:] != keys[:-1]))] if len(keys) else keys
        self.sizes = np.bincount(self._keys // _SHIFT, minlength=n).astype(np.int64)
        self._first = np.concatenate([[0], np.cumsum(self.sizes)[:-1]]).astype(np.int64)

    def units(self, doc: np.ndarray, start: np.ndarray) -> np.ndarray:
        """The sentence (numbered over the corpus) of items in documents ``doc`` starting at ``start``
        (negative: no span)."""
        doc = np.asarray(doc, dtype=np.int64)
        if not len(doc):
            return np.zeros(0, dtype=np.int64)
        at = np.searchsorted(self._keys, doc * _SHIFT + np.maximum(np.asarray(start, dtype=np.int64), 0),
                             side="right") - 1
        placed: np.ndarray = np.maximum(at, self._first[doc])
        return placed
