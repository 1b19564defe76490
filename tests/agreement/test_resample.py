"""The agreement bootstrap as matrix products over the items' statistics: the same resamples, intervals and
jackknife as evaluating every coefficient on each resampled table, equal to scipy.stats.bootstrap on the same draws,
and fast (100,000 items x 1,000 resamples)."""

from __future__ import annotations

import time
import warnings

import numpy as np
import pytest
from scipy import stats

from accord.agreement._ratings import MISSING, Ratings
from accord.agreement._resample import (
    COEFFICIENT_NAMES,
    item_statistics,
    jackknife_coefficients,
    resampled_coefficients,
)
from accord.agreement._result import AgreementResult
from accord.agreement._stats import agreement_stats
from accord.agreement._summary import summarize
from accord.stats import CHUNK, intervals


def _table(rng: np.random.Generator, n: int, m: int, k: int, missing: float) -> Ratings:
    truth = rng.integers(0, k, n)
    codes = np.where(rng.random((n, m)) < 0.7, truth[:, None], rng.integers(0, k, (n, m)))
    codes[rng.random((n, m)) < missing] = MISSING
    return Ratings(codes.astype(np.int64), tuple(range(1, k + 1)), tuple(f"r{j}" for j in range(m)))


def _result(table: Ratings, level: str = "nominal") -> AgreementResult:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return AgreementResult("ratings", stats={"t": agreement_stats(table)}, ratings={"t": table},
                               options={"level": level})


def _coefficients(codes: np.ndarray, table: Ratings, level: str) -> list[float]:
    """Every coefficient of one resampled table, by the scalar functions (the way the bootstrap worked before)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c = summarize(agreement_stats(Ratings(codes, table.categories, table.raters)), level=level)[0]["coefficients"]
    out = []
    for name in COEFFICIENT_NAMES:
        v = c[name]["mean"] if isinstance(c[name], dict) else c[name]
        out.append(np.nan if v is None else float(v))
    return out


def _item_loop(table: Ratings, n_resamples: int, seed: int, level: str, confidence: float, method: str):
    """The bootstrap written item by item: one resample at a time, drawn as scipy.stats.bootstrap draws with batch=1,
    the jackknife leaving each item out in turn."""
    rng = np.random.default_rng(seed)
    n = table.n_items
    resampled = np.array([_coefficients(table.codes[rng.integers(0, n, (1, n))[0]], table, level)
                          for _ in range(n_resamples)]).T
    estimate = np.array(_coefficients(table.codes, table, level))

    def jackknife():
        return np.array([_coefficients(np.delete(table.codes, i, axis=0), table, level) for i in range(n)]).T
    return resampled, intervals(resampled, estimate, confidence, method, jackknife)


@pytest.mark.parametrize("m, k, missing, level", [(2, 3, 0.0, "nominal"), (3, 4, 0.15, "nominal"),
                                                   (4, 3, 0.25, "ordinal"), (3, 5, 0.1, "interval"),
                                                   (2, 4, 0.2, "ratio")])
@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_intervals_equal_the_item_by_item_bootstrap(m, k, missing, level, method):
    """Equal to 1e-12, except BCa where the loop's float sums put a resample a unit in the last place off the
    estimate it equals (below: the exact tie)."""
    table = _table(np.random.default_rng(m * 10 + k), 45, m, k, missing)
    resampled, (lo, hi) = _item_loop(table, 120, 4, level, 0.9, method)
    estimate = _coefficients(table.codes, table, level)
    ci = _result(table, level).bootstrap(120, seed=4, confidence=0.9, method=method).ci
    for j, name in enumerate(COEFFICIENT_NAMES):
        near = np.abs(resampled[j] - estimate[j]) < 1e-12
        if method == "bca" and (near & (resampled[j] != estimate[j])).any():
            continue
        assert ci[name] == pytest.approx([None if np.isnan(lo[j]) else lo[j], None if np.isnan(hi[j]) else hi[j]],
                                         abs=1e-12)


def test_bca_counts_an_exact_tie_of_a_fractional_coefficient():
    """Four raters, a quarter of the ratings missing: one of 120 resamples has exactly the observed Bennett's S
    (observed agreement a sum of n(n - 1) / (r (r - 1)) over items). Summed as floats item by item it came out a unit
    in the last place off, and BCa's bias correction (ties counted half) and the bounds moved: [0.3078, 0.5923]
    against scipy.stats.bootstrap's [0.3086, 0.5951] with the statistic computed in exact fractions. The sums are now
    exact (scaled integers) and the observed agreement one division."""
    from fractions import Fraction

    table = _table(np.random.default_rng(43), 45, 4, 3, 0.25)

    def bennett(index):
        num, pairable = Fraction(0), 0
        for row in table.codes[index]:
            rated = row[row != MISSING]
            r = len(rated)
            if r >= 2:
                num += Fraction(sum(int(c) * (int(c) - 1) for c in np.bincount(rated, minlength=3)), r * (r - 1))
                pairable += 1
        po = num / pairable
        return float((po - Fraction(1, 3)) / (1 - Fraction(1, 3)))
    res = stats.bootstrap((np.arange(45),), bennett, vectorized=False, n_resamples=120, batch=1, method="BCa",
                          confidence_level=0.9, random_state=np.random.default_rng(4))
    assert (res.bootstrap_distribution == bennett(np.arange(45))).sum() == 1
    ci = _result(table, "ordinal").bootstrap(120, seed=4, confidence=0.9, method="bca").ci["bennett_s"]
    assert ci == pytest.approx([res.confidence_interval.low, res.confidence_interval.high], abs=1e-12)


def test_two_complete_raters_resample_exactly_as_before():
    """Two raters who rated every item: integer tables, so every resampled coefficient is bit-identical to the
    scalar functions' (ties with the estimate, counted by BCa's bias correction, are the same ties)."""
    table = _table(np.random.default_rng(2), 70, 2, 3, 0.0)
    before, _ = _item_loop(table, 200, 9, "nominal", 0.95, "percentile")
    items = item_statistics(table.codes, table.categories, table.raters)
    now = resampled_coefficients([items], 200, np.random.default_rng(9), [items.evaluator()])[0].T
    assert np.array_equal(now, before, equal_nan=True)


@pytest.mark.parametrize("level", ["nominal", "ordinal"])
def test_statistics_of_a_resample_are_those_of_the_resampled_table(level):
    """counts @ X gives the additive statistics of the table the resample draws (integers exactly; the fractional
    statistics, summed as scaled integers, to the last digit): each pair's items, agreements and margins, and the
    coincidences (their margins and the nominal disagreement, or all of them for ordinal alpha)."""
    from accord.agreement._resample import _layout

    k, m = 3, 4
    table = _table(np.random.default_rng(3), 60, m, k, 0.3)
    items = item_statistics(table.codes, table.categories, table.raters, level)
    draw = np.random.default_rng(1).integers(0, 60, 60)
    counts = np.bincount(items.inverse[draw], minlength=items.n_patterns).astype(np.float64)
    got = items.sums(counts[None, :])[0] / items.scale
    want = agreement_stats(Ratings(table.codes[draw], table.categories, table.raters))
    lay = _layout(k, m, level)
    tables = [want.pairs[p] for p in sorted(want.pairs)]
    assert np.array_equal(got[lay["pair_n"]], [t.sum() for t in tables])
    assert np.array_equal(got[lay["pair_trace"]], [np.trace(t) for t in tables])
    assert np.array_equal(got[lay["pair_rows"]], np.concatenate([t.sum(axis=1) for t in tables]))
    assert np.array_equal(got[lay["pair_cols"]], np.concatenate([t.sum(axis=0) for t in tables]))
    assert got[lay["pa_sum"]][0] == pytest.approx(want.pa_sum, abs=1e-12)
    assert got[lay["n_pairable"]][0] == want.n_pairable and got[lay["n_rated"]][0] == want.n_rated
    np.testing.assert_allclose(got[lay["pi_sum"]], want.pi_sum, atol=1e-12)
    if level == "ordinal":
        np.testing.assert_allclose(got[lay["coincidence"]].reshape(k, k), want.coincidence, atol=1e-12)
    else:
        np.testing.assert_allclose(got[lay["pairable_values"]], want.coincidence.sum(axis=1), atol=1e-12)
        assert got[lay["disagreement"]][0] == pytest.approx(want.coincidence.sum() - np.trace(want.coincidence),
                                                              abs=1e-12)
    assert got[lay["complete"]][0] == want.complete and got[lay["y2"]][0] == want.y2
    assert np.array_equal(got[lay["rater_counts"]].reshape(m, k), want.rater_counts)


def test_the_sparse_path_equals_the_dense_one(monkeypatch):
    import accord.agreement._resample as R

    table = _table(np.random.default_rng(5), 80, 3, 4, 0.1)
    dense = _result(table).bootstrap(150, seed=2, method="bca").ci
    monkeypatch.setattr(R, "_DENSE_CELLS", 1)
    assert not isinstance(item_statistics(table.codes, table.categories, table.raters).matrix, np.ndarray)
    sparse = _result(table).bootstrap(150, seed=2, method="bca").ci
    assert all(sparse[name] == pytest.approx(dense[name], abs=1e-12) for name in dense)


def _fleiss(codes: np.ndarray, k: int) -> float:
    """Fleiss' kappa of complete data, as Fleiss (1971) writes it."""
    n, m = codes.shape
    counts = np.stack([(codes == c).sum(axis=1) for c in range(k)], axis=1)
    p_i = ((counts * (counts - 1)).sum(axis=1)) / (m * (m - 1))
    p_c = counts.sum(axis=0) / (n * m)
    return (p_i.mean() - (p_c ** 2).sum()) / (1 - (p_c ** 2).sum())


@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_fleiss_kappa_interval_equals_scipy_bootstrap_in_batches(method):
    """Drawn in chunks, the resamples are those of scipy.stats.bootstrap with batch=64 (and batch=1: the generator
    gives one stream of draws for any batch)."""
    table = _table(np.random.default_rng(8), 90, 3, 3, 0.0)
    ci = _result(table).bootstrap(500, seed=6, confidence=0.9, method=method).ci["fleiss_kappa"]
    for batch in (CHUNK, 1):
        res = stats.bootstrap((np.arange(90),), lambda i: _fleiss(table.codes[i], 3), vectorized=False,
                              n_resamples=500, batch=batch, confidence_level=0.9,
                              method="BCa" if method == "bca" else "percentile",
                              random_state=np.random.default_rng(6))
        assert ci == pytest.approx([res.confidence_interval.low, res.confidence_interval.high], abs=1e-12)


def test_jackknife_leaves_each_item_out():
    table = _table(np.random.default_rng(4), 30, 3, 3, 0.2)
    items = item_statistics(table.codes, table.categories, table.raters)
    jk = jackknife_coefficients(items, items.evaluator())
    for i in (0, 7, 29):
        assert jk[:, i] == pytest.approx(_coefficients(np.delete(table.codes, i, axis=0), table, "nominal"),
                                         abs=1e-12, nan_ok=True)


@pytest.mark.timing
@pytest.mark.slow
@pytest.mark.parametrize("raters", [2, 3])
def test_100k_items_1000_resamples_within_5_seconds(raters):
    """Issue 34: 100,000 items x 1,000 resamples in under 5 s (BCa included); the item-by-item loop took about
    2 ms per resample at 1,000 items, so minutes here."""
    table = _table(np.random.default_rng(0), 100_000, raters, 4, 0.05 * (raters - 2))
    result = _result(table)
    start = time.perf_counter()
    result.bootstrap(1000, seed=1, method="bca")
    elapsed = time.perf_counter() - start
    assert elapsed < 5.0, f"{elapsed:.2f} s"
    lo, hi = result.ci["cohen_kappa"]
    value = result.totals["coefficients"]["cohen_kappa"]
    assert lo < (value["mean"] if isinstance(value, dict) else value) < hi and hi - lo < 0.02


def test_one_item_is_refused_and_few_items_warned():
    from accord.errors import StatisticsError, StatisticsWarning

    with pytest.raises(StatisticsError, match="an interval needs two or more items to resample; the input holds 1 item"):
        _result(_table(np.random.default_rng(0), 1, 2, 3, 0.0)).bootstrap(10)
    with pytest.warns(StatisticsWarning, match="only 12 items to resample"):
        _result(_table(np.random.default_rng(0), 12, 2, 3, 0.0)).bootstrap(10)


def test_a_table_with_no_rating_at_all_gives_undefined_intervals(tmp_path, capsys):
    # found by the reader fuzzer: items without any value (no category) crashed the interval-scale weighting
    from accord.cli import main

    (tmp_path / "r.csv").write_text("item,r1,r2,r3\ni0,,,\ni0,,,\n", encoding="utf-8")   # the fuzzer's table
    assert main(["agree", str(tmp_path / "r.csv"), "--items", "item", "--bootstrap", "20", "--seed", "1",
                 "--ci-method", "bca", "--output", "json"]) == 0
    import json

    ci = json.loads(capsys.readouterr().out)["totals"]["ci"]
    assert all(v == [None, None] for v in ci.values())
