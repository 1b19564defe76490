"""γ's samples in batches: a short last batch is drawn apart (the same random continua as before) but aligned with the
batch before it, and gives the disorders each sample has when aligned alone."""

from __future__ import annotations

import numpy as np

from accord.agreement import _gamma
from accord.agreement._alignment import best_alignment
from accord.agreement._continua import Continua, continua_from_rows
from accord.agreement._dissimilarity import Dissimilarity
from accord.agreement._samplers import sample_continua

from ._units import sparse_rows


def test_a_short_last_batch_is_aligned_with_the_one_before(monkeypatch):
    units = continua_from_rows(sparse_rows(30, 4, seed=7))
    calls: list[int] = []

    def counted(continua, diss, what=""):
        calls.append(len(continua.documents))
        return best_alignment(continua, diss, what)

    monkeypatch.setattr(_gamma, "best_alignment", counted)
    monkeypatch.setattr(_gamma, "_BATCH_UNITS", 8 * len(units) + 1)        # 8 samples a batch
    tables, _ = _gamma.gamma_tables(units, samples=10, seed=3)
    assert calls == [1, 10]             # the observed continuum, then 8 + 2 samples in one pass (3 passes before)
    # the same draws, 8 then 2 from one generator, each sample aligned on its own
    canonical = _gamma._canonical(units)[0]
    rng = np.random.default_rng(3)
    alone, sizes = [], []
    for count in (8, 2):
        sampled = sample_continua(canonical, count, rng)
        for s in range(count):
            rows = np.flatnonzero(sampled.document == s)
            one = Continua(sampled.annotators, ("d",), sampled.categories, np.zeros(len(rows), dtype=np.int64),
                           sampled.annotator[rows], sampled.category[rows], sampled.start[rows], sampled.end[rows])
            alone.append(best_alignment(one, Dissimilarity()).disorder.sum())
            sizes.append(len(rows))
    assert np.allclose(tables.expected[:, 0, 0], alone, rtol=1e-12, atol=0)
    assert tables.expected[:, 0, 1].tolist() == sizes
