"""accord's coreference metrics and Smatch against metametric and smatch, same data, same run.

Run:  python benchmarks/bench_structured.py [--docs 2000] [--mentions 50] [--pairs 1000] [--nodes 40]
      [--amr-gold GOLD.amr --amr-pred PRED.amr] [--repeat 5]

1. Coreference: 2,000 generated documents of 50 mentions; accord scores all six metrics for
   the corpus; metametric's coreference suite runs on a sample of documents (it is slow)
   and its MUC, B-cubed and CEAFe must equal accord's on each of them. Then the whole command
   ``accord coref key.conll response.conll --output json`` on the same corpus written as
   CoNLL-2012 files (its CoNLL F1 checked against the in-process scores first). The reference
   Perl scorer and coval are not on PyPI and are not run here.
2. Smatch: 1,000 generated AMR pairs (gold graphs of up to 40 nodes, predictions that get
   about 15% of concepts and roles and 10% of nodes wrong, as a parser would), written as PENMAN
   files; or a release's gold graphs and a parser's output given with --amr-gold/--amr-pred.
   In process: accord's exact ILP against smatch 1.0.4 (its default restarts; accord's match
   count must never be below smatch's) and smatchpp's ILP (``pip install smatchpp``; its optimum
   must equal accord's on every pair with the same triples). Whole commands: ``accord smatch``
   against ``smatch.py -f`` and ``python -m smatchpp -solver ilp``, on the same files.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _process import compile_accord, peak_memory  # (benchmarks/ is on sys.path when run as a script)
from _versions import print_versions


def gen_doc(rng: random.Random, n: int) -> tuple[list, list]:
    starts = sorted(rng.sample(range(n * 6), n))
    mentions = [(s, s + rng.randrange(3)) for s in starts]
    n_ent = max(1, n // 4)
    key = [[] for _ in range(n_ent)]
    for m in mentions:
        key[rng.randrange(n_ent)].append(m)
    resp = [[] for _ in range(n_ent + 3)]
    for m in mentions:
        if rng.random() < 0.9:
            e = rng.randrange(len(resp)) if rng.random() < 0.3 else next(i for i, c in enumerate(key) if m in c)
            resp[e].append(m)
    for s in rng.sample(range(n * 6, n * 7), n // 10):  # spurious mentions, no duplicates (metametric keeps them)
        resp[rng.randrange(len(resp))].append((s, s))
    return [c for c in key if c], [c for c in resp if c]


def bench_coref(args: argparse.Namespace) -> None:
    from metametric.metrics.coref import coref_suite
    from metametric.structures.ie import Entity, EntitySet, Mention

    from accord.structured import coref_scores

    rng = random.Random(7)
    docs = {f"d{i}": gen_doc(rng, args.mentions) for i in range(args.docs)}
    key = {d: k for d, (k, _) in docs.items()}
    resp = {d: r for d, (_, r) in docs.items()}
    t = time.perf_counter()
    ours = coref_scores(key, resp)
    t_ours = time.perf_counter() - t
    print(f"coreference: {args.docs} documents x {args.mentions} mentions, all six metrics: accord {t_ours:.3f} s")
    sample = list(docs)[: args.sample]

    def es(cl):
        return EntitySet([Entity([Mention(s, e) for s, e in c]) for c in cl])

    t = time.perf_counter()
    for d in sample:
        suite = coref_suite.new()
        suite.update_single(es(resp[d]), es(key[d]))
        theirs = suite.compute()
        for name, metric in (("muc", "muc"), ("b_cubed", "bcub"), ("ceaf_phi4", "ceafe")):
            got = ours[metric].by_document[d]
            assert abs(got.f1 - float(theirs[f"{name}-f1"])) < 1e-9, (d, metric, got.f1, theirs[f"{name}-f1"])
    per_doc = (time.perf_counter() - t) / len(sample)
    print(f"  metametric (muc, b_cubed, ceaf_phi4 only): {per_doc:.3f} s per document on a sample of "
          f"{len(sample)}, about {per_doc * args.docs:.0f} s for the corpus; "
          f"ratio {per_doc * args.docs / t_ours:.0f}x; numbers agree on the sample")
    bench_coref_command(key, resp, args.repeat)


def bench_coref_command(key: dict, resp: dict, repeat: int) -> None:
    """``accord coref`` as a user runs it, on CoNLL-2012 files of the same corpus.

    Its scores are checked against the in-process scores of what the files hold: the generator lets two mentions
    of one entity overlap across each other, which the chain column cannot say (a closing bracket closes the
    entity's innermost open mention), so the files are not the generated clusters exactly.
    """
    from accord.formats.coref.clusters import read_coref, write_coref_conll
    from accord.structured import coref_scores

    with tempfile.TemporaryDirectory() as tmp:
        k, r = Path(tmp) / "key.conll", Path(tmp) / "response.conll"
        write_coref_conll(key, k)
        write_coref_conll(resp, r)
        ours = coref_scores(read_coref(k), read_coref(r))
        cmd = [sys.executable, "-m", "accord.cli", "coref", str(k), str(r), "--output", "json"]
        got = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)["measures"]
        for metric in ("muc", "bcub", "ceafe", "blanc", "lea"):
            assert abs(got[metric]["totals"]["f1"] - ours[metric].f1) < 1e-12, metric
        times = []
        for _ in range(repeat):
            t = time.perf_counter()
            subprocess.run(cmd, check=True, capture_output=True)
            times.append(time.perf_counter() - t)
        print(f"  whole command accord coref on CoNLL-2012 files ({k.stat().st_size + r.stat().st_size:,} bytes): "
              f"{statistics.median(times):.3f} s (median of {repeat}), peak memory {peak_memory(cmd):.0f} MiB; "
              "numbers equal the in-process scores")


VOCAB = [f"concept{i}-01" for i in range(60)] + ["person", "thing", "name", "and", "have-org-role-91"] * 4
ROLES = [":ARG0", ":ARG1", ":ARG2", ":mod", ":location", ":time", ":op1", ":op2", ":poss", ":ARG0-of"]


def gen_amr_pair(rng: random.Random, n: int) -> tuple[str, str]:
    """A gold graph of n nodes and a parser-like prediction: some concepts, edges and nodes wrong."""
    parent = {i: rng.randrange(i) for i in range(1, n)}
    concept = {i: rng.choice(VOCAB) for i in range(n)}
    role = {i: rng.choice(ROLES) for i in range(1, n)}
    reent = {i: (rng.choice(ROLES), rng.randrange(i)) for i in range(1, n) if rng.random() < 0.15}
    # no re-entrancy back to the parent: with an inverse role it could restate the tree edge, a repeated triple
    # that smatch and smatchpp count twice and accord once (the figures compare equal triple sets)
    reent = {i: r for i, r in reent.items() if r[1] != parent[i]}

    def render(nodes, concept, role, reent, names):
        kids = {i: [] for i in nodes}
        for i in nodes:
            if i in parent and parent[i] in kids:
                kids[parent[i]].append(i)

        def r(i):
            parts = [f"({names[i]} / {concept[i]}"]
            parts += [f"{role[c]} {r(c)}" for c in kids[i]]
            if i in reent and reent[i][1] in nodes:
                parts.append(f"{reent[i][0]} {names[reent[i][1]]}")
            return " ".join(parts) + ")"
        return r(0)

    gold = render(set(range(n)), concept, role, reent, {i: f"g{i}" for i in range(n)})
    keep = {0} | {i for i in range(1, n) if rng.random() > 0.1}
    keep = {i for i in keep if i == 0 or all(j in keep for j in _ancestors(parent, i))}
    c2 = {i: (rng.choice(VOCAB) if rng.random() < 0.15 else concept[i]) for i in keep}
    r2 = {i: (rng.choice(ROLES) if rng.random() < 0.15 else role[i]) for i in keep if i}
    pred = render(keep, c2, r2, reent, {i: f"p{i}" for i in keep})
    return pred, gold


def _ancestors(parent, i):
    while i in parent:
        i = parent[i]
        yield i


def bench_smatch(args: argparse.Namespace) -> None:
    """Exact Smatch in process and as whole commands, against smatch 1.0.4 and smatchpp's ILP."""
    if args.amr_gold:
        gold_text = Path(args.amr_gold).read_text(encoding="utf-8")
        pred_text = Path(args.amr_pred).read_text(encoding="utf-8")
        what = f"{args.amr_pred} against {args.amr_gold}"
    else:
        rng = random.Random(11)
        pairs = [gen_amr_pair(rng, rng.randint(args.nodes // 3, args.nodes)) for _ in range(args.pairs)]
        pred_text = "".join(f"# ::id g{i}\n{test}\n\n" for i, (test, _) in enumerate(pairs))
        gold_text = "".join(f"# ::id g{i}\n{gold}\n\n" for i, (_, gold) in enumerate(pairs))
        what = f"{args.pairs} generated AMR pairs of up to {args.nodes} nodes"
    with tempfile.TemporaryDirectory() as tmp:
        gold, pred = Path(tmp) / "gold.amr", Path(tmp) / "pred.amr"
        gold.write_text(gold_text, encoding="utf-8")
        pred.write_text(pred_text, encoding="utf-8")
        ours, comparable = smatch_in_process(pred, gold, what)
        smatch_commands(pred, gold, ours, comparable, args.repeat)


def graph_strings(path: Path) -> list[str]:
    """The graphs of a PENMAN file as strings (blank-line separated, comment lines dropped), as every tool takes."""
    blocks = Path(path).read_text(encoding="utf-8").split("\n\n")
    graphs = ["\n".join(ln for ln in b.splitlines() if not ln.lstrip().startswith("#")) for b in blocks]
    return [g for g in graphs if g.strip()]


def smatch_in_process(pred: Path, gold: Path, what: str) -> tuple[list, bool]:
    """accord, smatch and smatchpp (ILP) on the graphs of the two files, each pair checked."""
    import smatch as sm

    from accord.structured import smatch

    tests, golds = graph_strings(pred), graph_strings(gold)
    assert len(tests) == len(golds), f"{len(tests)} predicted graphs, {len(golds)} gold graphs"
    t = time.perf_counter()
    ours = [smatch(test, g) for test, g in zip(tests, golds)]
    t_ours = time.perf_counter() - t

    sm.veryVerbose = sm.verbose = False
    t = time.perf_counter()
    theirs = []
    for test, g in zip(tests, golds):
        sm.match_triple_dict.clear()
        theirs.append(sm.get_amr_match(test, g))
    t_smatch = time.perf_counter() - t
    # a repeated triple (an edge written twice) counts once in accord, twice in smatch: compare the rest
    same = [(o, th) for o, th in zip(ours, theirs) if (o.test_triples, o.gold_triples) == tuple(th[1:])]
    below = sum(o.match < th[0] for o, th in same)
    above = sum(o.match > th[0] for o, th in same)
    assert below == 0, f"accord below smatch on {below} pairs"
    line = (f"smatch: {what}: accord {t_ours:.2f} s; smatch 1.0.4 {t_smatch:.2f} s "
            f"({t_smatch / t_ours:.1f}x)")
    try:
        from smatchpp import Smatchpp, solvers
    except ImportError:
        print(line + "; smatchpp not installed")
        comparable = False
    else:
        t = time.perf_counter()
        counts, _ = Smatchpp(alignmentsolver=solvers.ILP()).process_corpus(tests, golds)
        t_pp = time.perf_counter() - t
        exact = [(o, c) for o, c in zip(ours, counts["main"]) if (o.test_triples, o.gold_triples) == (c[2], c[3])]
        differ = sum(o.match != c[0] for o, c in exact)
        assert differ == 0, f"accord's exact match differs from smatchpp's ILP on {differ} pairs"
        print(line + f"; smatchpp 1.8 (ILP) {t_pp:.2f} s ({t_pp / t_ours:.1f}x)")
        comparable = len(exact) == len(ours)
        print(f"  accord's match equals smatchpp's optimum on all {len(exact)} pairs with the same triple counts")
    print(f"  on the {len(same)} pairs without repeated triples accord's match is higher than smatch's on {above} "
          "(its hill climbing missed the optimum) and never lower")
    return ours, comparable


def smatch_commands(pred: Path, gold: Path, ours: list, comparable: bool, repeat: int) -> None:
    """``accord smatch`` against ``smatch.py -f`` and ``python -m smatchpp`` as users run them.

    smatchpp's command prints percentages to two places; its log line gives the total of its optimal matches,
    checked against accord's where every pair has the same triples in both tools (``comparable``).
    """
    import re
    import shutil

    matched = sum(o.match for o in ours)
    accord_cmd = [sys.executable, "-m", "accord.cli", "smatch", str(gold), str(pred), "--output", "json"]
    totals = json.loads(subprocess.run(accord_cmd, check=True, capture_output=True, text=True).stdout)["totals"]
    assert totals["match"] == matched, (totals["match"], matched)
    peers = []
    # the script installed beside this interpreter (a version manager's PATH may hold a shell wrapper instead)
    beside = Path(sys.executable).parent / "smatch.py"
    script = str(beside) if beside.exists() else shutil.which("smatch.py")
    if script:
        cmd = [sys.executable, script, "-f", str(pred), str(gold)]
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
        f_score = float(re.search(r"F-score: ([0-9.]+)", out).group(1))
        assert f_score <= round(totals["f1"], 2) + 1e-9, (f_score, totals["f1"])  # hill climbing: at most the optimum
        peers.append(("smatch.py -f (1.0.4)", cmd))
    cmd = [sys.executable, "-m", "smatchpp", "-a", str(pred), "-b", str(gold), "-solver", "ilp",
           "-score_type", "micro", "-output_format", "json"]
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode == 0:
        bound = re.search(r"lower & upper bound: \[([0-9.]+), ([0-9.]+)\]", run.stderr)
        if comparable:
            assert bound and float(bound.group(1)) == float(bound.group(2)) == matched, (bound, matched)
        peers.append(("python -m smatchpp -solver ilp (1.8)", cmd))
    times = {}
    for name, c in [("accord smatch", accord_cmd), *peers]:
        runs = []
        for _ in range(repeat):
            t = time.perf_counter()
            subprocess.run(c, check=True, capture_output=True)
            runs.append(time.perf_counter() - t)
        times[name] = statistics.median(runs)
    mine = times.pop("accord smatch")
    print(f"  whole command accord smatch: {mine:.3f} s (median of {repeat}), peak memory "
          f"{peak_memory(accord_cmd):.0f} MiB; total match {matched} checked against the in-process scores")
    for name, t in times.items():
        print(f"  whole command {name}: {t:.3f} s, ratio {t / mine:.1f}x")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--docs", type=int, default=2000)
    ap.add_argument("--mentions", type=int, default=50)
    ap.add_argument("--sample", type=int, default=3, help="documents given to metametric")
    ap.add_argument("--pairs", type=int, default=1000)
    ap.add_argument("--nodes", type=int, default=40)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--amr-gold", help="gold AMR graphs (PENMAN) to use instead of generated ones, e.g. a release's "
                                       "test split")
    ap.add_argument("--amr-pred", help="a parser's graphs for the same sentences, in the same order")
    args = ap.parse_args()
    print_versions('metametric', 'smatch', 'smatchpp')
    compile_accord()
    bench_coref(args)
    bench_smatch(args)


if __name__ == "__main__":
    main()
