"""Limits shared by the options of the commands and the functions behind them."""

from __future__ import annotations

__all__ = ["MAX_DRAWS", "MAX_BETA"]

MAX_DRAWS = 1_000_000
"""The most resamples or random swaps a paired test or an interval may ask for (``--samples``, ``--bootstrap``):
each draw keeps a row of counts; beyond a million, time and memory grow without a visible change in a p-value or
an interval."""

MAX_BETA = 1e6
"""The largest F-beta weight (``--beta``): F-beta then equals recall to about twelve digits, and a larger weight
only overflows the arithmetic of the counts (numpy's overflow warnings, and infinities where a rate should be)."""
