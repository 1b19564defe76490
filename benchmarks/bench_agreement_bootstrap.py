"""Agreement at scale: ``accord agree --bootstrap`` and the paired test of two annotator pairs, against
scipy.stats.bootstrap on the same resamples and against the bootstrap written item by item.

1. 100,000 items, two raters, four categories, 1,000 resamples: Cohen's kappa's percentile interval checked against
   scipy.stats.bootstrap (the same generator and draws, its statistic vectorized over the drawn indices), then
   accord's intervals of all eight coefficients (percentile and BCa) timed against scipy's one-coefficient run and
   against evaluating the coefficients resample by resample (the implementation before issue 34, timed on 20
   resamples and scaled).
2. 100,000 items, three raters, 5 % of the ratings missing: Fleiss' kappa and Krippendorff's alpha; the intervals
   checked against the item-by-item bootstrap on 2,000 of the items, then timed at full size.
3. BCa at 2,000 items against scipy.stats.bootstrap (its jackknife evaluates n tables of n - 1 items).
4. The paired test of kappa(A, B) against kappa(A, C) on 100,000 items and 1,000 resamples: the difference's
   interval checked against scipy.stats.bootstrap of the difference, then timed.

Each part checks its numbers before it prints times (medians).

    python benchmarks/bench_agreement_bootstrap.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import numpy as np
from scipy import stats

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _versions import print_versions  # noqa: E402  (benchmarks/ is on sys.path when run as a script)
from bench_seqeval import median_time  # noqa: E402

from accord.agreement import MISSING, Ratings, agreement_stats, compare_coefficients  # noqa: E402
from accord.agreement._result import AgreementResult  # noqa: E402
from accord.agreement._summary import summarize  # noqa: E402
from accord.stats import CHUNK  # noqa: E402

N_ITEMS, N_RESAMPLES = 100_000, 1_000


def table(n: int, raters: int, missing: float, seed: int) -> Ratings:
    rng = np.random.default_rng(seed)
    truth = rng.choice(4, n, p=[0.4, 0.3, 0.2, 0.1])
    codes = np.where(rng.random((n, raters)) < 0.75, truth[:, None], rng.integers(0, 4, (n, raters)))
    codes[rng.random((n, raters)) < missing] = MISSING
    return Ratings(codes.astype(np.int64), ("a", "b", "c", "d"), tuple(f"r{j}" for j in range(raters)))


def result(t: Ratings) -> AgreementResult:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return AgreementResult("ratings", stats={"t": agreement_stats(t)}, ratings={"t": t})


def kappa_of_indices(a: np.ndarray, b: np.ndarray):
    """Cohen's kappa of the drawn items, vectorized over scipy's batch of index rows (Cohen 1960)."""
    def statistic(index, axis=-1):
        x, y = a[np.asarray(index)], b[np.asarray(index)]
        po = (x == y).mean(axis=-1)
        pe = sum((x == c).mean(axis=-1) * (y == c).mean(axis=-1) for c in range(4))
        return (po - pe) / (1 - pe)
    return statistic


def item_by_item(t: Ratings, n_resamples: int, seed: int) -> np.ndarray:
    """The bootstrap before issue 34: every coefficient of every resampled table, one resample at a time."""
    rng = np.random.default_rng(seed)
    n = t.n_items
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(n_resamples):
            c = summarize(agreement_stats(Ratings(t.codes[rng.integers(0, n, (1, n))[0]], t.categories, t.raters)))
            out.append([v["mean"] if isinstance(v, dict) else v for v in c[0]["coefficients"].values()])
    return np.array(out, dtype=np.float64)


def jackknife_time(t: Ratings, evaluations: int = 10) -> float:
    """Seconds the item-by-item BCa jackknife would take: ``evaluations`` tables with one item left out, scaled to
    all the items."""
    keep = np.ones(t.n_items, dtype=bool)
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for i in range(evaluations):
            keep[i] = False
            summarize(agreement_stats(Ratings(t.codes[keep], t.categories, t.raters)))
            keep[i] = True
    return (time.perf_counter() - start) / evaluations * t.n_items


def check(ours, theirs, what: str) -> None:
    assert np.allclose(ours, theirs, rtol=0, atol=1e-12), (what, ours, theirs)


def two_raters(args: argparse.Namespace) -> None:
    t = table(N_ITEMS, 2, 0.0, 1)
    r = result(t)
    a, b = t.codes[:, 0], t.codes[:, 1]

    def scipy_run():
        return stats.bootstrap((np.arange(N_ITEMS),), kappa_of_indices(a, b), n_resamples=N_RESAMPLES, batch=CHUNK,
                               vectorized=True, method="percentile", random_state=np.random.default_rng(7))
    res = scipy_run()
    check(r.bootstrap(N_RESAMPLES, seed=7).ci["cohen_kappa"],
          [res.confidence_interval.low, res.confidence_interval.high], "Cohen's kappa, percentile")
    t_pct = median_time(lambda: r.bootstrap(N_RESAMPLES, seed=7), args.repeat)
    t_bca = median_time(lambda: r.bootstrap(N_RESAMPLES, seed=7, method="bca"), args.repeat)
    t_scipy = median_time(scipy_run, args.repeat)
    start = time.perf_counter()
    item_by_item(t, 20, 7)
    t_loop = (time.perf_counter() - start) / 20 * N_RESAMPLES
    t_jack = jackknife_time(t)
    print(f"{N_ITEMS:,} items, 2 raters, {N_RESAMPLES:,} resamples: accord {t_pct:.2f} s percentile, {t_bca:.2f} s "
          f"BCa (8 coefficients); scipy.stats.bootstrap {t_scipy:.2f} s (Cohen's kappa alone, vectorized), "
          f"scipy/accord = {t_scipy / t_pct:.1f}x; item by item (before) about {t_loop:.1f} s percentile, "
          f"{t_loop + t_jack:.0f} s BCa (its jackknife {t_jack:.0f} s)")


def three_raters(args: argparse.Namespace) -> None:
    small = table(2_000, 3, 0.05, 2)
    loop = item_by_item(small, 200, 3)
    names = list(result(small)._totals["coefficients"])
    ours = result(small).bootstrap(200, seed=3).ci
    for j, name in enumerate(names):
        check(ours[name], np.percentile(loop[:, j], [2.5, 97.5]), f"{name}, 3 raters, missing ratings")
    r = result(table(N_ITEMS, 3, 0.05, 2))
    t_pct = median_time(lambda: r.bootstrap(N_RESAMPLES, seed=3), args.repeat)
    t_bca = median_time(lambda: r.bootstrap(N_RESAMPLES, seed=3, method="bca"), args.repeat)
    start = time.perf_counter()
    item_by_item(table(N_ITEMS, 3, 0.05, 2), 10, 3)
    t_loop = (time.perf_counter() - start) / 10 * N_RESAMPLES
    t_jack = jackknife_time(table(N_ITEMS, 3, 0.05, 2), 3)
    print(f"{N_ITEMS:,} items, 3 raters, 5 % missing, {N_RESAMPLES:,} resamples: accord {t_pct:.2f} s percentile, "
          f"{t_bca:.2f} s BCa (checked against the item-by-item bootstrap at 2,000 items); item by item (before) "
          f"about {t_loop:.0f} s percentile, {t_loop + t_jack:.0f} s BCa")


def bca_against_scipy(args: argparse.Namespace) -> None:
    n = 2_000
    t = table(n, 2, 0.0, 4)
    r = result(t)

    def scipy_run():
        return stats.bootstrap((np.arange(n),), kappa_of_indices(t.codes[:, 0], t.codes[:, 1]),
                               n_resamples=N_RESAMPLES, batch=CHUNK, vectorized=True, method="BCa",
                               random_state=np.random.default_rng(5))
    res = scipy_run()
    check(r.bootstrap(N_RESAMPLES, seed=5, method="bca").ci["cohen_kappa"],
          [res.confidence_interval.low, res.confidence_interval.high], "Cohen's kappa, BCa")
    t_ours = median_time(lambda: r.bootstrap(N_RESAMPLES, seed=5, method="bca"), args.repeat)
    t_scipy = median_time(scipy_run, args.repeat)
    print(f"{n:,} items, BCa, {N_RESAMPLES:,} resamples: accord {t_ours:.3f} s (8 coefficients), "
          f"scipy.stats.bootstrap {t_scipy:.3f} s (Cohen's kappa), scipy/accord = {t_scipy / t_ours:.0f}x")


def paired(args: argparse.Namespace) -> None:
    t = table(N_ITEMS, 3, 0.0, 6)
    a, b, c = (t.codes[:, j] for j in range(3))
    columns = {"A": a, "B": b, "C": c}
    kab, kac = kappa_of_indices(a, b), kappa_of_indices(a, c)

    def scipy_run():
        return stats.bootstrap((np.arange(N_ITEMS),), lambda i, axis=-1: kac(i) - kab(i), n_resamples=N_RESAMPLES,
                               batch=CHUNK, vectorized=True, method="percentile",
                               random_state=np.random.default_rng(9))

    def ours():
        return compare_coefficients(columns, pairs=[("A", "B"), ("A", "C")], n_resamples=N_RESAMPLES, seed=9)
    res = scipy_run()
    out = ours()["cohen_kappa"]
    check(list(out.ci), [res.confidence_interval.low, res.confidence_interval.high], "paired difference")
    t_ours = median_time(ours, args.repeat)
    t_scipy = median_time(scipy_run, args.repeat)
    print(f"paired test kappa(A, C) - kappa(A, B) = {out.difference:+.4f} [{out.ci[0]:+.4f}, {out.ci[1]:+.4f}], "
          f"p = {out.p_value:.3f}, {N_ITEMS:,} items, {N_RESAMPLES:,} resamples: accord {t_ours:.2f} s, "
          f"scipy.stats.bootstrap {t_scipy:.2f} s, scipy/accord = {t_scipy / t_ours:.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print_versions()
    two_raters(args)
    three_raters(args)
    bca_against_scipy(args)
    paired(args)


if __name__ == "__main__":
    main()
