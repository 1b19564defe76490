"""Each annotator against the majority of the others (GATE's IAA plugin's all-way reading, per annotator).

For annotator ``i`` among ``k + 1``, the reference of a document is the consensus of the ``k`` others with a
strict majority of their votes (``k // 2 + 1``; :func:`accord.adjudicate.consensus`: a span and value enter when
that many of them gave it); annotator ``i``'s annotations are then diffed against it as a response against a key
(GATE's Annotation Diff, the feature significant when given), and the counts summed over documents and types give
its precision, recall and F1 (strict: ``c / R``, ``c / K``; 1.0 for an empty side, as the differ).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import RatingsError
from ..model import EMPTY_ATTRIBUTES, Attributes, Corpus

__all__ = ["against_majority"]


def against_majority(corpora: Sequence[Corpus], names: Sequence[str], types: Sequence[str],
                     feature: str | Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """One row per annotator: its Annotation Diff counts against the majority of the others, and P, R, F1."""
    from ..adjudicate import consensus
    from ..diff import DiffCounts, annotation_diff

    if len(corpora) < 3:
        raise RatingsError("the majority of the others needs at least three annotators")
    out = []
    for i, name in enumerate(names):
        others = [c for j, c in enumerate(corpora) if j != i]
        votes = len(others) // 2 + 1
        total = DiffCounts()
        for doc_id, doc in corpora[i].items():
            if not all(doc_id in c for c in others):
                continue
            for t in types:
                f = feature.get(t) if isinstance(feature, Mapping) else feature
                reference = consensus([c[doc_id].annotations for c in others], type=t, feature=f, min_votes=votes)
                reference = [a._replace(attributes=Attributes({f: a.attributes[f]}) if f and f in a.attributes
                                        else EMPTY_ATTRIBUTES)
                             for a in reference]
                mine = [a for a in doc.annotations if a.label == t and a.start is not None]
                diffs = annotation_diff(reference, mine, features=(f,) if f else (), types=[t])
                total = total + diffs[t].counts
        out.append({"annotator": name, "votes_needed": votes, "correct": total.correct, "partial": total.partial,
                    "missing": total.missing, "spurious": total.spurious,
                    "precision": total.precision("strict"), "recall": total.recall("strict"),
                    "f1": total.f("strict")})
    return out
