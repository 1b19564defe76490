"""``accord report``: one self-contained HTML page for one or more systems against one gold standard."""

from __future__ import annotations

import argparse
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..errors import OptionError
from ._options import add_rates, add_scaling, count_of, open_fraction, seed_value
from ._output import info
from ._pages import write_report

__all__ = ["register", "COMMANDS"]


def register(sub: argparse._SubParsersAction) -> None:
    from .compare import add_test_options
    from .score import _formats_epilog, add_score_options

    rp = sub.add_parser("report", help="one HTML page: every system's scores with intervals, labels, documents "
                        "and, with several systems, their comparison",
                        formatter_class=argparse.RawDescriptionHelpFormatter,
                        description="Score every PRED against GOLD (as accord score, with its options), bootstrap "
                        "their intervals, compare them (as accord compare) and write one self-contained HTML page.",
                        epilog=_formats_epilog())
    rp.add_argument("gold", help="gold file or directory")
    rp.add_argument("preds", nargs="+", metavar="PRED", help="the systems' files or directories")
    add_score_options(rp)
    add_test_options(rp)
    s = rp.add_argument_group("intervals")
    s.add_argument("--bootstrap", type=count_of(2, zero=True), default=1000, metavar="N",
                   help="bootstrap resamples (of the --resample unit) for the intervals (default 1000; 0: none)")
    s.add_argument("--seed", type=seed_value, default=0, help="seed of the resampling and the tests (default 0)")
    s.add_argument("--confidence", type=open_fraction, default=0.95,
                   help="confidence level of the intervals (default 0.95)")
    s.add_argument("--ci-method", choices=("percentile", "bca"), default="percentile", help="interval method")
    rp.add_argument("-o", "--out", required=True, help="the HTML file to write")
    add_rates(rp)
    add_scaling(rp)


def _leniency(args: argparse.Namespace) -> tuple[int, bool]:
    """The page's leniency level and labelled flag (``--match clueval``), else exact and labelled."""
    if getattr(args, "match", None) != "clueval":
        return 1, True
    from ..clueval import leniency_level

    return leniency_level(args.leniency), not args.unlabelled


def run_report(args: argparse.Namespace) -> int:
    from ..clueval._shard_views import shard_views, views_of
    from ..parallel._run import SENTENCES, SHOWN, STREAM, sentence_policy
    from ..parallel._views import VIEWS
    from ..pipeline import reading_once
    from ..stats import compare
    from ..stats._units import AUTO_DOCUMENTS
    from .compare import names_of, system_args
    from .score import score_result

    if args.match == "pairs" and (args.profile == "gate" or args.bdm):
        raise OptionError("accord report scores in the pairs, clueval and semeval modes")
    if args.out == "-" or args.out is None:
        raise OptionError("accord report writes an HTML file: give -o FILE.html")
    args.details = None
    names = names_of(args.preds)
    level, labelled = _leniency(args)
    sharded = args.jobs != "1" or args.dask is not None
    aligned = getattr(args, "align", None) is not None
    if sharded and aligned:
        raise OptionError("--align with --jobs or --dask: the page's notes of aligned strings need the documents; "
                          "run without --jobs and --dask")
    # in one process too, the systems are scored shard by shard (as --jobs does, one shard after the other), so that
    # only one shard's documents are alive at a time: the shards keep what the page shows
    streaming = sharded or not aligned
    tokens = ((VIEWS.set((shard_views, level, labelled)), STREAM.set(not sharded), SHOWN.set(set())) if streaming
              else None)
    # the shards keep their sentences' counts only when the intervals or the tests may resample sentences; under
    # --resample auto the first system's documents decide for all (the unit of the tests is the first table's)
    kept = SENTENCES.set(sentence_policy(bool(args.bootstrap) or len(args.preds) > 1, args.resample))
    try:
        systems = {}
        with reading_once(args.gold):    # the gold file is read once for every system (and kept alone)
            for name, path in zip(names, args.preds):
                systems[name] = score_result(system_args(args, path), path)[0]
                if SENTENCES.get() == "auto":
                    SENTENCES.set("drop" if len(systems[name].documents) >= AUTO_DOCUMENTS else "keep")
    finally:
        SENTENCES.reset(kept)
        if tokens is not None:
            VIEWS.reset(tokens[0])
            STREAM.reset(tokens[1])
            SHOWN.reset(tokens[2])
    comparison = None
    # the page's statistics are drawn by default: a corpus of one unit (one document of one sentence) cannot carry
    # them, and the page says so (a warning) rather than refusing the scores
    if len(systems) > 1:
        with _without_statistics("no comparison of the systems"):
            comparison = compare(systems, test=args.test, samples=args.samples, seed=args.seed, rates=args.rates,
                                 alpha=args.alpha, labels=not args.no_labels, resample=args.resample,
                                 correction=args.correction, families=args.families)
    if args.bootstrap and comparison is not None:   # the forest plot shows the intervals of compare --bootstrap
        comparison.bootstrap(args.bootstrap, seed=args.seed, confidence=args.confidence, method=args.ci_method)
    elif args.bootstrap:
        with _without_statistics("no intervals"):
            for result in systems.values():
                result.bootstrap(args.bootstrap, seed=args.seed, confidence=args.confidence, method=args.ci_method,
                                 resample=args.resample)
    title = f"{Path(args.gold).name}: {', '.join(names)}"
    views = views_of(systems, level, labelled) if streaming else None
    if views is None:
        write_report(args.out, systems, comparison, title=title, args=args)
    else:    # the systems were scored in shards: the page from the span views the shards kept
        from .._support.safe_paths import write_text
        from ..report.html_report import report_html

        write_text(args.out, report_html(systems, comparison, title=title, views=views))
    info(args, f"report of {len(systems)} system(s) on {len(next(iter(systems.values())).documents)} documents "
               f"written to {args.out}")
    return 0


@contextmanager
def _without_statistics(what: str) -> Iterator[None]:
    """A :class:`StatisticsError` inside the block becomes a warning that the page has ``what``."""
    from ..errors import StatisticsError, StatisticsWarning

    try:
        yield
    except StatisticsError as exc:
        warnings.warn(StatisticsWarning(f"the report has {what}: {exc}"), stacklevel=3)


COMMANDS = {"report": run_report}

