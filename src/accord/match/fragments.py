"""Candidate pairs found on the extents of spans, corrected for discontinuous spans.

The vectorised pairings (the Annotation Diff, the SemEval schemas, the span tables) find
candidates on each span's covering extent, ``[start, end)``. For a discontinuous span
(:attr:`~accord.model.Annotation.fragments`) that extent is a superset of what it covers:
two spans whose extents overlap may share no offset, and two spans with the same extent may
have different pieces. :func:`refine` recomputes both predicates on the pieces for the few
candidates that involve a discontinuous span; every other candidate keeps its answer.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .._support.arrays import Bools, Ints
from ..model import Annotation, overlap_length, same_extent

__all__ = ["has_fragments", "refine"]


def has_fragments(anns: Sequence[Annotation]) -> Bools:
    """A boolean per annotation: whether its span is discontinuous."""
    return np.fromiter((a.fragments is not None for a in anns), dtype=bool, count=len(anns))


def refine(gi: Ints, pi: Ints, same: Bools, overlap: Bools,
           gold: Sequence[Annotation], pred: Sequence[Annotation]) -> tuple[Bools, Bools]:
    """``same`` (equal extents) and ``overlap`` of candidate pairs ``(gold[gi[k]], pred[pi[k]])``, recomputed on
    the pieces where either span is discontinuous (:func:`~accord.model.same_extent`,
    :func:`~accord.model.overlap_length` ``> 0``). Returns new arrays; the inputs are not changed."""
    g_frag, p_frag = has_fragments(gold), has_fragments(pred)
    if not g_frag.any() and not p_frag.any():
        return same, overlap
    same, overlap = same.copy(), overlap.copy()
    for k in np.flatnonzero(g_frag[gi] | p_frag[pi]).tolist():
        r, h = gold[int(gi[k])], pred[int(pi[k])]
        same[k] = same_extent(r, h)
        overlap[k] = overlap_length(r, h) > 0
    return same, overlap
