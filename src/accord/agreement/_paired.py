"""Is one agreement coefficient different between two annotator pairs, or between two rounds, of the same items?

Both tables rate the same items, row by row: two pairs of annotators of one table (``kappa(A, B)`` against
``kappa(A, C)``), or two annotation rounds of the same items. The statistic is ``δ = c(second) - c(first)``
(``b - a``, as :func:`accord.compare` writes a difference). The paired bootstrap resamples the items with replacement,
the same items for both tables (Efron & Tibshirani 1993; the items' additive statistics of
:mod:`._resample`), and gives

- the interval of ``δ`` (percentile, or BCa with the jackknife over the items), as ``scipy.stats.bootstrap`` gives
  it for the statistic ``δ`` on the same draws;
- the two-sided p-value of ``δ = 0``: under the null the resampled differences are centred on ``δ``,
  ``p = (1 + #{|δ* - δ| ≥ |δ|}) / (1 + B)``, as ``accord compare --test bootstrap`` computes it (a resample that
  leaves ``δ`` undefined makes the p-value undefined).

Several coefficients compared in one call are one family: their p-values are also adjusted by Holm's method.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import OptionError, RatingsError
from ._ratings import MISSING, Ratings, to_ratings
from ._resample import (
    COEFFICIENT_NAMES,
    item_statistics,
    jackknife_coefficients,
    resampled_coefficients,
)

__all__ = ["AgreementComparison", "CoefficientComparison", "compare_coefficients"]


def _num(x: float) -> float | None:
    return None if np.isnan(x) else float(x)


@dataclass(frozen=True)
class CoefficientComparison:
    """One coefficient in both tables: ``difference = second_value - first_value``, its interval and p-value."""

    coefficient: str
    first: str
    second: str
    first_value: float | None
    second_value: float | None
    difference: float | None
    ci: tuple[float | None, float | None]
    p_value: float | None
    p_adjusted: float | None

    def to_dict(self) -> dict[str, Any]:
        return {"coefficient": self.coefficient, "first": self.first, "second": self.second,
                "first_value": self.first_value, "second_value": self.second_value, "difference": self.difference,
                "ci": list(self.ci), "p_value": self.p_value, "p_adjusted": self.p_adjusted}


@dataclass(frozen=True)
class AgreementComparison:
    """The comparisons of one call (one per coefficient) and how they were made."""

    comparisons: tuple[CoefficientComparison, ...]
    n_items: int
    options: dict[str, Any] = field(default_factory=dict)

    def __getitem__(self, coefficient: str) -> CoefficientComparison:
        for c in self.comparisons:
            if c.coefficient == coefficient:
                return c
        raise KeyError(coefficient)

    def to_dict(self) -> dict[str, Any]:
        return {"items": self.n_items, **self.options, "comparisons": [c.to_dict() for c in self.comparisons]}


def _united(tables: Sequence[Ratings], categories: Sequence[Hashable] | None) -> tuple[list[np.ndarray], tuple]:
    """Each table's codes over one category tuple: ``categories``, else the tables' categories united in order."""
    cats = tuple(categories) if categories is not None else \
        tuple(dict.fromkeys(c for t in tables for c in t.categories))
    out = []
    for t in tables:
        unknown = [c for c in t.categories if c not in cats]
        if unknown:
            raise RatingsError(f"rating {unknown[0]!r} is not one of the categories given")
        remap = np.array([cats.index(c) for c in t.categories] + [MISSING], dtype=np.int64)
        out.append(remap[t.codes])
    return out, cats


def _pair_columns(table: Ratings, pair: Sequence[Hashable]) -> list[int]:
    if len(pair) != 2 or pair[0] == pair[1]:
        raise OptionError(f"a pair of annotators is two different raters, got {list(pair)!r}")
    names = [str(r) for r in table.raters]
    out = []
    for rater in pair:
        if rater in table.raters:
            out.append(table.raters.index(rater))
        elif str(rater) in names:
            out.append(names.index(str(rater)))
        else:
            raise RatingsError(f"no rater {rater!r}; the raters are {', '.join(map(repr, table.raters))}")
    return out


def compare_coefficients(first: Any, second: Any = None, *, pairs: Sequence[Sequence[Hashable]] | None = None,
                         coefficients: str | Sequence[str] = "cohen_kappa", level: str = "nominal",
                         categories: Sequence[Hashable] | None = None, n_resamples: int = 10_000,
                         seed: int | None = None, confidence: float = 0.95, method: str = "percentile",
                         names: Sequence[str] | None = None) -> AgreementComparison:
    """Paired bootstrap test of the difference of agreement coefficients over the same items.

    Parameters
    ----------
    first, second : ratings
        Two tables of the same items in the same order (two annotation rounds), anything
        :func:`~accord.agreement.to_ratings` reads; or ``first`` alone with ``pairs``.
    pairs : two pairs of raters, optional
        ``[("A", "B"), ("A", "C")]``: compare the pair ``A, B`` of ``first`` with the pair ``A, C``.
    coefficients : str or list of str
        Names among :data:`accord.agreement.COEFFICIENTS` (default ``cohen_kappa``; for more than two raters the
        pairwise ones are the mean over pairs, as ``accord agree`` reports them).
    level : str
        Krippendorff's alpha's level of measurement.
    categories : sequence, optional
        The categories (default: those of both tables, united in order; Bennett's S and Gwet's AC1 count them).
    n_resamples, seed, confidence, method
        The paired bootstrap: ``n_resamples`` resamples of the items from ``numpy.random.default_rng(seed)``,
        drawn as ``scipy.stats.bootstrap`` draws them; the interval of the difference at ``confidence``,
        ``percentile`` or ``bca``.
    names : two strings, optional
        What to call the two sides (default ``A~B`` and ``A~C`` for pairs, ``first`` and ``second`` for rounds).

    Returns
    -------
    AgreementComparison
        One :class:`CoefficientComparison` per coefficient (``difference = second - first``, ``ci``,
        ``p_value``, and ``p_adjusted`` by Holm's method over the coefficients of the call).
    """
    from ..stats import BootstrapOptions, holm, intervals

    options = BootstrapOptions(n_resamples, seed, confidence, method)
    wanted = [coefficients] if isinstance(coefficients, str) else list(coefficients)
    unknown = [c for c in wanted if c not in COEFFICIENT_NAMES]
    if not wanted or unknown:
        raise OptionError(f"unknown coefficient {unknown[0] if unknown else ''!r}; expected some of "
                          f"{', '.join(COEFFICIENT_NAMES)}")
    wanted = list(dict.fromkeys(wanted))
    if (pairs is None) == (second is None):
        raise OptionError("compare two pairs of one table (pairs=[('A', 'B'), ('A', 'C')]) or two rounds (a second "
                          "table), one of them")
    one = to_ratings(first, categories=categories)
    if pairs is not None:
        if len(pairs) != 2:
            raise OptionError(f"compare two pairs of annotators, got {len(pairs)}")
        cols = [_pair_columns(one, p) for p in pairs]
        if sorted(cols[0]) == sorted(cols[1]):
            raise OptionError("the two pairs are the same annotators")
        sides = [Ratings(one.codes[:, c], one.categories, tuple(one.raters[j] for j in c)) for c in cols]
        default = [f"{one.raters[c[0]]}~{one.raters[c[1]]}" for c in cols]
    else:
        two = to_ratings(second, categories=categories)
        if one.n_items != two.n_items:
            raise RatingsError(f"the two rounds rate {one.n_items} and {two.n_items} items; a paired test needs the "
                               "same items, in the same order")
        sides, default = [one, two], ["first", "second"]
    from ..stats._units import check_unit_count

    check_unit_count(one.n_items, "items", "a paired test")
    labels = list(names) if names is not None else default
    if len(labels) != 2:
        raise OptionError(f"names: two names, got {len(labels)}")
    codes, cats = _united(sides, categories)
    order = [COEFFICIENT_NAMES.index(c) for c in wanted]
    tables = [item_statistics(c, cats, s.raters, level) for c, s in zip(codes, sides)]

    evaluators = [t.evaluator(order) for t in tables]
    values = [ev(t.total())[0] for t, ev in zip(tables, evaluators)]
    delta = values[1] - values[0]
    rng = np.random.default_rng(seed)
    a, b = resampled_coefficients(tables, n_resamples, rng, evaluators)
    null = (b - a).T                                             # (coefficients, resamples)
    lo, hi = intervals(null, delta, confidence, method,
                       lambda: jackknife_coefficients(tables[1], evaluators[1])
                       - jackknife_coefficients(tables[0], evaluators[0]))
    extreme = np.count_nonzero(np.abs(null - delta[:, None]) >= np.abs(delta)[:, None] - 1e-12, axis=1)
    undefined = np.isnan(delta) | np.isnan(null).any(axis=1)
    p = np.where(undefined, np.nan, (1 + extreme) / (1 + n_resamples))
    adjusted = holm([_num(x) for x in p])
    out = tuple(CoefficientComparison(name, labels[0], labels[1], _num(values[0][j]), _num(values[1][j]),
                                      _num(delta[j]), (_num(lo[j]), _num(hi[j])), _num(p[j]), adjusted[j])
                for j, name in enumerate(wanted))
    opts = {**options.to_dict(), "resample": "items", "test": "bootstrap", "level": level,
            "compare": "pairs" if pairs is not None else "rounds", "correction": "holm"}
    return AgreementComparison(out, one.n_items, opts)


def table_item_ids(path: Any, *, items: str | None, raters: str | None, labels: str | None) -> list[str] | None:
    """The item ids of a ratings table in the order of its :class:`Ratings` rows (``items`` of a wide table, the
    long table's items in order of first appearance); ``None`` without an item column."""
    import csv
    from pathlib import Path

    from .._support.io import read_text

    if not items:
        return None
    p = Path(path)
    text = read_text(p)
    first = text.split("\n", 1)[0]
    delimiter = "\t" if p.suffix.lower() == ".tsv" or "\t" in first else ","
    ids = [r.get(items) or "" for r in csv.DictReader(text.splitlines(), delimiter=delimiter)]
    if raters is not None or labels is not None:
        return list(dict.fromkeys(ids))
    seen: dict[str, int] = {}
    for line, item in enumerate(ids, 2):
        if item in seen:
            raise RatingsError(f"{p}: line {line}: item {item!r} again (first on line {seen[item]}); two rounds are "
                               "paired by item, each item once")
        seen[item] = line
    return ids


def align_rounds(first: Ratings, second: Ratings, first_ids: list[str] | None, second_ids: list[str] | None,
                 where: str) -> Ratings:
    """``second``'s rows in the order of ``first``'s items: by item id when both tables have them, else by row (the
    same number of items required); an item of one round missing from the other is an error naming it."""
    if first_ids is None or second_ids is None:
        if first.n_items != second.n_items:
            raise RatingsError(f"{where}: {second.n_items} items, the first round {first.n_items}; rounds without an "
                               "item column (--items) are paired row by row")
        return second
    position = {item: k for k, item in enumerate(second_ids)}
    missing = [i for i in first_ids if i not in position]
    if missing:
        raise RatingsError(f"{where}: no item {missing[0]!r} (rated in the first round); a paired test needs the "
                           "same items in both rounds")
    extra = set(second_ids) - set(first_ids)
    if extra:
        raise RatingsError(f"{where}: item {min(extra)!r} is not in the first round; a paired test needs the "
                           "same items in both rounds")
    return Ratings(second.codes[[position[i] for i in first_ids]], second.categories, second.raters)
