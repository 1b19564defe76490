"""The agreement bootstrap's matrix products on arbitrary ratings tables (issue 34, item 6).

Properties: for any table (1-4 raters, 1-5 categories, missing ratings, items nobody or one rater rated), the
coefficients evaluated from the items' statistics equal the scalar functions' (the same NaN where undefined, the same
1.0 by convention), on the whole table and with any one item left out; and ``accord agree --bootstrap`` with
``--compare-pairs`` or ``--compare-round`` on such a table exits 0 or 2 with one line, never a traceback.
"""

from __future__ import annotations

import warnings

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from accord.agreement._ratings import MISSING, Ratings
from accord.agreement._resample import COEFFICIENT_NAMES, item_statistics, jackknife_coefficients
from accord.agreement._stats import agreement_stats
from accord.agreement._summary import summarize

from .harness import FULL, PROFILE, run

settings.load_profile(PROFILE)
EXAMPLES = 300 if FULL else 60


@st.composite
def tables(draw, min_raters: int = 2):
    m = draw(st.integers(min_raters, 4))
    k = draw(st.integers(1, 5))
    n = draw(st.integers(1, 12))
    codes = np.array(draw(st.lists(st.lists(st.integers(-1, k - 1), min_size=m, max_size=m), min_size=n,
                                   max_size=n)), dtype=np.int64)
    return Ratings(codes, tuple(range(1, k + 1)), tuple(f"r{j}" for j in range(m)))


def _scalar(codes: np.ndarray, table: Ratings, level: str) -> np.ndarray:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c = summarize(agreement_stats(Ratings(codes, table.categories, table.raters)), level=level)[0]["coefficients"]
    values = [c[n]["mean"] if isinstance(c[n], dict) else c[n] for n in COEFFICIENT_NAMES]
    return np.array([np.nan if v is None else v for v in values], dtype=np.float64)


@settings(max_examples=EXAMPLES, deadline=None)
@given(tables(), st.sampled_from(["nominal", "ordinal", "interval", "ratio"]), st.data())
def test_matrix_coefficients_equal_the_scalar_ones(table, level, data):
    items = item_statistics(table.codes, table.categories, table.raters, level)
    evaluate = items.evaluator()
    np.testing.assert_allclose(evaluate(items.total())[0], _scalar(table.codes, table, level), rtol=0, atol=1e-12)
    if table.n_items > 1:
        i = data.draw(st.integers(0, table.n_items - 1))
        np.testing.assert_allclose(jackknife_coefficients(items, evaluate)[:, i],
                                   _scalar(np.delete(table.codes, i, axis=0), table, level), rtol=0, atol=1e-12)


def _write(path, table: Ratings) -> None:
    rows = [",".join("" if c == MISSING else str(table.categories[c]) for c in row) for row in table.codes]
    path.write_text(",".join(map(str, table.raters)) + "\n" + "".join(r + "\n" for r in rows), encoding="utf-8")


@settings(max_examples=EXAMPLES // 2, deadline=None)
@given(tables(min_raters=3), tables(min_raters=2), st.sampled_from(["percentile", "bca"]),
       st.sampled_from(["cohen_kappa", "krippendorff_alpha,fleiss_kappa", "davies_fleiss_kappa,gwet_ac1"]))
def test_paired_tests_never_fail_badly(tmp_path_factory, first, second, method, coefficients):
    d = tmp_path_factory.mktemp("paired")
    a, b = d / "a.csv", d / "b.csv"
    _write(a, first)
    _write(b, second)
    common = ["--items", "", "--bootstrap", "20", "--seed", "1", "--ci-method", method, "--coefficients",
              coefficients, "--output", "json"]
    run(["agree", str(a), "--compare-pairs", "r0:r1,r0:r2", *common])
    run(["agree", str(a), "--compare-round", str(b), *common])
