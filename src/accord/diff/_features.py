"""Feature compatibility as GATE's Annotation Diff defines it (guide 10.1.1, 10.2.3).

A response is *compatible* with a key when the key's significant features are included
in the response's: same names, equal values. Values of different types never compare
equal (``"5"`` is not ``5``, ``1`` is not ``1.0`` and ``True`` is not ``1``), as Java's
``equals`` decides in GATE, unless the comparison is made on strings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["values_equal", "subsumes"]

_ABSENT = object()


def _as_string(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"   # Java's Boolean.toString
    return str(v)


def values_equal(a: Any, b: Any, *, as_strings: bool = False) -> bool:
    """Whether two feature values match: same type and equal, or equal as strings.

    ``None`` stands for Java's null and equals only ``None``.
    """
    if a is None or b is None:
        return a is None and b is None
    if as_strings:
        return _as_string(a) == _as_string(b)
    return type(a) is type(b) and a == b


def subsumes(response: Mapping[str, Any], key: Mapping[str, Any], significant: Sequence[str] | None,
             *, as_strings: bool = False) -> bool:
    """Whether the response's features include the key's significant features.

    Parameters
    ----------
    response, key : mapping
        Feature (attribute) values.
    significant : sequence of str or None
        ``None``: every feature of the key must be present in the response with an equal
        value. An empty sequence: features are ignored (always compatible). Otherwise each
        named feature must have equal values, an absent feature counting as null on
        either side (so a feature absent from both sides agrees).
    as_strings : bool
        Compare values by their string forms (booleans as ``true``/``false``).
    """
    if significant is None:
        for name, value in key.items():
            other = response.get(name, _ABSENT)
            if other is _ABSENT or not values_equal(value, other, as_strings=as_strings):
                return False
        return True
    return all(values_equal(key.get(n), response.get(n), as_strings=as_strings) for n in significant)

