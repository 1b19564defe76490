"""JSON text for every output of accord (no NaN), and the JSON and CSV of a result."""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np


__all__ = ["to_json", "to_csv", "json_text"]


def _finite(value: object) -> object:
    """``value`` with every NaN or infinite float replaced by ``None`` (JSON has no NaN)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    if isinstance(value, np.generic):
        return _finite(value.item())
    return value


def json_text(obj: object, indent: int | None = 2, **options: object) -> str:
    """Every JSON output of accord: standard JSON, an undefined rate (NaN) written as ``null``."""
    return json.dumps(_finite(obj), indent=indent, ensure_ascii=False, allow_nan=False, **options)


def to_json(result: Any, indent: int | None = 2) -> str:
    """A result as JSON text (:meth:`accord.result.Result.to_json`)."""
    return result.to_json(indent=indent)


def to_csv(result: Any) -> str:
    """A result as CSV text (:meth:`accord.result.Result.to_csv`)."""
    return result.to_csv()
