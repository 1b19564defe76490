"""What γ's alignment modules share (``accord.agreement._alignment_base``), against numpy's own functions."""

from __future__ import annotations

import numpy as np
import pytest

from accord.agreement._alignment_base import rank_table


@pytest.mark.parametrize("seed", range(5))
def test_rank_table_is_the_inverse_of_np_unique(seed):
    rng = np.random.default_rng(seed)
    values = rng.integers(0, int(rng.integers(1, 300)), size=int(rng.integers(1, 500)))
    table, count = rank_table(values)
    distinct, inverse = np.unique(values, return_inverse=True)
    assert count == len(distinct)
    assert np.array_equal(table[values], inverse.reshape(-1))
    assert np.array_equal(table[distinct], np.arange(count))
