"""Krippendorff's alpha of set-valued labels (MASI, Jaccard) against NLTK's AnnotationTask, and the sets' spelling."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accord import agreement as A
from accord.agreement._set_distances import as_label_set, distance_matrix
from accord.errors import AgreementWarning, OptionError, RatingsError


def test_distances_on_nltks_own_examples():
    from nltk.metrics.distance import jaccard_distance, masi_distance

    # nltk/test/metrics.doctest: jaccard 0.6, masi 0.8666...; masi_distance's docstring: 0.6666...
    s1, s2 = frozenset({1, 2, 3, 4}), frozenset({3, 4, 5})
    assert A.jaccard_distance(s1, s2) == pytest.approx(0.6)
    assert A.masi_distance(s1, s2) == pytest.approx(0.8666666666666667)
    assert A.masi_distance(frozenset({1, 2}), frozenset({1, 2, 3, 4})) == pytest.approx(0.6666666666666667)
    for a, b in [(s1, s2), (frozenset("ab"), frozenset("b")), (frozenset("a"), frozenset("b")), (s1, s1)]:
        assert A.masi_distance(a, b) == pytest.approx(masi_distance(set(a), set(b)))
        assert A.jaccard_distance(a, b) == pytest.approx(jaccard_distance(set(a), set(b)))


def test_two_empty_sets_are_at_distance_zero():
    # NLTK divides by the empty union; here two empty sets agree and an empty set is as far as can be from another
    empty = frozenset()
    assert A.masi_distance(empty, empty) == A.jaccard_distance(empty, empty) == 0.0
    assert A.masi_distance(empty, frozenset("a")) == A.jaccard_distance(empty, frozenset("a")) == 1.0


def _sets(rng, n, m, labels="abcd", missing=0.15):
    rows = []
    for _ in range(n):
        row = []
        for _ in range(m):
            if rng.random() < missing:
                row.append(None)
            else:
                row.append(frozenset(x for x in labels if rng.random() < 0.4) or frozenset(labels[0]))
        rows.append(row)
    return rows


def _nltk_alpha(rows, distance):
    from nltk.metrics.agreement import AnnotationTask

    data = [(str(j), str(i), v) for i, r in enumerate(rows) for j, v in enumerate(r) if v is not None]
    return AnnotationTask(data, distance=distance).alpha()


@pytest.mark.parametrize("seed", range(6))
def test_alpha_of_sets_equals_nltk(seed):
    from nltk.metrics.distance import jaccard_distance, masi_distance

    rng = np.random.default_rng(seed)
    rows = _sets(rng, int(rng.integers(10, 60)), int(rng.integers(2, 6)))
    assert A.krippendorff_alpha_sets(rows, distance="masi") == pytest.approx(_nltk_alpha(rows, masi_distance))
    assert A.krippendorff_alpha_sets(rows, distance="jaccard") == pytest.approx(_nltk_alpha(rows, jaccard_distance))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.one_of(st.none(), st.frozensets(st.sampled_from("xyz"), min_size=1)), min_size=3,
                         max_size=3), min_size=2, max_size=25))
def test_alpha_of_sets_equals_nltk_on_any_table(rows):
    import warnings

    from nltk.metrics.distance import masi_distance

    values = {v for r in rows for v in r if v is not None}
    pairable = [r for r in rows if sum(v is not None for v in r) >= 2]
    if not pairable or len({v for r in pairable for v in r if v is not None}) < 2 or len(values) < 2:
        return                                  # NLTK's 1 (or an error) where accord says NaN with a warning
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AgreementWarning)
        ours = A.krippendorff_alpha_sets(rows, distance="masi")
    assert ours == pytest.approx(_nltk_alpha(rows, masi_distance), abs=1e-9)


def test_sets_written_as_text_equal_the_sets():
    rng = np.random.default_rng(9)
    rows = _sets(rng, 30, 3)
    text = [[None if v is None else " | ".join(sorted(v, reverse=True)) for v in r] for r in rows]
    assert A.krippendorff_alpha_sets(text) == pytest.approx(A.krippendorff_alpha_sets(rows))
    assert as_label_set("b|a") == as_label_set("a | b") == frozenset({"a", "b"})
    assert as_label_set("a") == frozenset({"a"}) and as_label_set(3) == frozenset({3})


def test_alpha_of_one_label_per_item_is_nominal_alpha():
    # with singleton sets both distances are 0 or 1: the nominal alpha
    rng = np.random.default_rng(2)
    t = rng.integers(0, 3, (40, 3)).astype(float)
    t[rng.random(t.shape) < 0.2] = np.nan
    rows = [[None if np.isnan(v) else frozenset({int(v)}) for v in r] for r in t]
    assert A.krippendorff_alpha_sets(rows, distance="jaccard") == pytest.approx(A.krippendorff_alpha(t))


def test_set_refusals():
    with pytest.raises(RatingsError, match="an empty label between"):
        distance_matrix(["a||b"], "masi")
    with pytest.raises(OptionError, match="unknown set distance 'cosine'"):
        A.krippendorff_alpha_sets([["a", "b"]], distance="cosine")
    with pytest.warns(AgreementWarning, match="NaN"):
        assert np.isnan(A.krippendorff_alpha_sets([["a|b", "a|b"], ["a|b", "a|b"]]))
