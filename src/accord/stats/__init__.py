"""Statistics over results: bootstrap confidence intervals (resampling documents or sentences) and paired tests
between systems."""

from ._bootstrap import CHUNK, CI_METHODS, BootstrapOptions, intervals, resampled_sums
from ._compare import CORRECTIONS, FAMILIES, TESTS, Comparison, ComparisonResult, bonferroni, compare, holm
from ._confidence import confidence_intervals
from ._units import AUTO_DOCUMENTS, FEW_UNITS, RESAMPLE_CHOICES

__all__ = ["AUTO_DOCUMENTS", "CHUNK", "CI_METHODS", "CORRECTIONS", "FAMILIES", "FEW_UNITS", "RESAMPLE_CHOICES",
           "TESTS", "BootstrapOptions", "Comparison", "ComparisonResult", "bonferroni", "compare",
           "confidence_intervals", "holm", "intervals", "resampled_sums"]
