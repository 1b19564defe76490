"""γ's dynamic programming along the continuum on generated units full of ties (integer boundaries over a short
stretch, the same unit marked by several annotators): its cover is exact and as cheap as an exhaustive search written
here, and its deduplication keeps, of every key, the first of the cheapest partial covers (a loop written here)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from accord.agreement._alignment import _components, candidate_alignments
from accord.agreement._continua import continua_from_rows
from accord.agreement._dissimilarity import Dissimilarity
from accord.agreement._frontier import _first_cheapest, solve_frontier

from ..agreement.test_frontier import _check_cover, _exhaustive
from .harness import PROFILE

settings.load_profile(PROFILE)


@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 3)), min_size=1, max_size=60))
def test_the_first_of_the_cheapest_of_every_key(pairs):
    key = np.array([k for k, _ in pairs], dtype=np.int64)
    cost = np.array([c / 2 for _, c in pairs])
    expected: dict[int, int] = {}
    for i, (k, c) in enumerate(zip(key.tolist(), cost.tolist())):
        if k not in expected or c < cost[expected[k]]:
            expected[k] = i
    assert _first_cheapest(key, cost).tolist() == [expected[k] for k in sorted(expected)]


_unit = st.tuples(st.integers(0, 12), st.integers(1, 4), st.sampled_from("ab"))


@settings(max_examples=60 if PROFILE == "accord-ci" else 300)
@given(st.integers(3, 5), st.data())
def test_the_frontier_covers_exactly_at_the_least_disorder(annotators, data):
    rows = []
    for a in range(annotators):
        for start, length, category in data.draw(st.lists(_unit, min_size=1, max_size=4), label=f"A{a}"):
            rows.append((f"A{a}", "d", float(start), float(start + length), category))
    units = continua_from_rows(list(dict.fromkeys(rows)))
    tuples, disorder = candidate_alignments(units, Dissimilarity())
    comp = _components(tuples)
    picked, hard = solve_frontier(tuples, disorder, comp, units, 1.0)
    solved = np.unique(comp[~hard])
    if not len(solved):
        return
    inside = np.isin(comp, solved)
    _check_cover(tuples[inside], np.flatnonzero(np.isin(np.flatnonzero(inside), picked)))
    expected = sum(_exhaustive(tuples[comp == c], disorder[comp == c]) for c in solved)
    assert abs(float(disorder[picked].sum()) - expected) <= 1e-9 * max(1.0, expected)
