"""Tag numbers named: ``label_names`` as the objects' readers take it (a list, a ``ClassLabel`` or a mapping)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from ..errors import OptionError

__all__ = ["check_label_names"]


def check_label_names(label_names: Any, where: str) -> list[str]:
    """``label_names`` as a list of strings (a ``ClassLabel``'s ``names`` or a mapping id -> name accepted)."""
    if isinstance(label_names, dict):
        try:
            size = max(int(k) for k in label_names) + 1 if label_names else 0
            names = [label_names.get(i, label_names.get(str(i))) for i in range(size)]
        except (TypeError, ValueError):
            raise OptionError(f"{where}: label_names as a mapping goes from tag number to name") from None
        missing = [i for i, n in enumerate(names) if n is None]
        if missing:
            raise OptionError(f"{where}: label_names gives no name to tag number(s) {missing[:5]}")
        return [str(n) for n in names]
    names = getattr(label_names, "names", label_names)
    if isinstance(names, str) or not isinstance(names, Sequence):
        raise OptionError(f"{where}: label_names must be a list of tag names (index = tag number)")
    if not all(isinstance(n, str) for n in names):
        raise OptionError(f"{where}: label_names must be strings")
    return cast("list[str]", list(names))   # strings: checked above
