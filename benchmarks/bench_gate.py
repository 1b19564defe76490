"""GATE-style evaluation at scale: agreement coefficients against their peers, the Annotation Diff, the BDM.

Run:  python benchmarks/bench_gate.py [--items 1000000] [--raters 3] [--annotations 100000] [--concepts 400]

1. Coefficients (median of three runs each): an items x raters table of nominal labels (5 categories, 10% missing in
   the third rater); accord's Cohen's kappa against scikit-learn's ``cohen_kappa_score``,
   Fleiss' kappa against statsmodels' ``fleiss_kappa`` (complete items), Krippendorff's
   alpha against the ``krippendorff`` package. Values must agree to 1e-9.
2. Annotation Diff (no peer runs in Python: GATE is Java): key and response of
   ``--annotations`` annotations each, with a feature, shifted and relabelled spans, in
   one document; GATE's greedy pairing and the optimal one, and the Corpus QA tables.
3. BDM: a random taxonomy of ``--concepts`` concepts, every unordered pair.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from _versions import print_versions  # noqa: E402  (benchmarks/ is on sys.path when run as a script)


def timed(fn, *args, repeat: int = 1, **kwargs):
    """The result and the median wall time of ``repeat`` calls."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn(*args, **kwargs)
        times.append(time.perf_counter() - t)
    return out, sorted(times)[len(times) // 2]


def bench_coefficients(args: argparse.Namespace) -> None:
    import krippendorff
    from sklearn.metrics import cohen_kappa_score
    from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

    from accord import agreement

    rng = np.random.default_rng(3)
    n = args.items
    truth = rng.integers(0, 5, n)
    cols = {}
    for j in range(args.raters):
        noisy = np.where(rng.random(n) < 0.25, rng.integers(0, 5, n), truth).astype(float)
        if j == args.raters - 1:
            noisy[rng.random(n) < 0.1] = np.nan
        cols[f"r{j}"] = noisy
    table = np.column_stack(list(cols.values()))
    print(f"coefficients: {n:,} items x {args.raters} raters, 5 categories, 10% missing in one rater")

    a, b = table[:, 0], table[:, 1]
    ours, t_ours = timed(agreement.cohen_kappa, {"r0": a, "r1": b}, repeat=3)
    peer, t_peer = timed(cohen_kappa_score, a.astype(int), b.astype(int), repeat=3)
    assert abs(ours - peer) < 1e-9, (ours, peer)
    print(f"  Cohen's kappa (2 raters)       accord {t_ours:7.3f} s   scikit-learn {t_peer:7.3f} s   "
          f"ratio {t_peer / t_ours:6.2f}x   value {ours:.6f}")

    complete = table[~np.isnan(table).any(axis=1)].astype(int)
    ours, t_ours = timed(agreement.fleiss_kappa, complete, repeat=3)
    peer, t_peer = timed(lambda x: fleiss_kappa(aggregate_raters(x)[0]), complete, repeat=3)
    assert abs(ours - peer) < 1e-9, (ours, peer)
    print(f"  Fleiss' kappa (complete items) accord {t_ours:7.3f} s   statsmodels  {t_peer:7.3f} s   "
          f"ratio {t_peer / t_ours:6.2f}x   value {ours:.6f}")

    ours, t_ours = timed(agreement.krippendorff_alpha, table, repeat=3)
    peer, t_peer = timed(krippendorff.alpha, reliability_data=table.T, level_of_measurement="nominal", repeat=3)
    assert abs(ours - peer) < 1e-9, (ours, peer)
    print(f"  Krippendorff's alpha (missing) accord {t_ours:7.3f} s   krippendorff {t_peer:7.3f} s   "
          f"ratio {t_peer / t_ours:6.2f}x   value {ours:.6f}")


def bench_diff(args: argparse.Namespace) -> None:
    from accord.diff import diff_corpora
    from accord.diff._result import diff_result
    from accord.model import Corpus, Document
    from accord.model import make_annotation as A

    rng = np.random.default_rng(5)
    n = args.annotations
    starts = np.sort(rng.choice(n * 20, n, replace=False)) * 2
    lengths = rng.integers(1, 8, n)
    labels = np.array(["PER", "ORG", "LOC", "MISC"])
    key_labels = labels[rng.integers(0, 4, n)]
    classes = rng.integers(0, 3, n)
    key = [A(str(key_labels[i]), int(starts[i]), int(starts[i] + lengths[i]), {"class": int(classes[i])})
           for i in range(n)]
    resp = []
    for i in range(n):
        r = rng.random()
        s, e = int(starts[i]), int(starts[i] + lengths[i])
        if r < 0.1:
            continue                                   # missed
        if r < 0.2:
            e = max(s + 1, e + int(rng.integers(-2, 3)))    # boundary error
        label = str(key_labels[i]) if rng.random() > 0.1 else str(labels[rng.integers(0, 4)])
        cls = int(classes[i]) if rng.random() > 0.1 else int(rng.integers(0, 3))
        resp.append(A(label, s, e, {"class": cls}))
    k = Corpus([Document("doc", tuple(key))])
    r = Corpus([Document("doc", tuple(resp))])
    print(f"annotation diff: {len(key):,} keys x {len(resp):,} responses in one document, feature 'class'")
    for pairing in ("gate", "optimal"):
        cd, t = timed(diff_corpora, k, r, features=["class"], pairing=pairing)
        c = cd.counts()
        print(f"  {pairing:8s} pairing  {t:6.3f} s   c={c.correct} p={c.partial} m={c.missing} s={c.spurious}")
    _, t = timed(lambda c: diff_result(c, ("strict", "lenient", "average"), 1.0).to_dict(), cd)
    print(f"  Corpus QA tables (by type, by document, every cell, JSON form)  {t:6.3f} s")


def bench_bdm(args: argparse.Namespace) -> None:
    from accord.bdm import BdmTable, Taxonomy, bdm_scores

    rng = np.random.default_rng(9)
    edges = [("c0", None)]
    for i in range(1, args.concepts):
        edges.append((f"c{i}", f"c{int(rng.integers(0, i))}"))
        if i > 10 and rng.random() < 0.05:              # a few concepts with a second superclass
            edges.append((f"c{i}", f"c{int(rng.integers(0, i))}"))
    tax = Taxonomy.from_edges(edges)
    table, t = timed(lambda: BdmTable(bdm_scores(tax)))
    print(f"BDM: {args.concepts} concepts (5% with two superclasses), {len(table):,} unordered pairs  {t:6.3f} s")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--items", type=int, default=1_000_000)
    p.add_argument("--raters", type=int, default=3)
    p.add_argument("--annotations", type=int, default=100_000)
    p.add_argument("--concepts", type=int, default=400)
    args = p.parse_args()
    print_versions('scikit-learn', 'statsmodels', 'krippendorff')
    bench_coefficients(args)
    bench_diff(args)
    bench_bdm(args)


if __name__ == "__main__":
    main()
