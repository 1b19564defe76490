"""Structured metrics: typed similarity, matching under constraints, latent variables, and the metrics of IE.

Build a metric bottom-up, as in "A Unified View of Evaluation Metrics for Structured
Prediction" (Chen et al.)::

    from accord import structured as S
    mention = S.product(left=S.exact, right=S.exact)
    relation = S.product(type=S.exact, subj=mention, obj=mention)
    rel_f1 = S.f1(S.match(relation, constraint="1:1"))
    score = rel_f1(pred_relations, gold_relations)   # a float, with .precision .recall .f1 .pairs

Ready-made: :func:`coref_scores` (the CoNLL-2012 metrics for a corpus), :func:`smatch`,
and the metrics of :mod:`accord.structured.ie`.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .._support.lazy import submodule_getattr

if TYPE_CHECKING:   # the names below are loaded on first use (PEP 562): importing one submodule (a
    # preset, the coreference metrics) does not load the graph matching and scipy's solvers
    from ._graph import graph_match
    from ._latent import LATENT, LatentResult, Var, latent_match
    from ._matching import Match, MatchScore, f1, fbeta, jaccard, match, micro, precision, recall, sequence_match
    from ._muc4 import MUC4_KEY_SLOTS, muc4_original
    from ._muc4_rme import muc4_rme
    from ._similarity import Similarity, exact, field, func, get_field, product, threshold, weighted
    from .amr import SmatchScore, amr_triples, read_amr, smatch, smatch_corpus
    from .coref import COREF_METRICS, CorefScore, conll_f1, coref_scores
    from .ie import (
        ancestor_f1,
        bcub_precision,
        bcub_recall,
        ceaf_e,
        ceaf_m,
        ceaf_ree,
        ceaf_rme_phi3,
        ceaf_rme_subset,
        entity_sets,
        event_argument_f1,
        event_trigger_f1,
        head_word,
        las,
        level_type_similarity,
        memberships,
        mention,
        muc_link,
        muc_recall,
        phi3,
        phi4,
        relation_f1,
        scirex_entity,
        scirex_f1,
        scirex_mention,
        span_iou,
        subset,
        uas,
    )
    from .kernels import check_kernel, gram_matrix, is_strong, optimal_assignment_kernel
    from .named import NAMED_METRICS, RecordScores, named_metric, score_records
    from .templates import (
        BetterScore,
        better_score,
        muc4_score,
        set_fill,
        slot_filler,
        string_fill,
    )

_LAZY = {
    "graph_match": "._graph",
    "LATENT": "._latent",
    "LatentResult": "._latent",
    "Var": "._latent",
    "latent_match": "._latent",
    "Match": "._matching",
    "MatchScore": "._matching",
    "f1": "._matching",
    "fbeta": "._matching",
    "jaccard": "._matching",
    "match": "._matching",
    "micro": "._matching",
    "precision": "._matching",
    "recall": "._matching",
    "sequence_match": "._matching",
    "Similarity": "._similarity",
    "exact": "._similarity",
    "field": "._similarity",
    "func": "._similarity",
    "get_field": "._similarity",
    "product": "._similarity",
    "threshold": "._similarity",
    "weighted": "._similarity",
    "SmatchScore": ".amr",
    "amr_triples": ".amr",
    "read_amr": ".amr",
    "smatch": ".amr",
    "smatch_corpus": ".amr",
    "COREF_METRICS": ".coref",
    "CorefScore": ".coref",
    "conll_f1": ".coref",
    "coref_scores": ".coref",
    "ancestor_f1": ".ie",
    "bcub_precision": ".ie",
    "bcub_recall": ".ie",
    "ceaf_e": ".ie",
    "ceaf_m": ".ie",
    "ceaf_ree": ".ie",
    "ceaf_rme_phi3": ".ie",
    "ceaf_rme_subset": ".ie",
    "entity_sets": ".ie",
    "head_word": ".ie",
    "event_argument_f1": ".ie",
    "event_trigger_f1": ".ie",
    "las": ".ie",
    "level_type_similarity": ".ie",
    "memberships": ".ie",
    "mention": ".ie",
    "muc_link": ".ie",
    "muc_recall": ".ie",
    "phi3": ".ie",
    "phi4": ".ie",
    "relation_f1": ".ie",
    "scirex_entity": ".ie",
    "scirex_f1": ".ie",
    "scirex_mention": ".ie",
    "span_iou": ".ie",
    "subset": ".ie",
    "uas": ".ie",
    "NAMED_METRICS": ".named",
    "RecordScores": ".named",
    "named_metric": ".named",
    "score_records": ".named",
    "BetterScore": ".templates",
    "better_score": ".templates",
    "muc4_score": ".templates",
    "set_fill": ".templates",
    "slot_filler": ".templates",
    "string_fill": ".templates",
    "MUC4_KEY_SLOTS": "._muc4",
    "muc4_original": "._muc4",
    "muc4_rme": "._muc4_rme",
    "check_kernel": ".kernels",
    "gram_matrix": ".kernels",
    "is_strong": ".kernels",
    "optimal_assignment_kernel": ".kernels",
}
"""Each public name and the submodule it lives in, imported on first use."""


__all__ = [
    # similarities
    "Similarity", "exact", "field", "func", "get_field", "product", "weighted", "threshold",
    # matching and normalizers
    "Match", "MatchScore", "match", "sequence_match", "graph_match", "precision", "recall", "f1", "fbeta", "jaccard",
    "micro",
    # latent variables
    "Var", "LATENT", "LatentResult", "latent_match",
    # coreference
    "COREF_METRICS", "CorefScore", "coref_scores", "conll_f1", "entity_sets", "phi3", "phi4", "muc_link",
    "ceaf_m", "ceaf_e", "muc_recall", "memberships", "bcub_recall", "bcub_precision",
    # AMR
    "SmatchScore", "amr_triples", "smatch", "smatch_corpus", "read_amr",
    # IE
    "mention", "head_word", "relation_f1", "uas", "las", "event_trigger_f1", "event_argument_f1", "ceaf_ree",
    "ceaf_rme_subset", "ceaf_rme_phi3", "subset", "level_type_similarity", "ancestor_f1", "span_iou", "scirex_mention",
    "scirex_entity", "scirex_f1",
    # templates
    "set_fill", "string_fill", "slot_filler", "muc4_score", "muc4_original", "muc4_rme", "MUC4_KEY_SLOTS",
    "BetterScore", "better_score",
    # kernels (the paper's appendix B)
    "check_kernel", "gram_matrix", "is_strong", "optimal_assignment_kernel",
    # by name, over documents
    "NAMED_METRICS", "RecordScores", "named_metric", "score_records",
]


_submodule = submodule_getattr(__name__)


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(import_module(_LAZY[name], __name__), name)
        globals()[name] = value
        return value
    return _submodule(name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
