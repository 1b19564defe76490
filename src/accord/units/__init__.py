"""MAT's token, pseudo-token and character scoring and the confusability matrix.

See :mod:`accord.units._intervals` (re-pairing overhangs and unpaired spans per elementary
interval), :mod:`accord.units._counts` (units, accuracies, the matrix) and :mod:`accord.units._confusability` (the
matrix's rows and columns as every output lists them).
"""

from ._confusability import confusability_rows
from ._counts import UNITS, UnitScores, accuracies, score_units
from ._intervals import Interval, scored_intervals

__all__ = ["UNITS", "Interval", "UnitScores", "accuracies", "confusability_rows", "score_units", "scored_intervals"]
