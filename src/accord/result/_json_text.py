"""The JSON text of every output of accord (the contract's writer): standard JSON, an undefined rate (NaN) written
as ``null``, small objects and arrays on one line."""

from __future__ import annotations

import json
import math
import sys
from typing import Any

__all__ = ["json_text", "object_key"]


def _finite(value: object) -> object:
    """``value`` with every NaN or infinite float replaced by ``None`` (JSON has no NaN)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    if _is_numpy_scalar(value):
        return _finite(value.item())   # type: ignore[attr-defined]
    return value


def _is_numpy_scalar(value: object) -> bool:
    """Whether ``value`` is a numpy scalar; numpy is not imported for it (without numpy loaded, nothing is one, and
    a command whose result holds plain numbers writes its JSON without importing numpy)."""
    np = sys.modules.get("numpy")
    return np is not None and isinstance(value, np.generic)


def json_text(obj: object, indent: int | None = 2, **options: Any) -> str:
    """Every JSON output of accord: standard JSON, an undefined rate (NaN) written as ``null``.

    Indented, except that an object or array holding scalars only (a row of counts, a list of
    labels) is written on one line: as readable, a fraction of the lines, and written by the
    json module's C encoder (the per-document rows of a large corpus were most of the time of
    indenting).
    """
    if indent is None or options:
        return json.dumps(_finite(obj), indent=indent, ensure_ascii=False, allow_nan=False, **options)
    out: list[str] = []
    _write(obj, 0, " " * indent, out)
    return "".join(out)


_SCALARS = (str, int, float, bool, type(None))
_one_line = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(", ", ": ")).encode


def _line(value: object) -> str:
    """``value`` on one line; NaN and infinities as ``null`` (looked for only when the encoder refuses)."""
    try:
        return _one_line(value)
    except ValueError:
        return _one_line(_finite(value))


def _write(value: object, level: int, pad: str, out: list[str]) -> None:
    """Append the JSON text of ``value`` at nesting ``level`` (NaN written as ``null``)."""
    if isinstance(value, dict):
        if all(isinstance(v, _SCALARS) for v in value.values()):
            out.append(_line(value))
            return
        if all(isinstance(v, _SCALARS) or _is_numpy_scalar(v) for v in value.values()):
            out.append(_line(_finite(value)))
            return
        inner = "\n" + pad * (level + 1)
        out.append("{")
        for k, (key, item) in enumerate(value.items()):
            out.append(("," if k else "") + inner + object_key(key) + ": ")
            _write(item, level + 1, pad, out)
        out.append("\n" + pad * level + "}")
    elif isinstance(value, (list, tuple)):
        if all(isinstance(v, _SCALARS) for v in value):
            out.append(_line(value))
            return
        if all(isinstance(v, _SCALARS) or _is_numpy_scalar(v) for v in value):
            out.append(_line(_finite(value)))
            return
        inner = "\n" + pad * (level + 1)
        out.append("[")
        for k, item in enumerate(value):
            out.append(("," if k else "") + inner)
            _write(item, level + 1, pad, out)
        out.append("\n" + pad * level + "]")
    elif _is_numpy_scalar(value):
        out.append(_line(value.item()))   # type: ignore[attr-defined]
    else:
        out.append(_line(value))


def object_key(key: object) -> str:
    """An object key as JSON writes it (numbers, booleans and null become strings)."""
    if isinstance(key, str):
        return _one_line(key)
    return json.dumps({key: 0}, ensure_ascii=False, allow_nan=False)[1:-4]
