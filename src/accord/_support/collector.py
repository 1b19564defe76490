"""The cyclic garbage collector paused while a corpus is scored.

Scoring builds many small objects (documents, annotations, alignments) and no reference cycle worth
collecting; the collector would rescan them again and again as they accumulate: at 100,000 one-token
documents that was nearly half of the time of :func:`accord.score`. The ``accord`` command pauses it
for its whole run; :func:`collection_paused` does the same for a call from Python, and leaves the
caller's collector as it found it.
"""

from __future__ import annotations

import functools
import gc
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["collection_paused"]

F = TypeVar("F", bound=Callable[..., Any])


def collection_paused(function: F) -> F:
    """``function`` run with the cyclic collector disabled (re-enabled after it if it was enabled)."""

    @functools.wraps(function)
    def paused(*args: Any, **kwargs: Any) -> Any:
        collecting = gc.isenabled()
        gc.disable()
        try:
            return function(*args, **kwargs)
        finally:
            if collecting:
                gc.enable()

    return paused  # type: ignore[return-value]  # functools.wraps keeps function's signature
