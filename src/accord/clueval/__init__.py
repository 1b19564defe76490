"""CLUEval: lenient span evaluation, errors in context and merged annotation layers.

See :mod:`accord.clueval._evaluate` for the classes and the leniency levels,
:mod:`accord.match.coverage` for the classification itself.
"""

from ..match.coverage import CLASS_NAMES, OverlappingSpansError
from ._confusion import SpanConfusion, span_confusion
from ._errors import ErrorRow, OtherSpan, error_table
from ._evaluate import LEVELS, ClueCounts, ClueEvaluation, evaluate_spans, leniency_level
from ._merge import merge_layers
from ._spans import DocumentPair, SpanTable

__all__ = ["CLASS_NAMES", "LEVELS", "ClueCounts", "ClueEvaluation", "DocumentPair", "ErrorRow", "OtherSpan",
           "OverlappingSpansError", "SpanConfusion", "SpanTable", "error_table", "evaluate_spans", "leniency_level",
           "merge_layers", "span_confusion"]
