"""Bootstrap confidence intervals: accord against scipy.stats.bootstrap on the same resamples.

1. The 300k-token corpus of bench_seqeval.py (documents of 50 sentences): ``accord score --bootstrap 10000`` as a
   whole command against the command without intervals, the intervals in process against scipy.stats.bootstrap
   drawing the same resamples (the statistic summing the drawn documents' counts), and a 10,000-sample paired
   permutation test against a second system against scipy.stats.permutation_test.
2. 15,000 generated documents with four labels, 10,000 resamples: accord's weight-matrix bootstrap against
   scipy.stats.bootstrap (same generator, ``batch`` = accord's chunk, so the same resamples).

Each part checks that the intervals are equal before it prints times (medians) and ratios.

    python benchmarks/bench_stats.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np
from scipy import stats

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _versions import print_versions  # noqa: E402  (benchmarks/ is on sys.path when run as a script)
from bench_seqeval import generate, median_time, write_conll  # noqa: E402

import accord  # noqa: E402
from accord.result import ALL, Measure, PairsKind, Result, label_table  # noqa: E402
from accord.stats import CHUNK  # noqa: E402


def scipy_f1(values: np.ndarray, n: int, seed: int) -> tuple[float, float]:
    kind = PairsKind()

    def statistic(index, axis=-1):
        return kind.rates(values[np.asarray(index)].sum(axis=-2))["f1"]
    res = stats.bootstrap((np.arange(len(values)),), statistic, n_resamples=n, batch=CHUNK, vectorized=True,
                          random_state=np.random.default_rng(seed), method="percentile")
    return float(res.confidence_interval.low), float(res.confidence_interval.high)


def check(ours: list, theirs: tuple) -> None:
    assert np.allclose(ours, theirs, rtol=0, atol=1e-12), (ours, theirs)


def corpus_part(args: argparse.Namespace) -> None:
    gold, pred = generate(300_000)
    with tempfile.TemporaryDirectory() as d:
        g, p = Path(d, "gold.conll"), Path(d, "pred.conll")
        write_conll(g, gold)
        write_conll(p, pred)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            report = accord.score(g, p)
        values = report.main.table.values[:, report.main.table.rows.index(ALL)]
        print(f"corpus: 300k tokens, {len(report.documents)} documents, F1 {100 * report.f1:.2f}")
        check(report.bootstrap(10_000, seed=1).to_dict()["totals"]["ci"]["f1"], scipy_f1(values, 10_000, 1))
        t_ours = median_time(lambda: report.bootstrap(10_000, seed=1).to_dict(), args.repeat)
        t_scipy = median_time(lambda: scipy_f1(values, 10_000, 1), args.repeat)
        print(f"in process, 10,000 resamples: accord {t_ours:.3f} s (every rate of every label and the macro "
              f"means), scipy.stats.bootstrap {t_scipy:.3f} s (F1 only), scipy/accord = {t_scipy / t_ours:.1f}x")
        base = [sys.executable, "-m", "accord", "score", str(g), str(p), "--output", "json", "-o", str(Path(d, "o"))]
        t_plain = median_time(lambda: subprocess.run(base, check=True, capture_output=True), args.repeat)
        with_ci = base + ["--bootstrap", "10000", "--seed", "1"]
        t_ci = median_time(lambda: subprocess.run(with_ci, check=True, capture_output=True), args.repeat)
        print(f"whole command: accord score {t_plain:.3f} s, with --bootstrap 10000 {t_ci:.3f} s "
              f"(+{t_ci - t_plain:.3f} s)")
        # a second system: the first with every tenth entity tag of the prediction dropped
        worse = [[("O" if k % 10 == 0 and t != "O" else t) for k, t in enumerate(s)] for s in pred]
        w = Path(d, "worse.conll")
        write_conll(w, worse)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            other = accord.score(g, w)
        runs = {"a": report, "b": other}
        ours = accord.compare(runs, samples=10_000, seed=3, labels=False).comparisons[0]
        va = values
        vb = other.main.table.values[:, other.main.table.rows.index(ALL)]
        stacked = np.concatenate([va, vb])
        kind = PairsKind()

        def f1_difference(x, y, axis=-1):
            return (kind.rates(stacked[np.asarray(y)].sum(axis=-2))["f1"]
                    - kind.rates(stacked[np.asarray(x)].sum(axis=-2))["f1"])
        n = len(va)

        def scipy_test():
            return stats.permutation_test((np.arange(n), np.arange(n) + n), f1_difference, permutation_type="samples",
                                          vectorized=True, n_resamples=10_000, batch=CHUNK,
                                          random_state=np.random.default_rng(3))
        theirs = scipy_test()
        assert abs(ours.difference - theirs.statistic) < 1e-12 and ours.p_value <= 0.01 and theirs.pvalue <= 0.01
        t_ours = median_time(lambda: accord.compare(runs, samples=10_000, seed=3, labels=False), args.repeat)
        t_scipy = median_time(scipy_test, args.repeat)
        print(f"permutation test, 10,000 samples (F1 {100 * ours.a_value:.2f} vs {100 * ours.b_value:.2f}, "
              f"p = {ours.p_value:.4f}): accord {t_ours:.3f} s, scipy.stats.permutation_test {t_scipy:.3f} s, "
              f"scipy/accord = {t_scipy / t_ours:.1f}x")


def generated_part(args: argparse.Namespace) -> None:
    rng = np.random.default_rng(0)
    documents = 15_000
    n_items = rng.integers(0, 30, documents)
    doc = np.repeat(np.arange(documents), n_items)
    lab = rng.integers(0, 4, len(doc))
    u = rng.random(len(doc))
    none = (doc[:0], lab[:0], None)
    table = label_table(PairsKind.fields, [f"d{k}" for k in range(documents)], ["LOC", "MISC", "ORG", "PER"],
                        [(doc[u < .85], lab[u < .85], None), none, none, (doc[u >= .85], lab[u >= .85], None),
                         (doc[u >= .9], lab[u >= .9], None)])
    result = Result("score", "pairs", {"pairs": Measure(PairsKind(), table)}, nested=False)
    values = table.values[:, 0]
    check(result.bootstrap(10_000, seed=2).to_dict()["totals"]["ci"]["f1"], scipy_f1(values, 10_000, 2))
    t_ours = median_time(lambda: result.bootstrap(10_000, seed=2), args.repeat)
    t_bca = median_time(lambda: result.bootstrap(10_000, seed=2, method="bca"), args.repeat)
    t_scipy = median_time(lambda: scipy_f1(values, 10_000, 2), args.repeat)
    print(f"15,000 documents, 10,000 resamples: accord {t_ours:.3f} s percentile, {t_bca:.3f} s BCa (5 rows x 3 "
          f"rates + macro), scipy.stats.bootstrap {t_scipy:.3f} s (one rate), scipy/accord = {t_scipy / t_ours:.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print_versions()
    corpus_part(args)
    generated_part(args)


if __name__ == "__main__":
    main()
