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
from statistics import NormalDist
from typing import TYPE_CHECKING, Any

import numpy as np

from .._support.arrays import Floats
from .._support.limits import MAX_DRAWS
from ..errors import OptionError, StatisticsError
from ..result._table import ALL, Row, row_order
from ._aso import almost_stochastic_order
from ._bootstrap import CHUNK, check_seed
from ._units import UnitMatrix, check_unit_count, resampling_unit, unit_matrix

if TYPE_CHECKING:
    from ..result._result import Result
    from ._leaderboard import Leaderboard

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
    standard_error: float | None = None
    """The standard deviation of the difference over the test's samples (the permutation's null distribution, or
    the paired bootstrap's resampled differences)."""
    detectable: float | None = None
    """The smallest true difference the test detects with 80 % power at the level its family's correction leaves
    it, ``(z_{1-α/(2m)} + z_{0.8}) · standard_error`` (:func:`detectable_at`; ``m`` 1 without a correction): a
    difference that is not significant may still be one below this size. ``None`` when the test has no spread or
    too few samples to reach the level."""
    runs: tuple[int, int] = (1, 1)
    """How many runs of ``a`` and of ``b`` the comparison averages."""
    aso_epsilon: float | None = None
    """With several runs of both systems, the totals only: ε_min of Almost Stochastic Order of ``b`` over ``a``
    (Dror et al. 2019, as ``deepsig.aso(b_runs, a_runs)``): below 0.5, ``b``'s runs are almost stochastically
    larger; 0: every run of ``b`` above every run of ``a``."""

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


def family_of(c: Comparison, families: str) -> str:
    """The family of a comparison (see :attr:`Comparison.family`)."""
    if families == "all":
        return "all"
    if c.label is None:
        return f"{c.measure}/{c.rate}/ALL"
    return f"{c.measure}/{c.rate}/" + ("labels" if families == "overall" else f"label:{c.label}")


def adjust(comparisons: Sequence[Comparison], correction: str, families: str, alpha: float,
           samples: int | None = None) -> list[Comparison]:
    """The comparisons with their family, adjusted p-value and significance: ``correction`` applied within each
    family (``families``: ``separate``, ``overall`` or ``all``; see :func:`compare`), and the minimum detectable
    difference at the level the correction leaves each test (:func:`detectable_at`)."""
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
                          "family": f, "family_size": m,
                          "detectable": detectable_at(c.standard_error, alpha, 1 if correction == "none" else m,
                                                      samples)})
            for c, p, f, m in zip(comparisons, adjusted, named, sizes)]


def detectable_at(standard_error: float | None, alpha: float, family_size: int, samples: int | None,
                  power: float = 0.8) -> float | None:
    """The minimum detectable difference of one test of a family: ``(z_{1-α/(2m)} + z_{power}) · SE``, the level
    Bonferroni's bound leaves each of the family's ``m`` tests (Holm's first step; a bound for its later ones).

    ``None`` where nothing could be detected: no spread (``SE`` 0 or undefined), or too few samples for any
    p-value to reach the level (the smallest is ``1 / (1 + samples)``).
    """
    if standard_error is None or not standard_error > 0:
        return None
    level = alpha / max(1, family_size)
    if samples is not None and 1 / (1 + samples) >= level:
        return None
    normal = NormalDist()
    return (-normal.inv_cdf(level / 2) + normal.inv_cdf(power)) * standard_error


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

    def __init__(self, systems: Mapping[str, Result], comparisons: list[Comparison], options: Mapping[str, Any],
                 inputs: Mapping[str, Any]):
        self.systems, self.comparisons = dict(systems), list(comparisons)
        self.options, self.inputs = dict(options), dict(inputs)
        self.runs: dict[str, list[Result]] = {name: [r] for name, r in self.systems.items()}
        """Each system's runs (several results with different seeds, or its one result)."""
        self.headline: dict[str, dict[str, Any]] = {}
        """Each system's headline figure (the main measure's total, first rate): ``value`` (the mean over its runs),
        ``runs``, ``run_values``, ``sd`` and, with :meth:`bootstrap`, ``interval``."""
        first = next(iter(self.systems.values()))
        self.mode = first.mode
        self.documents = first.documents

    def to_dict(self, markers: Any = None) -> dict[str, Any]:
        """The JSON output; with ``markers`` (:class:`~accord.result._json_tables.TableMarkers`), each system's
        per-document tables as markers (:meth:`accord.result.Result.marked_dict`)."""
        from .._support.surface import generator
        from ..result._contract import SCHEMA_VERSION

        return {"schema_version": SCHEMA_VERSION, "generator": generator(), "command": self.command,
                "mode": self.mode,
                "options": self.options, "inputs": self.inputs,
                "systems": {name: r.marked_dict(markers) if markers is not None and hasattr(r, "marked_dict")
                            else r.to_dict() for name, r in self.systems.items()},
                "headline": self.headline, "leaderboard": self.leaderboard().to_dict(),
                "comparisons": [asdict(c) for c in self.comparisons]}

    def leaderboard(self) -> Leaderboard:
        """The systems ranked by their headline figure, each with its interval, runs, standard deviation and the
        systems it beats significantly on the headline question (:func:`accord.stats._leaderboard.leaderboard`)."""
        from ._leaderboard import leaderboard

        return leaderboard(self.headline, self.comparisons)

    def bootstrap(self, n_resamples: int, seed: int | None = None, confidence: float = 0.95,
                  method: str = "percentile") -> ComparisonResult:
        """Add each system's interval to its headline figure (and every run's intervals to its result), by
        resampling the comparison's units ``n_resamples`` times with the same draws for every system; returns the
        comparison itself.

        A system of one run gets its result's interval (:meth:`accord.result.Result.bootstrap`, ``percentile`` or
        ``bca``). A system of several runs gets the percentile interval of the mean over runs in a two-level
        bootstrap: the units resampled (the same draws for every run), then the runs drawn with replacement, so
        that the interval holds the variation between runs as well as between units.
        """
        from ._bootstrap import BootstrapOptions, intervals, resampled_sums

        BootstrapOptions(n_resamples, seed, confidence, method)      # the values checked, before any work
        several = any(len(rs) > 1 for rs in self.runs.values())
        if several and method != "percentile":
            raise OptionError("--ci-method bca applies to systems of one run; several runs per system take the "
                              "percentile interval of the two-level bootstrap")
        unit = self.options.get("resample", "documents")
        for name, results in self.runs.items():
            for r in results:
                r.bootstrap(n_resamples, seed=seed, confidence=confidence, method=method, resample=unit)
            head = self.headline[name]
            if len(results) == 1:
                ci = (results[0].ci or {}).get(head["measure"], {}).get("rows", {}).get(ALL, {}).get(head["rate"])
                head["interval"] = None if ci is None else list(ci)
                continue
            rng = np.random.default_rng(seed)
            stats = []
            for r in results:
                m = r.measures[head["measure"]]
                units = unit_matrix([m.table], self.documents, unit)
                sums = resampled_sums(units, n_resamples, np.random.default_rng(seed))   # the same units per run
                resampled = m.kind.rates(sums.reshape(n_resamples, len(m.table.rows), len(m.table.fields)))
                at = m.table.rows.index(ALL) if ALL in m.table.rows else None
                stats.append(np.full(n_resamples, np.nan) if at is None else resampled[head["rate"]][:, at])
            per_run = np.array(stats)                                  # (runs, resamples)
            picks = rng.integers(0, len(results), (n_resamples, len(results)))
            pooled = per_run[picks, np.arange(n_resamples)[:, None]].mean(axis=1)
            lo, hi = intervals(pooled[None], np.array([head["value"] if head["value"] is not None else np.nan]),
                               confidence, "percentile")
            head["interval"] = [_num(float(lo[0])), _num(float(hi[0]))]
        self.options.update(bootstrap=int(n_resamples), confidence=confidence, ci_method=method)
        return self

    def to_json(self, indent: int | None = 2) -> str:
        """``json_text`` of :meth:`to_dict`, the systems' per-document tables written from their counts."""
        from ..result._json_text import json_text

        if indent is None or indent <= 0:
            return json_text(self.to_dict(), indent=indent)
        from ..result._json_tables import MarkerLost, TableMarkers, json_text_tables

        markers = TableMarkers()
        try:
            return json_text_tables(self.to_dict(markers), markers, indent)
        except MarkerLost:
            return json_text(self.to_dict(), indent=indent)

    def to_csv(self) -> str:
        import io

        buf = io.StringIO()
        from .._support.csv_cells import SpreadsheetDictWriter

        # one row per system (the leaderboard), then one per comparison; ``row`` says which
        ranked = ["rank", "key", "system", "value", "sd", "interval_low", "interval_high", "beats"]
        names = ["row", *ranked, *(k for k in Comparison.__dataclass_fields__ if k not in ranked)]
        w = SpreadsheetDictWriter(buf, fieldnames=names, lineterminator="\n")   # no formula from data
        w.writeheader()
        board = self.leaderboard()
        for s in board:
            low, high = s.interval if s.interval is not None else (None, None)
            row = {"row": "system", "rank": s.rank, "key": s.key, "system": s.system, "value": s.value, "sd": s.sd,
                   "interval_low": low, "interval_high": high, "beats": " ".join(s.beats_keys),
                   "measure": board.measure, "rate": board.rate, "runs": s.runs}
            w.writerow({k: "" if v is None else v for k, v in row.items()})
        w.writerows({"row": "comparison", **{k: "" if v is None else "/".join(map(str, v)) if isinstance(v, tuple)
                                             else v for k, v in asdict(c).items()}}
                    for c in self.comparisons)
        return buf.getvalue()

    def display(self) -> Any:
        """What ``print(comparison)`` and a notebook show: the leaderboard (each system's headline figure with its
        interval after :meth:`bootstrap`) and every comparison, the totals first, with its adjusted p-value."""
        from ..result._display import Display, Table, figure

        alpha = float(self.options.get("alpha", 0.05))
        board = self.leaderboard()
        several = any(s.runs > 1 for s in board.standings)
        standings = Table(f"leaderboard ({board.measure}, {board.rate})",
                          ["rank", "system", board.rate, *(["runs", "sd"] if several else []), "beats"])
        for s in board.standings:
            standings.rows.append(["—" if s.rank is None else str(s.rank), s.system, figure(s.value, s.interval),
                                   *([str(s.runs), figure(s.sd)] if several else []),
                                   ", ".join(s.beats) or "—"])
        tests = Table(f"comparisons (b minus a; p adjusted: {self.options.get('correction', 'holm')}; "
                      f"* below {alpha:g}, ** below {alpha / 5:g})",
                      ["a", "b", "measure", "row", "rate", "a value", "b value", "difference", "p", ""])
        for c in sorted(self.comparisons, key=lambda c: c.label is not None):
            tests.rows.append([c.a, c.b, c.measure, "total" if c.label is None else str(c.label), c.rate,
                               figure(c.a_value), figure(c.b_value), figure(c.difference), figure(c.p_adjusted),
                               c.mark(alpha)])
        n = sum(c.significant for c in self.comparisons)
        title = (f"accord compare ({self.mode}): {len(self.systems)} systems, {len(self.comparisons)} comparisons "
                 f"({self.options.get('test', 'permutation')}), {n} significant")
        return Display(title, [], [standings, tests])

    def __str__(self) -> str:
        from ..result._display import as_text

        return as_text(self.display())

    def _repr_html_(self) -> str:
        from ..result._display import as_html

        return as_html(self.display())

    def __repr__(self) -> str:
        n = sum(c.significant for c in self.comparisons)
        return (f"<ComparisonResult {len(self.systems)} systems, {len(self.comparisons)} comparisons "
                f"({self.options['test']}), {n} significant>")


def compare(results: Mapping[str, Result | list[Result] | tuple[Result, ...]], *, test: str = "permutation",
            samples: int = 10_000, seed: int | None = None, rates: Sequence[str] = ("f1",), alpha: float = 0.05,
            labels: bool = True, resample: str = "auto", correction: str = "holm", families: str = "separate"
            ) -> ComparisonResult:
    """Paired tests between every two systems: each measure's total and (``labels``) label rows, each rate.

    Parameters
    ----------
    results : mapping of system name to Result, or to a list of Results
        Results of one command and mode over the same documents (checked). A list holds a system's runs (the same
        system trained with different seeds): its headline is the mean over the runs with their standard
        deviation, and its comparisons are paired bootstraps over the units and the runs (each resample redraws
        the units, the same for every run, and each system's runs with replacement), whatever ``test`` says;
        between two systems of several runs each, the totals also get Almost Stochastic Order (``aso_epsilon``).
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
    runs = {name: _runs_of(name, results[name]) for name in names}
    first = runs[names[0]][0]
    reference = f"{names[0]!r}" + (" (its run 1)" if len(runs[names[0]]) > 1 else "")
    placed = {name: _placement(r.options) for name in names for r in runs[name] if "align" in r.options}
    ways = list(dict.fromkeys(placed.values()))
    if len(ways) > 1:     # beside systems of offsets, generated ones aligned alike
        x, y = (next(n for n, p in placed.items() if p == way) for way in ways[:2])
        raise OptionError(f"system {y!r} was not scored like {x!r}: their strings were aligned in different ways "
                          f"({ways[1]} against {ways[0]}); align every generated system alike")
    for name in names:
        for k, r in enumerate(runs[name]):
            what = f"system {name!r}" + (f" (run {k + 1})" if len(runs[name]) > 1 else "")
            if (r.command, r.mode, list(r.measures), _scoring(r.options, first.options)) != (
                    first.command, first.mode, list(first.measures), _scoring(first.options, r.options)):
                raise OptionError(f"{what} was not scored like {reference} (command, mode, measures, options must "
                                  "be the same)")
            if set(r.documents) != set(first.documents):
                extra = sorted(set(r.documents) ^ set(first.documents))
                raise OptionError(f"{what} and {reference} do not cover the same documents (e.g. {extra[0]!r}); a "
                                  "paired test needs every system on every document")
    documents = first.documents
    everything = [r for name in names for r in runs[name]]
    rows = {m: tuple(sorted({r for res in everything for r in res.measures[m].table.rows}, key=row_order))
            for m in first.measures}
    unknown = [r for r in rates if any(r not in m.kind.rate_names for m in first.measures.values())]
    if unknown:
        raise OptionError(f"--rates: {unknown[0]!r} is not a rate of every measure; they have "
                          f"{', '.join(next(iter(first.measures.values())).kind.rate_names)}")
    unit = resampling_unit([m.table for res in everything for m in res.measures.values()], resample)
    values = {name: [unit_matrix([m.table for m in res.measures.values()], documents, unit,
                                 [rows[m] for m in res.measures]) for res in runs[name]] for name in names}
    first_units = values[names[0]][0]
    n_units = first_units.n
    for name in names:
        for k, u in enumerate(values[name]):
            same = u.n == n_units and (u.sizes is None or first_units.sizes is None
                                       or np.array_equal(u.sizes, first_units.sizes))
            if not same:
                what = f"system {name!r}" + (f" (run {k + 1})" if len(values[name]) > 1 else "")
                raise StatisticsError(f"{what} is cut into other {unit} than {names[0]!r} ({u.n} against {n_units}); "
                                      "paired tests need the same units for every system: resample documents "
                                      "(--resample documents)")
    check_unit_count(n_units, unit, "a paired test")
    rng = np.random.default_rng(seed)
    raw: list[Comparison] = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            raw.extend(_pair(first, rows, a, b, values[a], values[b], test, samples, rng, rates, labels))
    comparisons = adjust(raw, correction, families, alpha, samples)
    options = {"test": test, "samples": samples, "seed": seed, "rates": list(rates), "alpha": alpha,
               "correction": correction, "families": families, "resample": unit, "resampled_units": n_units}
    inputs = {"gold": first.inputs.get("gold", {"sources": [], "documents": len(documents)})}
    for name in names:
        sources = [s for res in runs[name] for s in res.inputs.get("pred", {}).get("sources", [])] or [name]
        inputs[name] = {"sources": sources, "documents": len(documents)}
        if len(runs[name]) > 1:
            inputs[name]["runs"] = len(runs[name])
    out = ComparisonResult({name: rs[0] for name, rs in runs.items()}, comparisons, options, inputs)
    out.runs = runs
    out.headline = _headline(runs, values, rows, rates[0], unit, n_units)
    return out


def _runs_of(name: str, given: Result | list[Result] | tuple[Result, ...]) -> list[Result]:
    """A system's runs: one result, or a list of results (runs with different seeds) of at least one."""
    if isinstance(given, (list, tuple)):
        if not given:
            raise OptionError(f"system {name!r} has no run")
        return list(given)
    return [given]


def _headline(runs: Mapping[str, list[Result]], values: Mapping[str, list[UnitMatrix]],
              rows: Mapping[str, tuple[Row, ...]], rate: str, unit: str, n_units: int) -> dict[str, dict[str, Any]]:
    """Each system's headline figure: the main measure's total ``rate``, the mean over its runs with their
    standard deviation (``ddof=1``) and the value of each run."""
    out: dict[str, dict[str, Any]] = {}
    for name, results in runs.items():
        measure = next(iter(results[0].measures))
        m = results[0].measures[measure]
        r, f = len(rows[measure]), len(m.table.fields)
        at = rows[measure].index(ALL) if ALL in rows[measure] else None
        per_run = []
        for u in values[name]:
            if at is None:
                per_run.append(float("nan"))
                continue
            total = u.total()[:r * f].reshape(r, f)
            per_run.append(float(m.kind.rates(total)[rate][at]))
        arr = np.array(per_run)
        out[name] = {"measure": measure, "rate": rate, "value": _num(float(arr.mean())),
                     "runs": len(per_run), "run_values": [_num(x) for x in per_run],
                     "sd": _num(float(arr.std(ddof=1))) if len(per_run) > 1 else None,
                     "interval": None, "resample": unit, "resampled_units": n_units}
    return out


def _pair(first: Result, all_rows: Mapping[str, tuple[Row, ...]], a: str, b: str, runs_a: Sequence[UnitMatrix],
          runs_b: Sequence[UnitMatrix], test: str, samples: int, rng: np.random.Generator, rates: Sequence[str],
          labels: bool) -> list[Comparison]:
    """The comparisons of systems ``a`` and ``b`` (each one run, or several: see :func:`compare`)."""
    several = len(runs_a) > 1 or len(runs_b) > 1
    shares: list[Floats] = []
    if several:
        sims_a, sims_b, shares = _run_resamples(runs_a, runs_b, samples, rng)
    else:
        sims_a, sims_b = _one_run_samples(runs_a[0], runs_b[0], test, samples, rng)
    used_test = "bootstrap" if several else test
    out = []
    offset = 0
    for name in first.measures:
        m = first.measures[name]
        r, f = len(all_rows[name]), len(m.table.fields)
        width = r * f
        sl = slice(offset, offset + width)
        offset += width
        # the rate of each run on the data, then the mean over runs
        ra = [m.kind.rates(u.total()[sl].reshape(r, f)) for u in runs_a]
        rb = [m.kind.rates(u.total()[sl].reshape(r, f)) for u in runs_b]
        sa = [m.kind.rates(x[:, sl].reshape(-1, r, f)) for x in sims_a]
        sb = [m.kind.rates(x[:, sl].reshape(-1, r, f)) for x in sims_b]
        table_rows = all_rows[name]
        rows = [k for k, row in enumerate(table_rows) if row == ALL or (labels and row[0] == "label")]
        for rate in rates:
            x = np.mean([v[rate][rows] for v in ra], axis=0)
            y = np.mean([v[rate][rows] for v in rb], axis=0)
            diff = y - x
            if several:    # the resampled means over the runs drawn (see _run_resamples)
                null = _mean_of_drawn(sb, rate, rows, shares[1]) - _mean_of_drawn(sa, rate, rows, shares[0])
            else:
                null = sb[0][rate][:, rows] - sa[0][rate][:, rows]          # (samples, rows)
            extreme = np.abs(null) if used_test == "permutation" else np.abs(null - diff)
            counts = np.count_nonzero(extreme >= np.abs(diff) - 1e-12, axis=0)
            undefined = np.isnan(diff) | np.isnan(null).any(axis=0)
            p_values = np.where(undefined, np.nan, (1 + counts) / (1 + samples))
            with np.errstate(invalid="ignore"):
                spread = np.where(undefined, np.nan, np.std(null, axis=0, ddof=1) if samples > 1 else np.nan)
            for j, k in enumerate(rows):
                row = table_rows[k]
                se = _num(float(spread[j]))
                aso = None
                if row == ALL and len(runs_a) > 1 and len(runs_b) > 1:
                    aso = almost_stochastic_order([v[rate][k] for v in rb], [v[rate][k] for v in ra],
                                                  seed=int(rng.integers(0, 2 ** 32)))
                out.append(Comparison(a, b, name, None if row == ALL else row[1], rate, _num(float(x[j])),
                                      _num(float(y[j])), _num(float(diff[j])), _num(float(p_values[j])), None,
                                      used_test, False, standard_error=se,
                                      runs=(len(runs_a), len(runs_b)), aso_epsilon=aso))
    return out


def _one_run_samples(va: UnitMatrix, vb: UnitMatrix, test: str, samples: int,
                     rng: np.random.Generator) -> tuple[list[Floats], list[Floats]]:
    """The totals of both systems in each sample: units swapped between them (permutation) or resampled alike
    (bootstrap)."""
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
            weights = _weights(rng, k, n_units)
            sims_a[start:start + k] = va.weighted_sums(weights)
            sims_b[start:start + k] = vb.weighted_sums(weights)
    return [sims_a], [sims_b]


def _weights(rng: np.random.Generator, k: int, n_units: int) -> Floats:
    """``(k, n_units)``: how many times each unit is drawn in each of ``k`` bootstrap resamples."""
    draws = rng.integers(0, n_units, (k, n_units)) if n_units else np.zeros((k, 0), dtype=np.int64)
    draws += (np.arange(k) * n_units)[:, None]
    return np.bincount(draws.ravel(), minlength=k * n_units).reshape(k, n_units).astype(np.float64)


def _run_resamples(runs_a: Sequence[UnitMatrix], runs_b: Sequence[UnitMatrix], samples: int,
                   rng: np.random.Generator) -> tuple[list[Floats], list[Floats], list[Floats]]:
    """The paired bootstrap over units and runs: every run of both systems resampled with the same units; in
    each resample each system's runs drawn with replacement. Returns the runs' resampled totals (``a``'s, then
    ``b``'s) and each side's ``(samples, runs)`` shares of its runs in each resample."""
    n_units = runs_a[0].n
    everyone = (*runs_a, *runs_b)
    sims = [np.empty((samples, u.width)) for u in everyone]
    for start in range(0, samples, CHUNK):
        k = min(CHUNK, samples - start)
        weights = _weights(rng, k, n_units)
        for out, u in zip(sims, everyone):
            out[start:start + k] = u.weighted_sums(weights)
    shares = []
    for runs in (runs_a, runs_b):
        picks = rng.integers(0, len(runs), (samples, len(runs)))
        shares.append(np.stack([(picks == j).sum(axis=1) for j in range(len(runs))], axis=1) / len(runs))
    return sims[:len(runs_a)], sims[len(runs_a):], shares


def _mean_of_drawn(rates: list[dict[str, Floats]], rate: str, rows: list[int], share: Floats) -> Floats:
    """Each resample's mean of the rate over the runs it drew: ``Σ_j share_j * rate_j`` (``(samples, rows)``)."""
    total = np.zeros_like(rates[0][rate][:, rows])
    for j, values in enumerate(rates):
        total += share[:, j, None] * values[rate][:, rows]
    return total


_STATISTICS = frozenset({"bootstrap", "seed", "confidence", "ci_method", "confidence_data", "resample",
                         "resampled_units"})


def _placement(options: Mapping[str, Any]) -> str:
    """How a system's generated strings were placed: ``exact``, ``fuzzy at 0.9`` or ``none``."""
    threshold = (options.get("alignment") or {}).get("threshold")
    return str(options.get("align")) + ("" if threshold is None else f" at {threshold}")


def _scoring(options: Mapping[str, Any], other: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The options that decide the counts (a result's bootstrap options do not, nor what a system's generated strings
    gave when aligned: ``alignment``, its own outcome; the way they are aligned, ``align`` and the fuzzy threshold,
    does). Against ``other``, a system of offsets (no ``align``), strings placed on the text (``align`` exact or
    fuzzy) are spans scored as its are: the way they were placed is the system's own reading."""
    out = {k: v for k, v in options.items() if k not in _STATISTICS and k != "alignment"}
    threshold = (options.get("alignment") or {}).get("threshold")
    if threshold is not None:
        out["align_threshold"] = threshold
    if other is not None and "align" not in other and out.get("align") in ("exact", "fuzzy"):
        out.pop("align")
        out.pop("align_threshold", None)
    return out


def _num(x: float) -> float | None:
    return None if x != x else x
