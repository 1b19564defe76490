"""Memory regression guard of γ's exact alignment (issue 41: dense 3 x 1,000 units in at most 500 MB), CI-sized.

A random continuum drawn for γ's expected disorder from 3 annotators x 500 dense units (over a stretch of 1,000, at
most 60 long: issue 41's case at half its size) has about 510,000 candidate unitary alignments in one component,
listed and then priced over its list (``agreement/_sifting.py``). What the alignment allocates at its peak, traced
by ``tracemalloc`` (the same from run to run, unlike a resident size), is bounded per candidate:

- at most 380 bytes per candidate (before: 527, the tried pairs of the listing all at once, 64-bit incidence
  arrays of every member, and the frontier's arrays for a component it leaves to the integer program; now 260).
"""

from __future__ import annotations

import tracemalloc

import numpy as np

from accord.agreement._alignment import best_alignment, candidate_alignments
from accord.agreement._continua import continua_from_rows
from accord.agreement._dissimilarity import Dissimilarity
from accord.agreement._gamma import _canonical
from accord.agreement._samplers import sample_continua
from tests.agreement.test_gamma import dense_rows


def test_a_dense_sample_is_aligned_in_bounded_memory_per_candidate():
    units = _canonical(continua_from_rows(dense_rows(500, 1000.0)))[0]
    sample = sample_continua(units, 1, np.random.default_rng(1), "statistical")
    candidates = len(candidate_alignments(sample, Dissimilarity())[0])
    assert candidates > 400_000          # large enough to be priced over its list (more than 200,000)
    tracemalloc.start()
    try:
        alignment = best_alignment(sample, Dissimilarity())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    covered = np.sort(alignment.units[alignment.units >= 0])
    assert np.array_equal(covered, np.arange(len(sample)))      # every unit aligned once
    assert peak / candidates <= 380, f"{peak / candidates:.0f} bytes per candidate ({peak >> 20} MiB)"
