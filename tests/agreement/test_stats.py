"""The sufficient statistics: the two-rater shortcut equals the general passes."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accord.agreement._ratings import to_ratings
from accord.agreement._stats import _any_raters, agreement_stats


def same(a, b):
    assert (a.categories, a.raters, a.n_pairable, a.n_rated, a.complete) == \
        (b.categories, b.raters, b.n_pairable, b.n_rated, b.complete)
    assert set(a.pairs) == set(b.pairs) and all(np.array_equal(a.pairs[p], b.pairs[p]) for p in a.pairs)
    for field in ("pa_sum", "y2"):
        assert getattr(a, field) == pytest.approx(getattr(b, field), abs=1e-9)
    for field in ("pi_sum", "coincidence", "rater_counts"):
        np.testing.assert_allclose(getattr(a, field), getattr(b, field), atol=1e-9)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("abcd"), st.sampled_from("abcd")), min_size=1, max_size=40))
def test_two_complete_raters_equal_the_general_statistics(pairs):
    ratings = to_ratings({"x": [p[0] for p in pairs], "y": [p[1] for p in pairs]})
    same(agreement_stats(ratings), _any_raters(ratings))


def test_a_missing_rating_takes_the_general_path():
    ratings = to_ratings({"x": ["a", "b", None], "y": ["a", "a", "b"]})
    same(agreement_stats(ratings), _any_raters(ratings))
    assert agreement_stats(ratings).complete == 2
