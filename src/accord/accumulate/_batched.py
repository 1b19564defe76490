"""Accumulators of the measures whose items arrive in batches of documents or of rated items: coreference and
agreement between annotators.

- Coreference (``Accumulator(match="coref")``): every metric of :func:`accord.coref` (MUC, B-cubed, CEAF, BLANC,
  LEA, the mentions) is a per-document count table in accord's result (the numerators and denominators of recall
  and precision, BLANC's non-coreference links too), and results over disjoint documents add up exactly
  (:meth:`accord.result.Result.merge`). Each update scores its documents with :func:`accord.coref` and keeps that
  result; :meth:`CorefAccumulator.compute` adds them up. A document id given in two updates is refused.
- Agreement (``Accumulator(match="agreement")``): kappa, alpha and the other coefficients are ratios of sums over
  all the items, and the extra coefficients (``icc``...) and the bootstrap need the items themselves: the
  accumulator keeps the ratings (one ``int32`` code per item and rater, 4 bytes x raters per item, and the distinct
  labels) and computes :func:`accord.agree`'s result on the whole table at the end.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import numpy as np

from ..errors import FormatError, MergeError, OptionError
from ..result import Result
from ._accumulator import Accumulator, register_accumulator

__all__ = ["CorefAccumulator", "AgreementAccumulator", "RATINGS_SOURCE"]

RATINGS_SOURCE = "<ratings>"
"""How the agreement accumulator's result names its one ratings table (``accord.agree`` names the file)."""

_MISSING = -1


class _Batched(Accumulator):
    """What the coreference and agreement accumulators share: no tags, so none of the span path's counting."""

    def _flush(self) -> None:
        """Nothing waits: each update is counted at once."""

    def __getstate__(self) -> dict[str, Any]:
        return dict(self.__dict__)

    @property
    def n_sentences(self) -> int:
        raise OptionError(f"the {self.match} accumulator counts no sentences (see n_documents / n_items)")

    @property
    def n_tokens(self) -> int:
        raise OptionError(f"the {self.match} accumulator counts no tokens (see n_documents / n_items)")


class CorefAccumulator(_Batched):
    """Coreference over batches of documents: ``update(key_clusters, response_clusters)`` per batch,
    ``compute()`` equal to :func:`accord.coref` on all the documents (in the order of the updates).

    Parameters
    ----------
    match : {"coref"}
    metrics, allow_missing, preset, mention_match, singletons, zeros, format
        As :func:`accord.coref` takes them.
    """

    def __init__(self, match: str = "coref", *, metrics: Sequence[str] | None = None,
                 allow_missing: str | None = None, preset: str = "conll2012", mention_match: str | None = None,
                 singletons: str | None = None, zeros: str | None = None, format: str | None = None):
        self.match = "coref"
        self.options: dict[str, Any] = {
            "metrics": None if metrics is None else list(metrics), "allow_missing": allow_missing,
            "preset": preset, "mention_match": mention_match, "singletons": singletons, "zeros": zeros,
            "format": format}
        if self.options["format"] is None:
            del self.options["format"]
        if preset == "conll2012" and format is None:      # the options checked at once (CorefUD's need files)
            import accord

            accord.coref({"_": [[[0, 0]]]}, {"_": [[[0, 0]]]}, **self.options)
        self.reset()

    def reset(self) -> None:
        """Forget every batch (the options stay)."""
        self._results: list[Result] = []
        self._documents: set[str] = set()
        self._updates = 0

    def _key(self) -> tuple[Any, ...]:
        return ("coref", tuple(sorted((k, repr(v)) for k, v in self.options.items())))

    @property
    def n_documents(self) -> int:
        """The documents counted so far."""
        return len(self._documents)

    def update(self, key: Any, response: Any) -> None:
        """Score one batch of documents.

        Parameters
        ----------
        key, response : mapping or path
            ``{document: [entity, ...]}`` (each entity a list of inclusive ``(start, end)`` token spans), or files,
            as :func:`accord.coref` reads them; a document's key and response come in the same update.

        Raises
        ------
        MergeError
            A document of the batch was given in an earlier update (its counts would add twice).
        """
        import accord

        where = f"update {self._updates + 1}"
        for side in (key, response):
            if isinstance(side, Mapping):
                self._refuse_seen(map(str, side), where)
        result = accord.coref(key, response, **self.options)
        self._refuse_seen(result.documents, where)
        result.source = None
        self._results.append(result)
        self._documents.update(result.documents)
        self._updates += 1
        if len(self._results) > 64:
            self._results = [Result.merge_all(self._results)]

    def _refuse_seen(self, documents: Any, where: str) -> None:
        for d in documents:
            if d in self._documents:
                raise MergeError(f"{where}: document {d!r} was given in an earlier update; the coreference "
                                 "accumulator adds up disjoint documents (give each document once)")

    def merge(self, other: Accumulator) -> Accumulator:
        """Add another accumulator's documents after this one's (in place; returns ``self``).

        Raises
        ------
        MergeError
            Another kind of accumulator, other options, or a document both hold.
        """
        if not isinstance(other, CorefAccumulator):
            raise MergeError(f"cannot merge a coref accumulator with {type(other).__name__}")
        if other is self:
            raise MergeError("cannot merge an accumulator with itself (its documents would count twice)")
        if other._key() != self._key():
            raise MergeError("cannot merge coref accumulators of different options (metrics, allow_missing, preset, "
                             "mention_match, singletons, zeros, format)")
        self._refuse_seen(sorted(other._documents), "merge")
        self._results.extend(other._results)
        self._documents |= other._documents
        self._updates += other._updates
        if len(self._results) > 64:
            self._results = [Result.merge_all(self._results)]
        return self

    def compute(self) -> Result:
        """The result of every document so far (a ``CorefResult``, as :func:`accord.coref` returns).

        Raises
        ------
        FormatError
            No document was counted.
        """
        if not self._results:
            raise FormatError("the accumulator holds no document (no update): nothing to score")
        self._results = [Result.merge_all(self._results)]
        return self._results[0]

    def __repr__(self) -> str:
        return f"<Accumulator coref: {self._updates} updates, {len(self._documents)} documents>"


class AgreementAccumulator(_Batched):
    """Agreement between annotators over batches of rated items: ``update(ratings)`` per batch, ``compute()``
    equal to :func:`accord.agree` on the table of all the items (in the order of the updates).

    Parameters
    ----------
    match : {"agreement"}
    level : str
        The scale (``nominal``, ``ordinal``, ``interval``, ``ratio``), as :func:`accord.agree` takes it.
    categories : sequence, optional
        The category set and its order, as :func:`accord.agree` takes it.
    coefficients : sequence of str, optional
        Extra coefficients (``icc``, ``weighted_kappa_linear``...), as :func:`accord.agree` takes them.

    Notes
    -----
    The state is the ratings: one ``int32`` code per item and rater (4 bytes x raters per item) and the distinct
    labels; kappa and alpha are not sums over batches, so the coefficients are computed once, at :meth:`compute`.
    """

    def __init__(self, match: str = "agreement", *, level: str = "nominal",
                 categories: Sequence[Hashable] | None = None, coefficients: Sequence[str] | None = None):
        from ..agreement._coefficients import LEVELS
        from ..agreement._measures import extra_names

        if level not in LEVELS:
            raise OptionError(f"level must be one of {', '.join(LEVELS)}; got {level!r}")
        self.match, self.level = "agreement", level
        self.categories = None if categories is None else list(categories)
        self.coefficients = extra_names(coefficients)
        self.reset()

    def reset(self) -> None:
        """Forget every batch (the options stay)."""
        self._raters: tuple[Hashable, ...] | None = None
        self._values: list[Hashable] = []
        self._value_index: dict[Hashable, int] = {}
        self._codes: list[np.ndarray] = []
        self._updates = 0

    def _key(self) -> tuple[Any, ...]:
        return ("agreement", self.level, None if self.categories is None else tuple(self.categories),
                tuple(self.coefficients or ()))

    @property
    def n_items(self) -> int:
        """The items counted so far."""
        return sum(len(c) for c in self._codes)

    def update(self, ratings: Any, pred: Any = None) -> None:
        """Add one batch of rated items.

        Parameters
        ----------
        ratings : mapping, list of rows, 2-d array or DataFrame
            ``{rater: [label per item]}``, one row per item (a label per rater), an items x raters array or a data
            frame whose columns are raters; ``None`` (or NaN, or ``""``) is a missing rating. Every batch has the
            same raters in the same order.

        Raises
        ------
        FormatError
            A batch of other raters, or a table :func:`accord.agree` refuses.
        """
        from ..agreement._ratings import MISSING, to_ratings

        if pred is not None:
            raise OptionError("the agreement accumulator's update takes one table of ratings (items x raters), "
                              "not two sides")
        where = f"update {self._updates + 1}"
        if isinstance(ratings, Mapping):
            ratings = {k: [None if v == "" else v for v in col] for k, col in ratings.items()}
        elif isinstance(ratings, list):
            ratings = [[None if v == "" else v for v in row] for row in ratings]
        elif isinstance(ratings, np.ndarray) and ratings.dtype.kind in "OU":
            ratings = ratings.astype(object)
            ratings[ratings == ""] = None
        table = to_ratings(ratings, where=where)
        if self._raters is not None and tuple(table.raters) != self._raters:
            raise FormatError(f"{where}: the raters are {', '.join(map(str, table.raters))}; earlier updates had "
                              f"{', '.join(map(str, self._raters))} (every batch rates with the same raters, in order)")
        cat_code = np.array([self._code(c) for c in table.categories] + [_MISSING], dtype=np.int32)
        codes = np.where(table.codes == MISSING, len(table.categories), table.codes)
        self._codes.append(cat_code[codes].astype(np.int32))
        if self._raters is None:
            self._raters = tuple(table.raters)
        self._updates += 1

    def _code(self, value: Hashable) -> int:
        k = self._value_index.get(value)
        if k is None:
            k = self._value_index[value] = len(self._values)
            self._values.append(value)
        return k

    def merge(self, other: Accumulator) -> Accumulator:
        """Add another accumulator's items after this one's (in place; returns ``self``).

        Raises
        ------
        MergeError
            Another kind of accumulator, other options or other raters.
        """
        if not isinstance(other, AgreementAccumulator):
            raise MergeError(f"cannot merge an agreement accumulator with {type(other).__name__}")
        if other is self:
            raise MergeError("cannot merge an accumulator with itself (its items would count twice)")
        if other._key() != self._key():
            raise MergeError("cannot merge agreement accumulators of different options (level, categories, "
                             "coefficients)")
        if other._raters is None:
            self._updates += other._updates
            return self
        if self._raters is not None and self._raters != other._raters:
            raise MergeError(f"cannot merge ratings of raters {', '.join(map(str, other._raters))} after "
                             f"{', '.join(map(str, self._raters))}")
        where = np.array([self._code(v) for v in other._values] + [_MISSING], dtype=np.int32)
        for codes in other._codes:
            self._codes.append(where[codes])     # -1 (missing) indexes the last entry, itself -1
        self._raters = other._raters if self._raters is None else self._raters
        self._updates += other._updates
        return self

    def compute(self) -> Any:
        """The result of every item so far (an ``AgreementResult``, as :func:`accord.agree` returns on one ratings
        table, named :data:`RATINGS_SOURCE`).

        Raises
        ------
        FormatError
            No item was counted.
        """
        from ..agreement._ratings import to_ratings
        from ..agreement._result import AgreementResult
        from ..agreement._stats import agreement_stats

        if self._raters is None or not self.n_items:
            raise FormatError("the accumulator holds no rated item (no update): nothing to score")
        if len(self._codes) > 1:
            self._codes = [np.concatenate(self._codes)]
        codes = self._codes[0]
        values = np.array(self._values + [None], dtype=object)
        cols = {r: values[codes[:, j]].tolist() for j, r in enumerate(self._raters)}
        table = to_ratings(cols, categories=self.categories, where=RATINGS_SOURCE)
        options: dict[str, Any] = {"level": self.level}
        if self.coefficients:
            options["coefficients"] = self.coefficients
        options.update(items=None, raters=None, labels=None, categories=self.categories)
        return AgreementResult("ratings", stats={RATINGS_SOURCE: agreement_stats(table)}, options=options,
                               inputs={"ratings": {"sources": [RATINGS_SOURCE], "documents": 1}},
                               ratings={RATINGS_SOURCE: table})

    def __repr__(self) -> str:
        return f"<Accumulator agreement: {self._updates} updates, {self.n_items} items>"


register_accumulator("coref", CorefAccumulator)
register_accumulator("agreement", AgreementAccumulator)
