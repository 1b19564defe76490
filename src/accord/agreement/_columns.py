"""Parallel arrays that grow by appending, for the alignment's solvers that build their candidates and partial
covers step by step (:mod:`._alignment`, :mod:`._frontier`)."""

from __future__ import annotations

import numpy as np

__all__ = ["GrowingColumns"]


class GrowingColumns:
    """Parallel arrays that grow by appending (capacity doubled), read as views: no concatenation of everything
    at every step.

    Parameters
    ----------
    dtypes : tuple of type
        One dtype a column.
    """

    def __init__(self, dtypes: tuple[type, ...]):
        self._cols: list[np.ndarray] = [np.zeros(1024, dtype=d) for d in dtypes]
        self.size = 0

    def append(self, *arrays: np.ndarray) -> None:
        """Append one array a column, all of one length."""
        k = len(arrays[0])
        if self.size + k > len(self._cols[0]):
            capacity = max(2 * len(self._cols[0]), self.size + k)
            grown = []
            for col in self._cols:
                new = np.zeros(capacity, dtype=col.dtype)
                new[:self.size] = col[:self.size]
                grown.append(new)
            self._cols = grown
        for col, values in zip(self._cols, arrays):
            col[self.size:self.size + k] = values
        self.size += k

    def column(self, i: int) -> np.ndarray:
        """Column ``i`` as it stands (a view)."""
        return self._cols[i][:self.size]
