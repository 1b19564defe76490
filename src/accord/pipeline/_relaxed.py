"""Relaxed matching of generated strings scored without alignment (``--align none --relaxed NAME``).

After the strict multiset matching of a document (equal normalised string and label), the gold and predicted strings
left over are paired one-to-one, label by label (a relaxed match needs the same label), so that the total similarity
of the pairs is the largest possible among pairs whose similarity is at least the threshold (and above 0). The
similarities, of the normalised strings (``--normalize``), each from 0 to 1:

- ``token-f1``: the F1 of the two bags of whitespace-separated tokens, as SQuAD's evaluation script computes it
  (common tokens counted with their multiplicity; two empty strings 1, one empty string 0); threshold 0.5 by default;
- ``ratio``: rapidfuzz's ``fuzz.ratio`` divided by 100 (the normalised Indel similarity of the characters; rapidfuzz
  is the ``fuzzy`` extra); threshold 0.8 by default;
- ``containment``: 1 when the tokens of one string are all among the tokens of the other (with multiplicity; a
  string of no token contains nothing), else 0; threshold 1 by default (any threshold in (0, 1] acts the same).

The pairing is optimal (:func:`best_pairs`: scipy's ``linear_sum_assignment`` on the block of a document and a label,
exactly solved directly for a block of one row or one column).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence

import numpy as np

from .._support.surface import spelled
from ..errors import OptionError

__all__ = ["BLOCK_LIMIT", "DEFAULT_THRESHOLDS", "SIMILARITIES", "best_pairs", "check_relaxed", "containment",
           "similarity_matrix", "token_f1"]

DEFAULT_THRESHOLDS = {"token-f1": 0.5, "ratio": 0.8, "containment": 1.0}
"""The threshold of each similarity when none is given."""

BLOCK_LIMIT = 4_000_000
"""The most (gold x predicted) strings left over in one document under one label that are compared (a larger block
is refused before its similarities are computed)."""


def token_f1(a: str, b: str) -> float:
    """SQuAD's F1 of two strings' bags of whitespace-separated tokens (1 for two empty strings, 0 for one)."""
    ta, tb = a.split(), b.split()
    if not ta or not tb:
        return float(ta == tb)
    common = sum((Counter(ta) & Counter(tb)).values())
    if common == 0:
        return 0.0
    precision, recall = common / len(tb), common / len(ta)
    return 2 * precision * recall / (precision + recall)


def containment(a: str, b: str) -> float:
    """1 when the tokens of one string are all among the other's (counted with multiplicity), else 0 (a string of no
    token contains nothing, and two of none are not compared: they are equal, matched strictly)."""
    ca, cb = Counter(a.split()), Counter(b.split())
    if not ca or not cb:
        return 0.0
    return 1.0 if not (ca - cb) or not (cb - ca) else 0.0


def _ratio(a: str, b: str) -> float:
    from rapidfuzz import fuzz

    return float(fuzz.ratio(a, b)) / 100.0


SIMILARITIES: dict[str, Callable[[str, str], float]] = {"token-f1": token_f1, "ratio": _ratio,
                                                          "containment": containment}
"""The similarities by name: ``f(gold_string, predicted_string)`` in [0, 1]."""


def check_relaxed(name: str | None, threshold: float | None) -> float | None:
    """The threshold to use with the similarity ``name`` (its default when ``threshold`` is None); None without a
    similarity.

    Raises
    ------
    OptionError
        An unknown similarity, a threshold outside (0, 1] or without a similarity, ``ratio`` without rapidfuzz.
    """
    if name is None:
        if threshold is not None:
            raise OptionError(f"{spelled('relaxed_threshold')} applies with {spelled('relaxed')} (the similarity: "
                              f"{', '.join(SIMILARITIES)})")
        return None
    if name not in SIMILARITIES:
        raise OptionError(f"{spelled('relaxed')} must be one of {', '.join(SIMILARITIES)}; got {name!r}")
    if threshold is None:
        return DEFAULT_THRESHOLDS[name]
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or math.isnan(threshold) or not (
            0 < threshold <= 1):
        raise OptionError(f"{spelled('relaxed_threshold')} must be a number above 0 and at most 1; got {threshold!r}")
    if name == "ratio":
        try:
            import rapidfuzz  # noqa: F401
        except ImportError:
            raise OptionError(f"{spelled('relaxed', 'ratio')} needs rapidfuzz: pip install 'accord[fuzzy]'") from None
    return float(threshold)


def similarity_matrix(gold: Sequence[str], pred: Sequence[str], name: str) -> np.ndarray:
    """The similarity of every (gold, predicted) pair of strings, gold by rows (each string's tokens counted once;
    ``ratio`` by rapidfuzz's ``cdist``)."""
    out = np.zeros((len(gold), len(pred)), dtype=np.float64)
    if not len(gold) or not len(pred):
        return out
    if name == "ratio":
        from rapidfuzz import fuzz, process

        out[:] = process.cdist(list(gold), list(pred), scorer=fuzz.ratio, dtype=np.float64) / 100.0
        return out
    if name not in ("token-f1", "containment"):     # a similarity added to SIMILARITIES: pair by pair
        fn = SIMILARITIES[name]
        for i, g in enumerate(gold):
            for j, p in enumerate(pred):
                out[i, j] = fn(g, p)
        return out
    bags: dict[str, Counter[str]] = {}
    sizes: dict[str, int] = {}
    for x in (*gold, *pred):
        if x not in bags:
            tokens = x.split()
            bags[x], sizes[x] = Counter(tokens), len(tokens)
    for i, g in enumerate(gold):
        bg, ng = bags[g], sizes[g]
        for j, p in enumerate(pred):
            bp, np_ = bags[p], sizes[p]
            if not ng or not np_:
                out[i, j] = float(ng == np_) if name == "token-f1" else 0.0
                continue
            small, large = (bg, bp) if len(bg) <= len(bp) else (bp, bg)
            common = sum(min(n, large[t]) for t, n in small.items() if t in large)
            if name == "token-f1":
                out[i, j] = 2 * common / (ng + np_)
            else:
                out[i, j] = 1.0 if common == min(ng, np_) else 0.0
    return out


def best_pairs(weights: np.ndarray, threshold: float) -> list[tuple[int, int]]:
    """The one-to-one pairs ``(row, column)`` of largest total weight among the cells whose weight is at least
    ``threshold`` and above 0, in row order.

    A block of one row or one column takes its largest allowed cell (the first of equal ones); a larger one is solved
    by ``scipy.optimize.linear_sum_assignment`` with the cells not allowed at weight 0 (a full assignment of largest
    weight, less its cells of weight 0, is a set of allowed pairs of largest total weight, and the other way)."""
    if weights.size == 0:
        return []
    allowed = (weights >= threshold) & (weights > 0)
    if not allowed.any():
        return []
    w = np.where(allowed, weights, 0.0)
    if w.shape[0] == 1 or w.shape[1] == 1:
        k = int(np.argmax(w.ravel()))
        return [(0, k)] if w.shape[0] == 1 else [(k, 0)]
    from scipy.optimize import linear_sum_assignment

    rows, cols = linear_sum_assignment(w, maximize=True)
    return [(int(r), int(c)) for r, c in zip(rows, cols) if allowed[r, c]]
