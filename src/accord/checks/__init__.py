"""CI gates and tag-file tools: ``accord check`` (:func:`check`), ``validate``, ``repair`` and ``count``."""

from ._baseline import is_result_json, load_result
from ._gate import Outcome, Verdict, check, judge
from ._thresholds import parse_label_minimums, parse_minimums, threshold_value

__all__ = ["Outcome", "Verdict", "check", "judge", "is_result_json", "load_result", "parse_label_minimums",
           "parse_minimums", "threshold_value"]
