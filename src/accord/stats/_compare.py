"""Comparing systems on the same documents: paired tests of the difference of every rate.

For two systems A and B scored against the same gold documents, the statistic of a measure's row is
``δ = rate(Σ_d B_d) - rate(Σ_d A_d)``, the sums running over the resampling units ``d``: documents, or the
sentences inside them (``resample``; :mod:`accord.stats._units`). Both tests keep the units paired:

- ``permutation`` (approximate randomization; Noreen 1989, Riezler & Maxwell 2005): each sample swaps
  the two systems' counts of each document with probability ½; ``p = (1 + #{|δ*| ≥ |δ|}) / (1 + S)``;
- ``bootstrap`` (paired bootstrap; Efron & Tibshirani 1993, Koehn 2004): each sample resamples the documents
  with replacement, the same documents for both systems; under the null the resampled differences are
  centred on δ: ``p = (1 + #{|δ* - δ| ≥ |δ|}) / (1 + S)``.

p-values are adjusted within each family of tests (``families``; by default one family per question: the
totals of every pair of systems, and each label's comparisons apart, so that adding labels never changes the
answer about the totals), by Holm's step-down method (Holm 1979):
``p_(i) ↦ max_{j ≤ i} min(1, (m - j + 1) p_(j))`` over the family's ``m`` p-values in increasing order, by
Bonferroni's ``min(1, m p)``, or not at all (``correction``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from .._limits import MAX_DRAWS
from ..errors import OptionError
from ..result._table import ALL, row_order
from ._bootstrap import CHUNK, check_seed
from ._units import UnitMatrix, check_unit_count, resampling_unit, unit_matrix

__all__ = ["CORRECTIONS", "FAMILIES", "TESTS", "Comparison", "ComparisonResult", "adjust", "bonferroni", "compare",
           "family_of", "holm"]

TESTS = ("permutation", "bootstrap")


@dataclass(frozen=True)
class Comparison:
    """One compared statistic: ``difference = b - a`` of ``rate`` in ``measure``'s ``label`` row (``None``: the
    total)."""

    a: str
    b: str
    measure: str
    label: str | None
    rate: str
    a_value: float | None
    b_value: float | None
    difference: float | None
    p_value: float | None
    p_adjusted: float | None
    test: str
    significant: bool
    family: str = "all"
    """The family of tests this one was corrected with (``--families``): ``MEASURE/RATE/ALL`` for the totals of
    every pair of systems, ``MEASURE/RATE/label:L`` for label ``L``'s, ``MEASURE/RATE/labels`` for every label
    together, ``all`` for one family of every comparison."""
    family_size: int = 0
    """How many comparisons with a p-value the family holds (the ``m`` of the correction)."""

    def mark(self, alpha: float) -> str:
        """``**`` for an adjusted p-value below ``alpha / 5``, ``*`` below ``alpha`` (significant), else empty."""
        if not self.significant or self.p_adjusted is None:
            return ""
        return "**" if self.p_adjusted < alpha / 5 else "*"


CORRECTIONS = ("holm", "bonferroni", "none")
FAMILIES = ("separate", "overall", "all")


def bonferroni(p_values: Sequence[float | None]) -> list[float | None]:
    """Bonferroni's adjustment ``min(1, m p)`` of the defined p-values (``None`` stays ``None``)."""
    m = sum(p is not None for p in p_values)
    return [None if p is None else min(1.0, m * p) for p in p_values]


def family_of(c: "Comparison", families: str) -> str:
    """The family of a comparison (see :attr:`Comparison.family`)."""
    if families == "all":
        return "all"
    if c.label is None:
        return f"{c.measure}/{c.rate}/ALL"
    return f"{c.measure}/{c.rate}/" + ("labels" if families == "overall" else f"label:{c.label}")


def adjust(comparisons: Sequence["Comparison"], correction: str, families: str, alpha: float) -> list["Comparison"]:
    """The comparisons with their family, adjusted p-value and significance: ``correction`` applied within each
    family (``families``: ``separate``, ``overall`` or ``all``; see :func:`compare`)."""
    named = [family_of(c, families) for c in comparisons]
    members: dict[str, list[int]] = {}
    for k, f in enumerate(named):
        members.setdefault(f, []).append(k)
    adjusted: list[float | None] = [None] * len(comparisons)
    sizes = [0] * len(comparisons)
    for ks in members.values():
        raw = [comparisons[k].p_value for k in ks]
        done = holm(raw) if correction == "holm" else bonferroni(raw) if correction == "bonferroni" else list(raw)
        m = sum(p is not None for p in raw)
        for k, p in zip(ks, done):
            adjusted[k], sizes[k] = p, m
    return [Comparison(**{**asdict(c), "p_adjusted": p, "significant": p is not None and p < alpha,
                          "family": f, "family_size": m})
            for c, p, f, m in zip(comparisons, adjusted, named, sizes)]


def holm(p_values: Sequence[float | None]) -> list[float | None]:
    """Holm's step-down adjustment of the defined p-values (``None`` stays ``None``)."""
    defined = [(p, k) for k, p in enumerate(p_values) if p is not None]
    out: list[float | None] = [None] * len(p_values)
    m, running = len(defined), 0.0
    for rank, (p, k) in enumerate(sorted(defined)):
        running = max(running, min(1.0, (m - rank) * p))
        out[k] = running
    return out


class ComparisonResult:
    """``accord compare``: each system's result and the comparisons between every two systems."""

    command = "compare"

    def __init__(self, systems: Mapping[str, Any], comparisons: list[Comparison], options: Mapping[str, Any],
                 inputs: Mapping[str, Any]):
        self.systems, self.comparisons = dict(systems), list(comparisons)
        self.options, self.inputs = dict(options), dict(inputs)
        first = next(iter(self.systems.values()))
        self.mode = first.mode
        self.documents = first.documents

    def to_dict(self) -> dict[str, Any]:
        from ..result import SCHEMA_VERSION

        return {"schema_version": SCHEMA_VERSION, "command": self.command, "mode": self.mode,
                "options": self.options, "inputs": self.inputs,
                "systems": {name: r.to_dict() for name, r in self.systems.items()},
                "comparisons": [asdict(c) for c in self.comparisons]}

    def to_json(self, indent: int | None = 2) -> str:
        from ..report.serialize import json_text

        return json_text(self.to_dict(), indent=indent)

    def to_csv(self) -> str:
        import io

        buf = io.StringIO()
        names = list(Comparison.__dataclass_fields__)
        from .._csv_cells import SpreadsheetDictWriter

        w = SpreadsheetDictWriter(buf, fieldnames=names, lineterminator="\n")   # no formula from data
        w.writeheader()
        w.writerows({k: "" if v is None else v for k, v in asdict(c).items()} for c in self.comparisons)
        return buf.getvalue()

    def __repr__(self) -> str:
        n = sum(c.significant for c in self.comparisons)
        return (f"<ComparisonResult {len(self.systems)} systems, {len(self.comparisons)} comparisons "
                f"({self.options['test']}), {n} significant>")


def compare(results: Mapping[str, Any], *, test: str = "permutation", samples: int = 10_000, seed: int | None = None,
            rates: Sequence[str] = ("f1",), alpha: float = 0.05, labels: bool = True, resample: str = "auto",
            correction: str = "holm", families: str = "separate") -> ComparisonResult:
    """Paired tests between every two systems: each measure's total and (``labels``) label rows, each rate.

    Parameters
    ----------
    results : mapping of system name to Result
        Results of one command and mode over the same documents (checked).
    test : {"permutation", "bootstrap"}
    samples : int
        Random swaps (permutation) or resamples (bootstrap).
    rates : sequence of str
        The rates compared (default F1).
    alpha : float
        The level at which an adjusted p-value is marked significant.
    resample : {"auto", "documents", "sentences"}
        The unit swapped or resampled (:mod:`accord.stats._units`: ``auto`` takes documents from 30 documents on,
        else sentences when the counts know them). A single unit is refused, fewer than 20 warned about.
    correction : {"holm", "bonferroni", "none"}
        The adjustment for several tests, applied within each family.
    families : {"separate", "overall", "all"}
        Which comparisons are corrected together. ``separate`` (default): one family per question, the totals of
        every pair of systems (for each measure and rate) one family, each label's comparisons another, so that
        comparing labels never changes the answer about the totals; ``overall``: the totals one family, all labels
        together another; ``all``: every comparison of the run one family.

    Raises
    ------
    StatisticsError
        A single document (or sentence) to swap or resample.
    """
    if test not in TESTS:
        raise OptionError(f"--test must be one of {', '.join(TESTS)}; got {test!r}")
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or not 1 <= samples <= MAX_DRAWS:
        raise OptionError(f"--samples must be a whole number from 1 to {MAX_DRAWS:,}; got {samples!r}")
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float, np.number)) or not 0 < alpha < 1:
        raise OptionError(f"--alpha must be a number strictly between 0 and 1; got {alpha!r}")
    if isinstance(rates, str) or not list(rates):
        raise OptionError(f"--rates must name one or more rates (a list such as ['f1']); got {rates!r}")
    if correction not in CORRECTIONS:
        raise OptionError(f"--correction must be one of {', '.join(CORRECTIONS)}; got {correction!r}")
    if families not in FAMILIES:
        raise OptionError(f"--families must be one of {', '.join(FAMILIES)}; got {families!r}")
    check_seed(seed)
    names = list(results)
    if len(names) < 2:
        raise OptionError("compare needs at least two systems")
    first = results[names[0]]
    for name in names[1:]:
        r = results[name]
        if (r.command, r.mode, list(r.measures), _scoring(r.options)) != (
                first.command, first.mode, list(first.measures), _scoring(first.options)):
            raise OptionError(f"system {name!r} was not scored like {names[0]!r} (command, mode, measures, options "
                              "must be the same)")
        if set(r.documents) != set(first.documents):
            extra = sorted(set(r.documents) ^ set(first.documents))
            raise OptionError(f"systems {names[0]!r} and {name!r} do not cover the same documents (e.g. {extra[0]!r}); "
                              "a paired test needs every system on every document")
    documents = first.documents
    rows = {m: tuple(sorted({r for name in names for r in results[name].measures[m].table.rows}, key=row_order))
            for m in first.measures}
    unknown = [r for r in rates if any(r not in m.kind.rate_names for m in first.measures.values())]
    if unknown:
        raise OptionError(f"--rates: {unknown[0]!r} is not a rate of every measure; they have "
                          f"{', '.join(next(iter(first.measures.values())).kind.rate_names)}")
    unit = resampling_unit([m.table for name in names for m in results[name].measures.values()], resample)
    values = {name: unit_matrix([m.table for m in results[name].measures.values()], documents, unit,
                                [rows[m] for m in results[name].measures]) for name in names}
    n_units = values[names[0]].n
    check_unit_count(n_units, unit, "a paired test")
    rng = np.random.default_rng(seed)
    raw: list[Comparison] = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            raw.extend(_pair(first, rows, a, b, values[a], values[b], test, samples, rng, rates, labels))
    comparisons = adjust(raw, correction, families, alpha)
    options = {"test": test, "samples": samples, "seed": seed, "rates": list(rates), "alpha": alpha,
               "correction": correction, "families": families, "resample": unit, "resampled_units": n_units}
    inputs = {"gold": first.inputs.get("gold", {"sources": [], "documents": len(documents)})}
    for name in names:
        inputs[name] = results[name].inputs.get("pred", {"sources": [name], "documents": len(documents)})
    return ComparisonResult(results, comparisons, options, inputs)


def _pair(first: Any, all_rows: Mapping[str, tuple], a: str, b: str, va: UnitMatrix, vb: UnitMatrix, test: str,
          samples: int, rng: np.random.Generator, rates: Sequence[str], labels: bool) -> list[Comparison]:
    names = list(first.measures)
    shapes = {n: (len(all_rows[n]), len(first.measures[n].table.fields)) for n in names}
    n_units = va.n
    tot_a, tot_b = va.total(), vb.total()
    sims_a = np.empty((samples, va.width))
    sims_b = np.empty_like(sims_a)
    delta = vb - va
    for start in range(0, samples, CHUNK):
        k = min(CHUNK, samples - start)
        if test == "permutation":
            swap = rng.integers(0, 2, (k, n_units)).astype(np.float64)
            moved = delta.weighted_sums(swap)
            sims_a[start:start + k] = tot_a + moved
            sims_b[start:start + k] = tot_b - moved
        else:
            draws = rng.integers(0, n_units, (k, n_units)) if n_units else np.zeros((k, 0), dtype=np.int64)
            draws += (np.arange(k) * n_units)[:, None]
            weights = np.bincount(draws.ravel(), minlength=k * n_units).reshape(k, n_units).astype(np.float64)
            sims_a[start:start + k] = va.weighted_sums(weights)
            sims_b[start:start + k] = vb.weighted_sums(weights)
    out = []
    offset = 0
    for name in names:
        m = first.measures[name]
        r, f = shapes[name]
        width = r * f
        sl = slice(offset, offset + width)
        offset += width
        ra, rb = m.kind.rates(tot_a[sl].reshape(r, f)), m.kind.rates(tot_b[sl].reshape(r, f))
        sa, sb = m.kind.rates(sims_a[:, sl].reshape(-1, r, f)), m.kind.rates(sims_b[:, sl].reshape(-1, r, f))
        table_rows = all_rows[name]
        rows = [k for k, row in enumerate(table_rows) if row == ALL or (labels and row[0] == "label")]
        for rate in rates:
            x, y = ra[rate][rows], rb[rate][rows]
            diff = y - x
            null = sb[rate][:, rows] - sa[rate][:, rows]          # (samples, rows)
            extreme = np.abs(null) if test == "permutation" else np.abs(null - diff)
            counts = np.count_nonzero(extreme >= np.abs(diff) - 1e-12, axis=0)
            undefined = np.isnan(diff) | np.isnan(null).any(axis=0)
            p_values = np.where(undefined, np.nan, (1 + counts) / (1 + samples))
            for j, k in enumerate(rows):
                row = table_rows[k]
                out.append(Comparison(a, b, name, None if row == ALL else row[1], rate, _num(float(x[j])),
                                      _num(float(y[j])), _num(float(diff[j])), _num(float(p_values[j])), None, test,
                                      False))
    return out


_STATISTICS = frozenset({"bootstrap", "seed", "confidence", "ci_method", "confidence_data", "resample",
                         "resampled_units"})


def _scoring(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options that decide the counts (a result's bootstrap options do not)."""
    return {k: v for k, v in options.items() if k not in _STATISTICS}


def _num(x: float) -> float | None:
    return None if x != x else x
