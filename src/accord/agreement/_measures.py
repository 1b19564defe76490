"""The coefficients ``accord agree --coefficients`` adds to the report: weighted kappa, Gwet's AC2 and Fleiss' kappa
with the same weights, Krippendorff's alpha of set-valued labels (MASI, Jaccard) and the intraclass correlations.

Each is a function of sums of per-item contributions (one row per distinct row of ratings, a *pattern*, as in
:mod:`._resample`): the value of the table is the function of the total, and the bootstrap over items evaluates it
on every resample's counts of patterns, with the very draws of the other coefficients (one
:func:`~._resample.resampled_coefficients` call over both tables).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import AgreementWarning, OptionError, RatingsError
from ._icc import ICC_NAMES, icc_contributions, icc_evaluate, numeric_values
from ._ratings import MISSING, Ratings, to_ratings
from ._set_distances import SET_DISTANCES, alpha_contributions, alpha_evaluate, distance_matrix
from ._weighted import (
    AC2_WEIGHTS,
    KAPPA_WEIGHTS,
    ac2_contributions,
    ac2_evaluate,
    agreement_weights,
    disagreement_weights,
    kappa_contributions,
    kappa_evaluate,
    weighted_fleiss_evaluate,
)

__all__ = ["EXTRA_COEFFICIENTS", "ExtraTable", "extra_names", "outputs_of", "extra_table", "measure_values"]

EXTRA_COEFFICIENTS = (*(f"weighted_kappa_{w}" for w in KAPPA_WEIGHTS), *(f"gwet_ac2_{w}" for w in AC2_WEIGHTS),
                      *(f"fleiss_kappa_{w}" for w in AC2_WEIGHTS), *(f"krippendorff_alpha_{d}" for d in SET_DISTANCES),
                      "icc")
"""The names ``--coefficients`` adds to the report (``icc`` is the six of :data:`~._icc.ICC_NAMES`)."""

_PAIRWISE = tuple(f"weighted_kappa_{w}" for w in KAPPA_WEIGHTS)


def extra_names(names: Sequence[str] | None) -> list[str]:
    """The names among ``names`` that are extra coefficients (each once, in order); an unknown name is an
    :class:`~accord.errors.OptionError` listing every name."""
    from ._resample import COEFFICIENT_NAMES

    out: list[str] = []
    for n in names or ():
        if n in EXTRA_COEFFICIENTS or n in ICC_NAMES:
            n = "icc" if n in ICC_NAMES else n
            if n not in out:
                out.append(n)
        elif n not in COEFFICIENT_NAMES:
            raise OptionError(f"unknown coefficient {n!r}; expected some of {', '.join(COEFFICIENT_NAMES)}, "
                              f"{', '.join(EXTRA_COEFFICIENTS)}")
    return out


def outputs_of(name: str) -> tuple[str, ...]:
    """The coefficient names one selected name reports (``icc``: six)."""
    return ICC_NAMES if name == "icc" else (name,)


@dataclass(frozen=True)
class _Measure:
    name: str
    width: int
    contributions: Callable[[np.ndarray], np.ndarray]
    evaluate: Callable[[np.ndarray], np.ndarray]
    pairwise: bool = False


def _measure(name: str, codes: np.ndarray, categories: Sequence[Hashable]) -> _Measure:
    k, m = len(categories), codes.shape[1]
    if name in _PAIRWISE:
        d = disagreement_weights(categories, name.rsplit("_", 1)[1])
        return _Measure(name, m * (m - 1) // 2 * (2 + 2 * k), lambda p: kappa_contributions(p, d),
                        lambda s: kappa_evaluate(s, d, m), pairwise=True)
    if name.startswith("gwet_ac2_"):
        w = agreement_weights(categories, name[len("gwet_ac2_"):])
        return _Measure(name, k + 3, lambda p: ac2_contributions(p, w), lambda s: ac2_evaluate(s, w))
    if name.startswith("fleiss_kappa_"):
        w = agreement_weights(categories, name[len("fleiss_kappa_"):])
        return _Measure(name, k + 3, lambda p: ac2_contributions(p, w), lambda s: weighted_fleiss_evaluate(s, w))
    if name.startswith("krippendorff_alpha_"):
        delta = distance_matrix(categories, name[len("krippendorff_alpha_"):])
        return _Measure(name, k + 1, lambda p: alpha_contributions(p, delta), lambda s: alpha_evaluate(s, delta))
    if name == "icc":
        values = numeric_values(categories, "the intraclass correlation (icc)")
        rated = codes[codes != MISSING]
        centre = float(values[rated].mean()) if rated.size else 0.0
        return _Measure(name, m + 3, lambda p: icc_contributions(p, values, centre), lambda s: icc_evaluate(s, m))
    raise OptionError(f"unknown coefficient {name!r}; expected one of {', '.join(EXTRA_COEFFICIENTS)}")


@dataclass(frozen=True)
class ExtraTable:
    """The per-pattern contributions of the selected extra coefficients, as an
    :class:`~._resample.ItemStatistics` the resampling of :mod:`._resample` takes."""

    names: tuple[str, ...]
    measures: tuple[_Measure, ...]
    table: Any
    raters: tuple[Hashable, ...]

    @property
    def outputs(self) -> tuple[str, ...]:
        """The reported coefficient names, in order (one per column of :meth:`evaluator`)."""
        return tuple(o for ms in self.measures for o in outputs_of(ms.name))

    def _columns(self, sums: np.ndarray) -> list[np.ndarray]:
        out, start = [], 0
        for ms in self.measures:
            out.append(ms.evaluate(sums[:, start:start + ms.width]))
            start += ms.width
        return out

    def evaluator(self) -> Callable[[np.ndarray], np.ndarray]:
        """``(b, S)`` sums -> ``(b, len(outputs))``: the pairwise ones as the mean of the pairs where defined."""
        from ._resample import _pair_mean

        def ev(sums: np.ndarray) -> np.ndarray:
            cols = [_pair_mean(c)[:, None] if ms.pairwise else c for ms, c in zip(self.measures, self._columns(sums))]
            return np.concatenate(cols, axis=1) if cols else np.zeros((len(sums), 0))
        return ev

    def values(self) -> dict[str, Any]:
        """Each output's value on the whole table: a float, or for a pairwise one with more than two raters a
        :class:`~accord.agreement.Pairwise` (each pair and their mean)."""
        from ._coefficients import Pairwise
        from ._resample import _pair_mean

        total = self.table.total()
        out: dict[str, Any] = {}
        m = len(self.raters)
        for ms, col in zip(self.measures, self._columns(total)):
            if ms.pairwise:
                pairs = [(self.raters[a], self.raters[b]) for a in range(m) for b in range(a + 1, m)]
                if m == 2:
                    out[ms.name] = float(col[0, 0])
                else:
                    out[ms.name] = Pairwise({p: float(v) for p, v in zip(pairs, col[0])}, float(_pair_mean(col)[0]))
            else:
                out.update({o: float(v) for o, v in zip(outputs_of(ms.name), col[0])})
        return out

    def warnings(self) -> list[str]:
        """What the values leave undefined or set by convention, and the items the ICC leaves out (as text)."""
        notes = []
        total = self.table.total()
        start = 0
        for ms in self.measures:
            part = total[:, start:start + ms.width]
            start += ms.width
            value = ms.evaluate(part)
            if ms.name == "icc":
                left = self.table.n_items - int(round(part[0, 0]))
                if left:
                    notes.append(f"the intraclass correlation leaves out {left} item(s) not rated by every rater")
            if np.isnan(value).all():
                notes.append(f"{ms.name}: not defined on these ratings (no item rated by two raters, fewer than "
                             "two complete items for the ICC, or no variation); the value is NaN")
        return notes


def extra_table(codes: np.ndarray, categories: Sequence[Hashable], raters: Sequence[Hashable],
                names: Sequence[str]) -> ExtraTable:
    """The contributions of ``names`` (:data:`EXTRA_COEFFICIENTS`) over the items of ``codes``."""
    from ._resample import ItemStatistics, _patterns

    codes = np.asarray(codes, dtype=np.int64)
    if codes.ndim != 2 or codes.shape[1] < 2:
        raise RatingsError(f"agreement needs at least two raters, got {codes.shape[1] if codes.ndim == 2 else 0}")
    measures = tuple(_measure(n, codes, categories) for n in names)
    pat, inverse = _patterns(codes, len(categories))
    parts = [ms.contributions(pat) for ms in measures]
    matrix = np.concatenate(parts, axis=1) if parts else np.zeros((len(pat), 0))
    table = ItemStatistics(tuple(categories), tuple(raters), (), inverse, matrix, np.ones(matrix.shape[1]))
    return ExtraTable(tuple(names), measures, table, tuple(raters))


def measure_values(ratings: Any, name: str, *, categories: Sequence[Hashable] | None = None) -> Any:
    """One extra coefficient of a ratings table (what the public functions return), its warnings as
    :class:`~accord.errors.AgreementWarning`."""
    from ._stats import AgreementStats

    if isinstance(ratings, AgreementStats):
        raise RatingsError(f"{name} needs the items (a ratings table), not their agreement statistics")
    r: Ratings = to_ratings(ratings, categories=categories)
    ext = extra_table(r.codes, r.categories, r.raters, [name])
    for note in ext.warnings():
        warnings.warn(note, AgreementWarning, stacklevel=3)
    values = ext.values()
    if name == "icc":
        return {o: values[o] for o in ICC_NAMES}
    return values[name]


def coefficient_intervals(codes: np.ndarray, categories: Sequence[Hashable], raters: Sequence[Hashable],
                          level: str, base: Sequence[str], extras: Sequence[str],
                          options: Any) -> dict[str, list[float | None]]:
    """Bootstrap intervals over the items of ``codes``: the coefficients ``base`` (of
    :data:`~._resample.COEFFICIENT_NAMES`) and the outputs of ``extras``, from the same resamples
    (``options``: :class:`~accord.stats.BootstrapOptions`)."""
    from ..stats import intervals
    from ..stats._units import check_unit_count
    from ._resample import COEFFICIENT_NAMES, item_statistics, jackknife_coefficients, resampled_coefficients

    check_unit_count(len(codes), "items", "an interval")
    table = item_statistics(codes, categories, raters, level)
    values = table.evaluator([COEFFICIENT_NAMES.index(n) for n in base])
    tables, evaluators = [table], [values]
    names = list(base)
    ext = extra_table(codes, categories, raters, extras) if extras else None
    if ext is not None:
        tables.append(ext.table)
        evaluators.append(ext.evaluator())
        names += ext.outputs
    rng = np.random.default_rng(options.seed)
    resampled = np.concatenate([r.T for r in resampled_coefficients(tables, options.n_resamples, rng, evaluators)])
    estimate = np.concatenate([ev(t.total())[0] for t, ev in zip(tables, evaluators)])

    def jackknife() -> np.ndarray:
        return np.concatenate([jackknife_coefficients(t, ev) for t, ev in zip(tables, evaluators)])

    lo, hi = intervals(resampled, estimate, options.confidence, options.method, jackknife)
    return {n: [None if a != a else float(a), None if b != b else float(b)] for n, a, b in zip(names, lo, hi)}
