"""Checking the names a user gives (types, labels, attributes, sets, metrics) against what the input holds.

A misspelt name must never select nothing and report a perfect or an empty score:
:func:`check_names` refuses a name the input does not hold, listing the known ones and
suggesting the nearest (:func:`difflib.get_close_matches`).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..errors import OptionError

__all__ = ["check_names", "unknown_message"]


def unknown_message(name: str, known: Iterable[str], what: str, option: str | None = None,
                    *, from_input: bool = True) -> str:
    """``--type: no annotation type 'Persn' in the input (did you mean 'Person'?); the input has 'Date', ...``."""
    known = sorted(set(known), key=str)
    import difflib  # here: only a misspelt name needs it

    near = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    head = f"{option}: " if option else ""
    hint = f" (did you mean {near[0]!r}?)" if near else ""
    shown = ", ".join(map(repr, known[:20])) + (f" and {len(known) - 20} more" if len(known) > 20 else "")
    if not from_input:
        return f"{head}unknown {what} {name!r}{hint}; known: {shown}"
    listing = f"; the input has {shown}" if known else "; the input has none"
    return f"{head}no {what} {name!r} in the input{hint}{listing}"


def check_names(given: Iterable[str], known: Iterable[str], what: str, option: str | None = None) -> None:
    """Raise :class:`~accord.errors.OptionError` for the first name of ``given`` not in ``known``."""
    known_set = set(known)
    for name in given:
        if name not in known_set:
            raise OptionError(unknown_message(name, known_set, what, option))
