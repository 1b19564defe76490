"""GATE's evaluation semantics: Annotation Diff, strict / lenient / average measures, Corpus QA.

Key and response annotations of one type are *coextensive* (same start and end) or
*overlapping*; a response is *compatible* with a key when it carries the key's
significant features with equal values (values of different types never match). Each
key ends **correct** (coextensive, compatible), **partial** (overlapping, compatible),
or **missing**; each response correct, partial or **spurious**. See
:class:`~accord.diff.DiffCounts` for the measures and :mod:`accord.diff._pairing` for the
two pairings (GATE's greedy one, the default here, and an optimal one).
"""

from ._counts import BDM_MEASURES, MEASURES, DiffCounts, mean_measures, parse_measure
from ._diff import OUTCOMES, CorpusDiff, DiffRow, TypeDiff, annotation_diff, diff_corpora, hide_adjudicated
from ._features import subsumes, values_equal
from ._pairing import PAIRINGS

__all__ = [
    "MEASURES",
    "BDM_MEASURES",
    "OUTCOMES",
    "PAIRINGS",
    "CorpusDiff",
    "DiffCounts",
    "DiffRow",
    "TypeDiff",
    "annotation_diff",
    "diff_corpora",
    "hide_adjudicated",
    "mean_measures",
    "parse_measure",
    "subsumes",
    "values_equal",
]
