"""A coreference metric's scores by document, kept as one table of counts.

:func:`accord.structured.coref_scores` computes every document's counts as columns; a
:class:`~accord.structured.coref.CorefScore` per document and metric (14,000 objects for 2,000 documents and seven
metrics) cost more than the metrics. :class:`DocumentScores` is the mapping ``{document: CorefScore}`` it returned,
whose scores are made when they are looked up, and whose table :func:`accord.structured._result.coref_result` reads
as it is.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from .coref import CorefScore

__all__ = ["DocumentScores"]


class DocumentScores(Mapping[str, "CorefScore"]):
    """``{document: CorefScore}`` of one metric from its table of counts.

    Parameters
    ----------
    metric : str
        The metric's name.
    documents : list of str
        The documents, in order (distinct).
    counts : numpy.ndarray
        float64, one row a document: recall numerator and denominator, precision numerator and denominator, and
        for BLANC the four non-coreference-link counts.
    rule : str
        The scores' ``blanc_rule``.
    score_class : type
        :class:`~accord.structured.coref.CorefScore`, given by the module that defines it (so that this one does not
        import it back).
    """

    __slots__ = ("metric", "documents", "counts", "rule", "_score_class", "_index", "_made")

    def __init__(self, metric: str, documents: list[str], counts: np.ndarray, rule: str,
                 score_class: type[CorefScore]):
        self.metric, self.documents, self.counts, self.rule = metric, documents, counts, rule
        self._score_class = score_class
        self._index: dict[str, int] | None = None
        self._made: dict[str, CorefScore] = {}

    def __getitem__(self, document: str) -> CorefScore:
        made = self._made.get(document)
        if made is not None:
            return made
        if self._index is None:
            self._index = {d: k for k, d in enumerate(self.documents)}
        row: list[Any] = self.counts[self._index[document]].tolist()
        score = self._score_class(self.metric, row[0], row[1], row[2], row[3],
                           noncoref=(row[4], row[5], row[6], row[7]) if len(row) > 4 else None, blanc_rule=self.rule)
        self._made[document] = score
        return score

    def __iter__(self) -> Iterator[str]:
        return iter(self.documents)

    def __len__(self) -> int:
        return len(self.documents)

    def __contains__(self, document: object) -> bool:
        if self._index is None:
            self._index = {d: k for k, d in enumerate(self.documents)}
        return document in self._index

    def __repr__(self) -> str:
        return f"DocumentScores({self.metric!r}, {len(self.documents)} documents)"

    def table(self, documents: Sequence[str]) -> np.ndarray | None:
        """The counts of ``documents`` (rows as :class:`DocumentScores` says), or None unless they are these
        documents in this order."""
        if len(documents) != len(self.documents) or any(a != b for a, b in zip(documents, self.documents)):
            return None
        return self.counts
