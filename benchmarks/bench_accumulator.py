"""The accumulator in a training loop: CoNLL-2003's test set (3,453 sentences, 46,435 tokens) and a real system's
output fed in batches, against scoring the whole at once and against the ways a training loop does it today.

1. Per token: ``Accumulator.update`` on every batch and one ``compute`` against ``accord.score`` on all the tag lists
   at once (issue 40: an update costs no more per token than scoring the whole), for batch sizes 8, 32 and 128.
2. torchmetrics-style accumulation (what its stateful metrics do for NER: keep every batch's tags, compute at the
   end): the tags kept and seqeval run once on them at the end (torchmetrics itself needs torch, which is not
   installed here: the same work, written out), against the accumulator. The state's size: the accumulator pickled
   against the tags kept.
3. A running F1 logged after every batch: ``Accumulator.compute`` after each update against seqeval recomputed on
   every tag so far after each batch (the way ``evaluate``'s seqeval gives a running figure).

Every way's final figures are checked to be equal before times are printed (medians).

    python benchmarks/bench_accumulator.py [--repeat 3] [--batch 32]
"""

from __future__ import annotations

import argparse
import pickle
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _versions import print_versions  # noqa: E402  (benchmarks/ is on sys.path when run as a script)
from bench_seqeval import median_time  # noqa: E402

import accord  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "conll03"


def read(path: Path) -> list[list[str]]:
    sentences, current = [], []
    for line in path.read_text(encoding="utf-8").splitlines():
        cols = line.split()
        if not cols or cols[0] == "-DOCSTART-":
            if current:
                sentences.append(current)
                current = []
            continue
        current.append(cols[-1])
    if current:
        sentences.append(current)
    return sentences


def accumulate(gold, pred, batch):
    acc = accord.Accumulator()
    for k in range(0, len(gold), batch):
        acc.update(gold[k:k + batch], pred[k:k + batch])
    return acc


def kept_then_seqeval(gold, pred, batch):
    from seqeval.metrics import classification_report

    kept_gold, kept_pred = [], []
    for k in range(0, len(gold), batch):
        kept_gold.extend(gold[k:k + batch])
        kept_pred.extend(pred[k:k + batch])
    return classification_report(kept_gold, kept_pred, output_dict=True), (kept_gold, kept_pred)


def running_accumulator(gold, pred, batch):
    acc, last = accord.Accumulator(), None
    for k in range(0, len(gold), batch):
        acc.update(gold[k:k + batch], pred[k:k + batch])
        last = acc.compute().totals.f1
    return last


def running_seqeval(gold, pred, batch):
    from seqeval.metrics import f1_score

    kept_gold, kept_pred, last = [], [], None
    for k in range(0, len(gold), batch):
        kept_gold.extend(gold[k:k + batch])
        kept_pred.extend(pred[k:k + batch])
        last = f1_score(kept_gold, kept_pred)
    return last


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--batch", type=int, default=32, help="the batch size of parts 2 and 3")
    args = ap.parse_args()
    print_versions("seqeval", "torchmetrics")
    warnings.simplefilter("ignore")
    gold, pred = read(DATA / "gold.conll"), read(DATA / "xlm_flert.conll")
    tokens = sum(map(len, gold))
    print(f"{len(gold)} sentences, {tokens} tokens")
    whole = accord.score(gold, pred)
    whole_json = whole.to_dict()
    whole_json.pop("generator")

    print("\n1. per token: accumulator (update per batch, one compute) vs accord.score on the whole")
    t_whole = median_time(lambda: accord.score(gold, pred), args.repeat)
    print(f"  accord.score, whole: {t_whole:.3f} s ({1e6 * t_whole / tokens:.2f} us/token)")
    for batch in (8, 32, 128):
        got = accumulate(gold, pred, batch).compute().to_dict()
        got.pop("generator")
        assert got == whole_json, batch
        t = median_time(lambda b=batch: accumulate(gold, pred, b).compute(), args.repeat)
        n = -(-len(gold) // batch)
        print(f"  accumulator, batch {batch:>3} ({n} updates): {t:.3f} s ({1e6 * t / tokens:.2f} us/token, "
              f"{1e3 * t / n:.2f} ms/update), {t / t_whole:.2f}x the whole")

    b = args.batch
    print(f"\n2. batch {b}: torchmetrics-style (tags kept, seqeval at the end) vs the accumulator")
    report, kept = kept_then_seqeval(gold, pred, b)
    assert abs(report["micro avg"]["f1-score"] - whole.totals.f1) < 1e-12
    acc = accumulate(gold, pred, b)
    t_acc = median_time(lambda: accumulate(gold, pred, b).compute(), args.repeat)
    t_kept = median_time(lambda: kept_then_seqeval(gold, pred, b), args.repeat)
    print(f"  accumulator: {t_acc:.3f} s; tags kept + seqeval: {t_kept:.3f} s ({t_kept / t_acc:.1f}x)")
    print(f"  state pickled: accumulator {len(pickle.dumps(acc)):,} bytes (by sentence), "
          f"{len(pickle.dumps(accumulate_totals(gold, pred, b))):,} bytes (sentences=False); "
          f"tags kept {len(pickle.dumps(kept)):,} bytes")

    print(f"\n3. batch {b}: a running F1 after every batch")
    assert running_accumulator(gold, pred, b) == whole.totals.f1
    assert abs(running_seqeval(gold, pred, b) - whole.totals.f1) < 1e-12
    t_run = median_time(lambda: running_accumulator(gold, pred, b), args.repeat)
    start = time.perf_counter()
    running_seqeval(gold, pred, b)
    t_seq = time.perf_counter() - start
    print(f"  accumulator compute() after each update: {t_run:.3f} s; seqeval recomputed on every tag so far: "
          f"{t_seq:.3f} s (once) ({t_seq / t_run:.1f}x)")


def accumulate_totals(gold, pred, batch):
    acc = accord.Accumulator(sentences=False)
    for k in range(0, len(gold), batch):
        acc.update(gold[k:k + batch], pred[k:k + batch])
    return acc


if __name__ == "__main__":
    main()
