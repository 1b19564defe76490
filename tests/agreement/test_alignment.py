"""γ's optimal alignment: pygamma-agreement's MIP (solved to optimality) on random continua, the dynamic
program against the integer program, the candidate tests against brute force."""

from __future__ import annotations

import itertools
import logging
import os

import numpy as np
import pytest

from accord.agreement import _alignment
from accord.agreement._alignment import best_alignment, candidate_alignments
from accord.agreement._continua import continua_from_rows
from accord.agreement._dissimilarity import Dissimilarity

FULL = bool(os.environ.get("ACCORD_FULL"))


def random_rows(seed: int, *, integer: bool, documents: int = 1) -> list[tuple[str, str, float, float, str]]:
    rng = np.random.default_rng(seed)
    n_ann = int(rng.integers(2, 5))
    n = int(rng.integers(2, 9))
    base = rng.uniform(0, 20 * n, size=n)
    rows = []
    for a in range(n_ann):
        for b in base:
            if rng.random() < 0.15:
                continue
            s, length = b + rng.normal(0, 1.5), abs(rng.normal(8, 4)) + 0.5
            if integer:
                s, length = round(s), max(1, round(length))
            rows.append((f"A{a}", f"d{int(b) % documents}", float(s), float(s + length), str(rng.choice(list("abc")))))
    return list(dict.fromkeys(rows))      # pygamma keeps an annotator's identical units once


def pygamma_alignment(rows, annotators, alpha=1.0, beta=1.0):
    pa = pytest.importorskip("pygamma_agreement")
    from pyannote.core import Segment

    logging.getLogger().setLevel(logging.ERROR)          # "CBC solver not installed. Using GLPK."
    continuum = pa.Continuum()
    for a in annotators:
        continuum.add_annotator(a)
    for a, _, s, e, c in rows:
        continuum.add(a, Segment(s, e), c)
    return continuum.get_best_alignment(pa.CombinedCategoricalDissimilarity(alpha=alpha, beta=beta))


def as_sets(units, alignment):
    out = []
    for row in alignment.units:
        out.append(tuple(sorted((units.annotators[units.annotator[u]], units.start[u], units.end[u],
                                 units.categories[units.category[u]]) for u in row if u >= 0)))
    return sorted(out)


@pytest.mark.parametrize("seed", range(60 if FULL else 16))
def test_observed_disorder_and_alignment_equal_pygamma(seed):
    rows = random_rows(seed, integer=False)
    if len({r[0] for r in rows}) < 2:
        pytest.skip("one annotator")
    units = continua_from_rows(rows)
    alpha, beta = [(1.0, 1.0), (3.0, 2.0), (0.5, 1.0)][seed % 3]
    theirs = pygamma_alignment(rows, units.annotators, alpha, beta)
    ours = best_alignment(units, Dissimilarity(alpha, beta))
    disorder = ours.disorder.sum() / (len(units) / units.n_annotators)
    assert disorder == pytest.approx(float(theirs.disorder), rel=2e-6)    # pygamma computes in float32
    their_sets = sorted(tuple(sorted((a, u.segment.start, u.segment.end, u.annotation)
                                     for a, u in ua.n_tuple if u is not None)) for ua in theirs.unitary_alignments)
    assert as_sets(units, ours) == their_sets       # real-valued positions: the optimum is unique


@pytest.mark.parametrize("seed", range(40 if FULL else 10))
def test_integer_positions_same_disorder_as_pygamma(seed):
    """Integer positions tie (a pair at exactly 2Δ, two partners at the same distance): the disorder is equal,
    the alignments may differ only among optimal ones."""
    rows = random_rows(seed, integer=True)
    if len({r[0] for r in rows}) < 2:
        pytest.skip("one annotator")
    units = continua_from_rows(rows)
    theirs = pygamma_alignment(rows, units.annotators)
    ours = best_alignment(units, Dissimilarity())
    assert ours.disorder.sum() / (len(units) / units.n_annotators) == pytest.approx(float(theirs.disorder), rel=2e-6)


def test_pygamma_documentation_example():
    """The three-annotator example of pygamma-agreement's documentation (its README): the best alignment pairs
    A's [0,10) with B's [1,10) and C's [0,12); A's 'y' [20,30) with B's 'x' [22,35)."""
    rows = [("A", "d", 0, 10, "x"), ("A", "d", 20, 30, "y"), ("B", "d", 1, 10, "x"), ("B", "d", 22, 35, "x"),
            ("C", "d", 0, 12, "x")]
    units = continua_from_rows(rows)
    ours = best_alignment(units, Dissimilarity())
    assert as_sets(units, ours) == [(("A", 0.0, 10.0, "x"), ("B", 1.0, 10.0, "x"), ("C", 0.0, 12.0, "x")),
                                    (("A", 20.0, 30.0, "y"), ("B", 22.0, 35.0, "x"))]
    # by hand: d(A1,B1) = (1/19)^2, d(A1,C1) = (2/22)^2, d(B1,C1) = (3/21)^2, /3; the second: (1 + (2+5)^2/23^2 + 1
    # (category) ... with C empty: (d(A2,B2) + 1 + 1) / 3
    first = ((1 / 19) ** 2 + (2 / 22) ** 2 + (3 / 21) ** 2) / 3
    second = ((7 / 23) ** 2 + 1 + 1 + 1) / 3
    assert sorted(ours.disorder) == pytest.approx(sorted([first, second]))
    if pytest.importorskip("pygamma_agreement"):
        theirs = pygamma_alignment(rows, units.annotators)
        assert ours.disorder.sum() / (5 / 3) == pytest.approx(float(theirs.disorder), rel=2e-6)


def brute_force(units, diss):
    """The least total disorder over every partition into unitary alignments (tiny continua)."""
    n = units.n_annotators
    pairs = n * (n - 1) // 2
    ids = list(range(len(units)))

    def cost(group):
        total = 0.0
        for a, b in itertools.combinations(range(n), 2):
            ua = [u for u in group if units.annotator[u] == a]
            ub = [u for u in group if units.annotator[u] == b]
            if ua and ub:
                u, v = ua[0], ub[0]
                total += float(diss.pairs(units.start[[u]], units.end[[u]], units.category[[u]], units.start[[v]],
                                          units.end[[v]], units.category[[v]])[0])
            else:
                total += diss.delta_empty
        return total / pairs

    best = np.inf

    def partitions(rest):
        if not rest:
            yield []
            return
        first, others = rest[0], rest[1:]
        for k in range(len(others) + 1):
            for mates in itertools.combinations(others, k):
                group = (first,) + mates
                if len({units.annotator[u] for u in group}) < len(group):
                    continue
                remaining = [u for u in others if u not in mates]
                for p in partitions(remaining):
                    yield [group] + p

    for p in partitions(ids):
        best = min(best, sum(cost(g) for g in p))
    return best


@pytest.mark.parametrize("seed", range(12))
def test_exact_against_brute_force(seed):
    rng = np.random.default_rng(100 + seed)
    rows = []
    for a in range(3):
        for _ in range(int(rng.integers(1, 3))):
            s = float(rng.integers(0, 30))
            rows.append((f"A{a}", "d", s, s + float(rng.integers(1, 12)), str(rng.choice(["p", "q"]))))
    units = continua_from_rows(list(dict.fromkeys(rows)))
    diss = Dissimilarity(alpha=float(rng.choice([0.5, 1, 2])), beta=float(rng.choice([0, 1])),
                         delta_empty=float(rng.choice([0.5, 1, 2])))
    ours = best_alignment(units, diss)
    assert ours.disorder.sum() == pytest.approx(brute_force(units, diss))
    cover = np.bincount(ours.units[ours.units >= 0], minlength=len(units))
    assert (cover == 1).all()


def test_dynamic_program_equals_integer_program(monkeypatch):
    """The bit-mask dynamic program and HiGHS give the same least disorder; forcing every component to the integer
    program (MAX_STATES = 0) gives it too."""
    for seed in range(40):
        rng = np.random.default_rng(seed)
        n_ann, n = int(rng.integers(2, 6)), int(rng.integers(5, 50))
        base = np.cumsum(rng.uniform(1, 30, size=n))
        rows = []
        for a in range(n_ann):
            s = base + rng.normal(0, rng.uniform(0.5, 6), n)
            length = np.abs(rng.normal(8, 5, n)) + 0.3
            keep = rng.random(n) > 0.2
            rows += [(f"A{a}", f"d{int(x) % 3}", float(x), float(x + y), c)
                     for x, y, c, k in zip(s, length, rng.choice(list("abc"), n), keep) if k]
        units = continua_from_rows(list(dict.fromkeys(rows)))
        diss = Dissimilarity(alpha=float(rng.choice([1, 0.5, 3])), beta=float(rng.choice([1, 0, 2])))
        dp = best_alignment(units, diss).disorder.sum()
        tuples, disorder = candidate_alignments(units, diss)
        ip = disorder[_alignment._solve(tuples, disorder)].sum()
        assert dp == pytest.approx(ip, rel=1e-9)
        with monkeypatch.context() as m:
            m.setattr(_alignment, "MAX_STATES", 0)
            assert best_alignment(units, diss).disorder.sum() == pytest.approx(ip, rel=1e-9)


def test_units_never_align_across_documents():
    rows = [("A", "d1", 0, 10, "x"), ("B", "d2", 0, 10, "x")]
    units = continua_from_rows(rows)
    ours = best_alignment(units, Dissimilarity())
    assert len(ours) == 2 and list(ours.disorder) == [1.0, 1.0]


def test_scales_to_twenty_thousand_units_per_annotator():
    rng = np.random.default_rng(0)
    n = 20_000
    base = np.cumsum(rng.uniform(5, 40, size=n))
    rows = []
    for a in range(3):
        s = np.round(base + rng.normal(0, 2, n))
        length = np.maximum(1, np.round(np.abs(rng.normal(8, 4, n))))
        keep = rng.random(n) > 0.1
        rows += [(f"A{a}", "d", float(x), float(x + y), c) for x, y, c, k in
                 zip(s, length, rng.choice(list("abcd"), n), keep) if k]
    units = continua_from_rows(rows)
    ours = best_alignment(units, Dissimilarity())
    cover = np.bincount(ours.units[ours.units >= 0], minlength=len(units))
    assert (cover == 1).all()
    # every unit is aligned with its own base position's units when all three are within the noise
    assert 0 < ours.disorder.sum() / (len(units) / 3) < 1.5


@pytest.mark.parametrize("seed", range(12))
def test_two_annotators_are_an_assignment_at_any_density(seed, monkeypatch):
    """Two annotators: every component (forced past the dynamic program) is solved as a minimum-weight perfect
    matching, with the least disorder HiGHS's integer program finds on all the candidates."""
    rng = np.random.default_rng(seed)
    n, stretch = int(rng.integers(3, 60)), float(rng.choice([30, 100, 1000]))
    rows = []
    for a in range(2):
        s, length = np.round(rng.uniform(0, stretch, n)), np.maximum(1, np.round(rng.uniform(1, 20, n)))
        rows += [(f"A{a}", f"d{int(x) % 2}", float(x), float(x + y), str(c))
                 for x, y, c in zip(s, length, rng.choice(list("ab"), n))]
    units = continua_from_rows(list(dict.fromkeys(rows)))
    diss = Dissimilarity(alpha=float(rng.choice([1, 0.5, 3])), beta=float(rng.choice([1, 0, 2])))
    tuples, disorder = candidate_alignments(units, diss)
    ip = disorder[_alignment._solve(tuples, disorder)].sum()
    monkeypatch.setattr(_alignment, "DP_CANDIDATES", 0)
    monkeypatch.setattr(_alignment, "MAX_STATES", 0)
    ours = best_alignment(units, diss)
    assert ours.disorder.sum() == pytest.approx(ip, rel=1e-9, abs=1e-12)
    assert (np.bincount(ours.units[ours.units >= 0], minlength=len(units)) == 1).all()


@pytest.mark.timing
def test_two_annotators_dense_beyond_the_limit_of_three():
    """2 x 1,000 units over one stretch of 2,000 (43,000 candidates in one component; no limit for two annotators):
    solved exactly, quickly; the same observed disorder as pygamma-agreement on a 2 x 60 part of it."""
    import time

    rng = np.random.default_rng(0)
    rows = []
    for a in range(2):
        s, length = np.round(rng.uniform(0, 2000, 1000)), np.maximum(1, np.round(rng.uniform(1, 60, 1000)))
        rows += [(f"A{a}", "d", float(x), float(x + y), "x") for x, y in zip(s, length)]
    rows = list(dict.fromkeys(rows))
    units = continua_from_rows(rows)
    t = time.process_time()
    ours = best_alignment(units, Dissimilarity())
    assert time.process_time() - t < 20 and ours.candidates > 40_000
    assert (np.bincount(ours.units[ours.units >= 0], minlength=len(units)) == 1).all()
    part = [r for r in rows if r[2] < 120]
    small = continua_from_rows(part)
    theirs = pygamma_alignment(part, ["A0", "A1"])
    assert best_alignment(small, Dissimilarity()).disorder.sum() / (len(small) / 2) == \
        pytest.approx(float(theirs.disorder), rel=2e-6)


@pytest.mark.parametrize("n, stretch", [(40, 60.0), pytest.param(100, 120.0, marks=pytest.mark.slow)])
def test_dense_units_same_disorder_as_pygamma(n, stretch):
    """Three annotators' units over one short stretch (candidates by the thousand, relaxations that can be
    fractional): the observed disorder of pygamma-agreement's MIP (3 x 100: 17 s of its CPU; run under
    ACCORD_FULL=1, the run of every commit holding 3 x 40)."""
    if n > 40 and os.environ.get("ACCORD_FULL") != "1":
        pytest.skip("3 x 100 against pygamma-agreement runs under ACCORD_FULL=1 (3 x 40 runs always)")
    rng = np.random.default_rng(n)
    rows = []
    for a in range(3):
        s, length = np.round(rng.uniform(0, stretch, n)), np.maximum(1, np.round(rng.uniform(1, stretch / 4, n)))
        category = rng.choice(list("abcd"), n)
        rows += [(f"A{a}", "d", float(x), float(x + y), str(c)) for x, y, c in zip(s, length, category)]
    rows = list(dict.fromkeys(rows))
    units = continua_from_rows(rows)
    ours = best_alignment(units, Dissimilarity())
    theirs = pygamma_alignment(rows, ["A0", "A1", "A2"])
    assert ours.disorder.sum() / (len(units) / 3) == pytest.approx(float(theirs.disorder), rel=2e-6)


def test_a_refused_listing_is_not_kept_while_each_document_is_aligned(monkeypatch):
    """Many documents too many to list at once (γ's samples in one batch) are listed and aligned one by one; the
    partial tuples of the refused listing are freed first (its error's frames held 194 MiB of them through all 20
    samples of dense 3 x 1,000 units): at the first document, the memory held is a small part of the listing's peak.
    The alignment equals that of each document alone."""
    import tracemalloc

    from tests.agreement._units import sparse_rows

    rows = [(a, f"d{doc}", s, e, c) for doc in range(4) for a, _, s, e, c in sparse_rows(60, 4, seed=doc)]
    units = continua_from_rows(rows)
    alone = [best_alignment(units.take_rows(d, piece), Dissimilarity()).disorder.sum()
             for d, piece in enumerate(units.document_slices())]
    whole = len(candidate_alignments(units, Dissimilarity())[0])
    monkeypatch.setattr(_alignment, "MAX_CANDIDATES", whole // 2)     # the four at once: refused; one: listed
    held: list[int] = []
    by_document = _alignment._by_document

    def spy(*args, **kwargs):
        held.append(tracemalloc.get_traced_memory()[0])
        return by_document(*args, **kwargs)

    monkeypatch.setattr(_alignment, "_by_document", spy)
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        alignment = best_alignment(units, Dissimilarity())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(held) == 1
    assert held[0] - base < 0.2 * (peak - base), (held[0] - base, peak - base)
    per_doc = np.bincount(alignment.document, weights=alignment.disorder)
    np.testing.assert_allclose(per_doc, alone, rtol=1e-12)


@pytest.mark.parametrize("annotators", [3, 5])
def test_candidates_listed_a_slice_at_a_time_are_the_same(monkeypatch, annotators):
    """The partial tuples extended a slice of pairs at a time (a few pairs a slice, as 1,048,576 are on dense
    units) give the same candidates, in the same order, with the same disorders to the last bit."""
    from tests.agreement._units import sparse_rows

    rows = [(a, f"d{doc}", s, e, c) for doc in range(2) for a, _, s, e, c in sparse_rows(30, annotators, seed=doc)]
    units = continua_from_rows(rows)
    whole, whole_disorder = candidate_alignments(units, Dissimilarity())
    monkeypatch.setattr(_alignment, "_GROW_SLICE", 7)
    sliced, sliced_disorder = candidate_alignments(units, Dissimilarity())
    assert len(whole) > 100 and np.array_equal(whole, sliced)
    assert whole_disorder.tobytes() == sliced_disorder.tobytes()


def test_an_annotator_without_units_in_a_document_aligned_alone():
    """A document where an annotator marked nothing, aligned on its own (as each of γ's samples is, where an
    annotator may draw no unit): its pair tables with that annotator are empty and read as no pair (an index error
    once), the other two annotators' units aligned as in the whole continuum."""
    rows = [("A", "d1", 0, 10, "x"), ("B", "d1", 1, 10, "x"), ("C", "d2", 0, 10, "x"), ("A", "d2", 0, 9, "x")]
    units = continua_from_rows(rows)
    whole = best_alignment(units, Dissimilarity())
    for d, piece in enumerate(units.document_slices()):
        alone = best_alignment(units.take_rows(d, piece), Dissimilarity())
        assert alone.disorder.sum() == pytest.approx(whole.disorder[whole.document == d].sum(), rel=1e-12)
        assert len(alone) == 1                  # the two units of the document aligned together


def test_samples_denser_than_could_be_listed_together_go_document_by_document(monkeypatch):
    """γ's samples, when the observed continuum's candidates per unit say a batch could not be listed together, are
    aligned document by document without a listing of them all being tried (and refused) first: the same alignment
    as the listing together gives."""
    from accord.agreement._alignment_jobs import CANDIDATES_PER_UNIT
    from tests.agreement._units import sparse_rows

    rows = [(a, f"d{doc}", s, e, c) for doc in range(3) for a, _, s, e, c in sparse_rows(40, 3, seed=doc)]
    units = continua_from_rows(rows)
    together = best_alignment(units, Dissimilarity())
    listed: list[int] = []
    original = _alignment.candidate_alignments

    def counting(units, diss, what=""):
        listed.append(len(units.documents))
        return original(units, diss, what)

    monkeypatch.setattr(_alignment, "candidate_alignments", counting)
    token = CANDIDATES_PER_UNIT.set(_alignment.MAX_CANDIDATES / len(units) + 1)     # a batch past the limit
    try:
        apart = best_alignment(units, Dissimilarity())
    finally:
        CANDIDATES_PER_UNIT.reset(token)
    assert listed == [1, 1, 1]
    for name in ("units", "disorder", "document"):
        assert np.array_equal(getattr(together, name), getattr(apart, name)), name
    listed.clear()
    token = CANDIDATES_PER_UNIT.set(1.0)                                             # sparse: listed together
    try:
        best_alignment(units, Dissimilarity())
    finally:
        CANDIDATES_PER_UNIT.reset(token)
    assert listed == [3]
