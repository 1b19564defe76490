"""``accord check``: whether a model passes its thresholds and holds its ground against a baseline."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..errors import OptionError
from ..result import Result
from ._thresholds import parse_label_minimums, parse_minimums

__all__ = ["Outcome", "Verdict", "check", "judge"]

TOLERANCE = 1e-12
"""A rate within this of its threshold meets it: ``2PR/(P+R)`` of an exact 0.9 may come out as 0.8999999999999999."""


@dataclass(frozen=True)
class Outcome:
    """One check and how it went.

    Attributes
    ----------
    check : {"min", "label", "drop"}
        A minimum of the totals (``--min``), of one label (``--label``), or the drop against the baseline.
    rate : str
        The rate checked (``f1``, ``precision``...).
    label : str or None
        The label of a ``label`` check.
    value : float or None
        The model's rate (``None``: undefined, an empty denominator with ``zero_division="nan"``).
    threshold : float
        The minimum (a fraction), or the largest drop allowed (points).
    passed : bool
    reason : str
        One line saying what was measured against what.
    baseline : float or None
        The baseline's rate (drop checks).
    p_value : float or None
        The paired test's p-value of the difference (drop checks with ``significant``).
    """

    check: str
    rate: str
    label: str | None
    value: float | None
    threshold: float
    passed: bool
    reason: str
    baseline: float | None = None
    p_value: float | None = None


@dataclass(frozen=True)
class Verdict:
    """The outcome of every check: ``passed`` when each passed (``bool(verdict)`` too)."""

    outcomes: tuple[Outcome, ...]

    @property
    def passed(self) -> bool:
        return all(o.passed for o in self.outcomes)

    @property
    def failures(self) -> tuple[Outcome, ...]:
        return tuple(o for o in self.outcomes if not o.passed)

    def __bool__(self) -> bool:
        return self.passed

    def to_dict(self) -> dict[str, Any]:
        return {"passed": self.passed, "checks": [asdict(o) for o in self.outcomes],
                "failures": sum(not o.passed for o in self.outcomes)}

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, allow_nan=False, default=str)

    def __str__(self) -> str:
        lines = [("ok    " if o.passed else "FAIL  ") + o.reason for o in self.outcomes]
        n, bad = len(self.outcomes), len(self.failures)
        lines.append(f"passed: {n} check{'s' if n != 1 else ''}" if not bad else f"failed: {bad} of {n} checks")
        return "\n".join(lines)


def _value(block: Mapping[str, Any], rate: str) -> float | None:
    v = block.get(rate)
    return None if v is None or (isinstance(v, float) and math.isnan(v)) else float(v)


def _pct(v: float | None) -> str:
    return "undefined" if v is None else f"{100 * v:.2f} %"


def _minimum(kind: str, rate: str, label: str | None, value: float | None, threshold: float, option: str
             ) -> Outcome:
    what = f"{label} {rate}" if label else rate
    if value is None:
        return Outcome(kind, rate, label, None, threshold, False,
                       f"{what} is undefined (nothing to divide by), minimum {_pct(threshold)} ({option})")
    ok = value >= threshold - TOLERANCE
    rel = "meets" if ok else "is below"
    return Outcome(kind, rate, label, value, threshold, ok,
                   f"{what} = {_pct(value)} {rel} the minimum {_pct(threshold)} ({option})")


def _rates_of(result: Result) -> tuple[str, ...]:
    return tuple(result.main.kind.rate_names)


def _check_rates(rates: Sequence[str], known: Sequence[str], option: str) -> None:
    unknown = [r for r in rates if r not in known]
    if unknown:
        raise OptionError(f"{option}: {unknown[0]!r} is not a rate of this result; it has {', '.join(known)}")


def judge(result: Result, *, minimum: str | Mapping[str, object] | None = None,
          labels: Sequence[str] | Mapping[str, Any] | None = None, baseline: Result | None = None,
          max_drop: float | None = None, significant: bool = False, alpha: float = 0.05,
          test: str = "permutation", samples: int = 10_000, seed: int | None = None, resample: str = "auto",
          rate: str = "f1") -> Verdict:
    """The verdict on a scored ``result`` (see :func:`check`; ``baseline`` a result over the same documents)."""
    known = _rates_of(result)
    minimums = parse_minimums(minimum)
    per_label = parse_label_minimums(labels)
    _check_rates(list(minimums), known, "--min")
    for label, rates in per_label.items():
        _check_rates(list(rates), known, f"--label {label}")
    if max_drop is not None and (isinstance(max_drop, bool) or not isinstance(max_drop, (int, float))
                                 or not math.isfinite(max_drop) or max_drop < 0):
        raise OptionError(f"--max-drop must be a number of points >= 0; got {max_drop!r}")
    if baseline is None and (max_drop is not None or significant):
        raise OptionError("--max-drop and --significant compare with a baseline: give --baseline")
    if rate not in known:
        raise OptionError(f"rate {rate!r} is not a rate of this result; it has {', '.join(known)}")
    if not minimums and not per_label and baseline is None:
        raise OptionError("nothing to check: give --min RATE=VALUE, --label LABEL:RATE=VALUE or --baseline")
    outcomes: list[Outcome] = []
    totals = result.totals
    for r, threshold in minimums.items():
        outcomes.append(_minimum("min", r, None, _value(totals, r), threshold, f"--min {r}={threshold:g}"))
    by_label = result.by_label
    for label, rates in per_label.items():
        if label not in by_label:
            shown = ", ".join(sorted(by_label)[:20]) or "none"
            raise OptionError(f"--label {label}: no such label in the gold or predicted annotations (labels: "
                              f"{shown})")
        for r, threshold in rates.items():
            outcomes.append(_minimum("label", r, label, _value(by_label[label], r), threshold,
                                     f"--label {label}:{r}={threshold:g}"))
    if baseline is not None:
        outcomes.append(_drop(result, baseline, rate, 0.0 if max_drop is None else float(max_drop), significant,
                              alpha, test, samples, seed, resample))
    return Verdict(tuple(outcomes))


def _drop(result: Result, baseline: Result, rate: str, max_drop: float, significant: bool, alpha: float,
          test: str, samples: int, seed: int | None, resample: str) -> Outcome:
    """The drop of ``rate`` from the baseline to the model, in points, against ``max_drop`` (and the paired
    test of :func:`accord.compare` when ``significant``)."""
    if rate not in _rates_of(baseline):
        raise OptionError(f"the baseline has no rate {rate!r}")
    _same_scoring(result, baseline)
    if set(baseline.documents) != set(result.documents):
        extra = sorted(set(baseline.documents) ^ set(result.documents))
        raise OptionError(f"the baseline and the model do not cover the same documents (e.g. {extra[0]!r}: "
                          f"{len(baseline.documents)} against {len(result.documents)}); score the baseline on the "
                          "model's test set")
    base, value = _value(baseline.totals, rate), _value(result.totals, rate)
    option = f"--max-drop {max_drop:g}"
    if base is None or value is None:
        return Outcome("drop", rate, None, value, max_drop, False,
                       f"{rate} is undefined for the {'baseline' if base is None else 'model'}: no drop to measure "
                       f"({option})", base)
    drop = 100 * (base - value)
    shown = f"{rate} {_pct(value)} against the baseline's {_pct(base)}: "
    shown += f"a drop of {drop:.2f} points" if drop > 0 else f"{-drop:.2f} points up" if drop < 0 else "no change"
    over = drop > max_drop + 1e-9
    p_value = None
    if significant:
        from ..stats import compare

        cmp = compare({"baseline": baseline, "model": result}, test=test, samples=samples, seed=seed, rates=[rate],
                      alpha=alpha, labels=False, resample=resample, correction="none")
        main = next(c for c in cmp.comparisons if c.label is None and c.rate == rate)
        p_value = main.p_value
        p_text = "undefined" if p_value is None else f"{p_value:.4g}"
        judged = main.significant and main.difference is not None and main.difference < 0
        test_text = f"{test} test over {cmp.options['resampled_units']} {cmp.options['resample']}, p = {p_text}"
        if over and judged:
            return Outcome("drop", rate, None, value, max_drop, False,
                           f"{shown}, more than {option}, significant ({test_text} < alpha {alpha:g})", base, p_value)
        if over:
            return Outcome("drop", rate, None, value, max_drop, True,
                           f"{shown}, more than {option} but not significant ({test_text}, alpha {alpha:g})",
                           base, p_value)
        return Outcome("drop", rate, None, value, max_drop, True, f"{shown}, within {option} ({test_text})",
                       base, p_value)
    if over:
        return Outcome("drop", rate, None, value, max_drop, False, f"{shown}, more than {option}", base)
    return Outcome("drop", rate, None, value, max_drop, True, f"{shown}, within {option}", base)


_NOT_SCORING = frozenset({"bootstrap", "seed", "confidence", "ci_method", "confidence_data", "resample",
                          "resampled_units", "alignment"})
"""Options of a result that do not change its counts (its intervals' and the aligner's outcome)."""


def _same_scoring(result: Result, baseline: Result) -> None:
    """Refuse a baseline scored with other options than the model (its drop would compare other counts), naming
    them. A result JSON records the options the command line gave it; one it does not record (a result saved from
    Python) is taken as the model's."""
    mine = {k: v for k, v in result.options.items() if k not in _NOT_SCORING}
    theirs = {k: v for k, v in baseline.options.items() if k not in _NOT_SCORING}
    if getattr(baseline, "from_json", False):
        for key in set(mine) - set(theirs):
            baseline.options[key] = theirs[key] = mine[key]
    differ = sorted(k for k in set(mine) | set(theirs) if mine.get(k) != theirs.get(k))
    if differ:
        shown = "; ".join(f"{k}: the model's {mine.get(k)!r}, the baseline's {theirs.get(k)!r}" for k in differ[:3])
        raise OptionError(f"the baseline was scored with other options than the model ({shown}); score both alike")


def _baseline_result(baseline: Result | str | Path, gold: Any, score_options: Mapping[str, Any]) -> Result:
    """The baseline as a result: given, read from a result JSON, or its predictions scored against ``gold``."""
    from ._baseline import is_result_json, load_result

    if isinstance(baseline, Result):
        return baseline
    if is_result_json(baseline):
        return load_result(baseline)
    if isinstance(gold, Result):
        raise OptionError("a baseline of predictions is scored against the gold files: give check the gold and "
                          "predicted paths, or the baseline as a result")
    from .._api import score

    return score(gold, baseline, **score_options)


def check(gold: Any, pred: Any = None, *, min: str | Mapping[str, object] | None = None,  # noqa: A002
          labels: Sequence[str] | Mapping[str, Any] | None = None, baseline: Result | str | Path | None = None,
          max_drop: float | None = None, significant: bool = False, alpha: float = 0.05,
          test: str = "permutation", samples: int = 10_000, seed: int | None = None, resample: str = "auto",
          rate: str = "f1", **score_options: Any) -> Verdict:
    """Gate a model: its rates against minimums and, with a baseline, its drop against the baseline's.

    Parameters
    ----------
    gold, pred
        What :func:`accord.score` takes (``score_options`` are passed on), or ``gold`` a :class:`Result` already
        scored (``pred`` left out).
    min : str or mapping, optional
        Minimums of the totals' rates: ``"f1=0.90,precision=0.85"`` or ``{"f1": 0.9}`` (fractions, or ``"90%"``).
    labels : sequence of str or mapping, optional
        Minimums of labels' rates: ``["LOC:f1=0.8"]`` or ``{"LOC": {"f1": 0.8}}``.
    baseline : Result, str or path, optional
        The baseline: a result, a result JSON of ``accord score`` (its per-document counts), or the baseline's
        predictions (scored against ``gold`` with ``score_options``). Documents must be the model's.
    max_drop : float, optional
        The largest drop of ``rate`` allowed, in points (default 0 with a baseline: any drop fails).
    significant : bool
        A drop beyond ``max_drop`` fails only when :func:`accord.compare`'s paired test (``test``, ``samples``,
        ``seed``, ``resample``) finds the difference significant at ``alpha``.
    rate : str
        The rate of the drop check (default F1).

    Returns
    -------
    Verdict
        ``verdict.passed``; each check's :class:`Outcome` with a one-line reason.

    Raises
    ------
    OptionError
        Nothing to check, an unknown rate or label, a threshold outside [0, 1], a baseline over other documents.
    """
    result = gold if isinstance(gold, Result) else None
    if result is not None and pred is not None:
        raise OptionError("give check a result, or the gold and predicted paths, not both")
    if result is None:
        from .._api import score

        result = score(gold, pred, **score_options)
    base = None if baseline is None else _baseline_result(baseline, gold, score_options)
    return judge(result, minimum=min, labels=labels, baseline=base, max_drop=max_drop, significant=significant,
                 alpha=alpha, test=test, samples=samples, seed=seed, resample=resample, rate=rate)
