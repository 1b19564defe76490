"""The intraclass correlations against pingouin's intraclass_corr: its own example (Shrout & Fleiss' wines), random
tables, missing ratings left out as its nan_policy="omit"."""

from __future__ import annotations

import numpy as np
import pytest

from accord import agreement as A
from accord.agreement._icc import ICC_NAMES
from accord.errors import AgreementWarning, RatingsError


def _pingouin(wide, **kw):
    pg = pytest.importorskip("pingouin", reason="pingouin: pip install pingouin (the test extra)")
    import pandas as pd

    long = pd.DataFrame([(i, j, v) for i, row in enumerate(wide) for j, v in enumerate(row)],
                        columns=["target", "rater", "score"])
    out = pg.intraclass_corr(long, targets="target", raters="rater", ratings="score", **kw)
    # its rows, in order: ICC1, ICC2, ICC3, ICC1k, ICC2k, ICC3k (named ICC(1,1), ICC(A,1)... since pingouin 0.6)
    return {name: float(v) for name, v in zip(ICC_NAMES, out["ICC"])}


def test_icc_on_pingouins_own_example():
    pg = pytest.importorskip("pingouin", reason="pingouin: pip install pingouin (the test extra)")
    data = pg.read_dataset("icc")        # 8 wines x 4 judges (Shrout & Fleiss 1979's table)
    wide = data.pivot_table(index="Wine", columns="Judge", values="Scores").to_numpy()
    got = A.intraclass_correlation(wide)
    # pingouin's docstring, rounded to three decimals
    assert [round(got[n], 3) for n in ICC_NAMES] == [0.728, 0.728, 0.729, 0.914, 0.914, 0.915]
    assert got == pytest.approx(_pingouin(wide), abs=1e-12)


def test_icc_by_hand():
    # 3 items x 2 raters, the ANOVA written out: sums of squares about the grand mean, then Shrout & Fleiss' forms
    x = np.array([[1, 2], [3, 4], [5, 5]], dtype=float)
    ss_total = ((x - x.mean()) ** 2).sum()
    ss_rows = 2 * ((x.mean(axis=1) - x.mean()) ** 2).sum()
    ss_cols = 3 * ((x.mean(axis=0) - x.mean()) ** 2).sum()
    msr, msc = ss_rows / 2, ss_cols / 1
    mse = (ss_total - ss_rows - ss_cols) / 2
    msw = (ss_total - ss_rows) / 3
    got = A.intraclass_correlation(x)
    assert got["icc1"] == pytest.approx((msr - msw) / (msr + msw))
    assert got["icc2"] == pytest.approx((msr - mse) / (msr + mse + 2 * (msc - mse) / 3))
    assert got["icc3k"] == pytest.approx((msr - mse) / msr)


@pytest.mark.parametrize("seed", range(6))
def test_icc_equals_pingouin(seed):
    rng = np.random.default_rng(seed)
    n, m = int(rng.integers(5, 40)), int(rng.integers(2, 6))
    wide = rng.normal(size=(n, 1)) * rng.uniform(0, 3) + rng.normal(size=(n, m)) + rng.normal(size=(1, m))
    wide = np.round(wide * 4) / 4 + 1000       # large values: the sums of squares are taken about the mean
    assert A.intraclass_correlation(wide) == pytest.approx(_pingouin(wide), abs=1e-9)


def test_icc_leaves_out_incomplete_items_as_pingouins_omit():
    rng = np.random.default_rng(4)
    wide = rng.integers(1, 8, (30, 3)).astype(float)
    wide[[2, 5, 11], [0, 2, 1]] = np.nan
    with pytest.warns(AgreementWarning, match="leaves out 3 item"):
        got = A.intraclass_correlation(wide)
    assert got == pytest.approx(_pingouin(wide, nan_policy="omit"), abs=1e-9)


def test_icc_of_numeric_text_and_refusals():
    rows = [["1", "2"], ["3", "4"], ["5", "5"]]
    assert A.intraclass_correlation(rows) == pytest.approx(A.intraclass_correlation([[1, 2], [3, 4], [5, 5]]))
    with pytest.raises(RatingsError, match="needs numeric ratings, got 'x'"):
        A.intraclass_correlation([["x", "1"], ["2", "3"]])
    with pytest.warns(AgreementWarning, match="NaN"):
        assert np.isnan(A.intraclass_correlation([[1, 2]])["icc1"])
