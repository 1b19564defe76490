"""γ, γ-cat and γ-k against pygamma-agreement: observed disorders exactly, expected disorders within the sampling
error of both, reproducible under a seed."""

from __future__ import annotations

import logging

import numpy as np
import pytest

from accord.agreement._alignment import best_alignment
from accord.agreement._continua import continua_from_rows
from accord.agreement._dissimilarity import Dissimilarity, categorical_matrix
from accord.agreement._gamma import _cat_disorder, _cat_sums, gamma_tables

from ._units import sparse_rows


def corpus(seed: int, n: int = 12, annotators: int = 3):
    return sparse_rows(n, annotators, seed, "abc", weights=[.6, .3, .1])


def continuum(rows):
    pa = pytest.importorskip("pygamma_agreement")
    from pyannote.core import Segment

    logging.getLogger().setLevel(logging.ERROR)
    c = pa.Continuum()
    for a, _, s, e, cat in rows:
        c.add(a, Segment(s, e), cat)
    return pa, c


@pytest.mark.parametrize("seed", range(4))
def test_gamma_cat_and_k_observed_disorders_equal_pygamma(seed):
    rows = corpus(seed)
    pa, c = continuum(rows)
    d = pa.CombinedCategoricalDissimilarity()
    theirs = c.get_best_alignment(d)
    units = continua_from_rows(rows)
    cat, per_k = _cat_sums(units, best_alignment(units, Dissimilarity()), Dissimilarity(), 1)
    assert float(_cat_disorder(cat[0])) == pytest.approx(float(theirs.gamma_k_disorder(d, None)), rel=1e-5)
    for k, name in enumerate(units.categories):
        assert float(_cat_disorder(per_k[0, k])) == pytest.approx(float(theirs.gamma_k_disorder(d, name)), rel=1e-5)


def test_gamma_within_sampling_error_of_pygamma():
    rows = corpus(1, n=12)
    pa, c = continuum(rows)
    np.random.seed(0)
    theirs = c.compute_gamma(pa.CombinedCategoricalDissimilarity(), n_samples=60)
    their_samples = np.array([a.disorder for a in theirs.chance_alignments])
    tables, _ = gamma_tables(continua_from_rows(rows), samples=60, seed=1)
    v = tables.values()
    assert v["observed_disorder"] == pytest.approx(float(theirs.observed_disorder), rel=1e-5)
    per_sample = tables.expected[:, 0, 0] / (tables.expected[:, 0, 1] / 3)
    error = np.sqrt(their_samples.var() / len(their_samples) + per_sample.var() / len(per_sample))
    assert abs(v["expected_disorder"] - float(theirs.expected_disorder)) < 4 * error
    assert abs(v["gamma"] - float(theirs.gamma)) < 4 * error * v["observed_disorder"] / v["expected_disorder"] ** 2 + 1e-9


def test_shuffle_sampler_within_sampling_error_of_pygamma():
    rows = corpus(2, n=10)
    pa, c = continuum(rows)
    np.random.seed(0)
    theirs = c.compute_gamma(pa.CombinedCategoricalDissimilarity(), n_samples=60, sampler=pa.ShuffleContinuumSampler())
    their_samples = np.array([a.disorder for a in theirs.chance_alignments])
    tables, _ = gamma_tables(continua_from_rows(rows), samples=60, sampler="shuffle", seed=3)
    per_sample = tables.expected[:, 0, 0] / (tables.expected[:, 0, 1] / 3)
    error = np.sqrt(their_samples.var() / 60 + per_sample.var() / 60)
    assert abs(per_sample.mean() - float(theirs.expected_disorder)) < 4 * error


def test_reproducible_under_a_seed_and_different_across_seeds():
    units = continua_from_rows(corpus(5))
    a, _ = gamma_tables(units, samples=10, seed=7)
    b, _ = gamma_tables(units, samples=10, seed=7)
    c, _ = gamma_tables(units, samples=10, seed=8)
    assert a.values() == b.values()
    assert a.values()["gamma"] != c.values()["gamma"]
    assert gamma_tables(units, samples=10)[0].values() == gamma_tables(units, samples=10, seed=0)[0].values()


def test_precision_draws_more_samples():
    """S >= (1.96 cv / p)²: with p = 1% and the cv of 5 samples, more are drawn."""
    units = continua_from_rows(corpus(3))
    tables, _ = gamma_tables(units, samples=5, precision="high", seed=0)
    first5 = tables.expected[:5, 0, 0] / (tables.expected[:5, 0, 1] / 3)
    cv = first5.std() / first5.mean()
    assert tables.samples == max(5, int(np.ceil((cv * 1.96 / 0.01) ** 2)))


def test_perfect_agreement_is_one():
    rows = [(a, "d", s, s + 5.0, "x") for a in ("A", "B", "C") for s in (0.0, 10.0, 30.0)]
    tables, alignment = gamma_tables(continua_from_rows(rows), samples=5)
    v = tables.values()
    assert v["gamma"] == 1.0 and v["gamma_cat"] == 1.0 and v["observed_disorder"] == 0.0
    assert len(alignment) == 3


def test_documents_add_up():
    rows = corpus(4) + [(a, "e", s + 1000, e + 1000, c) for a, _, s, e, c in corpus(6)]
    units = continua_from_rows(rows)
    whole, _ = gamma_tables(units, samples=8, seed=2)
    one, _ = gamma_tables(units.take_document(0), samples=8, seed=2)
    assert whole.observed[0] == pytest.approx(one.observed[0])
    merged = one + gamma_tables(units.take_document(1), samples=8, seed=2)[0]
    assert merged.values()["observed_disorder"] == pytest.approx(whole.values()["observed_disorder"])


def test_categorical_matrices():
    cats = ["ab", "abc", "x"]
    lev = categorical_matrix("levenshtein", cats)
    assert lev[0, 1] == pytest.approx(1 / 4)          # one edit, longer name 3 + 1
    assert lev[0, 2] == pytest.approx(2 / 3)          # two edits, longer name 2 + 1
    num = categorical_matrix("numerical", ["1", "3", "2"])
    assert num[0, 1] == pytest.approx(1.0) and num[0, 2] == pytest.approx(0.5)
    pa = pytest.importorskip("pygamma_agreement")
    theirs = pa.LevenshteinCategoricalDissimilarity(cats)
    assert lev == pytest.approx(theirs._matrix, rel=1e-6)


def test_categorical_distance_file_equals_pygamma_precomputed(tmp_path):
    """A CSV of distances gives the matrix it says, and the observed disorder of pygamma-agreement's
    PrecomputedCategoricalDissimilarity with that matrix."""
    path = tmp_path / "distances.csv"
    path.write_text("first,second,distance\na,b,0.25\nc,a,0.5\nb,c,1\n")
    matrix = categorical_matrix(path, ["a", "b", "c"])
    assert matrix.tolist() == [[0, 0.25, 0.5], [0.25, 0, 1], [0.5, 1, 0]]
    rows = corpus(7)
    units = continua_from_rows(rows)
    ours = best_alignment(units, Dissimilarity(matrix=matrix))
    pa, c = continuum(rows)
    from sortedcontainers import SortedSet

    cat = pa.PrecomputedCategoricalDissimilarity(SortedSet(["a", "b", "c"]), matrix.astype(np.float32))
    theirs = c.get_best_alignment(pa.CombinedCategoricalDissimilarity(cat_dissim=cat))
    assert ours.disorder.sum() / (len(units) / 3) == pytest.approx(float(theirs.disorder), rel=2e-6)
    path.write_text("a,b,0.25\n")
    with pytest.raises(Exception, match="no distance between 'a' and 'c'"):
        categorical_matrix(path, ["a", "b", "c"])


def _two_documents():
    return ([(a, "d1", s, e, c) for a, _, s, e, c in corpus(3, n=15)]
            + [(a, "d0", s, e, c) for a, _, s, e, c in corpus(5, n=8)])


@pytest.mark.parametrize("sampler", ["statistical", "shuffle"])
def test_permuting_rows_and_annotator_names_gives_the_same_gamma(sampler):
    """Under one seed, the order of the rows (hence of the documents and annotators) and the names of the
    annotators change nothing: the samples are drawn from the units in a canonical order. (Before, the shuffle
    sampler's γ moved by 0.02 and the statistical one's in its last digits.)"""
    import random

    rows = _two_documents()
    first = gamma_tables(continua_from_rows(rows), samples=10, seed=7, sampler=sampler)[0]
    reference = first.values()
    per_document = {d: first.values(np.array([i]))["gamma"] for i, d in enumerate(first.documents)}
    for trial in range(4):
        shuffled = list(rows)
        random.Random(trial).shuffle(shuffled)
        names = ["A0", "A1", "A2"]
        renamed = dict(zip(names, random.Random(trial + 10).sample(["x", "y", "z"], 3)))
        shuffled = [(renamed[a], d, s, e, c) for a, d, s, e, c in shuffled]
        units = continua_from_rows(shuffled)
        tables, alignment = gamma_tables(units, samples=10, seed=7, sampler=sampler)
        values = tables.values()
        assert (values["gamma"], values["gamma_cat"], values["expected_disorder"]) == \
            (reference["gamma"], reference["gamma_cat"], reference["expected_disorder"])
        assert {d: tables.values(np.array([i]))["gamma"] for i, d in enumerate(tables.documents)} == per_document
        # the alignment is in the input's rows and annotators: every unit once, in its annotator's column
        cover = np.bincount(alignment.units[alignment.units >= 0], minlength=len(units))
        assert (cover == 1).all()
        for col in range(3):
            members = alignment.units[:, col]
            assert (units.annotator[members[members >= 0]] == col).all()
        assert (units.document[alignment.units.max(axis=1)] == alignment.document).all()


@pytest.mark.timing
def test_precision_past_the_cap_is_capped_with_a_warning():
    """--precision 1e-9 asks for ~10^16 samples (it never ended): drawn MAX_SAMPLES, with a warning naming the
    precision obtained, 1.96 cv / sqrt(S)."""
    import time

    from accord.agreement import _gamma
    from accord.errors import AgreementWarning

    units = continua_from_rows(corpus(3))
    t = time.process_time()
    with pytest.warns(AgreementWarning, match=r"asks for [\d,]+ samples .* drawn 1,000, .* precision of") as caught:
        tables, _ = gamma_tables(units, samples=5, precision=1e-9, seed=0)
    assert time.process_time() - t < 60
    assert tables.samples == _gamma.MAX_SAMPLES == 1000
    first5 = tables.expected[:5, 0, 0] / (tables.expected[:5, 0, 1] / 3)
    cv = first5.std() / first5.mean()
    assert f"{1.96 * cv / np.sqrt(1000):.3g}" in str(caught[0].message)


def test_samples_past_the_cap_are_refused():
    from accord.errors import OptionError

    units = continua_from_rows(corpus(3))
    with pytest.raises(OptionError, match="--samples 1,001 is more than γ draws .at most 1,000"):
        gamma_tables(units, samples=1001)
    many = [(a, f"d{k}", 0.0, 5.0, f"c{k % 500}") for k in range(2000) for a in ("A", "B")]
    with pytest.raises(OptionError, match=r"at most \d+ for 2,000 documents and 500 categories"):
        gamma_tables(continua_from_rows(many), samples=30)


def dense_rows(n: int, stretch: float, seed: int = 0):
    """``n`` units of each of three annotators, uniformly over ``[0, stretch)``, lengths up to ``stretch / 4``."""
    rng = np.random.default_rng(seed)
    rows = []
    for a in range(3):
        s = np.round(rng.uniform(0, stretch, n))
        length = np.maximum(1, np.round(rng.uniform(1, max(2.0, min(stretch / 4, 60)), n)))
        category = rng.choice(list("abcd"), n)
        rows += [(f"A{a}", "d", float(x), float(x + y), str(c)) for x, y, c in zip(s, length, category)]
    return list(dict.fromkeys(rows))


@pytest.mark.timing
def test_dense_units_are_refused_quickly_naming_the_stretch(monkeypatch):
    """3 x 150 units over one stretch of 100: 355,000 candidates, past the limit of 200,000 of the listed alignment,
    go to column generation (tests/agreement/test_colgen.py); past its CPU limit, refused in bounded time, naming
    the document, the units and the stretch."""
    import time

    from accord.agreement import _colgen
    from accord.agreement._alignment import AlignmentError

    monkeypatch.setattr(_colgen, "COLGEN_SECONDS", 0.0)
    units = continua_from_rows(dense_rows(150, 100.0))
    t = time.process_time()
    with pytest.raises(AlignmentError, match=r"document 'd': \d+ units \(\d+/\d+/\d+ of the 3 annotators\) over "
                                             r"\[0, \d+\) in one connected component: column generation did not "
                                             r"reach its bound within 0 CPU-s.*--gamma-alpha"):
        gamma_tables(units)
    assert time.process_time() - t < 20


@pytest.mark.parametrize("seed, n, stretch", [(1, 30, 80.0), (3, 25, 60.0), (4, 30, 80.0), (22, 25, 60.0)])
def test_fractional_relaxations_are_solved_exactly(seed, n, stretch):
    """Dense components whose linear relaxation is fractional: the reduced-cost fixing gives the optimum of HiGHS's
    integer program over every candidate (the least disorder; 3 x 100 over one stretch, 103,628 candidates, took a
    minute that way and takes a second this way)."""
    from scipy import sparse
    from scipy.optimize import Bounds, LinearConstraint, linprog, milp

    from accord.agreement import _alignment

    units = continua_from_rows(dense_rows(n, stretch, seed=seed))
    tuples, disorder = _alignment.candidate_alignments(units, Dissimilarity())
    real = tuples >= 0
    cand, col = np.nonzero(real)
    _, row = np.unique(tuples[cand, col], return_inverse=True)
    matrix = sparse.csr_array((np.ones(len(cand)), (row, cand)))
    relaxed = linprog(disorder, A_eq=matrix, b_eq=np.ones(matrix.shape[0]), bounds=(0, 1), method="highs")
    assert ((relaxed.x > 1e-6) & (relaxed.x < 1 - 1e-6)).any()          # the case this test is about
    full = milp(disorder, integrality=np.ones(len(tuples)), bounds=Bounds(0, 1),
                constraints=LinearConstraint(matrix, 1, 1), options={"mip_rel_gap": 0.0})
    picked = _alignment._solve(tuples, disorder, units)
    assert (np.bincount(tuples[picked][tuples[picked] >= 0], minlength=len(units)) == 1).all()
    assert disorder[picked].sum() == pytest.approx(full.fun, rel=1e-9)
    assert best_alignment(units, Dissimilarity()).disorder.sum() == pytest.approx(full.fun, rel=1e-9)


@pytest.mark.timing
def test_three_by_eighty_over_one_stretch_is_computed_exactly():
    """3 x 80 units over one stretch of 100 took more than 30 s (pygamma-agreement: 91 s of CPU): 60,000 candidates
    whose linear relaxation is integral, hence optimal; the observed disorder equals HiGHS's integer program on the
    same candidates, and γ with its 30 samples comes in bounded time."""
    import time

    from accord.agreement import _alignment

    units = continua_from_rows(dense_rows(80, 100.0))
    t = time.process_time()
    tables, alignment = gamma_tables(units, samples=30)
    assert time.process_time() - t < 90
    tuples, disorder = _alignment.candidate_alignments(units, Dissimilarity())
    from scipy import sparse
    from scipy.optimize import Bounds, LinearConstraint, milp

    real = tuples >= 0
    cand, col = np.nonzero(real)
    _, row = np.unique(tuples[cand, col], return_inverse=True)
    matrix = sparse.csr_array((np.ones(len(cand)), (row, cand)))
    mip = milp(disorder, integrality=np.ones(len(tuples)), bounds=Bounds(0, 1),
               constraints=LinearConstraint(matrix, 1, 1), options={"mip_rel_gap": 0.0})
    assert alignment.disorder.sum() == pytest.approx(mip.fun, rel=1e-9)
    assert tables.values()["gamma"] is not None


@pytest.mark.timing
def test_moderately_dense_units_are_solved_exactly():
    """3 x 15 over one stretch: every component solved exactly (the observed disorder equals pygamma-agreement's
    MIP), in bounded time with the samples."""
    import time

    rows = dense_rows(15, 80.0)
    units = continua_from_rows(rows)
    t = time.process_time()
    tables, _ = gamma_tables(units, samples=30)
    assert time.process_time() - t < 30
    pa, c = continuum(rows)
    theirs = c.get_best_alignment(pa.CombinedCategoricalDissimilarity())
    assert tables.values()["observed_disorder"] == pytest.approx(float(theirs.disorder), rel=2e-6)


@pytest.mark.timing
@pytest.mark.parametrize("n", [100, pytest.param(1000, marks=pytest.mark.slow)])
def test_dense_three_by_n_ends_within_a_bound(n, monkeypatch):
    """3 x 1,000 dense units took 22.8 s and 1.24 GB: now refused naming the stretch, in bounded time; 3 x 100 over
    one stretch of 200 (103,628 candidates, a fractional relaxation) is computed, its observed disorder that of HiGHS's
    integer program over every candidate (45.44513571809537 over 100 units per annotator: a minute of HiGHS, run
    once to write this test; the reduced-cost fixing is compared with the full program in
    test_fractional_relaxations_are_solved_exactly)."""
    import time

    from accord.agreement._alignment import AlignmentError

    units = continua_from_rows(dense_rows(n, 2.0 * n))
    t = time.process_time()
    if n == 1000:          # column generation (agreement/_colgen.py) within its CPU limit, or refused naming it
        from accord.agreement import _colgen

        monkeypatch.setattr(_colgen, "COLGEN_SECONDS", 5.0)
        with pytest.raises(AlignmentError, match=r"document 'd(#\d+)?'.* over \[-?[\d.]+, [\d.]+\).*within 5 CPU-s"):
            gamma_tables(units)
    else:
        tables, _ = gamma_tables(units)
        assert tables.values()["observed_disorder"] == pytest.approx(45.44513571809537 / 100, rel=1e-9)
    assert time.process_time() - t < 30


def test_precision_on_dense_units_is_capped_by_their_work(monkeypatch):
    """The samples a precision asks for weigh at most MAX_SAMPLED_CANDIDATES candidate alignments in all: fewer
    samples for denser units (never fewer than --samples), with the warning saying why."""
    from accord.agreement import _gamma
    from accord.agreement._alignment import best_alignment as align
    from accord.errors import AgreementWarning

    units = continua_from_rows(corpus(3))
    per_continuum = align(units, Dissimilarity()).candidates
    monkeypatch.setattr(_gamma, "MAX_SAMPLED_CANDIDATES", 40 * per_continuum)
    with pytest.warns(AgreementWarning, match=f"drawn 40, the most γ draws for units this dense "
                                              f"\\({per_continuum:,} candidate"):
        tables, _ = gamma_tables(units, samples=5, precision=1e-9)
    assert tables.samples == 40
    tables, _ = gamma_tables(units, samples=60)           # asked for: drawn
    assert tables.samples == 60
