"""``accord agree``: agreement between annotators."""

from __future__ import annotations

import argparse
import sys
from typing import Any, cast

from .._support.safe_paths import write_text as write_file
from ..errors import OptionError
from ._options import (
    add_discontinuous,
    add_output,
    add_statistics,
    count_of,
    csv_list,
    positive,
    seconds,
    weight,
)
from ._output import emit, output_format

__all__ = ["register", "COMMANDS"]


def register(sub: argparse._SubParsersAction) -> None:
    ag = sub.add_parser("agree", help="agreement between annotators: the kappa family, Krippendorff's alpha, γ and uα",
                        description="Agreement of two or more annotators. One INPUT: a CSV/TSV ratings table, wide "
                        "(a column per rater) or long (--items, --raters, --labels). Several INPUTs: annotation sets "
                        "(files or directories, one per annotator), items paired by exact span. One project export "
                        "(an INCEpTION or WebAnno export folder...): its annotators (--annotators chooses).",
                        conflict_handler="resolve")
    ag.add_argument("inputs", nargs="+", metavar="INPUT",
                    help="a ratings table, one annotation set per annotator, or one project export")
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
    add_annotators(ag)
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
    ag.add_argument("--verbosity", type=int, choices=(0, 1, 2), default=1,
                    help="under --convention iaa or corpus-qa, GATE's IAA plugin's level: 0 the corpus figures, 1 "
                    "(default) each document's too, 2 also each document's confusion matrices and specific "
                    "agreements")
    ag.add_argument("--bdm", help="a BDM score file (accord bdm): also GATE's IAA plugin's BDM-based agreement "
                    "(Maynard's P = correct/(n + s), R = correct/(n + m)) under --convention iaa or corpus-qa")
    ag.add_argument("--html", help="write every figure of the run to this HTML page: the coefficients (with their "
                    "intervals under --bootstrap), γ or uα, GATE's tables, each annotator's agreement with the "
                    "others, for annotation sets the annotator matrix of pairwise F, and where the annotators disagree "
                    "(each disputed stretch of text, or item of a ratings table, with every annotator's spans or "
                    "rating side by side; at most 500 listed, the others counted), filtered by label and annotator")
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
    g.add_argument("--time-limit", type=seconds, default=120.0, metavar="SECONDS",
                   help="γ: CPU seconds for aligning units too dense to list their candidates (column generation; the "
                   "observed continuum and every sample together; with --jobs, each process may spend what is left; "
                   "default 120); past them γ is refused, never approximated")
    g.add_argument("--jobs", "-j", default="1", metavar="N",
                   help="γ: align the documents and the random continua of the expected disorder in N processes "
                   "(auto: one per core; the observed alignment of one document, or of the first of several, is made "
                   "in the command's own); the figures are those of one process, and each process may spend what is "
                   "left of --time-limit (default 1)")
    g.add_argument("--details", help="γ: write the optimal alignment, one row per unitary alignment and annotator "
                   "(CSV, or JSON lines for .jsonl)")
    add_output(ag)
    add_statistics(ag)
    # agreement has one unit: replaces the --resample of the documents' bootstrap (the parser resolves the clash)
    group = next(g for g in ag._action_groups if any("--bootstrap" in a.option_strings for a in g._group_actions))
    group.title = "confidence intervals (resampling items)"
    bootstrap = next(a for a in group._group_actions if "--bootstrap" in a.option_strings)
    bootstrap.help = ("add confidence intervals of every coefficient from N bootstrap resamples of the items "
                      "(every document's items pooled, with replacement)")
    group.add_argument("--resample", choices=("items",), default=None,
                       help="the unit --bootstrap and the paired test resample: items (the default and the only "
                       "one for agreement: every document's items pooled, with replacement)")
    c = ag.add_argument_group("paired test of a coefficient (the same items; needs --bootstrap N)")
    c.add_argument("--compare-pairs", type=_two_pairs, metavar="A:B,A:C",
                   help="is the coefficient of annotators A and C different from that of A and B? The paired "
                   "bootstrap over the items: the difference (A~C minus A~B), its interval and a two-sided p-value")
    c.add_argument("--compare-round", metavar="FILE",
                   help="a second annotation round of the same items (a ratings table read with the same options; "
                   "items paired by --items, else row by row): its coefficient minus the first round's, with its "
                   "interval and p-value")
    c.add_argument("--coefficients", type=csv_list, default=None, metavar="NAMES",
                   help="comma-separated: coefficients added to the report, with intervals under --bootstrap "
                   "(weighted_kappa_linear, weighted_kappa_quadratic, gwet_ac2_linear, gwet_ac2_quadratic, "
                   "gwet_ac2_ordinal, gwet_ac2_radical, gwet_ac2_ratio, gwet_ac2_circular, gwet_ac2_bipolar, "
                   "fleiss_kappa_linear, fleiss_kappa_quadratic... with the same weights, "
                   "krippendorff_alpha_masi, krippendorff_alpha_jaccard for set-valued labels written a|b, icc for "
                   "numeric ratings), and the coefficients the paired test compares (cohen_kappa when none is named; "
                   "observed_agreement, scott_pi, fleiss_kappa, davies_fleiss_kappa, krippendorff_alpha, bennett_s, "
                   "gwet_ac1; several are one family, their p-values adjusted by Holm's method)")
    r = ag.add_argument_group("a reference annotator and the alternative annotator test (ratings tables and "
                              "annotation sets under --convention accord)")
    r.add_argument("--reference", metavar="NAME", help="an annotator that is a pre-annotation or a model: each other "
                   "annotator's agreement with it (two-rater coefficients and the --coefficients), per annotator")
    r.add_argument("--candidate", metavar="NAME", help="the alternative annotator test (Calderon et al. 2025) of "
                   "this annotator (a model): does it agree with the others at least as well as they agree with each "
                   "other? Its winning rate, advantage probability and per-annotator p-values")
    r.add_argument("--alt-test", action="store_true", help="the alternative annotator test of the --reference "
                   "annotator")
    r.add_argument("--epsilon", type=float, default=0.2, help="alt-test: the margin ε of its hypotheses (default "
                   "0.2 for experts; the paper suggests 0.15 for skilled annotators, 0.1 for crowd workers)")
    r.add_argument("--alt-q", type=float, default=0.05, help="alt-test: the false discovery rate of the "
                   "Benjamini-Yekutieli correction (default 0.05)")
    r.add_argument("--alt-scoring", choices=("accuracy", "neg_rmse"), default="accuracy",
                   help="alt-test: the alignment score, accuracy (categories, the default) or neg_rmse (numeric "
                   "ratings)")
    r.add_argument("--alt-min-items", type=int, default=30, help="alt-test: the fewest items an annotator needs to "
                   "be tested (default 30, as the authors' code)")


def _two_pairs(value: str) -> list[tuple[str, str]]:
    """``A:B,A:C``: two pairs of annotators."""
    pairs = [tuple(p.split(":")) for p in value.split(",")]
    if len(pairs) != 2 or any(len(p) != 2 or not all(p) for p in pairs):
        raise argparse.ArgumentTypeError(f"expected two pairs of annotators such as A:B,A:C; got {value!r}")
    return cast("list[tuple[str, str]]", pairs)   # pairs of two: checked above


def run_agree(args: argparse.Namespace) -> int:
    from .. import _api

    if args.resample not in (None, "items"):
        raise OptionError(f"--resample {args.resample}: agreement resamples items (every document's items pooled); "
                          "documents and sentences apply to score and compare")
    if args.compare_pairs and args.compare_round:
        raise OptionError("--compare-pairs and --compare-round: one paired test at a time")
    if args.unitizing:
        if args.compare_pairs or args.compare_round:
            raise OptionError("--compare-pairs and --compare-round apply to coefficients over items, not --unitizing")
        given = [flag for flag, value in (("--coefficients", args.coefficients), ("--reference", args.reference),
                                          ("--candidate", args.candidate), ("--alt-test", args.alt_test)) if value]
        if given:
            raise OptionError(f"{', '.join(given)} apply to coefficients over items, not to --unitizing")
        return _run_unitizing(args)
    changed = [flag for flag, name, default in _UNITIZING_ONLY if getattr(args, name) != default]
    if changed:
        raise OptionError(f"{', '.join(changed)} apply with --unitizing gamma")

    if len(args.inputs) == 1 and args.sets is None and not _project(args.inputs[0]):
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
                        pairing=args.pairing, discontinuous=args.discontinuous, bdm=args.bdm,
                        annotators=args.annotators, layer=args.layer, disputes=_disputes_shown(args),
                        verbosity=args.verbosity, **_measure_options(args))
    for message in result.warnings:
        print(f"accord: warning: {message}", file=sys.stderr)
    from ..report.agreement_table import render_gate_agreement

    _paired_test(args, result)
    if result.summary is not None:
        status = emit(args, result, lambda console: render_gate_agreement(result.summary, console))
    else:
        status = emit(args, result, lambda console: _render(result, console))
    if args.html:    # after emit: with the intervals of --bootstrap
        _write_page(args, result)
    return status


def _measure_options(args: argparse.Namespace) -> dict[str, Any]:
    """The options of ``--coefficients``, ``--reference`` and the alt-test, as :func:`accord.agree` takes them."""
    from ..agreement._measures import extra_names

    candidate = args.candidate
    if args.alt_test:
        if args.reference is None:
            raise OptionError("--alt-test tests the --reference annotator: give --reference NAME (or --candidate "
                              "NAME)")
        if candidate is not None and candidate != args.reference:
            raise OptionError("--alt-test tests the --reference annotator; --candidate names another: give one")
        candidate = args.reference
    alt_changed = [flag for flag, value, default in (("--epsilon", args.epsilon, 0.2), ("--alt-q", args.alt_q, 0.05),
                                                     ("--alt-scoring", args.alt_scoring, "accuracy"),
                                                     ("--alt-min-items", args.alt_min_items, 30)) if value != default]
    if alt_changed and candidate is None:
        raise OptionError(f"{', '.join(alt_changed)} apply to the alternative annotator test (--candidate NAME or "
                          "--alt-test)")
    return {"coefficients": extra_names(args.coefficients) or None, "reference": args.reference,
            "candidate": candidate, "epsilon": args.epsilon, "alt_q": args.alt_q, "alt_scoring": args.alt_scoring,
            "alt_min_items": args.alt_min_items}


def _disputes_shown(args: argparse.Namespace) -> int | None:
    """The disputed stretches the page lists (``--html`` of annotation sets or units), else None (not computed)."""
    from ..agreement._disputes import SHOWN

    return SHOWN if args.html else None


def _write_page(args: argparse.Namespace, result: Any) -> None:
    """``--html``: the agreement page (its matrix and each annotator's row computed by the agreement mode)."""
    from ..agreement._matrix import page_views
    from ..report.agreement_page import agreement_html

    write_file(args.html, agreement_html(result, **page_views(result, args.measure),
                                         title="Agreement of " + ", ".join(result.inputs)))


def _render(result: Any, console: Any) -> None:
    from ..report.agreement_table import render_agreement

    render_agreement(result.to_dict()["totals"], console)
    if result.comparison is not None:
        render_comparison(result.comparison, console)
    if result.reference is not None:
        render_reference(result.reference, console)
    if result.alt_test is not None:
        render_alt_test(result.alt_test, console)


def _num(v: Any, digits: int = 4) -> str:
    return "—" if v is None or v != v else f"{v:.{digits}f}"


def render_reference(reference: Any, console: Any) -> None:
    """Each annotator's two-rater coefficients with the reference annotator (with intervals under --bootstrap)."""
    from ..report.agreement_table import COEFFICIENT_NAMES
    from ..report.table import new_table, print_table

    annotators = reference["annotators"]
    names = list(next(iter(annotators.values()))["coefficients"]) if annotators else []
    table = new_table(f"agreement of each annotator with the reference {reference['reference']}",
                      ["coefficient", *annotators])
    table.add_row("items", *(str(v["items"]) for v in annotators.values()))
    for n in names:
        cells = []
        for v in annotators.values():
            x = v["coefficients"][n]
            x = x.get("mean") if isinstance(x, dict) else x
            interval = (v.get("ci") or {}).get(n)
            cells.append(_num(x) + (f" [{interval[0]:.3f}, {interval[1]:.3f}]"
                                    if interval is not None and None not in interval else ""))
        table.add_row(COEFFICIENT_NAMES.get(n, n), *cells)
    print_table(console, table)


def render_alt_test(alt: Any, console: Any) -> None:
    """The alternative annotator test: each annotator's advantage probabilities and p-values, then the verdict."""
    from ..report.table import new_table, print_table

    table = new_table(f"alternative annotator test of {alt.candidate} (ε {alt.epsilon:g}, {alt.scoring}, "
                      f"Benjamini-Yekutieli at q {alt.q:g}): winning rate {_num(alt.winning_rate, 3)}, advantage "
                      f"probability {_num(alt.advantage_probability, 3)}: {'passed' if alt.passed else 'not passed'}",
                      ["annotator", "items", "ρ candidate", "ρ annotator", "t", "p", "p (BY)", "candidate wins"])
    for a, v in alt.annotators.items():
        table.add_row(a, str(v["items"]), _num(v["candidate_advantage"]), _num(v["annotator_advantage"]),
                      _num(v["t"], 3), _num(v["p_value"]), _num(v["p_adjusted"]), "yes" if v["won"] else "no")
    for a, n in alt.skipped.items():
        table.add_row(a, str(n), "—", "—", "—", "—", "—", "left out")
    print_table(console, table)


def render_comparison(comparison: Any, console: Any) -> None:
    """The paired test: each coefficient in both, the difference with its interval, the p-values."""
    from ..report.agreement_table import COEFFICIENT_NAMES
    from ..report.table import new_table, print_table

    o = comparison.options
    first = comparison.comparisons[0]
    table = new_table(f"{first.second} minus {first.first}: paired bootstrap over {comparison.n_items} items "
                      f"({o['bootstrap']:,} resamples, {o['confidence']:.0%} {o['ci_method']} interval)",
                      ["coefficient", first.first, first.second, "difference", "interval", "p", "p (Holm)"])

    def num(v: Any, digits: int = 4) -> str:
        return "—" if v is None else f"{v:.{digits}f}"
    for c in comparison.comparisons:
        table.add_row(COEFFICIENT_NAMES.get(c.coefficient, c.coefficient), num(c.first_value), num(c.second_value),
                      num(c.difference), f"[{num(c.ci[0])}, {num(c.ci[1])}]", num(c.p_value), num(c.p_adjusted))
    print_table(console, table)


def _paired_test(args: argparse.Namespace, result: Any) -> None:
    """``--compare-pairs`` / ``--compare-round``: the paired bootstrap of the coefficients, kept on ``result``."""
    if not (args.compare_pairs or args.compare_round):
        return
    from ..agreement._paired import align_rounds, compare_coefficients, table_item_ids
    from ..agreement._ratings import Ratings

    if result.summary is not None:
        raise OptionError(f"--compare-pairs and --compare-round apply under --convention accord (GATE's "
                          f"{args.convention} convention averages over pairs and documents)")
    if args.bootstrap is None:
        raise OptionError("--compare-pairs and --compare-round need --bootstrap N: the resamples of the paired "
                          "bootstrap (10000 is usual)")
    if args.html:
        raise OptionError("--html does not show the paired test: write it as a table, JSON or CSV")
    codes, categories, raters = result.pooled_codes()
    first = Ratings(codes, categories, raters)
    from ..agreement._measures import extra_names

    extras = extra_names(args.coefficients)
    if extras:
        raise OptionError(f"--compare-pairs and --compare-round compare the kappa family and alpha; "
                          f"{', '.join(extras)} are reported, not compared: leave them out of --coefficients")
    common: dict[str, Any] = {"coefficients": args.coefficients or ["cohen_kappa"], "level": args.level,
                              "n_resamples": args.bootstrap,
                              "seed": args.seed, "confidence": args.confidence, "method": args.ci_method}
    if args.compare_pairs:
        result.comparison = compare_coefficients(first, pairs=args.compare_pairs, **common)
        return
    if result_has_sets(args):
        raise OptionError("--compare-round takes a second ratings table: give one ratings table as INPUT")
    from ..agreement._sources import read_ratings_table

    where = args.compare_round
    second = read_ratings_table(where, items=args.items, raters=args.raters, labels=args.labels,
                                categories=args.categories)
    ids = [table_item_ids(p, items=args.items, raters=args.raters, labels=args.labels)
           for p in (args.inputs[0], where)]
    second = align_rounds(first, second, ids[0], ids[1], str(where))
    result.comparison = compare_coefficients(first, second, names=[str(args.inputs[0]), str(where)], **common)


_UNITIZING_ONLY = (("--samples", "samples", 30), ("--precision", "precision", None),
                   ("--sampler", "sampler", "statistical"), ("--gamma-alpha", "gamma_alpha", 1.0),
                   ("--gamma-beta", "gamma_beta", 1.0), ("--delta-empty", "delta_empty", 1.0),
                   ("--categorical-dissimilarity", "categorical_dissimilarity", "absolute"),
                   ("--details", "details", None), ("--time-limit", "time_limit", 120.0), ("--jobs", "jobs", "1"))


def _run_unitizing(args: argparse.Namespace) -> int:
    from .. import _api
    from ..agreement._dissimilarity import Dissimilarity
    from ..report.agreement_table import render_unitizing

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
                        time_limit=args.time_limit if args.unitizing == "gamma" else None,
                        jobs=args.jobs if args.unitizing == "gamma" else 1,
                        dissimilarity=Dissimilarity(args.gamma_alpha, args.gamma_beta, args.delta_empty),
                        categorical=args.categorical_dissimilarity,
                        items=args.items, raters=args.raters, labels=args.labels, categories=args.categories,
                        level=args.level, convention=args.convention, bdm=args.bdm,
                        annotators=args.annotators, layer=args.layer, disputes=_disputes_shown(args),
                        span_measure=args.measure if args.html else None, pairing=args.pairing)
    for message in result.warnings:
        print(f"accord: warning: {message}", file=sys.stderr)
    if args.details:
        result.write_details(args.details)
    status = emit(args, result, lambda console: render_unitizing(result, console))
    if args.html:
        _write_page(args, result)
    return status


def result_has_sets(args: argparse.Namespace) -> bool:
    """Whether the inputs are annotation sets (several inputs, --sets, or one project export)."""
    return len(args.inputs) > 1 or args.sets is not None or _project(args.inputs[0])


def _project(path: str) -> bool:
    """Whether ``path`` is a project export holding several annotators (:mod:`accord.formats.projects`)."""
    from ..agreement._sources import is_project

    return is_project(path)


def add_annotators(p: argparse.ArgumentParser) -> None:
    """``--annotators`` and ``--layer``: the annotators of one project export and the layers read."""
    p.add_argument("--annotators", type=csv_list, metavar="A,B,...",
                   help="one project export as INPUT (an INCEpTION or WebAnno export folder...): the annotators "
                   "compared, comma-separated (default: every annotator's own work; 'curation' the curated "
                   "documents, 'INITIAL_CAS' the documents before annotation)")
    p.add_argument("--layer", metavar="TYPE[:FEATURE],...",
                   help="one project export of WebAnno TSV or XMI files: the annotation types read, each with the "
                   "feature giving the label (default: DKPro Core's NamedEntity)")


COMMANDS = {"agree": run_agree}
