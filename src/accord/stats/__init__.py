"""Statistics over results: bootstrap confidence intervals (resampling documents)."""

from ._bootstrap import CHUNK, CI_METHODS, BootstrapOptions, intervals, resampled_sums
from ._confidence import confidence_intervals

__all__ = ["CHUNK", "CI_METHODS", "BootstrapOptions", "confidence_intervals", "intervals", "resampled_sums"]
