"""accord's assignment without scipy.optimize (:mod:`accord.match._small_assignment`) against scipy's
``linear_sum_assignment(maximize=True)`` itself: the same rows and columns (not only the same total) on random
matrices of every shape, with ties (small integers, repeated rows, zeros) and with the fractions CEAF-e sums, one at
a time (in plain Python) and many in one batch; and a coreference corpus scored in a fresh interpreter never imports
scipy.optimize (nor does the CorefUD scorer's mention alignment, which solves many 1 x 1 and 2 x 2 blocks)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accord.match._small_assignment import LARGEST, PLAIN, max_assignment, max_assignments

from .harness import FULL, PROFILE

scipy_optimize = pytest.importorskip("scipy.optimize")

settings.load_profile(PROFILE)
EXAMPLES = 700 if FULL else 150


@st.composite
def matrices(draw: st.DrawFn) -> np.ndarray:
    n, m = draw(st.integers(1, 9)), draw(st.integers(1, 9))
    kind = draw(st.sampled_from(["float", "ties", "ceafe", "sparse", "constant"]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    if kind == "float":
        return rng.random((n, m))
    if kind == "ties":
        return rng.integers(0, 3, (n, m)).astype(np.float64)
    if kind == "ceafe":     # 2 |K ∩ R| / (|K| + |R|), as the metric fills its matrix
        common = rng.integers(0, 4, (n, m))
        return 2 * common / (rng.integers(1, 6, n)[:, None] + rng.integers(1, 6, m)[None, :])
    if kind == "sparse":
        out = np.zeros((n, m))
        out[rng.random((n, m)) < 0.3] = 1.0
        return out
    return np.full((n, m), float(draw(st.integers(-2, 2))))


def _scipy(m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return scipy_optimize.linear_sum_assignment(m, maximize=True)


@given(matrices())
@settings(max_examples=EXAMPLES)
def test_one_matrix_gets_scipys_pairs(m: np.ndarray) -> None:
    [(rows, cols)] = max_assignments([m])
    want_rows, want_cols = _scipy(m)
    assert rows.tolist() == want_rows.tolist() and cols.tolist() == want_cols.tolist()
    assert float(m[rows, cols].sum()) == float(m[want_rows, want_cols].sum())


@given(matrices())
@settings(max_examples=EXAMPLES)
def test_one_small_matrix_in_plain_python_gets_scipys_pairs(m: np.ndarray) -> None:
    rows, cols = max_assignment(m)
    for want_rows, want_cols in (_scipy(m), scipy_optimize.linear_sum_assignment(-m)):   # both ways scipy is called
        assert rows.tolist() == want_rows.tolist() and cols.tolist() == want_cols.tolist()
    assert m.size > PLAIN or float(m[rows, cols].sum()) == float(m[want_rows, want_cols].sum())


@given(st.lists(matrices(), min_size=1, max_size=25))
@settings(max_examples=EXAMPLES // 3)
def test_a_batch_gets_scipys_pairs_for_each(ms: list[np.ndarray]) -> None:
    for m, (rows, cols) in zip(ms, max_assignments(ms)):
        want_rows, want_cols = _scipy(m)
        assert rows.tolist() == want_rows.tolist() and cols.tolist() == want_cols.tolist()


def test_hand_cases() -> None:
    # a 3 x 3 matrix whose best total (2 + 5 + 3 = 10) takes neither diagonal; a column, a row, an empty matrix
    m = np.array([[1.0, 2.0, 0.0], [0.0, 1.0, 5.0], [3.0, 1.0, 1.0]])
    [(rows, cols)] = max_assignments([m])
    assert rows.tolist() == [0, 1, 2] and cols.tolist() == [1, 2, 0] and m[rows, cols].sum() == 10.0
    col, row, empty = max_assignments([np.array([[1.0], [4.0], [4.0]]), np.array([[0.5, 0.5]]), np.zeros((0, 3))])
    assert col[0].tolist() == [1] and col[1].tolist() == [0]
    assert row[0].tolist() == [0] and row[1].tolist() == _scipy(np.array([[0.5, 0.5]]))[1].tolist()
    assert len(empty[0]) == len(empty[1]) == 0


def test_large_matrices_go_to_scipy() -> None:
    rng = np.random.default_rng(5)
    m = rng.random((70, 70))
    assert m.size > LARGEST
    [(rows, cols)] = max_assignments([m])
    want_rows, want_cols = _scipy(m)
    assert rows.tolist() == want_rows.tolist() and cols.tolist() == want_cols.tolist()


def test_coreference_scores_without_importing_scipy_optimize() -> None:
    code = ("import sys\n"
            "from accord.structured import coref_scores\n"
            "key = {f'd{i}': [[(0, 0), (2, 3), (5, 5)], [(7, 7), (9, 9)], [(11, 12)]] for i in range(50)}\n"
            "resp = {f'd{i}': [[(0, 0), (7, 7)], [(2, 3), (5, 5), (9, 9)], [(11, 12), (14, 14)]] for i in range(50)}\n"
            "s = coref_scores(key, resp)\n"
            "print(round(s['ceafe'].f1, 12), 'scipy.optimize' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout.split()
    assert out[1] == "False"
    # CEAF-e by hand, per document: key entities {0,2-3,5}, {7,9}, {11-12}; response {0,7}, {2-3,5,9}, {11-12,14};
    # phi = 2|K∩R|/(|K|+|R|): the best 1:1 alignment pairs K1-R2 (2*2/6), K2-R1 (2*1/4), K3-R3 (2*1/3)
    best = 4 / 6 + 2 / 4 + 2 / 3
    assert float(out[0]) == pytest.approx(2 * best / 6, abs=1e-12)    # recall = precision = best / 3 entities


CORPORA = __import__("pathlib").Path(__file__).resolve().parents[2] / ".." / "shared" / "corpora"


def test_corefud_head_matching_without_importing_scipy_optimize(tmp_path) -> None:
    import gzip

    gum = CORPORA / "outside3" / "coref_corefud"
    if not (gum / "gum_test.conllu.gz").exists():
        pytest.skip("../shared/corpora/outside3/coref_corefud is not here")
    for name in ("gum_test", "gum_resp"):
        (tmp_path / f"{name}.conllu").write_bytes(gzip.decompress((gum / f"{name}.conllu.gz").read_bytes()))
    code = ("import sys\n"
            "from accord.structured._commands import coref\n"
            f"r = coref({str(tmp_path / 'gum_test.conllu')!r}, {str(tmp_path / 'gum_resp.conllu')!r}, "
            "preset='corefud', mention_match='head')\n"
            "print('scipy.optimize' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout.split()
    assert out == ["False"]
