"""``accord agree``: agreement between annotators."""

from __future__ import annotations

import argparse
import sys

from .._safe_paths import write_text as write_file
from ..errors import OptionError
from ._options import add_discontinuous, add_output, add_statistics, count_of, csv_list, positive, weight
from ._output import emit, output_format

__all__ = ["register", "COMMANDS"]


def register(sub: argparse._SubParsersAction) -> None:
    ag = sub.add_parser("agree", help="agreement between annotators: the kappa family, Krippendorff's alpha, γ and uα",
                        description="Agreement of two or more annotators. One INPUT: a CSV/TSV ratings table, wide "
                        "(a column per rater) or long (--items, --raters, --labels). Several INPUTs: annotation sets "
                        "(files or directories, one per annotator), items paired by exact span.")
    ag.add_argument("inputs", nargs="+", metavar="INPUT", help="a ratings table, or one annotation set per annotator")
    ag.add_argument("--items", help="ratings table: the item column (wide: an id column to leave out)")
    ag.add_argument("--raters", help="long ratings table: the rater column")
    ag.add_argument("--labels", help="long ratings table: the label column")
    ag.add_argument("--types", "--type", dest="type", type=csv_list, metavar="TYPES",
                    help="annotation sets: the annotation labels whose spans are the items, comma-separated (several "
                    "types: the label is the category unless --feature; the GATE conventions average over types, as "
                    "GATE's IAA plugin)")
    ag.add_argument("--feature", help="annotation sets: the attribute holding the category (default: the label, "
                    "or 'Anns' with --types); an unannotated span is 'Non-cat', a missing attribute ''")
    ag.add_argument("--format", help="annotation sets: their format (sniffed by default)")
    add_discontinuous(ag)
    ag.add_argument("--level", default="nominal", choices=("nominal", "ordinal", "interval", "ratio"),
                    help="Krippendorff's alpha: the level of measurement (default nominal)")
    ag.add_argument("--categories", type=csv_list,
                    help="ratings table: the categories in order (ordinal scales; categories nobody used)")
    ag.add_argument("--sets", type=csv_list, help="annotation sets of one GATE XML INPUT (file or directory) to "
                    "compare as annotators, comma-separated")
    ag.add_argument("--convention", choices=("accord", "iaa", "corpus-qa"), default="accord",
                    help="annotation sets: accord (default; items = every span any annotator marked), iaa (GATE's IAA "
                    "plugin: per-pair tables of coextensive pairs, Non-cat for a missing feature, mean over pairs "
                    "then documents) or corpus-qa (GATE's Corpus QA: coextensive one-to-one pairs, tables summed "
                    "over documents)")
    ag.add_argument("--bdm", help="a BDM score file (accord bdm): also GATE's IAA plugin's BDM-based agreement "
                    "(Maynard's P = correct/(n + s), R = correct/(n + m)) under --convention iaa or corpus-qa")
    ag.add_argument("--html", help="write the page of the coefficients (with their intervals under --bootstrap) "
                    "and, for annotation sets, the annotator matrix of pairwise F to this HTML file")
    ag.add_argument("--measure", choices=("strict", "lenient", "average"), default="strict",
                    help="annotation sets: the F of the matrix and of span_agreement in JSON (default strict)")
    ag.add_argument("--pairing", choices=("gate", "optimal"), default="gate",
                    help="annotation sets: the Annotation Diff pairing of the span agreement (default gate)")
    g = ag.add_argument_group("units whose boundaries may differ (annotation sets, or one CSV/TSV of units: "
                              "annotator, document, start, end, category)")
    g.add_argument("--unitizing", choices=("gamma", "alpha-u"),
                   help="gamma: Mathet et al.'s γ with γ-cat, γ-k per category and the optimal alignment; alpha-u: "
                   "Krippendorff's unitizing alphas (uα per category of 1995/2004 as DKPro Agreement, and uα, |uα, "
                   "cuα, (k)cuα of 2016)")
    g.add_argument("--samples", type=count_of(1), default=30,
                   help="γ: random continua for the expected disorder (default 30, as pygamma-agreement)")
    g.add_argument("--precision", help="γ: draw more samples until the expected disorder is this precise (a fraction, "
                   "or high 1%%, medium 2%%, low 10%%; pygamma-agreement's precision_level)")
    g.add_argument("--sampler", choices=("statistical", "shuffle"), default="statistical",
                   help="γ: statistical (pygamma-agreement's default) or shuffle (the paper's shifted annotators)")
    g.add_argument("--gamma-alpha", type=weight, default=1.0, help="γ: weight of the positional dissimilarity "
                   "(default 1)")
    g.add_argument("--gamma-beta", type=weight, default=1.0, help="γ: weight of the categorical dissimilarity "
                   "(default 1)")
    g.add_argument("--delta-empty", type=positive, default=1.0, help="γ: dissimilarity of a unit and the empty unit "
                   "(default 1)")
    g.add_argument("--categorical-dissimilarity", default="absolute", metavar="KIND",
                   help="γ: absolute (default: 0 same, 1 different), levenshtein, numerical, or a CSV file of "
                   "'category,category,distance' rows")
    g.add_argument("--details", help="γ: write the optimal alignment, one row per unitary alignment and annotator "
                   "(CSV, or JSON lines for .jsonl)")
    add_output(ag)
    add_statistics(ag)


def run_agree(args: argparse.Namespace) -> int:
    from .. import _api

    if args.unitizing:
        return _run_unitizing(args)
    changed = [flag for flag, name, default in _UNITIZING_ONLY if getattr(args, name) != default]
    if changed:
        raise OptionError(f"{', '.join(changed)} apply with --unitizing gamma")

    if len(args.inputs) == 1 and args.sets is None:
        if args.type or args.feature or args.convention != "accord":
            raise OptionError("--types, --feature, --sets and --convention apply to annotation sets; give "
                              "one INPUT per annotator, or --sets for one GATE XML input")
        inputs = args.inputs[0]
    else:
        inputs = args.inputs[0] if args.sets is not None and len(args.inputs) == 1 else args.inputs
    span = args.measure if args.html or output_format(args) == "json" else None
    result = _api.agree(inputs, items=args.items, raters=args.raters, labels=args.labels, categories=args.categories,
                        level=args.level, types=args.type, feature=args.feature, format=args.format, sets=args.sets,
                        convention=args.convention, span_measure=span if result_has_sets(args) else None,
                        pairing=args.pairing, discontinuous=args.discontinuous, bdm=args.bdm)
    for message in result.warnings:
        print(f"accord: warning: {message}", file=sys.stderr)
    from ..report.agreement_table import render_agreement, render_gate_agreement

    if result.summary is not None:
        status = emit(args, result, lambda console: render_gate_agreement(result.summary, console))
    else:
        status = emit(args, result, lambda console: render_agreement(result.to_dict()["totals"], console))
    if args.html:    # after emit: with the intervals of --bootstrap
        from ..report.agreement_page import agreement_html

        write_file(args.html, agreement_html(result, args.measure, title="Agreement of " + ", ".join(result.inputs)))
    return status


_UNITIZING_ONLY = (("--samples", "samples", 30), ("--precision", "precision", None),
                   ("--sampler", "sampler", "statistical"), ("--gamma-alpha", "gamma_alpha", 1.0),
                   ("--gamma-beta", "gamma_beta", 1.0), ("--delta-empty", "delta_empty", 1.0),
                   ("--categorical-dissimilarity", "categorical_dissimilarity", "absolute"), ("--details", "details", None))


def _run_unitizing(args: argparse.Namespace) -> int:
    from .. import _api
    from ..agreement._dissimilarity import Dissimilarity
    from ..report.agreement_table import render_unitizing

    if args.html:
        raise OptionError("--html applies to coefficients over items; --unitizing writes tables, JSON and CSV "
                          "(and γ's alignment with --details)")
    if args.bootstrap is not None or args.confidence_data:
        raise OptionError("--bootstrap does not apply to --unitizing: γ's expected disorder is itself sampled "
                          "(--samples, --precision; --seed sets its seed)")
    if args.unitizing != "gamma":
        changed = [flag for flag, name, default in _UNITIZING_ONLY if getattr(args, name) != default]
        if changed or args.seed is not None:
            raise OptionError(f"{', '.join(changed + (['--seed'] if args.seed is not None else []))} apply to "
                              "--unitizing gamma")
    inputs = args.inputs[0] if len(args.inputs) == 1 else args.inputs
    seed, args.seed = args.seed, None     # γ's sampling seed, not a bootstrap's
    result = _api.agree(inputs, types=args.type, feature=args.feature, format=args.format, sets=args.sets,
                        discontinuous=args.discontinuous, unitizing=args.unitizing, samples=args.samples,
                        precision=args.precision, sampler=args.sampler, seed=seed,
                        dissimilarity=Dissimilarity(args.gamma_alpha, args.gamma_beta, args.delta_empty),
                        categorical=args.categorical_dissimilarity,
                        items=args.items, raters=args.raters, labels=args.labels, categories=args.categories,
                        level=args.level, convention=args.convention, bdm=args.bdm)
    for message in result.warnings:
        print(f"accord: warning: {message}", file=sys.stderr)
    if args.details:
        result.write_details(args.details)
    return emit(args, result, lambda console: render_unitizing(result, console))


def result_has_sets(args: argparse.Namespace) -> bool:
    """Whether the inputs are annotation sets (several inputs, or --sets)."""
    return len(args.inputs) > 1 or args.sets is not None


COMMANDS = {"agree": run_agree}
