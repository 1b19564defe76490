"""Kernel checks and the optimal-assignment kernel (Chen et al., "A Unified View of Evaluation Metrics for
Structured Prediction", appendix B: definition 2, lemmas 1, 2, 5, 7, 8), each Gram matrix and eigenvalue by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from accord import structured as S
from accord.errors import OptionError
from accord.structured.kernels import check_kernel, gram_matrix, is_strong, optimal_assignment_kernel


def test_kronecker_delta_is_a_kernel():
    # lemma 1. Items a, b, a, c: K = [[1,0,1,0],[0,1,0,0],[1,0,1,0],[0,0,0,1]]; the a-block [[1,1],[1,1]] has
    # eigenvalues 2 and 0, b and c give 1 each: smallest 0
    c = check_kernel(S.exact, ["a", "b", "a", "c"])
    assert c.gram.tolist() == [[1, 0, 1, 0], [0, 1, 0, 0], [1, 0, 1, 0], [0, 0, 0, 1]]
    assert c.min_eigenvalue == pytest.approx(0.0, abs=1e-12) and c.positive_definite and bool(c)


def test_a_window_similarity_is_not_a_kernel():
    # phi(x, y) = [|x - y| <= 1] on 0, 1, 2: K = [[1,1,0],[1,1,1],[0,1,1]],
    # det(K - l I) = (1 - l)((1 - l)^2 - 2): eigenvalues 1 - sqrt 2, 1, 1 + sqrt 2
    c = check_kernel(S.func(lambda p, r: 1.0 if abs(p - r) <= 1 else 0.0), [0, 1, 2])
    assert c.min_eigenvalue == pytest.approx(1 - math.sqrt(2)) and not c.positive_definite
    assert c.symmetric


def test_an_asymmetric_similarity_is_not_a_kernel():
    # phi(p, r) = [p <= r] on 0, 1: K = [[1, 1], [0, 1]], |K - K^T| = 1 (definition 2 asks for symmetry)
    c = check_kernel(S.func(lambda p, r: 1.0 if p <= r else 0.0), [0, 1])
    assert c.asymmetry == 1.0 and not c.symmetric and not c.positive_definite


def test_product_and_normalized_matchings_on_a_sample():
    # lemma 2 (product of kernels), lemma 7 (F1 of a matching of exact items: Dice), lemma 8 (Jaccard)
    sets = [("a",), ("a", "b"), ("b", "c"), ("a", "b", "c")]
    dice = S.f1(S.match(S.exact, "1:1"))
    k = gram_matrix(dice, sets)
    # {a} vs {a, b}: 2*1/(1+2) = 2/3; {a, b} vs {b, c}: 2*1/4 = 1/2; {a} vs {b, c}: 0; {a,b} vs {a,b,c}: 4/5
    assert k[0, 1] == pytest.approx(2 / 3) and k[1, 2] == pytest.approx(0.5) and k[0, 2] == 0.0
    assert k[1, 3] == pytest.approx(0.8)
    assert check_kernel(dice, sets) and check_kernel(S.jaccard(S.match(S.exact, "1:1")), sets)
    pairs = [("a", 1), ("a", 2), ("b", 1)]
    assert check_kernel(S.product(S.exact, S.exact), pairs)


# a base similarity on parts a, b, c: k(a,b) = k(b,c) = 1/2, k(a,c) = 0, k(x,x) = 1. Tridiagonal with 1 and 1/2:
# eigenvalues 1 + cos(j pi / 4), j = 1..3: 1 + 1/sqrt 2, 1, 1 - 1/sqrt 2 > 0, a kernel, and k(x,x) >= k(x,y)
# (the paper's definition 3), but not strong in Kriege et al.'s sense: k(a,c) = 0 < min(k(a,b), k(b,c)) = 1/2
_B = {("a", "b"): 0.5, ("b", "c"): 0.5, ("a", "c"): 0.0}
CHAIN = S.func(lambda x, y: 1.0 if x == y else _B.get((x, y), _B.get((y, x), 0.0)))


def test_optimal_assignment_kernel_can_fail_on_a_base_kernel_that_is_not_strong():
    base = check_kernel(CHAIN, ["a", "b", "c"])
    assert base.min_eigenvalue == pytest.approx(1 - 1 / math.sqrt(2)) and base.positive_definite
    assert not is_strong(CHAIN, ["a", "b", "c"])
    oa = optimal_assignment_kernel(CHAIN)
    items = [("a",), ("b",), ("c",), ("a", "c")]
    c = check_kernel(oa, items)
    # {a,c} vs {b}: one part each side pairs, 1/2; {a,c} vs {a,c}: 2; {a,c} vs {a}: 1
    assert c.gram.tolist() == [[1, 0.5, 0, 1], [0.5, 1, 0.5, 0.5], [0, 0.5, 1, 1], [1, 0.5, 1, 2]]
    # witness v = (2, -1, 2, -2): K v = (-1/2, 0, -1/2, -1/2), v.Kv = -1 + 0 - 1 + 1 = -1 < 0
    v = np.array([2, -1, 2, -2])
    assert v @ c.gram @ v == pytest.approx(-1.0)
    assert c.min_eigenvalue < 0 and not c.positive_definite


def test_optimal_assignment_kernel_on_a_strong_base_is_a_kernel():
    # lemma 5. A hierarchy: a and b siblings (1/2), c apart (0): strong, since k(x,y) >= min(k(x,z), k(z,y))
    # holds for every triple (k(a,c) = 0 >= min(k(a,b), k(b,c)) = 0)
    tree = {("a", "b"): 0.5}
    base = S.func(lambda x, y: 1.0 if x == y else tree.get((x, y), tree.get((y, x), 0.0)))
    assert is_strong(base, ["a", "b", "c"]) and is_strong(S.exact, ["a", "b"])
    oa = optimal_assignment_kernel(base)
    # {a, a, b} vs {a, b, b}: a-a 1, b-b 1, a-b 1/2 -> 2.5
    assert oa(("a", "a", "b"), ("a", "b", "b")) == 2.5
    # with the Kronecker delta, the multiset intersection: 2
    assert optimal_assignment_kernel(S.exact)(("a", "a", "b"), ("a", "b", "b")) == 2.0
    multisets = [(), ("a",), ("b",), ("c",), ("a", "a"), ("a", "b"), ("a", "c"), ("b", "c"), ("a", "b", "c")]
    assert check_kernel(oa, multisets).positive_definite


def test_refusals_before_any_work():
    def boom(p, r):
        raise AssertionError("computed")

    with pytest.raises(OptionError, match="at least one item"):
        check_kernel(boom, [])
    with pytest.raises(OptionError, match="at most 3 items"):
        check_kernel(boom, [1, 2, 3, 4], max_items=3)
    with pytest.raises(OptionError, match="tolerance"):
        check_kernel(S.exact, [1], tolerance=-1)
    with pytest.raises(OptionError, match="not finite"):
        check_kernel(S.func(lambda p, r: float("nan")), [1])
