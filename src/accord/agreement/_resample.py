"""Resampling items for agreement: every resample's coefficients from matrix products over per-item statistics.

Every coefficient is a function of the additive statistics of :mod:`._stats`, and an item adds to them an amount
that depends only on its row of ratings. The items are grouped by their distinct rows (*patterns*: at most
``(k + 1)^m`` of them for ``m`` raters and ``k`` categories, often a handful); a resample is described by how many
times it drew each pattern, and its statistics are ``counts @ X`` with ``X`` the patterns' contributions, so a chunk
of resamples costs one gather, one ``bincount`` and one matrix product, and the coefficients of every resample are
evaluated together (:func:`evaluate`, the formulas of :mod:`._coefficients` on arrays). The jackknife of the BCa
interval is the total minus each pattern's contribution, evaluated once per pattern.

The fractional statistics (``pa_sum``, ``pi_sum``, the coincidences) are kept as integers scaled by a common
denominator (``lcm`` of the ``r (r - 1)``, ``r`` and ``r - 1`` of the raters' counts) while the sums stay below
2⁵³, then divided once: every resampled statistic is the correctly rounded value of its exact sum, whatever the
order of the items or of the matrix product (beyond that bound they are summed as floats).

The items are drawn as :func:`scipy.stats.bootstrap` draws them: ``rng.integers(0, n, (b, n))`` per chunk of ``b``
resamples, which gives the same stream of draws for any ``b`` (its ``batch=1`` and ``batch=64`` alike).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..errors import OptionError, RatingsError
from ._ratings import MISSING

__all__ = [
    "COEFFICIENT_NAMES",
    "ItemStatistics",
    "evaluate",
    "item_statistics",
    "jackknife_coefficients",
    "resampled_coefficients",
]

COEFFICIENT_NAMES = ("observed_agreement", "cohen_kappa", "scott_pi", "fleiss_kappa", "davies_fleiss_kappa",
                     "krippendorff_alpha", "bennett_s", "gwet_ac1")
"""The coefficients :func:`evaluate` computes, in the order of ``accord agree``'s report (the pairwise ones as the
mean over pairs of the pairs where they are defined)."""

_DRAWS_PER_CHUNK = 1 << 22
"""At most this many item draws are held at once (a chunk is up to 64 resamples, fewer for large tables)."""
_DENSE_CELLS = 1 << 23
"""Patterns x statistics above which the contributions are kept as a sparse matrix."""
_EVALUATED_CELLS = 1 << 21
"""Statistics (or ``k x k`` distances) evaluated at once: each array of :func:`evaluate` stays near 16 MB."""
_EXACT = float(1 << 53)
CHUNK_MAX = 1 << 30


@dataclass(frozen=True)
class ItemStatistics:
    """The per-pattern contributions of a ratings table to the statistics of :mod:`._stats`.

    Attributes
    ----------
    categories, raters : tuple
        As in the table.
    pairs : tuple of (int, int)
        The rater pairs ``(a, b)``, ``a < b``, in the order of :class:`~accord.agreement.AgreementStats`.
    inverse : numpy.ndarray
        ``(n,)``: each item's pattern.
    matrix : numpy.ndarray or scipy.sparse matrix
        ``(U, S)``: each pattern's contribution, the fractional columns scaled by ``scale``.
    scale : numpy.ndarray
        ``(S,)``: the divisor of each column (1 for the counts).
    level : str
        Krippendorff's alpha's level (ordinal keeps every coincidence, the others their margins and the weighted
        disagreement).
    """

    categories: tuple[Hashable, ...]
    raters: tuple[Hashable, ...]
    pairs: tuple[tuple[int, int], ...]
    inverse: np.ndarray
    matrix: Any
    scale: np.ndarray
    level: str = "nominal"

    @property
    def n_items(self) -> int:
        return len(self.inverse)

    @property
    def n_patterns(self) -> int:
        return int(self.matrix.shape[0])

    def pattern_counts(self) -> np.ndarray:
        """``(U,)``: how many items have each pattern."""
        return np.bincount(self.inverse, minlength=self.n_patterns)

    def sums(self, counts: np.ndarray) -> np.ndarray:
        """``(b, S)``: the statistics, as scaled sums (divide by :attr:`scale`), of ``b`` weightings of the patterns
        (``(b, U)``)."""
        out = np.asarray(self.matrix.T @ counts.T).T if not isinstance(self.matrix, np.ndarray) \
            else counts @ self.matrix
        return np.asarray(out, dtype=np.float64)

    def total(self) -> np.ndarray:
        """``(1, S)``: the statistics of the whole table (scaled sums)."""
        return self.sums(self.pattern_counts()[None, :].astype(np.float64))

    def evaluator(self, order: Sequence[int] | None = None) -> Callable[[np.ndarray], np.ndarray]:
        """The coefficients (``order``: which, by position in :data:`COEFFICIENT_NAMES`) of scaled sums."""
        k, m = len(self.categories), len(self.raters)
        cols = list(range(len(COEFFICIENT_NAMES))) if order is None else list(order)
        return lambda sums: evaluate(sums, k, m, level=self.level, categories=self.categories,
                                     scale=self.scale)[:, cols]

    def leave_one_out(self, rows: slice, total: np.ndarray) -> np.ndarray:
        """``(len(rows), S)``: the statistics (scaled sums) without one item of each of the patterns ``rows``
        (``total``: :meth:`total`)."""
        part = self.matrix[rows]
        part = part if isinstance(part, np.ndarray) else part.toarray()
        return total - part


def _patterns(codes: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of ``codes`` and each row's index among them."""
    n, m = codes.shape
    if n == 0:
        return np.zeros((0, m), dtype=np.int64), np.zeros(0, dtype=np.int64)
    if m * math.log2(k + 1) < 62:
        key = np.zeros(n, dtype=np.int64)
        for j in range(m):
            key = key * (k + 1) + (codes[:, j] + 1)
        _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
        return codes[first], inverse.astype(np.int64)
    rows, inverse = np.unique(codes, axis=0, return_inverse=True)
    return rows.astype(np.int64), inverse.reshape(-1).astype(np.int64)


def _lcm(values: Sequence[int]) -> int:
    out = 1
    for v in values:
        out = out * v // math.gcd(out, v)
    return out


def _layout(k: int, m: int, level: str) -> dict[str, slice]:
    """Where each statistic lies in a row: each pair's items, agreements and margins; the multi-rater sums; the
    coincidences (all of them for ordinal alpha, whose distances depend on the margins; otherwise their margins and
    the weighted disagreement); the complete items' counts."""
    npairs = m * (m - 1) // 2
    coincidence = [("coincidence", k * k)] if level == "ordinal" else [("pairable_values", k), ("disagreement", 1)]
    sizes = [("pair_n", npairs), ("pair_trace", npairs), ("pair_rows", npairs * k), ("pair_cols", npairs * k),
             ("pa_sum", 1), ("n_pairable", 1), ("pi_sum", k), ("n_rated", 1), *coincidence, ("complete", 1),
             ("y2", 1), ("rater_counts", m * k)]
    out, start = {}, 0
    for name, size in sizes:
        out[name] = slice(start, start + size)
        start += size
    return out


def _rows_at_once(width: int, k: int) -> int:
    """How many rows of statistics (and of ``k x k`` distances) to evaluate together."""
    return max(1, _EVALUATED_CELLS // max(width, k * k, 1))


def item_statistics(codes: np.ndarray, categories: Sequence[Hashable], raters: Sequence[Hashable],
                    level: str = "nominal") -> ItemStatistics:
    """The contributions of the items of ``codes`` (items x raters, :data:`~accord.agreement.MISSING` where missing)
    to the statistics that the coefficients (Krippendorff's alpha at ``level``) need, one row per distinct
    pattern."""
    d2 = _squared_distances(tuple(categories), level)
    codes = np.asarray(codes, dtype=np.int64)
    k, m = len(categories), codes.shape[1]
    pat, inverse = _patterns(codes, k)
    u = len(pat)
    rated = pat != MISSING
    r = rated.sum(axis=1).astype(np.int64)
    same = np.zeros(u, dtype=np.int64)          # Σ_c n_c (n_c - 1): ordered pairs of raters giving one category
    for a in range(m):
        for b in range(a + 1, m):
            same += 2 * (rated[:, a] & rated[:, b] & (pat[:, a] == pat[:, b]))
    lay = _layout(k, m, level)
    width = lay["rater_counts"].stop
    # scales: pa ~ 1/(r(r-1)), pi ~ 1/r, coincidence ~ 1/(r-1); exact while the largest sum stays below 2^53
    l_pa, l_pi, l_co = _lcm([x * (x - 1) for x in range(2, m + 1)]), _lcm(range(1, m + 1)), _lcm(range(1, m))
    n = max(len(codes), 1)
    exact = max(l_pa, l_pi * m, l_co * m * m) * float(n) < _EXACT
    scale = np.ones(width)
    if exact:
        scale[lay["pa_sum"]], scale[lay["pi_sum"]] = l_pa, l_pi
        scale[lay["coincidence"] if d2 is None else lay["disagreement"]] = l_co
    entries: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []   # (pattern, column, value), repeats added

    def add(where: np.ndarray, column: np.ndarray | int, value: np.ndarray | float) -> None:
        idx = np.flatnonzero(where)
        if len(idx):
            entries.append((idx, np.broadcast_to(np.asarray(column), where.shape)[idx].astype(np.int64),
                            np.broadcast_to(np.asarray(value, dtype=np.float64), where.shape)[idx]))

    pairs = tuple((a, b) for a in range(m) for b in range(a + 1, m))
    for p, (a, b) in enumerate(pairs):       # each pair's table as its items, its diagonal and its margins
        both = rated[:, a] & rated[:, b]
        add(both, lay["pair_n"].start + p, 1.0)
        add(both & (pat[:, a] == pat[:, b]), lay["pair_trace"].start + p, 1.0)
        add(both, lay["pair_rows"].start + p * k + pat[:, a], 1.0)
        add(both, lay["pair_cols"].start + p * k + pat[:, b], 1.0)
    two, one = r >= 2, r >= 1
    safe2 = np.where(two, r * (r - 1), 1)
    add(two & (same > 0), lay["pa_sum"].start, same * (l_pa // safe2) if exact else same / safe2)
    add(two, lay["n_pairable"].start, 1.0)
    safe1 = np.where(one, r, 1)
    share = l_pi // safe1 if exact else 1.0 / safe1
    for j in range(m):                   # n_c / r: each rating adds 1/r to its category
        add(rated[:, j], lay["pi_sum"].start + pat[:, j], share)
    add(one, lay["n_rated"].start, 1.0)
    safe_1 = np.where(two, r - 1, 1)
    weight = l_co // safe_1 if exact else 1.0 / safe_1
    for j in range(m):                   # n_c n_d - [c = d] n_c: the ordered pairs of two raters' values
        if d2 is not None:               # the coincidences' margins: the values of items rated twice or more
            add(rated[:, j] & two, lay["pairable_values"].start + pat[:, j], 1.0)
        for i in range(m):
            both = rated[:, j] & rated[:, i]
            if i == j:
                continue
            if d2 is None:
                add(both, lay["coincidence"].start + pat[:, j] * k + pat[:, i], weight)
            elif d2.size:                # (no value at all: no category, nothing to weigh)
                distance = d2[np.where(both, pat[:, j], 0), np.where(both, pat[:, i], 0)]
                add(both & (distance != 0), lay["disagreement"].start, distance * weight)
    full = (pat != MISSING).all(axis=1)
    add(full, lay["complete"].start, 1.0)
    add(full, lay["y2"].start, (r + same).astype(np.float64))         # Σ_c n_c² = r + Σ_c n_c (n_c - 1)
    for j in range(m):
        add(full, lay["rater_counts"].start + j * k + pat[:, j], 1.0)
    if entries:
        rr = np.concatenate([e[0] for e in entries])
        cc = np.concatenate([e[1] for e in entries])
        vv = np.concatenate([e[2] for e in entries])
    else:
        rr = cc = np.zeros(0, dtype=np.int64)
        vv = np.zeros(0)
    if u * width <= _DENSE_CELLS:
        matrix: Any = np.zeros((u, width))
        np.add.at(matrix, (rr, cc), vv)
    else:
        from scipy import sparse

        matrix = sparse.csr_matrix((vv, (rr, cc)), shape=(u, width))
    return ItemStatistics(tuple(categories), tuple(raters), pairs, inverse, matrix, scale, level)


# ---------------------------------------------------------------------------------------------- the coefficients
def _kappa(po: np.ndarray, pe: np.ndarray | float) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        value = (po - pe) / (1.0 - pe)
    value = np.where(np.asarray(pe) >= 1.0, 1.0, value)
    return np.where(np.isnan(po), np.nan, value)


def _pair_mean(values: np.ndarray) -> np.ndarray:
    """``(b, P)`` -> ``(b,)``: the single pair's value, or the mean of the defined ones (NaN if none)."""
    if values.shape[1] == 1:
        return values[:, 0]
    ok = ~np.isnan(values)
    count = ok.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, np.where(ok, values, 0.0).sum(axis=1) / count, np.nan)


def _squared_distances(categories: Sequence[Hashable], level: str) -> np.ndarray | None:
    """Krippendorff's fixed ``δ²`` (nominal, interval, ratio); ``None`` for ordinal (it depends on the margins)."""
    k = len(categories)
    if level == "nominal":
        return 1.0 - np.eye(k)
    if level == "ordinal":
        return None
    maybe_numbers: Sequence[Any] = categories   # float() of each: a TypeError or ValueError when not numeric
    try:
        v = np.array([float(c) for c in maybe_numbers])
    except (TypeError, ValueError):
        raise RatingsError(f"Krippendorff's alpha at the {level} level needs numeric categories, got "
                           f"{', '.join(map(repr, categories))}") from None
    diff = v[:, None] - v[None, :]
    if level == "interval":
        return diff ** 2
    total = v[:, None] + v[None, :]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total != 0, (diff / np.where(total != 0, total, 1)) ** 2, 0.0)


def evaluate(sums: np.ndarray, k: int, m: int, *, level: str = "nominal",
             categories: Sequence[Hashable] | None = None, scale: np.ndarray | None = None) -> np.ndarray:
    """``(b, S)`` statistics -> ``(b, 8)`` coefficients, in the order of :data:`COEFFICIENT_NAMES`, with the
    conventions of :mod:`._coefficients` (NaN where undefined, 1.0 for a chance agreement of 1); no warnings.

    ``sums`` are the statistics times ``scale`` (:meth:`ItemStatistics.sums`; none: the statistics themselves). The
    observed agreement of several raters and the category shares are each one division of two exact integers, so
    two resamples whose statistics are in the same proportions give the same values (their ties are exact)."""
    lay = _layout(k, m, level)
    b = len(sums)
    scale = np.ones(sums.shape[1]) if scale is None else scale
    stats = sums / scale
    npairs = m * (m - 1) // 2
    n = stats[:, lay["pair_n"]]
    safe = np.where(n > 0, n, 1)
    po = np.where(n > 0, stats[:, lay["pair_trace"]] / safe, np.nan)
    rows = stats[:, lay["pair_rows"]].reshape(b, npairs, k)
    cols = stats[:, lay["pair_cols"]].reshape(b, npairs, k)
    with np.errstate(invalid="ignore", divide="ignore"):
        pe_cohen = np.where(n > 0, (rows * cols).sum(axis=2) / (safe * safe), np.nan)
        pe_scott = np.where(n > 0, (((rows + cols) / (2 * safe)[:, :, None]) ** 2).sum(axis=2), np.nan)
    out = np.empty((b, len(COEFFICIENT_NAMES)))
    out[:, 0] = _pair_mean(po)
    out[:, 1] = _pair_mean(_kappa(po, pe_cohen))
    out[:, 2] = _pair_mean(_kappa(po, pe_scott))
    n_pairable, n_rated = stats[:, lay["n_pairable"]][:, 0], stats[:, lay["n_rated"]][:, 0]
    with np.errstate(invalid="ignore", divide="ignore"):
        multi_po = np.where(n_pairable > 0, sums[:, lay["pa_sum"]][:, 0]
                            / (scale[lay["pa_sum"]][0] * np.where(n_pairable > 0, n_pairable, 1)), np.nan)
        pi = np.where(n_rated[:, None] > 0, sums[:, lay["pi_sum"]]
                      / (scale[lay["pi_sum"]] * np.where(n_rated > 0, n_rated, 1)[:, None]), 0.0)
    out[:, 3] = _kappa(multi_po, (pi ** 2).sum(axis=1))
    # Davies & Fleiss over the items every rater rated
    i = stats[:, lay["complete"]][:, 0]
    safe_i = np.where(i > 0, i, 1)
    pcj = stats[:, lay["rater_counts"]].reshape(b, m, k) / safe_i[:, None, None]
    pc = pcj.mean(axis=1)
    den = i * (m * (m - 1) * (pc * (1 - pc)).sum(axis=1) + ((pcj - pc[:, None, :]) ** 2).reshape(b, m * k).sum(axis=1))
    with np.errstate(invalid="ignore", divide="ignore"):
        df = 1 - (i * m * m - stats[:, lay["y2"]][:, 0]) / np.where(den > 0, den, 1)
    out[:, 4] = np.where(i > 0, np.where(den <= 0, 1.0, df), np.nan)
    # Krippendorff's alpha over the coincidences
    d2 = _squared_distances(tuple(categories) if categories is not None else tuple(range(k)), level)
    if d2 is None:
        o = stats[:, lay["coincidence"]].reshape(b, k, k)
        nc = o.sum(axis=2)
    else:
        nc = stats[:, lay["pairable_values"]]
    total = nc.sum(axis=1)
    if d2 is None:
        cum = np.concatenate([np.zeros((b, 1)), np.cumsum(nc, axis=1)], axis=1)
        aa, bb = np.meshgrid(np.arange(k), np.arange(k), indexing="ij")
        lo, hi = np.minimum(aa, bb), np.maximum(aa, bb)
        d2b = (cum[:, hi + 1] - cum[:, lo] - (nc[:, aa] + nc[:, bb]) / 2) ** 2
        observed = (o * d2b).reshape(b, k * k).sum(axis=1)
    else:
        d2b = np.broadcast_to(d2, (b, k, k))
        observed = stats[:, lay["disagreement"]][:, 0]
    expected = (nc[:, :, None] * nc[:, None, :] * d2b).reshape(b, k * k).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        alpha = 1 - (total - 1) * observed / np.where(expected > 0, expected, 1)
    out[:, 5] = np.where(total <= 1, np.nan, np.where(expected <= 0, np.nan, alpha))
    out[:, 6] = _kappa(multi_po, 1.0 / k if k else 1.0)
    out[:, 7] = _kappa(multi_po, (pi * (1 - pi)).sum(axis=1) / (k - 1) if k > 1 else 1.0)
    return out


# ---------------------------------------------------------------------------------------------- resampling
def chunks(n_items: int, n_resamples: int, width: int = CHUNK_MAX) -> Iterator[int]:
    """Sizes of the chunks of resamples drawn together (64 at most, fewer when the items are many, and at most
    ``width`` resamples)."""
    from ..stats import CHUNK

    step = max(1, min(CHUNK, _DRAWS_PER_CHUNK // max(n_items, 1), width))
    for start in range(0, n_resamples, step):
        yield min(step, n_resamples - start)


def resampled_coefficients(tables: Sequence[ItemStatistics], n_resamples: int, rng: np.random.Generator,
                           evaluators: Sequence[Callable[[np.ndarray], np.ndarray]]) -> list[np.ndarray]:
    """``(n_resamples, c)`` per table: ``evaluator(statistics)`` of every resample of the items, the same draws for
    every table (their items are the same, in the same order: a paired bootstrap)."""
    if not tables:
        return []
    n = tables[0].n_items
    if any(t.n_items != n for t in tables):
        raise OptionError("paired resampling needs tables of the same items")
    outs: list[np.ndarray] = [np.empty((n_resamples, 0)) for _ in tables]
    parts: list[list[np.ndarray]] = [[] for _ in tables]
    if n == 0:
        return [ev(np.full((n_resamples, t.matrix.shape[1]), np.nan)) for t, ev in zip(tables, evaluators)]
    tables = _on_joint_patterns(tables)
    inverse, u = tables[0].inverse, tables[0].n_patterns
    for b in chunks(n, n_resamples, min(_rows_at_once(t.matrix.shape[1], len(t.categories)) for t in tables)):
        draws = rng.integers(0, n, (b, n))
        ids = inverse[draws]
        ids += (np.arange(b) * u)[:, None]
        counts = np.bincount(ids.ravel(), minlength=b * u).reshape(b, u).astype(np.float64)
        for t, ev, part in zip(tables, evaluators, parts):
            part.append(ev(t.sums(counts)))
    for j, part in enumerate(parts):
        outs[j] = np.concatenate(part, axis=0)
    return outs


def _on_joint_patterns(tables: Sequence[ItemStatistics]) -> list[ItemStatistics]:
    """The tables over the patterns of all of them together (an item's rows in every table), so that one gather and
    one ``bincount`` per chunk serve them all."""
    if len(tables) == 1:
        return list(tables)
    joint = tables[0].inverse
    for t in tables[1:]:
        _, joint = np.unique(joint * t.n_patterns + t.inverse, return_inverse=True)
        joint = joint.reshape(-1)
    _, first = np.unique(joint, return_index=True)
    out = []
    for t in tables:
        rows = t.inverse[first]
        matrix = t.matrix
        if isinstance(matrix, np.ndarray) and len(rows) * matrix.shape[1] > _DENSE_CELLS:
            from scipy import sparse

            matrix = sparse.csr_matrix(matrix)
        out.append(replace(t, inverse=joint, matrix=matrix[rows]))
    return out


def jackknife_coefficients(table: ItemStatistics, evaluator: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """``(c, n)``: the coefficients with each item left out in turn (computed once per pattern)."""
    u = table.n_patterns
    step = _rows_at_once(table.matrix.shape[1], len(table.categories))
    total = table.total()
    values = [evaluator(table.leave_one_out(slice(s, min(s + step, u)), total)) for s in range(0, u, step)]
    if not values:
        values = [evaluator(np.zeros((0, table.matrix.shape[1])))]
    return np.concatenate(values, axis=0).T[:, table.inverse]
