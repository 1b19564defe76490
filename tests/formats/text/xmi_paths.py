"""Reading one XMI file through accord's own parser and through dkpro-cassis alone, for the tests that compare them
(the documents, the warnings and the errors, as whole values)."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

from accord.errors import AccordError, AccordWarning
from accord.formats.text import _xmi_parser, xmi

__all__ = ["outcome", "both_ways"]


def outcome(read: Callable[[], Any]) -> tuple:
    """What a reading gives: ``("ok", repr of the result, warnings)`` or ``("error", class, message, warnings)``
    (anything but an :class:`~accord.errors.AccordError` is ``("crash", ...)``)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            got = read()
        except AccordError as exc:
            return ("error", type(exc).__name__, str(exc), [str(w.message) for w in caught
                                                            if issubclass(w.category, AccordWarning)])
        except Exception as exc:  # noqa: BLE001 - recorded, then compared
            return ("crash", type(exc).__name__, str(exc))
    return ("ok", repr(got), [str(w.message) for w in caught if issubclass(w.category, AccordWarning)])


def both_ways(read: Callable[[], Any], monkeypatch: Any) -> tuple[tuple, tuple, bool]:
    """``read`` through accord's own parser, then with the own parser refusing every file (cassis reads them all);
    and whether the own parser read the file itself (not handed it to cassis)."""
    own_read = []
    parse = xmi.parse_xmi

    def counted(*args: Any) -> Any:
        cas = parse(*args)
        own_read.append(True)
        return cas

    def refused(*_: Any) -> Any:
        raise _xmi_parser.Unsupported("the test reads through cassis")

    monkeypatch.setattr(xmi, "parse_xmi", counted)
    own = outcome(read)
    monkeypatch.setattr(xmi, "parse_xmi", refused)
    through_cassis = outcome(read)
    monkeypatch.setattr(xmi, "parse_xmi", parse)
    return own, through_cassis, bool(own_read)
