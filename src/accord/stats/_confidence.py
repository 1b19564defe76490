"""Confidence intervals for every rate of a result, by resampling its documents or sentences."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from .._support.arrays import Floats
from ..result._table import Row
from ._bootstrap import BootstrapOptions, intervals, resampled_sums
from ._units import UnitMatrix, unit_matrix

if TYPE_CHECKING:
    from ..result._kinds import Kind
    from ..result._result import Measure

__all__ = ["confidence_intervals"]


def _macro(rates: Floats) -> Floats:
    """The mean over the last axis of each rate, undefined (NaN) rates left out (NaN when none is left)."""
    with np.errstate(invalid="ignore"):
        kept = ~np.isnan(rates)
        total = np.where(kept, rates, 0.0).sum(axis=-1)
        count = kept.sum(axis=-1)
        return np.where(count > 0, total / np.maximum(count, 1), np.nan)


def confidence_intervals(measures: Mapping[str, Measure], documents: tuple[str, ...], options: BootstrapOptions,
                         summary: bool = False, units: UnitMatrix | None = None) -> dict[str, dict[str, Any]]:
    """Intervals of every rate of every row (total, labels, groups) and of the macro means, per measure.

    All measures are resampled with the same draws (one weight matrix for all), so their intervals come
    from the same resampled corpora. ``units`` are the resampled units (:func:`accord.stats._units.unit_matrix`
    of the measures' tables; default: their documents). Returns ``{measure: {"rows": {row: {rate: [lo, hi]}},
    "macro": {rate: [lo, hi]}}}``, with ``"resampled": {row: {rate: {"mean", "variance", "std"}}}`` when
    ``summary`` (MAT's ``--compute_confidence_data``: the mean, variance and standard deviation of the
    resampled values).
    """
    if units is None:
        units = unit_matrix([m.table for m in measures.values()], documents, "documents")
    rng = np.random.default_rng(options.seed)
    sums = resampled_sums(units, options.n_resamples, rng)
    corpus = units.total()
    out: dict[str, dict[str, Any]] = {}
    offset = 0
    for name, m in measures.items():
        t, kind = m.table, m.kind
        r, f = len(t.rows), len(t.fields)
        width = r * f
        columns = slice(offset, offset + width)
        total = corpus[columns].reshape(r, f)
        resampled = sums[:, columns].reshape(-1, r, f)
        offset += width
        rates_b = kind.rates(resampled)            # rate -> (B, rows)
        rates_hat = kind.rates(total)               # rate -> (rows,)
        labels = [k for k, row in enumerate(t.rows) if row[0] == "label"]

        def jackknife(columns: slice = columns, total: Floats = total, kind: Kind = kind,
                      labels: list[int] = labels, r: int = r, f: int = f) -> dict[str, Floats]:
            values = units.dense()[:, columns].reshape(units.n, r, f)
            left_out = kind.rates(total[None] - values)        # rate -> (units, rows)
            return {rate: np.concatenate([v.T, _macro(v[:, labels])[None]], axis=0) for rate, v in left_out.items()}

        cache: dict[str, dict[str, Floats]] = {}

        def rate_jackknife(rate: str, cache: dict[str, dict[str, Floats]] = cache,
                           jackknife: Callable[[], dict[str, Floats]] = jackknife
                           ) -> Floats:
            if "all" not in cache:
                cache["all"] = jackknife()
            return cache["all"][rate]

        rows: dict[Row, dict[str, list[float | None]]] = {row: {} for row in t.rows}
        macro: dict[str, list[float | None]] = {}
        resampled_summary: dict[Row, dict[str, dict[str, float | None]]] = {row: {} for row in t.rows}
        for rate in kind.rate_names:
            # the rows' statistics, then the macro mean over labels, as one block of statistics
            stat_b = np.concatenate([rates_b[rate].T, _macro(rates_b[rate][:, labels])[None]], axis=0)
            stat_hat = np.concatenate([rates_hat[rate], _macro(rates_hat[rate][labels])[None]])
            lo, hi = intervals(stat_b, stat_hat, options.confidence, options.method,
                               functools.partial(rate_jackknife, rate))
            for k, row in enumerate(t.rows):
                rows[row][rate] = [_num(lo[k]), _num(hi[k])]
                if summary:
                    resampled_summary[row][rate] = _moments(stat_b[k])
            macro[rate] = [_num(lo[-1]), _num(hi[-1])] if labels else [None, None]
        out[name] = {"rows": rows, "macro": macro}
        if summary:
            out[name]["resampled"] = resampled_summary
    return out


def _num(x: float) -> float | None:
    return None if x != x else float(x)


def _moments(values: Floats) -> dict[str, float | None]:
    if np.isnan(values).any():
        return {"mean": None, "variance": None, "std": None}
    variance = float(np.var(values, ddof=1))
    return {"mean": float(values.mean()), "variance": variance, "std": float(np.sqrt(variance))}



