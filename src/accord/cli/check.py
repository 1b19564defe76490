"""``accord check``: a CI gate (exit 0 when the model passes, 1 with a line per failed check, 2 on bad input)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..errors import OptionError
from ._options import add_rates, add_resample, count_of, open_fraction, seed_value

__all__ = ["register", "COMMANDS"]

EXIT_FAILED = 1
"""The exit status of a model that fails a check."""


def register(sub: argparse._SubParsersAction) -> None:
    from .score import _formats_epilog, add_score_options

    p = sub.add_parser(
        "check", help="gate a model in CI: exit 1 when it is below a threshold or significantly below a baseline",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=_formats_epilog(),
        description="Score PRED against GOLD (as accord score, with its options) and check the rates: --min for "
        "the totals, --label for one label, --baseline with --max-drop for the drop against a baseline (judged by "
        "compare's paired test with --significant). Exit 0 when every check passes, 1 with a line per failed "
        "check, 2 on bad input or options.")
    p.add_argument("gold", help="gold file or directory ('-': standard input)")
    p.add_argument("pred", nargs="?", help="predicted file or directory (leave out with --gold-column and "
                   "--pred-column)")
    add_score_options(p)
    g = p.add_argument_group("checks")
    g.add_argument("--min", dest="minimum", metavar="RATE=VALUE,...",
                   help="minimums of the totals' rates, comma-separated: f1=0.90,precision=0.85 (fractions, or "
                   "percents: f1=90%%)")
    g.add_argument("--label", dest="labels", action="append", default=[], metavar="LABEL:RATE=VALUE,...",
                   help="minimums of one label's rates: LOC:f1=0.8 (repeatable)")
    g.add_argument("--baseline", metavar="FILE",
                   help="the baseline: a result JSON of accord score (-o base.json: its per-document counts), or "
                   "the baseline system's predictions (scored against GOLD with the same options)")
    g.add_argument("--max-drop", type=float, metavar="POINTS",
                   help="the largest drop of F1 from the baseline allowed, in points (with --baseline and without this "
                   "option any drop fails)")
    g.add_argument("--significant", action="store_true",
                   help="a drop beyond --max-drop fails only when the paired test (as accord compare's) finds it "
                   "significant at --alpha")
    t = p.add_argument_group("the paired test of --significant")
    t.add_argument("--test", choices=("permutation", "bootstrap"), default="permutation",
                   help="permutation (approximate randomization, default) or bootstrap (paired)")
    t.add_argument("--samples", type=count_of(1), default=10_000, help="random swaps or resamples (default 10000)")
    t.add_argument("--alpha", type=open_fraction, default=0.05, help="level of the test (default 0.05)")
    t.add_argument("--seed", type=seed_value, help="seed of the test's sampling (the same seed, the same verdict)")
    add_resample(t)
    o = p.add_argument_group("output")
    o.add_argument("--output", choices=("text", "json"), default="text",
                   help="text (default: a line per check) or json (the verdict)")
    o.add_argument("-o", "--out", help="write the output to this file ('-': standard output)")
    add_rates(p)


def run_check(args: argparse.Namespace) -> int:
    from ..checks import is_result_json, judge, load_result
    from ..pipeline import reading_once
    from ._output import write_text
    from .score import score_result

    if not args.minimum and not args.labels and not args.baseline:
        raise OptionError("nothing to check: give --min RATE=VALUE, --label LABEL:RATE=VALUE or --baseline")
    if args.baseline is None and (args.max_drop is not None or args.significant):
        raise OptionError("--max-drop and --significant compare with a baseline: give --baseline")
    args.details = None
    baseline: Any = None
    with reading_once():     # the gold file is read once for the model and the baseline
        result, _ = score_result(args, args.pred)
        if args.baseline is not None:
            baseline = load_result(args.baseline) if is_result_json(args.baseline) else \
                score_result(args, args.baseline)[0]
    verdict = judge(result, minimum=args.minimum, labels=args.labels, baseline=baseline, max_drop=args.max_drop,
                    significant=args.significant, alpha=args.alpha, test=args.test, samples=args.samples,
                    seed=args.seed, resample=args.resample)
    if args.output == "json":
        write_text(args, verdict.to_json())
    elif args.out or not args.quiet:
        write_text(args, str(verdict))
    for failure in verdict.failures:
        print(f"accord: check failed: {failure.reason}", file=sys.stderr)
    return 0 if verdict.passed else EXIT_FAILED


COMMANDS = {"check": run_check}
