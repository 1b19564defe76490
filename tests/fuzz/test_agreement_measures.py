"""The coefficients of ``accord agree --coefficients``, ``--reference`` and the alternative annotator test on
arbitrary ratings tables (issue 39, part 3).

Properties: for any table (2-4 raters, 1-5 categories, missing ratings, items nobody or one rater rated), each added
coefficient's jackknife (the matrix of per-item contributions without one item) equals the coefficient of the table
without that item; weighted kappa of two raters equals scikit-learn's wherever scikit-learn's is defined; and the
command line with every added coefficient, a reference, the alt-test and a bootstrap exits 0 or 2 with one line,
never a traceback.
"""

from __future__ import annotations

import tempfile
import warnings
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from accord.agreement._measures import EXTRA_COEFFICIENTS, extra_table
from accord.agreement._ratings import MISSING, Ratings
from accord.agreement._resample import jackknife_coefficients

from .harness import FULL, PROFILE, run

settings.load_profile(PROFILE)
EXAMPLES = 200 if FULL else 40


@st.composite
def tables(draw, min_raters: int = 2):
    m = draw(st.integers(min_raters, 4))
    k = draw(st.integers(1, 5))
    n = draw(st.integers(1, 12))
    codes = np.array(draw(st.lists(st.lists(st.integers(-1, k - 1), min_size=m, max_size=m), min_size=n,
                                   max_size=n)), dtype=np.int64)
    return Ratings(codes, tuple(range(1, k + 1)), tuple(f"r{j}" for j in range(m)))


@settings(max_examples=EXAMPLES, deadline=None)
@given(tables(), st.data())
def test_the_jackknife_of_every_added_coefficient_is_the_table_without_the_item(table, data):
    names = list(EXTRA_COEFFICIENTS)
    ext = extra_table(table.codes, table.categories, table.raters, names)
    if table.n_items < 2:
        return
    i = data.draw(st.integers(0, table.n_items - 1))
    left = extra_table(np.delete(table.codes, i, axis=0), table.categories, table.raters, names)
    evaluate = ext.evaluator()
    np.testing.assert_allclose(jackknife_coefficients(ext.table, evaluate)[:, i],
                               left.evaluator()(left.table.total())[0], rtol=1e-9, atol=1e-9)


@settings(max_examples=EXAMPLES, deadline=None)
@given(tables(), st.sampled_from(["linear", "quadratic"]))
def test_weighted_kappa_of_two_raters_equals_scikit_learn(table, weights):
    from sklearn.metrics import cohen_kappa_score

    codes = table.codes[:, :2]
    both = (codes != MISSING).all(axis=1)
    if not both.any():
        return
    a, b = codes[both, 0], codes[both, 1]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = cohen_kappa_score(a, b, weights=weights, labels=list(range(len(table.categories))))
    ext = extra_table(codes, table.categories, table.raters[:2], [f"weighted_kappa_{weights}"])
    got = ext.values()[f"weighted_kappa_{weights}"]
    if np.isnan(expected):           # every rating in one category: accord's 1.0 by convention
        assert got == 1.0
    else:
        assert abs(got - expected) < 1e-9


def _write(path: Path, table: Ratings) -> None:
    rows = [",".join("" if c == MISSING else str(table.categories[c]) for c in row) for row in table.codes]
    path.write_text(",".join(map(str, table.raters)) + "\n" + "".join(r + "\n" for r in rows), encoding="utf-8")


@settings(max_examples=EXAMPLES, deadline=None)
@given(tables(min_raters=3), st.sampled_from(["accuracy", "neg_rmse"]), st.booleans())
def test_the_command_line_never_fails_on_any_table(table, scoring, bootstrap):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "r.csv"
        _write(path, table)
        argv = ["agree", str(path), "--items", "", "--coefficients", ",".join(EXTRA_COEFFICIENTS),
                "--reference", str(table.raters[-1]), "--alt-test", "--alt-scoring", scoring, "--alt-min-items", "2",
                "--output", "json"]
        if bootstrap:
            argv += ["--bootstrap", "20", "--seed", "1"]
        run(argv)
