"""Comparing systems on the same documents: paired tests of the difference of every rate.

For two systems A and B scored against the same gold documents, the statistic of a measure's row is
``δ = rate(Σ_d B_d) - rate(Σ_d A_d)``. Both tests keep the documents paired:

- ``permutation`` (approximate randomization; Noreen 1989, Riezler & Maxwell 2005): each sample swaps
  the two systems' counts of each document with probability ½; ``p = (1 + #{|δ*| ≥ |δ|}) / (1 + S)``;
- ``bootstrap`` (paired bootstrap; Efron & Tibshirani 1993, Koehn 2004): each sample resamples the documents
  with replacement, the same documents for both systems; under the null the resampled differences are
  centred on δ: ``p = (1 + #{|δ* - δ| ≥ |δ|}) / (1 + S)``.

p-values of all comparisons of one run are adjusted by Holm's step-down method (Holm 1979):
``p_(i) ↦ max_{j ≤ i} min(1, (m - j + 1) p_(j))``.
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

__all__ = ["TESTS", "Comparison", "ComparisonResult", "compare", "holm"]

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

    def mark(self, alpha: float) -> str:
        """``**`` for an adjusted p-value below ``alpha / 5``, ``*`` below ``alpha`` (significant), else empty."""
        if not self.significant or self.p_adjusted is None:
            return ""
        return "**" if self.p_adjusted < alpha / 5 else "*"


def holm(p_values: Sequence[float | None]) -> list[float | None]:
    """Holm's step-down adjustment of the defined p-values (``None`` stays ``None``)."""
    defined = [(p, k) for k, p in enumerate(p_values) if p is not None]
    out: list[float | None] = [None] * len(p_values)
    m, running = len(defined), 0.0
    for rank, (p, k) in enumerate(sorted(defined)):
        running = max(running, min(1.0, (m - rank) * p))
        out[k] = running
    return out


def _aligned_values(result: Any, documents: tuple[str, ...], rows: Mapping[str, tuple]) -> dict[str, np.ndarray]:
    """Each measure's counts in the given document order and rows (zeros for a row the system never counts: a
    label only another system predicted)."""
    out = {}
    for name, m in result.measures.items():
        t = m.table
        where = {d: k for k, d in enumerate(t.documents)}
        values = np.zeros((len(documents), len(rows[name]), len(t.fields)))
        values[:, [rows[name].index(r) for r in t.rows]] = t.values[[where[d] for d in documents]]
        out[name] = values
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
            rates: Sequence[str] = ("f1",), alpha: float = 0.05, labels: bool = True) -> ComparisonResult:
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
    """
    if test not in TESTS:
        raise OptionError(f"--test must be one of {', '.join(TESTS)}; got {test!r}")
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or not 1 <= samples <= MAX_DRAWS:
        raise OptionError(f"--samples must be a whole number from 1 to {MAX_DRAWS:,}; got {samples!r}")
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float, np.number)) or not 0 < alpha < 1:
        raise OptionError(f"--alpha must be a number strictly between 0 and 1; got {alpha!r}")
    if isinstance(rates, str) or not list(rates):
        raise OptionError(f"--rates must name one or more rates (a list such as ['f1']); got {rates!r}")
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
    values = {name: _aligned_values(results[name], documents, rows) for name in names}
    unknown = [r for r in rates if any(r not in m.kind.rate_names for m in first.measures.values())]
    if unknown:
        raise OptionError(f"--rates: {unknown[0]!r} is not a rate of every measure; they have "
                          f"{', '.join(next(iter(first.measures.values())).kind.rate_names)}")
    rng = np.random.default_rng(seed)
    raw: list[Comparison] = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            raw.extend(_pair(first, rows, a, b, values[a], values[b], test, samples, rng, rates, labels))
    adjusted = holm([c.p_value for c in raw])
    comparisons = [Comparison(**{**asdict(c), "p_adjusted": p, "significant": p is not None and p < alpha})
                   for c, p in zip(raw, adjusted)]
    options = {"test": test, "samples": samples, "seed": seed, "rates": list(rates), "alpha": alpha,
               "correction": "holm"}
    inputs = {"gold": first.inputs.get("gold", {"sources": [], "documents": len(documents)})}
    for name in names:
        inputs[name] = results[name].inputs.get("pred", {"sources": [name], "documents": len(documents)})
    return ComparisonResult(results, comparisons, options, inputs)


def _pair(first: Any, all_rows: Mapping[str, tuple], a: str, b: str, va: dict[str, np.ndarray], vb: dict[str, np.ndarray], test: str,
          samples: int, rng: np.random.Generator, rates: Sequence[str], labels: bool) -> list[Comparison]:
    names = list(va)
    shapes = {n: va[n].shape[1:] for n in names}
    flat_a = np.concatenate([va[n].reshape(len(va[n]), -1) for n in names], axis=1)
    flat_b = np.concatenate([vb[n].reshape(len(vb[n]), -1) for n in names], axis=1)
    n_docs = len(flat_a)
    tot_a, tot_b = flat_a.sum(axis=0), flat_b.sum(axis=0)
    sims_a = np.empty((samples, flat_a.shape[1]))
    sims_b = np.empty_like(sims_a)
    delta = flat_b - flat_a
    for start in range(0, samples, CHUNK):
        k = min(CHUNK, samples - start)
        if test == "permutation":
            swap = rng.integers(0, 2, (k, n_docs)).astype(np.float64)
            moved = swap @ delta
            sims_a[start:start + k] = tot_a + moved
            sims_b[start:start + k] = tot_b - moved
        else:
            draws = rng.integers(0, n_docs, (k, n_docs)) if n_docs else np.zeros((k, 0), dtype=np.int64)
            draws += (np.arange(k) * n_docs)[:, None]
            weights = np.bincount(draws.ravel(), minlength=k * n_docs).reshape(k, n_docs).astype(np.float64)
            sims_a[start:start + k] = weights @ flat_a
            sims_b[start:start + k] = weights @ flat_b
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


_STATISTICS = frozenset({"bootstrap", "seed", "confidence", "ci_method", "confidence_data"})


def _scoring(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options that decide the counts (a result's bootstrap options do not)."""
    return {k: v for k, v in options.items() if k not in _STATISTICS}


def _num(x: float) -> float | None:
    return None if x != x else x
