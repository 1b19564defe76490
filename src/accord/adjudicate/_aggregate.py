"""Aggregation of many annotators' answers on items into one label per item: majority vote, Dawid-Skene, MACE.

The answers are an items-by-annotators table of category codes (``-1``: the annotator gave none). Each method
gives every item a posterior over the categories and chooses the most probable one:

* ``majority``: the share of the item's answers each category got; each annotator's reliability is its agreement
  with the chosen labels (the share of its answers equal to the chosen label, on the items without a tie);
* ``dawid-skene``: :mod:`._dawid_skene`; reliability: each annotator's estimated accuracy ``Σ_k p_k π_j[k, k]``;
* ``mace``: :mod:`._mace`; reliability: each annotator's competence ``θ_j``.

An item is a *tie* when two categories share the highest posterior (within 1e-9); it is *short* when the chosen
category got fewer than ``min_votes`` answers; otherwise it is *decided*. By default ``min_votes`` is a strict
majority of the item's answers for ``majority`` and 1 for the models (their choice stands however few gave it).
"""

from __future__ import annotations

import warnings
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import AccordWarning, OptionError, RatingsError

__all__ = ["METHODS", "Aggregate", "aggregate", "RELIABILITY", "CELL_LIMIT", "TIE"]

METHODS = ("majority", "dawid-skene", "mace")

RELIABILITY = {"majority": "agreement with the majority", "dawid-skene": "estimated accuracy",
               "mace": "competence"}
"""What each method reports as an annotator's reliability."""

CELL_LIMIT = 50_000_000
"""Most items × annotators × categories a model holds (refused before any array is made)."""

TIE = 1e-9
"""Posteriors this close to the highest are tied with it."""


@dataclass
class Aggregate:
    """The label of every item, with its posterior, votes and status, and each annotator's reliability.

    Attributes
    ----------
    labels : list
        The chosen category of each item.
    status : list of str
        ``decided``, ``tie`` or ``short`` (see the module docstring).
    """

    method: str
    categories: tuple[Hashable, ...]
    annotators: tuple[str, ...]
    posteriors: np.ndarray
    labels: list[Hashable]
    votes: np.ndarray
    answers: np.ndarray
    status: list[str]
    reliability: dict[str, float]
    min_votes: int | None
    iterations: int | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def counts(self) -> dict[str, int]:
        """Items by status."""
        return {s: self.status.count(s) for s in ("decided", "tie", "short")}

    def to_dict(self) -> dict[str, Any]:
        """The method, the counts and each annotator's reliability (JSON-ready)."""
        return {"method": self.method, "items": len(self.labels), **self.counts(),
                "min_votes": self.min_votes, "iterations": self.iterations,
                "reliability_measure": RELIABILITY[self.method],
                "annotators": [{"annotator": a, "reliability": self.reliability[a]} for a in self.annotators],
                **self.details}


def _check(codes: np.ndarray, n_categories: int, annotators: Sequence[str], method: str,
           min_votes: int | None) -> None:
    if method not in METHODS:
        raise OptionError(f"--method must be one of {', '.join(METHODS)}; got {method!r}")
    if codes.ndim != 2 or codes.shape[1] != len(annotators):
        raise RatingsError(f"{codes.shape[1] if codes.ndim == 2 else '?'} columns of answers for "
                           f"{len(annotators)} annotators")
    if len(annotators) < 2:
        raise RatingsError(f"aggregation needs at least two annotators, got {len(annotators)}")
    if min_votes is not None and not 1 <= min_votes <= len(annotators):
        raise OptionError(f"--min-votes must be between 1 and the number of annotators ({len(annotators)}); "
                          f"got {min_votes}")
    if codes.shape[0] == 0:
        raise RatingsError("no items to aggregate")
    if codes.size and (codes.max() >= n_categories or codes.min() < -1):
        raise RatingsError(f"a category code outside 0..{n_categories - 1} (or -1 for no answer)")
    empty = np.flatnonzero((codes < 0).all(axis=1)) if codes.size else np.zeros(0, dtype=np.int64)
    if len(empty):
        raise RatingsError(f"item {int(empty[0])} (counting from 0) has no answer; every item needs one")
    if method != "majority" and codes.shape[0] * codes.shape[1] * max(n_categories, 1) > CELL_LIMIT:
        raise RatingsError(f"{codes.shape[0]} items × {codes.shape[1]} annotators × {n_categories} categories is "
                           f"more than {method} holds here ({CELL_LIMIT:,} cells); split the items")


def _warn_unconverged(fit: Any, method: str, options: dict[str, Any]) -> None:
    """A visible warning when the EM rounds ran out before the posteriors settled (never a silent stop)."""
    tol = options.get("tol", 1e-9)
    if tol >= 0 and fit.moved >= tol:
        warnings.warn(AccordWarning(f"{method} stopped after {fit.iterations} rounds with the posteriors still moving "
                                    f"by {fit.moved:.2g} (more than {tol:g}): its labels may change with more rounds"),
                      stacklevel=3)


def aggregate(codes: np.ndarray, categories: Sequence[Hashable], annotators: Sequence[str], *,
              method: str = "majority", min_votes: int | None = None, **options: Any) -> Aggregate:
    """Aggregate an items-by-annotators table of category codes (see the module docstring).

    Parameters
    ----------
    codes : ndarray of int, shape (items, annotators)
        ``codes[i, j]`` indexes ``categories``; ``-1``: no answer. Every item needs an answer.
    categories : sequence
        The categories, in the order ties are broken (the first of the tied ones is chosen).
    annotators : sequence of str
    method : {"majority", "dawid-skene", "mace"}
    min_votes : int, optional
        Answers the chosen category needs for the item to be decided (see the module docstring for the default).
    **options
        Passed to :func:`~accord.adjudicate._dawid_skene.dawid_skene` or :func:`~accord.adjudicate._mace.mace`
        (``tol``, ``max_iter``; MACE's ``method`` as ``mace_method``, ``alpha``, ``beta``, ``strategy_prior``).
    """
    codes = np.asarray(codes, dtype=np.int64)
    cats = tuple(categories)
    names = tuple(str(a) for a in annotators)
    _check(codes, len(cats), names, method, min_votes)
    k = len(cats)
    n_items = codes.shape[0]
    votes_by = np.zeros((n_items, k), dtype=np.int64)
    i, j = np.nonzero(codes >= 0)
    np.add.at(votes_by, (i, codes[i, j]), 1)
    answers = votes_by.sum(axis=1)
    iterations: int | None = None
    details: dict[str, Any] = {}
    if method == "majority":
        post = votes_by / np.maximum(answers, 1)[:, None]
    elif method == "dawid-skene":
        from ._dawid_skene import dawid_skene

        ds = dawid_skene(codes, k, **options)
        post, iterations = ds.posteriors, ds.iterations
        accuracy = ds.accuracy()
        details = {"priors": dict(zip(map(str, cats), ds.priors.tolist())),
                   "confusion": {a: ds.confusion[n].tolist() for n, a in enumerate(names)}}
    else:
        from ._mace import MACE_METHODS, mace

        how = options.pop("mace_method", "vb")
        if how not in MACE_METHODS:
            raise OptionError(f"MACE's method must be one of {', '.join(MACE_METHODS)}; got {how!r}")
        fit = mace(codes, k, method=how, **options)
        post, iterations = fit.posteriors, fit.iterations
        details = {"strategy": {a: fit.strategy[n].tolist() for n, a in enumerate(names)}, "mace_method": how}
    if method != "majority":
        _warn_unconverged(ds if method == "dawid-skene" else fit, method, options)
    chosen = post.argmax(axis=1) if n_items else np.zeros(0, dtype=np.int64)
    top = post[np.arange(n_items), chosen]
    tied = (post >= (top - TIE)[:, None]).sum(axis=1) > 1
    votes = votes_by[np.arange(n_items), chosen]
    need = (answers // 2 + 1 if method == "majority" else np.ones(n_items, dtype=np.int64)) \
        if min_votes is None else np.full(n_items, min_votes)
    status = ["tie" if t else "short" if v < n else "decided" for t, v, n in zip(tied, votes, need)]
    if method == "majority":
        ok = ~tied
        hits = (codes == chosen[:, None]) & ok[:, None]
        given = (codes >= 0) & ok[:, None]
        rel = np.divide(hits.sum(axis=0), given.sum(axis=0), out=np.full(len(names), np.nan),
                        where=given.sum(axis=0) > 0)
    elif method == "dawid-skene":
        rel = accuracy
    else:
        rel = fit.competence
    return Aggregate(method, cats, names, post, [cats[c] for c in chosen], votes, answers, status,
                     {a: float(r) for a, r in zip(names, rel)}, min_votes, iterations, details)
