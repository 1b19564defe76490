"""Sparse units for the γ tests: every annotator marks the same items with jittered boundaries, some left out."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

Row = tuple[str, str, float, float, str]


def sparse_rows(n: int, annotators: int, seed: int, categories: str = "abcd", *, gaps: tuple[float, float] = (5, 40),
                left_out: float = 0.1, weights: Sequence[float] | None = None) -> list[Row]:
    """Rows ``(annotator, document, start, end, category)`` of ``n`` items: items ``gaps`` apart (uniform), each
    annotator's boundaries jittered (normal, SD 2), lengths about 8, a share ``left_out`` of items left out, the
    category drawn from ``categories`` (with ``weights``); repeated rows are kept once."""
    rng = np.random.default_rng(seed)
    base = np.cumsum(rng.uniform(gaps[0], gaps[1], size=n))
    rows: list[Row] = []
    for a in range(annotators):
        start = np.round(base + rng.normal(0, 2, n))
        length = np.maximum(1, np.round(np.abs(rng.normal(8, 4, n))))
        keep = rng.random(n) > left_out
        category = rng.choice(list(categories), n, p=weights)
        rows += [(f"A{a}", "d", float(s), float(s + ln), c) for s, ln, c, k in zip(start, length, category, keep) if k]
    return list(dict.fromkeys(rows))
