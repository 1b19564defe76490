"""BDM-based agreement between annotators, as GATE's IAA plugin computes it (Maynard, Peters and Li 2006).

For every pair of annotators (the first as the key) and every document and type both have, keys are taken in turn,
each against the responses not yet matched: a coextensive response adds the BDM of the two concepts to ``correct``,
an overlapping one adds it to ``partial``; a positive BDM marks both annotations as matched and counts one more
match ``n`` (a key can be matched more than once, as in the plugin). Unmatched keys are missing (``m``),
unmatched responses spurious (``s``). Maynard's augmented precision and recall are then

.. math:: P = correct / (n + s),\\quad R = correct / (n + m)

(lenient: ``correct + partial`` in the numerators; 0 for an empty denominator, as the plugin) and F1 their harmonic
mean. A concept is the annotation's ``feature`` value, or its type without a feature; two equal concepts have BDM 1.
Counts are summed over documents and types for each pair; the figures are averaged over pairs.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..bdm import BdmTable
from ..diff._features import _as_string
from ..errors import RatingsError
from ..model import Annotation, Corpus

__all__ = ["bdm_agreement"]


def _concept(a: Annotation, feature: str | None) -> str | None:
    if feature is None:
        return a.label
    v = a.attributes.get(feature)
    return None if v is None else _as_string(v)


def _pair_counts(keys: list[Annotation], responses: list[Annotation], table: BdmTable, feature: str | None
                 ) -> list[float]:
    correct = partial = 0.0
    n = 0
    key_matched = [False] * len(keys)
    resp_matched = np.zeros(len(responses), dtype=bool)
    starts = np.fromiter((r.start for r in responses), np.int64, len(responses))
    ends = np.fromiter((r.end for r in responses), np.int64, len(responses))
    concepts = [_concept(r, feature) for r in responses]
    for i, k in enumerate(keys):
        ck = _concept(k, feature)
        assert k.start is not None and k.end is not None  # bdm_agreement passes spanned annotations only
        # the responses overlapping the key and not matched yet, in their order (the plugin's loop order)
        for j in np.flatnonzero((starts < k.end) & (ends > k.start) & ~resp_matched).tolist():
            if resp_matched[j]:
                continue
            r, cr = responses[j], concepts[j]
            if ck is None or cr is None:
                continue
            b = 1.0 if ck == cr else table.bdm(ck, cr)
            if b <= 0:
                continue
            if (r.start, r.end) == (k.start, k.end):
                correct += b
            else:
                partial += b
            key_matched[i] = resp_matched[j] = True
            n += 1
    return [correct, partial, float(n), float(key_matched.count(False)), float(len(responses) - resp_matched.sum())]


def _rates(credit: float, n: float, m: float, s: float) -> dict[str, float]:
    p = credit / (n + s) if n + s else 0.0
    r = credit / (n + m) if n + m else 0.0
    return {"precision": p, "recall": r, "f1": 2 * p * r / (p + r) if p + r else 0.0}


def bdm_agreement(corpora: Sequence[Corpus], names: Sequence[str], table: BdmTable, types: Sequence[str],
                  feature: str | Mapping[str, str] | None = None) -> dict[str, Any]:
    """Each annotator pair's BDM counts and Maynard's strict and lenient P, R, F1, and their mean over pairs."""
    if len(corpora) < 2:
        raise RatingsError(f"agreement needs at least two annotation sets, got {len(corpora)}")
    pairs: list[dict[str, Any]] = []
    for (i, a), (j, b) in itertools.combinations(enumerate(names), 2):
        total = [0.0] * 5
        for doc_id, doc in corpora[i].items():
            if doc_id not in corpora[j]:
                continue
            for t in types:
                f = feature.get(t) if isinstance(feature, Mapping) else feature
                keys = [x for x in doc.annotations if x.label == t and x.start is not None]
                resps = [x for x in corpora[j][doc_id].annotations if x.label == t and x.start is not None]
                total = [x + y for x, y in zip(total, _pair_counts(keys, resps, table, f))]
        c, p, n, m, s = total
        pairs.append({"raters": [a, b], "correct": c, "partial": p, "matched": n, "missing": m, "spurious": s,
                      "strict": _rates(c, n, m, s), "lenient": _rates(c + p, n, m, s)})
    mean = {kind: {k: sum(x[kind][k] for x in pairs) / len(pairs) for k in ("precision", "recall", "f1")}
            for kind in ("strict", "lenient")}
    return {"pairs": pairs, "mean": mean}
