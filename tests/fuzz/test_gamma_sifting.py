"""γ's column generation over the listed candidates (``accord.agreement._sifting``) on generated units of 3 to 7
annotators over a short stretch (fractional relaxations, many ties): its cover is exact and costs what HiGHS's
integer program over every candidate finds, whichever exact solver it is handed for the tuples near its bound."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import sparse

from accord.agreement._alignment import _exact_cover, candidate_alignments
from accord.agreement._alignment_base import mip
from accord.agreement._continua import continua_from_rows
from accord.agreement._dissimilarity import Dissimilarity
from accord.agreement._sifting import solve_listed

from .harness import PROFILE

settings.load_profile(PROFILE)

_unit = st.tuples(st.integers(0, 20), st.integers(1, 6), st.sampled_from("abc"))


def _incidence(tuples: np.ndarray) -> tuple[sparse.csc_array, np.ndarray]:
    cand, col = np.nonzero(tuples >= 0)
    used, row = np.unique(tuples[cand, col], return_inverse=True)
    return sparse.csc_array((np.ones(len(cand)), (row, cand)), shape=(len(used), len(tuples))), used


def _mip_cover(tuples: np.ndarray, disorder: np.ndarray) -> np.ndarray:
    """HiGHS's integer program over every candidate given (the independent side)."""
    matrix, _ = _incidence(tuples)
    result = mip(disorder, matrix, np.arange(len(tuples)))
    assert result.status == 0
    return np.flatnonzero(result.x > 0.5)


@settings(max_examples=40 if PROFILE == "accord-ci" else 300, deadline=None)
@given(st.integers(3, 7), st.booleans(), st.data())
def test_the_listed_column_generation_covers_exactly_at_the_least_disorder(annotators, frontier, data):
    rows = []
    for a in range(annotators):
        for start, length, category in data.draw(st.lists(_unit, min_size=1, max_size=5), label=f"A{a}"):
            rows.append((f"A{a}", "d", float(start), float(start + length), category))
    units = continua_from_rows(list(dict.fromkeys(rows)))
    diss = Dissimilarity()
    tuples, disorder = candidate_alignments(units, diss)
    if frontier:
        def exact(t: np.ndarray, d: np.ndarray) -> np.ndarray:
            return _exact_cover(t, d, units, diss.delta_empty, "")
    else:
        exact = _mip_cover
    picked, _ = solve_listed(tuples, disorder, exact)
    matrix, used = _incidence(tuples)
    assert len(used) == len(units)
    assert (matrix @ np.isin(np.arange(len(tuples)), picked).astype(float) == 1).all()    # an exact cover
    expected = float(disorder[_mip_cover(tuples, disorder)].sum())
    assert abs(float(disorder[picked].sum()) - expected) <= 1e-7 * max(1.0, expected)


@settings(max_examples=30 if PROFILE == "accord-ci" else 200, deadline=None)
@given(st.integers(3, 6), st.data())
def test_the_dense_lookup_of_pairs_lists_the_same_candidates_bit_for_bit(annotators, data):
    """The candidates listed with the pairs looked up in a table per pair of annotators (annotators with different
    numbers of units; one document or two) equal those of the binary search in each pair of annotators' codes: the
    same tuples, in the same order, with the same disorders to the last bit."""
    import accord.agreement._alignment as alignment

    documents = data.draw(st.sampled_from([1, 2]), label="documents")  # one: each annotator's units are one run
    rows = []
    for a in range(annotators):         # (an annotator may have no units, in a document or at all)
        for start, length, category in data.draw(st.lists(_unit, min_size=int(a < 2), max_size=6), label=f"A{a}"):
            rows.append((f"A{a}", f"d{start % documents}", float(start), float(start + length), category))
    units = continua_from_rows(list(dict.fromkeys(rows)))
    # the whole continuum, and each document alone (where an annotator may have no units: a sample of γ)
    for part in [units] + [units.take_rows(d, piece) for d, piece in enumerate(units.document_slices())]:
        dense_rows, dense_disorder = candidate_alignments(part, Dissimilarity())
        saved = alignment.DENSE_LOOKUP_CELLS
        alignment.DENSE_LOOKUP_CELLS = 0
        try:
            sorted_rows, sorted_disorder = candidate_alignments(part, Dissimilarity())
        finally:
            alignment.DENSE_LOOKUP_CELLS = saved
        assert np.array_equal(dense_rows, sorted_rows)
        assert dense_disorder.tobytes() == sorted_disorder.tobytes()
