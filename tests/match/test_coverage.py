"""Coverage classes against hand-built spans: every row of the CLUEval class diagram.

Spans are half-open token ranges. The diagram (seed 002, "Recall")::

    G      |==========|
    P      |----------|        1. exact match
        |-------------|        2. superset
           |---||-----|        3. tiling
         |--------||----|      4. overlap
        (all other cases)      5. FN
"""

import numpy as np
import pytest

from accord.match.coverage import EXACT, NONE, OVERLAP, PARTIAL, SUPERSET, TILING, check_disjoint, coverage_classes

G = (10, 20)


def classify(other, labels=None):
    s = np.array([a for a, _ in other], dtype=np.int64)
    e = np.array([b for _, b in other], dtype=np.int64)
    lab = None if labels is None else np.array(labels)
    cov = coverage_classes(np.array([G[0]]), np.array([G[1]]), s, e, lab)
    return int(cov.klass[0]), int(cov.label[0]), (int(cov.lo[0]), int(cov.hi[0]))


@pytest.mark.parametrize("other, expected", [
    ([(10, 20)], EXACT),
    ([(5, 20)], SUPERSET),          # starts earlier
    ([(10, 25)], SUPERSET),         # ends later
    ([(5, 25)], SUPERSET),          # both
    ([(10, 14), (14, 20)], TILING),
    ([(10, 12), (12, 15), (15, 20)], TILING),   # three tiles
    ([(7, 15), (15, 22)], OVERLAP),
    ([(10, 15), (15, 22)], OVERLAP),            # flush at the start, over at the end
    ([(7, 15), (15, 20)], OVERLAP),
    ([(12, 18)], PARTIAL),                      # FN: inside only
    ([(5, 15)], PARTIAL),                       # FN: one side only
    ([(10, 14), (15, 20)], PARTIAL),            # FN: a gap between the tiles
    ([(10, 14), (14, 18)], PARTIAL),            # FN: adjacent but not covering
    ([(5, 14), (16, 25)], PARTIAL),             # FN: covering hull but a gap
    ([], NONE),                                 # FN: nothing at all
    ([(0, 10), (20, 30)], NONE),                # touching neighbours do not overlap (half-open)
])
def test_every_row_of_the_class_diagram(other, expected):
    assert classify(other)[0] == expected


def test_overlapping_run_is_reported():
    klass, _, (lo, hi) = classify([(0, 5), (7, 15), (15, 22), (30, 40)])
    assert klass == OVERLAP and (lo, hi) == (1, 3)


def test_joined_label_is_the_token_majority_inside_the_reference_span():
    # PER covers 10..16 (6 tokens inside G), LOC 16..25 (4 inside G though 9 long)
    assert classify([(10, 16), (16, 25)], labels=[0, 1])[1] == 0
    # three spans: LOC 10-13 and 17-20 (3+3) beat PER 13-17 (4)
    assert classify([(10, 13), (13, 17), (17, 20)], labels=[1, 0, 1])[1] == 1


def test_label_tie_goes_to_the_leftmost_span():
    assert classify([(10, 15), (15, 20)], labels=[1, 0])[1] == 1
    assert classify([(10, 15), (15, 20)], labels=[0, 1])[1] == 0


def test_single_span_keeps_its_label_and_nothing_gives_minus_one():
    assert classify([(5, 25)], labels=[3])[1] == 3
    assert classify([], labels=[])[1] == -1


def test_asymmetry_of_recall_and_precision():
    # gold "New York" + "City" against one predicted "New York City"
    gs, ge = np.array([0, 2]), np.array([2, 3])
    ps, pe = np.array([0]), np.array([3])
    recall_side = coverage_classes(gs, ge, ps, pe)
    precision_side = coverage_classes(ps, pe, gs, ge)
    assert recall_side.klass.tolist() == [SUPERSET, SUPERSET]
    assert precision_side.klass.tolist() == [TILING]


def test_many_reference_spans_in_one_vectorised_call_equal_one_by_one():
    rng = np.random.default_rng(7)
    def spans(n):
        cuts = np.sort(rng.choice(np.arange(1, 400), size=2 * n, replace=False))
        s, e = cuts[0::2], cuts[1::2]
        # glue some neighbours so that tilings occur
        glue = rng.random(n - 1) < 0.3
        e[:-1][glue] = s[1:][glue]
        return s, e
    gs, ge = spans(60)
    ps, pe = spans(70)
    lab = rng.integers(0, 3, len(ps))
    together = coverage_classes(gs, ge, ps, pe, lab)
    for i in range(len(gs)):
        one = coverage_classes(gs[i:i + 1], ge[i:i + 1], ps, pe, lab)
        assert one.klass[0] == together.klass[i] and one.label[0] == together.label[i]
        # brute force over all other spans
        over = [j for j in range(len(ps)) if ps[j] < ge[i] and pe[j] > gs[i]]
        assert (together.lo[i], together.hi[i]) == ((over[0], over[-1] + 1) if over else
                                                    (together.lo[i], together.lo[i]))


def test_check_disjoint_finds_overlap_nesting_and_empty_spans():
    assert check_disjoint(np.array([0, 2, 5]), np.array([2, 5, 6])) == -1
    assert check_disjoint(np.array([0, 1]), np.array([3, 2])) == 1        # nested
    assert check_disjoint(np.array([0, 2]), np.array([3, 4])) == 1        # crossing
    assert check_disjoint(np.array([0, 4]), np.array([2, 4])) == 1        # empty
