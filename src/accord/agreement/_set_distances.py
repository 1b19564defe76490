"""Krippendorff's alpha for set-valued labels (several labels per item), with the MASI or Jaccard distance.

A set-valued rating is a Python ``set``/``frozenset`` (or tuple/list) in a table given from Python, and the text
``a|b`` in a ratings table read from a file or an annotation export: the labels separated by ``|``, spaces around
them ignored (``a | b`` is ``a|b``; ``b|a`` is the same set). A cell holding one label is the set of that label.
An empty cell is a missing rating, never the empty set.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

from ..errors import OptionError, RatingsError
from ._ratings import MISSING

__all__ = ["SET_SEPARATOR", "SET_DISTANCES", "as_label_set", "masi_distance", "jaccard_distance", "distance_matrix",
           "alpha_contributions", "alpha_evaluate"]

SET_SEPARATOR = "|"
"""The separator of the labels of a set-valued rating written as text (``a|b``)."""
SET_DISTANCES = ("masi", "jaccard")


def as_label_set(value: Hashable) -> frozenset[Any]:
    """A rating as a set of labels: sets and sequences as they are, text split at ``|``, anything else alone."""
    if isinstance(value, (set, frozenset, tuple, list)):
        return frozenset(value)
    if isinstance(value, str):
        parts = [p.strip() for p in value.split(SET_SEPARATOR)]
        if any(not p for p in parts):
            raise RatingsError(f"set-valued rating {value!r}: an empty label between '{SET_SEPARATOR}' separators "
                               f"(write the labels as a{SET_SEPARATOR}b)")
        return frozenset(parts)
    return frozenset([value])


def jaccard_distance(a: frozenset[Any], b: frozenset[Any]) -> float:
    """``1 - |a ∩ b| / |a ∪ b|`` (0 for two empty sets)."""
    union = len(a | b)
    return 0.0 if not union else 1.0 - len(a & b) / union


def masi_distance(a: frozenset[Any], b: frozenset[Any]) -> float:
    """MASI (Passonneau 2006): ``1 - J · M`` with ``J`` the Jaccard similarity and ``M`` the monotonicity: 1 for
    equal sets, 2/3 when one contains the other, 1/3 when they overlap otherwise, 0 when disjoint (0 for two empty
    sets)."""
    inter, union = len(a & b), len(a | b)
    if not union:
        return 0.0
    if len(a) == len(b) == inter:
        m = 1.0
    elif inter == min(len(a), len(b)):
        m = 2 / 3
    elif inter:
        m = 1 / 3
    else:
        m = 0.0
    return 1.0 - inter / union * m


def distance_matrix(categories: Sequence[Hashable], distance: str) -> np.ndarray:
    """``k x k``: the distance of every two categories read as sets (:func:`as_label_set`)."""
    if distance not in SET_DISTANCES:
        raise OptionError(f"unknown set distance {distance!r}; expected one of {', '.join(SET_DISTANCES)}")
    fn = masi_distance if distance == "masi" else jaccard_distance
    sets = [as_label_set(c) for c in categories]
    return np.array([[fn(a, b) for b in sets] for a in sets], dtype=np.float64).reshape(len(sets), len(sets))


def alpha_contributions(pat: np.ndarray, delta: np.ndarray) -> np.ndarray:
    """Per pattern: ``[n_c of items rated twice or more (k), Σ_{c,k} n_c n_k δ_ck / (r - 1)]``."""
    k = delta.shape[0]
    u, m = pat.shape
    counts = np.zeros((u, k))
    for j in range(m):
        rated = pat[:, j] != MISSING
        np.add.at(counts, (np.flatnonzero(rated), pat[rated, j]), 1.0)
    r = counts.sum(axis=1)
    two = r >= 2
    out = np.zeros((u, k + 1))
    out[two, :k] = counts[two]
    out[two, k] = np.einsum("ic,cd,id->i", counts[two], delta, counts[two]) / (r[two] - 1)
    return out


def alpha_evaluate(sums: np.ndarray, delta: np.ndarray) -> np.ndarray:
    """``(b, 1)``: ``1 - (n - 1) D_o / Σ n_c n_k δ_ck`` (NaN with one pairable value or no variation)."""
    k = delta.shape[0]
    nc = sums[:, :k]
    n = nc.sum(axis=1)
    expected = np.einsum("bc,cd,bd->b", nc, delta, nc)
    with np.errstate(invalid="ignore", divide="ignore"):
        value = 1 - (n - 1) * sums[:, k] / np.where(expected > 0, expected, 1)
    return np.where((n > 1) & (expected > 0), value, np.nan)[:, None]
