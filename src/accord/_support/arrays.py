"""Names for the numpy array types that accord's signatures use, so that a signature says the dtype it takes.

``Index`` is what numpy's sorting and searching give (positions into an array, ``intp``: 64 bits on the platforms
accord runs on); ``Int64s`` offsets, codes and counts made as ``int64``; ``Ints`` any integer array (a reader's
``int32`` offsets as well); ``Floats`` similarities, rates and resampled values; ``Bools`` masks.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["Bools", "Floats", "Index", "Int64s", "Ints"]

Index = npt.NDArray[np.intp]
Int64s = npt.NDArray[np.int64]
Ints = npt.NDArray[np.integer[Any]]
Floats = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]
