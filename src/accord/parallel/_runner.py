"""What runs a function over items for the sharded commands: :class:`Runner` (made by
:func:`accord.parallel._run.runner`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

__all__ = ["Runner", "Submit"]

T = TypeVar("T")
R = TypeVar("R")


class Submit(Protocol):
    """How a runner runs ``fn`` over ``items``: the results, in the items' order (generic in both)."""

    def __call__(self, fn: Callable[[T], R], items: Sequence[T], /) -> list[R]: ...


class Runner:
    """Runs a function over items and returns the results in the items' order.

    ``workers`` is the number of tasks that run at once (1 in this process).
    """

    def __init__(self, workers: int, submit: Submit, where: str):
        self.workers, self._submit, self.where = workers, submit, where

    def workers_now(self) -> int:
        """:attr:`workers` as far as known without waiting for a cluster to connect (1 until it has)."""
        return self.workers

    def map(self, fn: Callable[[T], R], items: Sequence[T], *, light: bool = False) -> list[R]:
        """``fn`` over ``items``, the results in the items' order. ``light``: short tasks (the planning scan),
        which a runner may begin in this machine's processes while its cluster connects
        (:class:`accord.parallel._dask_address.AddressRunner`)."""
        if not items:
            return []
        return self._submit(fn, items)
