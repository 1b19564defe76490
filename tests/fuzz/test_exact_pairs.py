"""Exact pairing (:func:`accord.match.blocks.exact_pairs`, the strict path's pairing) against a plain Python
reference: equal key rows pair one to one in order of occurrence (the k-th gold occurrence of a key with its k-th
predicted occurrence), the pairs ordered by key and then by occurrence. Keys of a few values (many duplicates) and of
values near the int64 limits (where the id and the rank do not fit in one integer)."""

from __future__ import annotations

from collections import defaultdict

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from accord.match.blocks import exact_pairs

from .harness import PROFILE

settings.load_profile(PROFILE)


def _reference(gold: list[tuple[int, ...]], pred: list[tuple[int, ...]]) -> tuple[list[int], list[int]]:
    g_at: dict[tuple[int, ...], list[int]] = defaultdict(list)
    p_at: dict[tuple[int, ...], list[int]] = defaultdict(list)
    for k, key in enumerate(gold):
        g_at[key].append(k)
    for k, key in enumerate(pred):
        p_at[key].append(k)
    gi, pi = [], []
    for key in sorted(set(g_at) & set(p_at)):
        for g, p in zip(g_at[key], p_at[key]):
            gi.append(g)
            pi.append(p)
    return gi, pi


_SMALL = st.integers(-3, 3)
_HUGE = st.sampled_from([-(2**63), -(2**62), -1, 0, 1, 2**62, 2**63 - 1])


@given(st.integers(1, 4), st.data())
def test_rows_pair_in_order_of_occurrence(width, data):
    value = data.draw(st.sampled_from([_SMALL, _HUGE])) if width == 1 else _SMALL
    row = st.tuples(*[value] * width)
    gold = data.draw(st.lists(row, max_size=30))
    pred = data.draw(st.lists(row, max_size=30))
    shape = (0, width)
    g = np.array(gold, dtype=np.int64).reshape(-1, width) if gold else np.zeros(shape, dtype=np.int64)
    p = np.array(pred, dtype=np.int64).reshape(-1, width) if pred else np.zeros(shape, dtype=np.int64)
    if width == 1 and data.draw(st.booleans()):
        g, p = g.reshape(-1), p.reshape(-1)     # one key column given flat
    gi, pi = exact_pairs(g, p)
    assert (gi.tolist(), pi.tolist()) == _reference(gold, pred)
