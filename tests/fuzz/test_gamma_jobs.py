"""γ in several processes (``jobs=2``) on generated units of 2 to 5 annotators over several documents, some of them
empty or held by one annotator only, both samplers: every table and the alignment equal those of one process, and
so does the work counted (which sizes the batches of samples). The groups of documents are made small by lowering
:data:`~accord.agreement._alignment.GROUP_CANDIDATES`, so that most documents are aligned apart."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accord.agreement import _alignment
from accord.agreement._continua import continua_from_rows
from accord.agreement._gamma import gamma_tables
from accord.parallel._run import usable_cores

from .harness import PROFILE

settings.load_profile(PROFILE)

pytestmark = pytest.mark.skipif(usable_cores() < 2, reason="a pool of processes needs two cores here")

_unit = st.tuples(st.integers(0, 40), st.integers(1, 8), st.sampled_from("abc"))


@settings(max_examples=12 if PROFILE == "accord-ci" else 80, deadline=None)
@given(st.integers(2, 5), st.integers(1, 4), st.sampled_from(["statistical", "shuffle"]), st.booleans(), st.data())
def test_gamma_in_two_processes_has_every_figure_of_one(annotators, documents, sampler, small_groups, data):
    rows = []
    for d in range(documents):
        for a in range(annotators):
            for start, length, category in data.draw(st.lists(_unit, max_size=6), label=f"d{d} A{a}"):
                rows.append((f"A{a}", f"d{d}", float(start), float(start + length), category))
    rows = list(dict.fromkeys(rows))
    names = {r[0] for r in rows}
    if len(names) < 2:
        rows += [(f"A{a}", "d0", 1.0, 3.0, "a") for a in range(2)]
    units = continua_from_rows(rows)
    seed = data.draw(st.integers(0, 5), label="seed")
    with pytest.MonkeyPatch.context() as patch:
        if small_groups:
            patch.setattr(_alignment, "GROUP_CANDIDATES", 5)
        one, alignment = gamma_tables(units, samples=4, sampler=sampler, seed=seed)
        two, alignment_two = gamma_tables(units, samples=4, sampler=sampler, seed=seed, jobs=2)
    for name in ("observed", "expected", "observed_cat", "expected_cat", "observed_k", "expected_k"):
        assert np.array_equal(getattr(one, name), getattr(two, name), equal_nan=True), name
    for name in ("units", "disorder", "document"):
        assert np.array_equal(getattr(alignment, name), getattr(alignment_two, name)), name
    assert alignment.candidates == alignment_two.candidates
