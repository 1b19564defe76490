"""BDM credit: a missing key earns the BDM of a coextensive spurious response of a close concept.

After the Annotation Diff of a document, the keys it left unpaired (``missing``, and the
keys of ``mismatch`` and ``wrong`` rows) are taken in position order; each may claim one
coextensive response the diff left unpaired (``spurious``, and the responses of
``mismatch`` and ``wrong`` rows), of any type, the one with the highest BDM, ties to the
first in position order. The concepts compared are the values of the significant
features when some are named (the response must then have the key's type, and the BDM is
the mean over the features, a missing value counting 0), else the two annotation types.
A claim with BDM > 0 adds the BDM to the key type's credit ``B`` and takes the response
out of the pool.

This is GATE's ``OntologyMeasures.calculateBdm`` (``../shared/notes/gate-evaluation.md``
section 4) with three differences, each a defect in GATE: the pool is one document's
(GATE pools the responses of every document of the table, so offsets of different
documents meet); a key claims at most one response (GATE credits every coextensive one,
so ``B`` can exceed the missing count); and with no significant feature the types are
compared (GATE divides by the empty feature set and gives no credit).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..model import Annotation, span_key
from ._features import _as_string

if TYPE_CHECKING:      # types only: the diff calls this module, this module never calls the diff
    from ._diff import BdmLookup, TypeDiff

__all__ = ["bdm_credit"]

_KEY_LEFT = ("missing", "mismatch", "wrong")
_RESPONSE_LEFT = ("spurious", "mismatch", "wrong")


def _concept_bdm(table: BdmLookup, key: Annotation, resp: Annotation, features: Sequence[str] | None) -> float:
    if not features:
        return table.bdm(key.label, resp.label)
    if key.label != resp.label:
        return 0.0
    total = 0.0
    for f in features:
        kv, rv = key.attributes.get(f), resp.attributes.get(f)
        if kv is not None and rv is not None:
            total += table.bdm(_as_string(kv), _as_string(rv))
    return total / len(features)


def _span_order(a: Annotation) -> tuple[Any, Any]:
    return a.start, a.end


def bdm_credit(by_type: Mapping[str, TypeDiff], table: BdmLookup, features: Sequence[str] | None) -> dict[str, float]:
    """The BDM credit of each type of one document's diff (see the module docstring).

    ``table`` is a :class:`accord.bdm.BdmTable` (anything with ``bdm(a, b) -> float``).
    """
    keys = sorted((r.key for td in by_type.values() for r in td.rows if r.outcome in _KEY_LEFT and r.key is not None),
                  key=_span_order)
    pool: dict[tuple, list[Annotation]] = {}
    for td in by_type.values():
        for r in td.rows:
            if r.outcome in _RESPONSE_LEFT and r.response is not None:
                pool.setdefault(span_key(r.response), []).append(r.response)
    credit = {t: 0.0 for t in by_type}
    for k in keys:
        candidates = pool.get(span_key(k))
        if not candidates:
            continue
        scores = [_concept_bdm(table, k, r, features) for r in candidates]
        best = max(range(len(scores)), key=scores.__getitem__)     # the first of the highest
        if scores[best] > 0:
            credit[k.label] += scores[best]
            del candidates[best]
    return credit
