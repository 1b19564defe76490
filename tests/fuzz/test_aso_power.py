"""Almost Stochastic Order and the minimum detectable difference on arbitrary inputs (issue 34, items 4 and 5).

Properties: ε_min lies in [0, 1] for any two lists of finite scores (ties, constants, huge and tiny magnitudes), is
0 when every score of A exceeds every score of B, and a list that is too short or holds a non-finite number is an
:class:`~accord.errors.OptionError`, never another exception; the minimum detectable difference of any per-unit counts
is a non-negative number or NaN (a rate undefined in a resample), and grows with the power asked for.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accord.errors import OptionError
from accord.result import PairsKind
from accord.stats._aso import almost_stochastic_order
from accord.stats._power import (
    minimum_detectable_difference,
    paired_bootstrap_differences,
)

from .harness import FULL, PROFILE

settings.load_profile(PROFILE)
EXAMPLES = 300 if FULL else 60

SCORES = st.lists(st.floats(min_value=-1e12, max_value=1e12, allow_nan=False, allow_infinity=False), min_size=2,
                  max_size=12)
ANY = st.lists(st.one_of(st.floats(), st.integers(-10, 10)), min_size=0, max_size=6)


@settings(max_examples=EXAMPLES, deadline=None)
@given(SCORES, SCORES, st.integers(0, 2**32))
def test_eps_min_lies_in_the_unit_interval(a, b, seed):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        eps = almost_stochastic_order(a, b, samples=50, seed=seed)
    assert 0.0 <= eps <= 1.0
    if min(a) > max(b):
        assert eps == 0.0


@settings(max_examples=EXAMPLES, deadline=None)
@given(ANY, ANY)
def test_bad_scores_are_option_errors(a, b):
    ok = all(len(x) >= 2 and all(math.isfinite(v) for v in x) for x in (a, b))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if ok:
            assert 0.0 <= almost_stochastic_order(a, b, samples=20, seed=0) <= 1.0
        else:
            with pytest.raises(OptionError):
                almost_stochastic_order(a, b, samples=20, seed=0)


COUNTS = st.lists(st.tuples(*[st.integers(0, 30)] * 5), min_size=2, max_size=15)


@settings(max_examples=EXAMPLES, deadline=None)
@given(COUNTS, COUNTS, st.integers(0, 2**32))
def test_the_mdd_is_non_negative_or_undefined(a, b, seed):
    n = min(len(a), len(b))
    kind = PairsKind()
    delta = paired_bootstrap_differences(np.array(a[:n]), np.array(b[:n]), lambda v: kind.rates(v)["f1"],
                                         samples=40, rng=np.random.default_rng(seed))
    low = minimum_detectable_difference(delta, 0.05, 0.5)
    high = minimum_detectable_difference(delta, 0.05, 0.9)
    assert (math.isnan(low) and math.isnan(high)) or 0.0 <= low <= high
