"""Lenient span evaluation at scale: CLUEval's levels, error tables and merge; the SemEval schemas against nervaluate.

Run:  python benchmarks/bench_clueval.py [--tokens 300000] [--one-doc-peer-tokens 20000]

The corpus is the CoNLL-2003 English test set with a real system's output
(tests/data/conll03), repeated under new document ids until it holds ``--tokens`` tokens
(46,435 tokens and 5,648 gold spans per copy). Times are medians of three runs, in one
process, after a warm-up run (imports excluded); reading the files is not timed.

1. CLUEval: classification of both sides and the counts at all four levels, labelled and
   unlabelled; the false-negative error table at level 1 as rows, TSV and HTML; the merge
   of the two layers (gold and prediction as two BIO columns). CLUEval's own implementation
   is not on PyPI, so no peer runs beside these: their times are printed without a ratio
   (a figure published for another machine and corpus is no measurement of this one).
2. SemEval-2013 schemas: accord's four schemas (overall, by label and by document) against
   ``nervaluate.Evaluator.evaluate`` (its four schemas overall and by label) on the same
   spans; strict, exact and partial must agree (the test set's blocks are one to one).
3. One document: the whole corpus as a single document, for accord (no quadratic
   blow-up: about the time of the many-document corpus) and, on its first
   ``--one-doc-peer-tokens`` tokens, for nervaluate (whose pass compares every predicted
   span with every gold span of a document).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from _versions import print_versions  # noqa: E402  (benchmarks/ is on sys.path when run as a script)

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def timed(fn, *args, repeat: int = 3, **kwargs):
    """The result and the median wall time of ``repeat`` calls, after one warm-up call."""
    fn(*args, **kwargs)
    times = []
    out = None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn(*args, **kwargs)
        times.append(time.perf_counter() - t)
    return out, sorted(times)[len(times) // 2]


def corpora(tokens: int):
    from accord.formats import read
    from accord.model import Corpus

    gold = read(ROOT / "tests" / "data" / "conll03" / "gold.conll")
    pred = read(ROOT / "tests" / "data" / "conll03" / "xlm_flert.conll")
    per_copy = sum(len(d.tokens) for d in gold.values())
    copies = max(1, -(-tokens // per_copy))
    g_docs, p_docs = [], []
    for k in range(copies):
        g_docs += [d._replace(id=f"{k}:{d.id}") for d in gold.values()]
        p_docs += [d._replace(id=f"{k}:{d.id}") for d in pred.values()]
    return Corpus(g_docs, name="gold"), Corpus(p_docs, name="pred"), copies * per_copy


def one_document(corpus, limit: int | None = None):
    """The corpus as one document (spans shifted), cut after ``limit`` tokens."""
    from accord.model import Annotation, Corpus, Document

    tokens, anns, sentences = [], [], []
    for doc in corpus.values():
        base = len(tokens)
        if limit is not None and base >= limit:
            break
        tokens.extend(doc.tokens)
        anns.extend(Annotation(a.label, a.start + base, a.end + base, a.attributes, None) for a in doc.annotations)
        sentences.extend((a + base, b + base) for a, b in doc.sentences)
    return Corpus([Document("all", tuple(anns), None, tuple(tokens), tuple(sentences))], name=corpus.name)


def clueval_levels(gold, pred):
    from accord.clueval import evaluate_spans

    ev = evaluate_spans(gold, pred)
    return ev, [ev.counts(level, labelled) for level, labelled in ev.levels()]


def nervaluate_spans(corpus):
    return [[{"label": a.label, "start": a.start, "end": a.end - 1} for a in d.annotations] for d in corpus.values()]


def semeval_all(gold, pred):
    from accord.semeval import SCHEMAS, semeval_schemas

    result = semeval_schemas(gold, pred)
    return result, [(result.counts(s), result.counts(s, "label"), result.counts(s, "document")) for s in SCHEMAS]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tokens", type=int, default=300_000)
    p.add_argument("--one-doc-peer-tokens", type=int, default=20_000)
    args = p.parse_args()
    print_versions('nervaluate')

    from nervaluate import Evaluator

    from accord.clueval import error_table, merge_layers
    from accord.clueval._error_rows import error_page_view, errors_table
    from accord.report.error_report import errors_delimited, errors_html

    gold, pred, n_tokens = corpora(args.tokens)
    n_gold = gold.annotation_count()
    print(f"corpus: {n_tokens:,} tokens in {len(gold):,} documents, {n_gold:,} gold and "
          f"{pred.annotation_count():,} predicted spans")

    (ev, counts), t_levels = timed(clueval_levels, gold, pred)
    l1 = counts[0]
    print(f"CLUEval classification + counts, 4 levels x labelled/unlabelled   {t_levels:7.3f} s   "
          f"(no peer on PyPI)   level 1 labelled F1 {l1.rates()[2]:.4f}")

    def tables():
        rows = error_table(ev, "gold", 1, True)
        return rows, errors_delimited(errors_table(ev, rows)), errors_html(error_page_view(ev, rows))

    (rows, _, _), t_errors = timed(tables)
    per_thousand = t_errors * 1000 / max(len(rows), 1)
    print(f"error table, {len(rows):,} false negatives (rows, TSV, HTML)        {t_errors:7.3f} s   "
          f"per 1,000 FNs {per_thousand:6.3f} s   (no peer on PyPI)")

    merged, t_merge = timed(merge_layers, {"gold": gold, "pred": pred})
    print(f"merge of two layers into {merged.annotation_count():,} spans                     {t_merge:7.3f} s")

    labels = sorted({a.label for c in (gold, pred) for d in c.values() for a in d.annotations})
    g_spans, p_spans = nervaluate_spans(gold), nervaluate_spans(pred)
    (result, ours), t_ours = timed(semeval_all, gold, pred)
    theirs, t_peer = timed(lambda: Evaluator(g_spans, p_spans, tags=labels, loader="dict").evaluate())
    for schema, name in (("strict", "strict"), ("exact", "exact"), ("partial", "partial")):
        a, b = result.counts(schema), theirs["overall"][name]
        assert (a.correct, a.incorrect, a.partial, a.missed, a.spurious) == \
            (b.correct, b.incorrect, b.partial, b.missed, b.spurious), (schema, a, b)
    print(f"SemEval schemas (4, overall + label + document)   accord {t_ours:7.3f} s   nervaluate {t_peer:7.3f} s   "
          f"ratio {t_peer / t_ours:6.1f}x")

    one_g, one_p = one_document(gold), one_document(pred)
    _, t_one = timed(clueval_levels, one_g, one_p)
    _, t_one_sem = timed(semeval_all, one_g, one_p)
    print(f"one document of {n_tokens:,} tokens: CLUEval levels {t_one:7.3f} s ({t_one / t_levels:4.2f} x the "
          f"many-document time), SemEval schemas {t_one_sem:7.3f} s ({t_one_sem / t_ours:4.2f} x)")
    small_g = one_document(gold, args.one_doc_peer_tokens)
    small_p = one_document(pred, args.one_doc_peer_tokens)
    n_small = len(small_g["all"].tokens)
    sg, sp = nervaluate_spans(small_g), nervaluate_spans(small_p)
    _, t_small = timed(semeval_all, small_g, small_p)
    _, t_small_peer = timed(lambda: Evaluator(sg, sp, tags=labels, loader="dict").evaluate(), repeat=1)
    print(f"one document of {n_small:,} tokens: SemEval schemas accord {t_small:7.3f} s   nervaluate "
          f"{t_small_peer:7.3f} s   ratio {t_small_peer / t_small:6.0f}x")


if __name__ == "__main__":
    main()
