"""Progress of long runs on standard error (rich.progress): only on a terminal, only from the command
line, never with ``--quiet``."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TypeVar

__all__ = ["progress_enabled", "track"]

T = TypeVar("T")
_enabled = False
MIN_ITEMS = 200
"""Loops shorter than this show nothing."""


@contextmanager
def progress_enabled(on: bool) -> Iterator[None]:
    """Show progress inside this block when ``on`` and standard error is a terminal."""
    global _enabled
    before = _enabled
    _enabled = on and sys.stderr.isatty()
    try:
        yield
    finally:
        _enabled = before


def track(items: Iterable[T], description: str, total: int | None = None,
          min_items: int = MIN_ITEMS) -> Iterator[T]:
    """``items``, with a transient progress bar on standard error when enabled (for ``min_items`` items or more:
    shards, few and long, show theirs from two)."""
    if total is None:
        try:
            total = len(items)  # type: ignore[arg-type]  # an iterable may have no len(): the except below
        except TypeError:
            total = None
    if not _enabled or (total is not None and total < min_items):
        yield from items
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(description, total=total)
        for item in items:
            yield item
            bar.advance(task)
