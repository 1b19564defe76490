"""GATE's all-way agreement among more than two annotators (the IAA API's ``allway`` figures).

Two figures, both from GATE's IAA plugin (``../shared/notes/gate-evaluation.md`` section 3):

* :func:`iaa_allway_kappa`: the instances are the first annotator's annotations of a type;
  every other annotator contributes the category of its *first overlapping* annotation
  (by start, then end, then document order), or nothing when none overlaps. Categories
  are the feature values found in the corpus plus ``Non-cat`` (no feature, or a value
  outside them; every annotation is ``Non-cat`` when no feature is compared).
* :func:`iaa_allway_counts`: each annotator's Annotation Diff counts against a reference
  set (usually :func:`accord.adjudicate.consensus`), compared value by value of the
  feature as the pairwise figures are, averaged over annotators.

accord's own multi-rater coefficients (:func:`accord.agreement.davies_fleiss_kappa`,
:func:`accord.agreement.fleiss_kappa`) take the items every annotator rated; use these
functions to match numbers reported by GATE.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..diff._features import _as_string
from ..errors import RatingsError
from ..model import Annotation, Corpus, overlap_length, same_extent
from ._sources import NON_CAT
from ._spans import span_agreement

__all__ = ["iaa_allway_kappa", "iaa_allway_counts"]


def _first_overlapping(starts: np.ndarray, ends: np.ndarray, start: int, end: int) -> int:
    """Index of the first span (the spans sorted) overlapping [start, end), or -1.

    Overlap is GATE's: the two spans share a character, or they are the same span. Only
    spans starting before ``end`` (found by bisection) are looked at.
    """
    stop = int(np.searchsorted(starts, end, side="right"))
    s, e = starts[:stop], ends[:stop]
    hit = ((s < end) & (e > start)) | ((s == start) & (e == end))
    k = int(hit.argmax()) if stop else 0
    return k if stop and hit[k] else -1


def iaa_allway_kappa(corpora: Sequence[Corpus], names: Sequence[str], *, type: str,
                     feature: str | None = None) -> dict[str, Any]:
    """Observed agreement, Davies & Fleiss' kappa and the Siegel & Castellan m-rater kappa, GATE's way.

    With ``N`` instances, ``m`` annotators, ``y_ic`` the annotators giving instance ``i``
    category ``c``, ``a_cj`` annotator ``j``'s count of ``c``,
    ``p_cj = a_cj / Σ_c a_cj`` and ``p_c = Σ_j a_cj / Σ_cj a_cj``:

    .. math:: \\kappa_{DF} = 1 - \\frac{N m^2 - \\sum_i \\sum_c y_{ic}^2}
              {N \\left[m (m - 1) \\sum_c p_c (1 - p_c) + \\sum_c \\sum_j (p_{cj} - p_c)^2\\right]}

    (0 when the denominator vanishes, GATE's convention). ``P_o`` is the share of instances
    on which all ``m`` annotators gave the same category (an annotator with no overlapping
    annotation breaks agreement), and

    .. math:: \\kappa_{SC} = \\frac{P_o - P_e}{1 - P_e}, \\quad
              P_e = \\sum_c \\left(\\frac{n_c}{N m}\\right)^m

    with ``n_c`` the number of judgements of ``c`` (0 when ``P_e = 1``, where GATE divides by
    zero). Missing judgements count in ``N m`` but
    in no ``y_ic``, as in GATE; unlike accord's :func:`~accord.agreement.davies_fleiss_kappa`
    these figures do not leave incomplete instances out. Documents the first annotator
    lacks are skipped; an annotator lacking a document gives no judgement on it.

    Returns
    -------
    dict
        ``observed_agreement``, ``davies_fleiss_kappa``, ``siegel_castellan_kappa``,
        ``instances`` and ``categories`` (the category names, ``Non-cat`` last).
    """
    m = len(corpora)
    if m < 2 or len(names) != m:
        raise RatingsError(f"all-way agreement needs two or more annotation sets with one name each, got {m} "
                           f"sets and {len(names)} names")

    def of_type(c: Corpus, doc_id: str) -> list[Annotation]:
        if doc_id not in c:
            return []
        return sorted((a for a in c[doc_id].annotations if a.label == type and a.start is not None),
                      key=lambda a: (a.start, a.end))

    labels: list[str] = []
    if feature is not None:
        labels = sorted({_as_string(a.attributes[feature]) for c in corpora for d in c.documents
                         for a in d.annotations if a.label == type and feature in a.attributes})
    index = {v: k for k, v in enumerate(labels)}
    n_cat = len(labels) + 1

    def category(a: Annotation) -> int:
        if feature is None or feature not in a.attributes:
            return n_cat - 1
        return index.get(_as_string(a.attributes[feature]), n_cat - 1)

    rows: list[list[int]] = []              # per instance: category per annotator, -1 for none
    for doc in corpora[0].documents:
        sets = [of_type(c, doc.id) for c in corpora]
        bounds = [(np.fromiter((a.start for a in x), dtype=np.int64, count=len(x)),
                   np.fromiter((a.end for a in x), dtype=np.int64, count=len(x))) for x in sets]
        pieces = [any(x.fragments is not None for x in other) for other in sets]
        for a in sets[0]:
            assert a.start is not None and a.end is not None  # of_type keeps spanned annotations
            row = [category(a)]
            for other, (starts, ends), in_pieces in zip(sets[1:], bounds[1:], pieces[1:]):
                k = _first_overlapping(starts, ends, a.start, a.end)
                if k >= 0 and (a.fragments is not None or in_pieces):
                    # a discontinuous span: the first whose pieces overlap (the extents found the candidates)
                    k = next((j for j, x in enumerate(other) if overlap_length(a, x) > 0 or same_extent(a, x)), -1)
                row.append(-1 if k < 0 else category(other[k]))
            rows.append(row)
    n = len(rows)
    cats = labels + [NON_CAT]
    if not n:
        return {"observed_agreement": 0.0, "davies_fleiss_kappa": 0.0, "siegel_castellan_kappa": 0.0,
                "instances": 0, "categories": cats}
    r = np.asarray(rows)
    onehot = (r[:, :, None] == np.arange(n_cat)[None, None, :])      # instance x annotator x category
    y = onehot.sum(axis=1)                                           # instance x category
    a_cj = onehot.sum(axis=0).T.astype(float)                        # category x annotator
    per_judge = a_cj.sum(axis=0)
    p_cj = np.divide(a_cj, per_judge, out=np.zeros_like(a_cj), where=per_judge > 0)
    p_c = a_cj.sum(axis=1) / a_cj.sum()
    term1 = float((p_c * (1 - p_c)).sum())
    term2 = float(((p_cj - p_c[:, None]) ** 2).sum())
    y2 = float((y ** 2).sum())
    kappa_df = 1 - (n * m * m - y2) / (n * (m * (m - 1) * term1 + term2)) if term1 > 0 or term2 > 0 else 0.0
    po = float((y == m).any(axis=1).sum() / n)
    pe = float(((y.sum(axis=0) / (n * m)) ** m).sum())
    kappa_sc = (po - pe) / (1 - pe) if pe != 1 else 0.0
    return {"observed_agreement": po, "davies_fleiss_kappa": float(kappa_df),
            "siegel_castellan_kappa": float(kappa_sc), "instances": n, "categories": cats}


def iaa_allway_counts(corpora: Sequence[Corpus], names: Sequence[str], reference: Corpus, *, type: str,
                      feature: str | None = None) -> dict[str, float]:
    """Each annotator's Annotation Diff against ``reference``, the counts averaged over annotators.

    The reference is the key. With a ``feature`` annotations are compared only with those
    carrying the same value, and annotations without it are left out (as the pairwise
    figures of :func:`accord.agreement.span_agreement`). Returns the mean ``correct``,
    ``partial``, ``spurious`` and ``missing`` (GATE's ``allwayIaaFmeasure`` figures).
    """
    if "reference" in names:
        raise RatingsError("an annotator is named 'reference'; rename it")
    totals = {"correct": 0.0, "partial": 0.0, "spurious": 0.0, "missing": 0.0}
    for corpus, name in zip(corpora, names):   # one diff per annotator, not every pair of annotators
        c = span_agreement([reference, corpus], ["reference", name], types=[type], feature=feature).counts(
            "reference", name)
        for k in totals:
            totals[k] += getattr(c, k)
    return {k: v / len(names) for k, v in totals.items()}
