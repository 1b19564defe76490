"""Statistics over results: bootstrap confidence intervals (resampling documents) and paired tests between systems."""

from ._bootstrap import CHUNK, CI_METHODS, BootstrapOptions, intervals, resampled_sums
from ._compare import TESTS, Comparison, ComparisonResult, compare, holm
from ._confidence import confidence_intervals

__all__ = ["CHUNK", "CI_METHODS", "TESTS", "BootstrapOptions", "Comparison", "ComparisonResult", "compare",
           "confidence_intervals", "holm", "intervals", "resampled_sums"]
