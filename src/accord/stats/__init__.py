"""Statistics over results: bootstrap confidence intervals (resampling documents or sentences), paired tests between
systems (one run or several each), their families and corrections, the leaderboard, Almost Stochastic Order and the
minimum detectable difference."""

from ._aso import almost_stochastic_order, violation_ratio
from ._bootstrap import CHUNK, CI_METHODS, BootstrapOptions, intervals, resampled_sums
from ._compare import CORRECTIONS, FAMILIES, TESTS, Comparison, ComparisonResult, bonferroni, compare, holm
from ._confidence import confidence_intervals
from ._leaderboard import Leaderboard, Standing
from ._power import detectable_text, minimum_detectable_difference, paired_bootstrap_differences
from ._units import AUTO_DOCUMENTS, FEW_UNITS, RESAMPLE_CHOICES

__all__ = ["AUTO_DOCUMENTS", "CHUNK", "CI_METHODS", "CORRECTIONS", "FAMILIES", "FEW_UNITS", "RESAMPLE_CHOICES",
           "TESTS", "BootstrapOptions", "Comparison", "ComparisonResult", "Leaderboard", "Standing",
           "almost_stochastic_order", "bonferroni", "compare", "confidence_intervals", "detectable_text", "holm",
           "intervals", "minimum_detectable_difference", "paired_bootstrap_differences", "resampled_sums",
           "violation_ratio"]
