"""A result as one flat mapping of names to numbers, for experiment trackers (``mlflow.log_metrics``, ``wandb.log``).

The names, stable from one release to the next (``PREFIX`` is the ``prefix`` given, empty by default):

- ``PREFIX<count or rate>``: the main measure's totals (``f1``, ``precision``, ``recall``, ``gold``, ``pred``,
  ``match``... as the measure's JSON block names them);
- ``PREFIX<label>/<count or rate>``: each label's (``PER/f1``);
- ``PREFIXmacro/<rate>``: the unweighted means over the labels;
- ``..._low`` and ``..._high`` after a rate: its confidence interval, once the result was bootstrapped
  (``f1_low``, ``PER/f1_high``);
- a result of several measures writes each one's names after ``<measure>/`` (``pairs/f1``, ``nesting:inner/f1``).

An undefined rate is NaN. In a label or a measure's name, every character that MLflow refuses in a metric name (it
takes letters, digits, ``_ - . /`` and spaces) and ``/`` become ``_``; two figures that would get one name (labels
``A:B`` and ``A_B``, a label ``macro``) are refused (:class:`~accord.errors.OutputError`).
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..errors import OutputError

if TYPE_CHECKING:
    from ._result import Result

__all__ = ["flat_dict"]

_REFUSED = re.compile(r"[^\w.\- ]")


def _name(label: str) -> str:
    return _REFUSED.sub("_", str(label))


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not (value is None or isinstance(value, numbers.Real)):
        return None
    return math.nan if value is None else float(value)


def _put(out: dict[str, float], key: str, value: float) -> None:
    if key in out:
        raise OutputError(f"two figures of the result have the metric name {key!r} (a label or measure named like "
                          "another name once characters other than letters, digits, _ - . and spaces are written _, "
                          "or a label named 'macro')")
    out[key] = value


def _block(out: dict[str, float], head: str, block: Mapping[str, Any]) -> None:
    for key, value in block.items():
        number = _number(value)
        if number is not None:
            _put(out, head + key, number)
    for rate, interval in (block.get("ci") or {}).items():
        if isinstance(interval, (list, tuple)) and len(interval) == 2:
            low, high = (math.nan if x is None else float(x) for x in interval)
            _put(out, f"{head}{rate}_low", low)
            _put(out, f"{head}{rate}_high", high)


def flat_dict(result: Result, prefix: str = "") -> dict[str, float]:
    """The flat mapping of :meth:`accord.result.Result.to_flat_dict` (see the module for the names)."""
    out: dict[str, float] = {}
    ci = result.ci or {}
    for name, measure in result.measures.items():
        head = prefix + (f"{_name(name)}/" if len(result.measures) > 1 else "")
        data = measure.to_dict(ci.get(name))
        _block(out, head, data["totals"])
        _block(out, head + "macro/", data["macro"])
        for label, block in data["by_label"].items():
            _block(out, f"{head}{_name(label)}/", block)
    return out
