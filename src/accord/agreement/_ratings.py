"""Ratings tables: items by raters, from rows, columns, arrays, data frames or long (item, rater, label) rows."""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any, cast

import numpy as np

from ..errors import RatingsError

__all__ = ["MISSING", "Ratings", "to_ratings", "ratings_from_long", "is_missing"]

MISSING = -1
"""The code of a missing rating in :attr:`Ratings.codes`."""


def is_missing(v: Any) -> bool:
    """``None``, a float NaN (numpy's too) and pandas' ``NA``/``NaT`` are missing; nothing else is."""
    if v is None:
        return True
    if isinstance(v, (float, np.floating)):
        return math.isnan(v)
    if type(v).__name__ in ("NAType", "NaTType"):
        return True
    return False


def _sort_key(v: Any) -> tuple[int, Any]:
    # numbers before strings, each in natural order; anything else by its text
    if isinstance(v, (bool, np.bool_)):
        return (0, int(v))
    if isinstance(v, (int, float, np.integer, np.floating)):
        return (0, float(v))
    if isinstance(v, str):
        return (1, v)
    return (2, repr(v))


@dataclass(frozen=True)
class Ratings:
    """An items-by-raters table of category codes.

    Attributes
    ----------
    codes : numpy.ndarray
        ``int64``, shape (items, raters); ``codes[i, j]`` indexes ``categories``, or is
        :data:`MISSING`.
    categories : tuple
        The category values, in their natural order (numbers, then strings) unless given.
    raters : tuple
        Rater names (column names, dict keys, or 0, 1, ...).
    """

    codes: np.ndarray
    categories: tuple[Hashable, ...]
    raters: tuple[Hashable, ...]

    @property
    def n_items(self) -> int:
        return int(self.codes.shape[0])

    @property
    def n_raters(self) -> int:
        return int(self.codes.shape[1])

    def counts(self) -> np.ndarray:
        """``n[i, c]``: how many raters gave item ``i`` category ``c``."""
        k = len(self.categories)
        rows, cols = np.nonzero(self.codes != MISSING)
        flat = np.bincount(rows * k + self.codes[rows, cols], minlength=self.n_items * k)
        return flat.reshape(self.n_items, k)


def _numeric(col: Any) -> bool:
    return isinstance(col, np.ndarray) and col.ndim == 1 and col.dtype.kind in "iuf"


def _encode_numeric(columns: list[np.ndarray], raters: Sequence[Hashable], categories: Sequence[Hashable] | None,
                    where: str) -> Ratings:
    """:func:`_encode` for numeric array columns, by sorting instead of a Python loop per value."""
    floats = any(c.dtype.kind == "f" for c in columns)
    arr = np.column_stack(columns).astype(np.float64 if floats else np.int64)
    missing = np.isnan(arr) if floats else np.zeros(arr.shape, dtype=bool)
    rated = arr if not missing.any() else arr[~missing]
    small = _small_integers(rated)
    if small is not None:    # integer codes in a short range (the usual case): counted, not sorted
        lo, offsets, present = small
        values = (np.flatnonzero(present) + lo).astype(arr.dtype)
    else:
        values = np.unique(rated)    # (flattened)
    found = values.tolist()
    cats: tuple[Hashable, ...]
    if categories is None:
        cats = tuple(found)
    else:
        cats = tuple(categories)
        if len(set(cats)) != len(cats):
            raise RatingsError(f"{where}: the categories given repeat a value")
        unknown = set(found) - set(cats)
        if unknown:
            raise RatingsError(f"{where}: rating {sorted(unknown, key=_sort_key)[0]!r} is not one of the categories "
                               f"given with --categories ({', '.join(map(repr, cats))})")
    index = {c: k for k, c in enumerate(cats)}
    lookup = np.array([index[v] for v in found], dtype=np.int64)
    codes = np.full(arr.shape, MISSING, dtype=np.int64)
    if len(found) and small is not None:
        rank = np.cumsum(present) - 1                 # value - lo -> its index among the values present
        coded = lookup[rank[offsets]]
        if missing.any():
            codes[~missing] = coded
        else:
            codes = coded.reshape(arr.shape)
    elif len(found):
        codes[~missing] = lookup[np.searchsorted(values, arr[~missing])]
    return Ratings(codes, cats, tuple(raters))


def _small_integers(values: np.ndarray) -> tuple[int, np.ndarray, np.ndarray] | None:
    """For integer-valued ratings within a range not much wider than their number: the lowest value, each value's
    offset from it and which offsets occur; None otherwise (then the values are sorted)."""
    if values.size == 0:
        return None
    lo, hi = values.min(), values.max()
    if not (hi - lo < 4 * values.size + 1024) or not np.isfinite(lo) or not np.isfinite(hi):
        return None
    offsets = (values - lo).astype(np.int64)
    if values.dtype.kind == "f" and not np.array_equal(offsets + lo, values):
        return None
    return int(lo), offsets.ravel(), np.bincount(offsets.ravel()) > 0


def _encode_distinct(columns: list[Any], n: int, raters: Sequence[Hashable], categories: Sequence[Hashable] | None,
                     where: str) -> Ratings | None:
    """:func:`_encode` for columns of any hashable values (strings, the usual case), hashing each value once.

    The distinct values are found by one dict over all columns (C loops, no Python call per value); only they are
    tested for being missing and sorted; each rating is then coded by a lookup in a dict from a distinct value to
    its code. Returns None (the caller's value-by-value loop then names the offending value) when a value is not
    hashable or cannot be compared with another of the same hash (pandas' ``NA``).
    """
    try:
        distinct = dict.fromkeys(chain.from_iterable(columns))
    except TypeError:
        return None
    missing = [v for v in distinct if is_missing(v)]
    try:
        present = set(distinct).difference(missing) if missing else set(distinct)
    except TypeError:                # pandas' NA compared with a value of the same hash: bool(NA) raises
        return None
    cats = _categories(present, categories, where)
    index = {c: k for k, c in enumerate(cats)}
    code_of = {v: index[v] for v in present}
    for v in missing:
        code_of[v] = MISSING
    codes = np.empty((n, len(columns)), dtype=np.int64)
    try:
        for j, col in enumerate(columns):
            codes[:, j] = np.fromiter(map(code_of.__getitem__, col), dtype=np.int64, count=n)
    except (KeyError, TypeError):    # a column yielding new objects on a second pass, NA in a hash collision
        return None
    return Ratings(codes, cats, tuple(raters))


def _categories(values: set[Any], categories: Sequence[Hashable] | None, where: str) -> tuple[Hashable, ...]:
    """The categories in order: the values used, sorted, or those given (``--categories``), which must hold every
    value used and none twice."""
    if categories is None:
        return tuple(sorted(values, key=_sort_key))
    cats = tuple(categories)
    unknown = values - set(cats)
    if unknown:
        raise RatingsError(f"{where}: rating {sorted(unknown, key=_sort_key)[0]!r} is not one of the categories "
                           f"given with --categories ({', '.join(map(repr, cats))})")
    if len(set(cats)) != len(cats):
        raise RatingsError(f"{where}: the categories given repeat a value")
    return cats


def _encode(columns: list[Any], raters: Sequence[Hashable], categories: Sequence[Hashable] | None,
            where: str) -> Ratings:
    n = len(columns[0]) if columns else 0
    for r, col in zip(raters, columns):
        if len(col) != n:
            raise RatingsError(f"{where}: rater {r!r} has {len(col)} ratings, the first rater {n}; every rater "
                               "needs one value per item (None or NaN where missing)")
    if columns and all(_numeric(c) for c in columns):
        return _encode_numeric(columns, raters, categories, where)
    columns = [c.tolist() if isinstance(c, np.ndarray) else c for c in columns]
    fast = _encode_distinct(columns, n, raters, categories, where)
    if fast is not None:
        return fast
    values: set[Any] = set()
    for col in columns:
        for v in col:
            if not is_missing(v):
                try:
                    values.add(v)
                except TypeError:
                    raise RatingsError(f"{where}: a rating must be a hashable value, got {v!r}") from None
    cats = _categories(values, categories, where)
    index = {c: k for k, c in enumerate(cats)}
    codes = np.full((n, len(columns)), MISSING, dtype=np.int64)
    for j, col in enumerate(columns):
        codes[:, j] = [MISSING if is_missing(v) else index[v] for v in col]
    return Ratings(codes, cats, tuple(raters))


def to_ratings(ratings: Any, *, categories: Sequence[Hashable] | None = None, where: str | None = None) -> Ratings:
    """Read an items-by-raters table.

    ``ratings`` is a :class:`Ratings`; a list of rows (one per item, one value per rater);
    a dict of columns (rater -> values per item); a 2-D numpy array (items x raters); or a
    pandas DataFrame (columns are raters). ``None`` and NaN are missing values, never a
    category. ``categories`` fixes the category set and its order (needed for an ordinal
    scale that is not the natural order, or to count a category nobody used). ``where``
    names the source (a file) in error messages.
    """
    cols: list[Any]
    if isinstance(ratings, Ratings):
        if categories is None or tuple(categories) == ratings.categories:
            return ratings
        cols = [[None if c == MISSING else ratings.categories[c] for c in ratings.codes[:, j]]
                for j in range(ratings.n_raters)]
        return _encode(cols, ratings.raters, categories, "ratings")
    if type(ratings).__name__ == "DataFrame" and hasattr(ratings, "columns"):
        raters = list(ratings.columns)
        cols = []
        for c in raters:
            col = ratings[c].to_numpy()
            cols.append(col if _numeric(col) else col.tolist() if col.dtype == object else list(ratings[c]))
        return _encode(cols, raters, categories, "data frame")
    if isinstance(ratings, Mapping):
        raters = list(ratings)
        cols = []
        for r in raters:
            col = ratings[r]
            if isinstance(col, (str, bytes)) or not isinstance(col, Iterable):
                raise RatingsError(f"ratings: rater {r!r} must map to a sequence of ratings, got {col!r}")
            cols.append(col if _numeric(col) else col.tolist() if isinstance(col, np.ndarray) else list(col))
        return _encode(cols, raters, categories, where or "ratings")
    if isinstance(ratings, np.ndarray):
        if ratings.ndim != 2:
            raise RatingsError(f"ratings: expected a 2-D array (items x raters), got {ratings.ndim} dimension(s)")
        return _encode([ratings[:, j] if _numeric(ratings[:, j]) else ratings[:, j].tolist()
                        for j in range(ratings.shape[1])], list(range(ratings.shape[1])), categories, "array")
    if isinstance(ratings, Iterable) and not isinstance(ratings, (str, bytes)):
        maybe_rows = [list(r) if isinstance(r, Iterable) and not isinstance(r, (str, bytes)) else None
                      for r in ratings]
        if any(r is None for r in maybe_rows):
            raise RatingsError("ratings: expected rows of ratings (one value per rater), got a row that is not a "
                               "sequence")
        rows = cast("list[list[Any]]", maybe_rows)   # no None: refused on the line above
        width = len(rows[0]) if rows else 0
        for i, r in enumerate(rows):
            if len(r) != width:
                raise RatingsError(f"ratings: row {i} has {len(r)} ratings, row 0 has {width}")
        return _encode([[r[j] for r in rows] for j in range(width)], list(range(width)),
                       categories, "ratings")
    raise RatingsError(f"ratings: expected rows, a dict of columns, an array or a DataFrame, got "
                       f"{type(ratings).__name__}")


def ratings_from_long(rows: Iterable[Mapping[str, Any]], *, item: str, rater: str, label: str,
                      categories: Sequence[Hashable] | None = None, where: str = "ratings") -> Ratings:
    """Build the table from long rows ``{item: ..., rater: ..., label: ...}``.

    An item a rater did not rate is missing; the same (item, rater) twice is an error.
    Items and raters keep their order of first appearance.
    """
    items: dict[Hashable, int] = {}
    raters: dict[Hashable, int] = {}
    cells: dict[tuple[int, int], Any] = {}
    for n, row in enumerate(rows, 1):
        try:
            it, ra, la = row[item], row[rater], row[label]
        except KeyError as exc:
            raise RatingsError(f"{where}: row {n} has no column {exc.args[0]!r}") from None
        i = items.setdefault(it, len(items))
        j = raters.setdefault(ra, len(raters))
        if (i, j) in cells:
            raise RatingsError(f"{where}: row {n}: rater {ra!r} rated item {it!r} twice")
        cells[(i, j)] = la
    cols = [[cells.get((i, j)) for i in range(len(items))] for j in range(len(raters))]
    return _encode(cols, list(raters), categories, where)
