"""``accord score``: PRED against GOLD in the pairs, clueval, semeval and gate modes."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from ..errors import OptionError
from ._align_options import add_align_options, align_settings
from ._inputs import vrt_options
from ._options import (
    add_allow_missing,
    add_columns,
    add_discontinuous,
    add_output,
    add_rates,
    add_scaling,
    add_sides_format,
    add_statistics,
    add_tagging,
    csv_list,
    equivalence,
    repair_of,
)
from ._output import add_conlleval_output, emit
from ._slices_options import add_slices_options, slices_settings

__all__ = ["register", "COMMANDS"]


def _formats_epilog() -> str:
    from ..formats._registry import format_table

    return "registered formats:\n" + "\n".join(
        f"  {name:<10} {', '.join(exts) or '(by --format)'}" for name, exts in format_table())


def register(sub: argparse._SubParsersAction) -> None:
    sc = sub.add_parser("score", help="score predicted annotations against gold annotations",
                        description="Score PRED against GOLD (files or directories paired by document name).",
                        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=_formats_epilog())
    sc.add_argument("gold", help="gold file or directory ('-': standard input)")
    sc.add_argument("pred", nargs="?", help="predicted file or directory (leave out with --gold-column and "
                    "--pred-column: both sides are columns of GOLD)")
    add_score_options(sc)
    add_output(sc, "one row per gold or predicted item")
    add_conlleval_output(sc)
    output = next(g for g in sc._action_groups if g.title == "output")
    output.add_argument(
        "--html", help="also write the one-page HTML report of this result (as accord report) to this file")
    mat = sc.add_argument_group("MATScore's files")
    mat.add_argument("--mat-csv", metavar="DIR", help="write MATScore's CSV files into DIR: bytag_<fmt>.csv (and "
                     "bytoken_, bypseudotoken_, bychar_ for the scored units), details.csv, confusability.csv; "
                     "the columns and formulas are MAT's (see accord.pairs.mat_csv)")
    mat.add_argument("--csv-formula-output", type=csv_list, default=["excel"], metavar="FORMATS",
                     help="with --mat-csv: excel (default), oo (OpenOffice's ';' in formulas), literal (the values); "
                     "comma-separated, one file each")
    mat.add_argument("--tag-output-mismatch-details", action="store_true",
                     help="with --mat-csv: a column per error token of the clashes (ref<token> (detail), "
                     "hyp<token> (detail)) in the tag table")
    add_statistics(sc)
    add_rates(sc)
    gate = sc.add_argument_group("GATE's figures (with --profile gate)")
    from .gate import add_gate_extra_rates

    add_gate_extra_rates(gate)
    add_scaling(sc)


def scaling(args: argparse.Namespace) -> dict[str, Any]:
    """The ``jobs``, ``client`` and ``shard_size`` arguments of :func:`accord.score` (``--jobs``, ``--dask``,
    ``--shard-size``); the outputs that list every item are refused with them."""
    given, dask = getattr(args, "jobs", "1"), getattr(args, "dask", None)
    if given == "1" and dask is None:
        return {"jobs": 1, "client": None, "shard_size": getattr(args, "shard_size", None)}
    from ..parallel import resolve_jobs

    jobs = resolve_jobs(given)
    if jobs > 1 or dask:
        every_item = [name for name, given in (("--details", getattr(args, "details", None)),
                                               ("--html", getattr(args, "html", None)),
                                               ("--mat-csv", getattr(args, "mat_csv", None))) if given]
        if every_item:
            raise OptionError(f"{', '.join(every_item)} list every item, which stays in the workers with --jobs and "
                              "--dask; run without them for these files")
    auto = str(given).strip().lower() == "auto"    # (no warning that auto starts fewer processes than cores)
    return {"jobs": "auto" if auto else jobs, "client": dask, "shard_size": getattr(args, "shard_size", None)}


def add_score_options(sc: argparse.ArgumentParser) -> None:
    """The input, matching and unit options of ``score`` (shared with ``compare``)."""
    io = sc.add_argument_group("input")
    add_sides_format(io)
    add_tagging(io)
    add_columns(io)
    add_allow_missing(io)
    add_discontinuous(io)
    io.add_argument("--gold-set", "--key-set", dest="gold_set",
                    help="GATE XML: the gold side's annotation set (default: the default set); Label Studio: "
                    "annotations (default), annotations:N, predictions or predictions:N")
    io.add_argument("--pred-set", "--response-set", dest="pred_set",
                    help="GATE XML: the predicted side's annotation set (default: the default set); Label Studio: "
                    "as --gold-set")
    m = sc.add_argument_group("matching")
    m.add_argument("--task", help="MAT task file: labels, attributes, effective labels, profiles")
    m.add_argument("--profile", help="strict (default without --task), lenient, mat, gate (GATE's Corpus QA "
                   "tables, as accord qa), or a similarity profile named in the task (default with --task: the "
                   "task's default profile)")
    m.add_argument("--score-profile", help="a score profile named in the task")
    m.add_argument("--attributes", type=csv_list, default=[],
                   help="attributes that must be equal for a strict or lenient match (comma-separated); with "
                   "--match clueval, attributes of the spans scored too, each as if it were their label")
    m.add_argument("--equivalence-class", type=equivalence, action="append", default=[], metavar="NAME=A,B",
                   help="score labels A and B as NAME (repeatable)")
    m.add_argument("--ignore", type=csv_list, default=[], help="labels removed before pairing (comma-separated)")
    m.add_argument("--bdm", help="a BDM score file: score as GATE's Corpus QA with the BDM measures (implies "
                   "--profile gate)")
    from ..modes import mode, mode_names

    m.add_argument("--match", choices=mode_names("score"), default="pairs",    # the registry's modes of score
                   help="; ".join(f"{name}: {mode(name).summary}" for name in mode_names()))
    m.add_argument("--leniency", default="1", help="clueval: the level shown first, 1-4 or exact, superset, "
                   "tiling, overlap (default 1; JSON and CSV hold all four)")
    m.add_argument("--unlabelled", action="store_true", help="clueval: ignore labels (default: labelled)")
    u = sc.add_argument_group("token, pseudo-token and character scores (MAT)")
    u.add_argument("--by-token", action="store_true", help="also score in tokens (token-unit documents, or the "
                   "--token-label annotations of documents with text)")
    u.add_argument("--by-pseudo-token", action="store_true", help="also score in whitespace pseudo-tokens")
    u.add_argument("--by-character", action="store_true", help="also score in characters")
    u.add_argument("--confusability", action="store_true", help="the confusability matrix of labels, in tokens "
                   "(in pseudo-tokens, or characters, when only those are scored; alone it implies --by-token)")
    r = sc.add_argument_group("what of a MAT document is scored (see accord.pipeline._regions)")
    r.add_argument("--content-annotations", type=csv_list, metavar="LABELS",
                   help="without --task: the labels scored (default: every label but the token annotations, zone "
                   "and SEGMENT); with a task its descriptors of category 'content' say it")
    r.add_argument("--token-annotations", "--token-label", dest="token_annotations", type=csv_list,
                   metavar="LABELS", help="without --task: the labels of token annotations in documents with text "
                   "(default lex, as MAT): the unit of --by-token, never scored themselves")
    r.add_argument("--xml-input-is-overlay", action="store_true",
                   help="with --task, xml-inline documents: only the task's elements are annotations, other markup "
                   "stays in the text (MAT's --xml_input_is_overlay)")
    r.add_argument("--gold-only", action="store_true", help="score only inside the predicted documents' SEGMENTs "
                   "whose status is 'human gold' or 'reconciled' (MAT's --gold_only)")
    r.add_argument("--ref-gold-only", action="store_true", help="the same inside the gold documents' SEGMENTs "
                   "(MAT's --ref_gold_only)")
    r.add_argument("--file-re", metavar="REGEX", help="score only the predicted files whose name matches REGEX "
                   "in full (MAT's --file_re); gold files of no such predicted file are left out")
    r.add_argument("--ref-fsuff-off", metavar="SUFFIX", help="pair a predicted file with the gold file named "
                   "like it without SUFFIX (MAT's --ref_fsuff_off; with --ref-fsuff-on, SUFFIX replaced)")
    r.add_argument("--ref-fsuff-on", metavar="SUFFIX", help="... and with SUFFIX added (MAT's --ref_fsuff_on)")
    add_slices_options(sc)
    add_align_options(sc)


def _mat_document_options(args: argparse.Namespace) -> list[tuple[str, object]]:
    """The options of MAT documents and MATScore's files, with whether each was given: the modes that do not
    read them (gate, clueval, semeval) refuse them by these names."""
    return [("--content-annotations", args.content_annotations), ("--token-annotations", args.token_annotations),
            ("--gold-only/--ref-gold-only", args.gold_only or args.ref_gold_only),
            ("--xml-input-is-overlay", args.xml_input_is_overlay),
            ("--file-re/--ref-fsuff-off/--ref-fsuff-on", args.file_re or args.ref_fsuff_off or args.ref_fsuff_on),
            ("--mat-csv", getattr(args, "mat_csv", None))]


def _score_gate(args: argparse.Namespace) -> int:
    """``accord score --profile gate`` (or ``--bdm``): the Corpus QA tables of ``accord qa``."""
    from .gate import run_qa

    unsupported = [name for name, given in (("--task", args.task), ("--score-profile", args.score_profile),
                                            ("--equivalence-class", args.equivalence_class),
                                            ("--ignore", args.ignore), *_mat_document_options(args),
                                            ("--gold-encoding/--pred-encoding",
                                             args.gold_encoding or args.pred_encoding),
                                            ("--jobs/--dask/--shard-size",
                                             args.jobs != "1" or args.dask or args.shard_size)) if given]
    if unsupported:
        raise OptionError(f"{', '.join(unsupported)} do not apply to the gate profile (GATE's Annotation Diff)")
    if args.gold_format != args.pred_format:
        raise OptionError("the gate profile reads both sides in one --format")
    qa = argparse.Namespace(
        command="score", key=args.gold, response=args.pred, format=args.format or args.gold_format,
        key_set=args.gold_set, response_set=args.pred_set, type=None, features=",".join(args.attributes),
        compare_as_strings=False, pairing="gate", measures=None, bdm=args.bdm, beta=args.beta,
        by=["type", "document"], allow_missing=args.allow_missing, output=args.output, out=args.out, html=args.html,
        details=args.details, quiet=args.quiet, bootstrap=args.bootstrap, seed=args.seed,
        confidence=args.confidence, ci_method=args.ci_method, confidence_data=args.confidence_data,
        error_rate=args.error_rate, fp_per=args.fp_per)
    return run_qa(qa)


def _check_span_options(args: argparse.Namespace) -> None:
    unsupported = [name for name, given in (("--task", args.task), ("--profile", args.profile),
                                            ("--score-profile", args.score_profile),
                                            ("--attributes", args.attributes and args.match != "clueval"),
                                            ("--bdm", args.bdm),
                                            ("--equivalence-class", args.equivalence_class),
                                            ("--ignore", args.ignore), ("--details", args.details),
                                            ("--by-token/--by-pseudo-token/--by-character/--confusability",
                                             args.by_token or args.by_pseudo_token or args.by_character or
                                             args.confusability), *_mat_document_options(args)) if given]
    from ..modes import mode

    if "leniency" not in mode(args.match).takes and (args.leniency != "1" or args.unlabelled):
        unsupported.append("--leniency/--unlabelled")
    if unsupported:
        raise OptionError(f"{', '.join(unsupported)} do not apply to --match {args.match}")


def score_result(args: argparse.Namespace, pred: str | None) -> tuple[Any, Callable[[Any], None]]:
    """The result of scoring ``pred`` against ``args.gold`` in the pairs, clueval or semeval mode, and how to draw
    its tables (``accord score`` and ``accord compare``)."""
    from .._api import score

    if args.match != "pairs":     # a mode of the registry (accord.modes) other than the pipeline's own
        from ..clueval import leniency_level

        _check_span_options(args)
        result = score(args.gold, pred, format=args.format, gold_format=args.gold_format,
                               pred_format=args.pred_format, gold_encoding=args.gold_encoding,
                               pred_encoding=args.pred_encoding, beta=args.beta, zero_division=args.zero_division,
                               allow_missing=args.allow_missing, scheme=args.scheme, repair=repair_of(args),
                               suffix=args.suffix,
                               tag_column=args.tag_column, gold_set=args.gold_set, pred_set=args.pred_set,
                               match=args.match, leniency=leniency_level(args.leniency), labelled=not args.unlabelled,
                               **({"attributes": args.attributes} if args.attributes else {}),
                               discontinuous=args.discontinuous, **scaling(args),
                               **vrt_options(args), **slices_settings(args), **align_settings(args))
        if args.match == "clueval":     # its coverage classes drawn too
            from ..report.clueval_report import render_clueval

            return result, lambda console: render_clueval(result, console)
        from ..report.result_table import render_result

        return result, lambda console: render_result(result, console)
    if args.leniency != "1" or args.unlabelled:
        raise OptionError("--leniency and --unlabelled apply to --match clueval")
    units = [name for name, on in (("token", args.by_token), ("pseudo-token", args.by_pseudo_token),
                                   ("character", args.by_character)) if on]
    if args.confusability and not units:
        units = ["token"]   # the matrix is counted in tokens, as MAT's
    equivalences: dict[str, list[str]] = {}
    for name, members in args.equivalence_class:
        equivalences.setdefault(name, []).extend(members)
    report = score(
        args.gold, pred, format=args.format, gold_format=args.gold_format, pred_format=args.pred_format,
        gold_encoding=args.gold_encoding, pred_encoding=args.pred_encoding,
        xml_input_is_overlay=args.xml_input_is_overlay,
        task=args.task, profile=args.profile, score_profile=args.score_profile, attributes=args.attributes,
        equivalence_classes=equivalences, ignore=args.ignore, beta=args.beta, zero_division=args.zero_division,
        allow_missing=args.allow_missing, scheme=args.scheme, repair=repair_of(args), suffix=args.suffix,
        tag_column=args.tag_column,
        discontinuous=args.discontinuous, units=units, content_annotations=args.content_annotations,
        token_annotations=args.token_annotations, gold_only=args.gold_only, ref_gold_only=args.ref_gold_only,
        file_re=args.file_re, ref_fsuff_off=args.ref_fsuff_off, ref_fsuff_on=args.ref_fsuff_on,
        confusability=(units[0] if units else "token") if args.confusability else None,
        gold_set=args.gold_set, pred_set=args.pred_set, **scaling(args), **vrt_options(args),
        **slices_settings(args), **align_settings(args),
    )

    def draw(console: Any) -> None:
        from ..report import render_table  # here: a JSON or CSV output draws no table

        render_table(report, console)
    return report, draw


def _task_profile(args: argparse.Namespace) -> tuple[Any, Any]:
    """The task and the similarity profile that paired (``details.csv``'s dimension columns), or Nones."""
    if not args.task:
        return None, None
    from ..match.engine import make_similarity
    from ..match.similarity import ProfileSimilarity
    from ..model.schema import load_task

    task = load_task(args.task)
    similarity = make_similarity(args.profile, task, args.attributes)
    return (task, similarity.spec) if isinstance(similarity, ProfileSimilarity) else (None, None)


def run_score(args: argparse.Namespace) -> int:
    from ..report import write_details

    if args.match == "pairs" and (args.profile == "gate" or args.bdm):
        if args.profile not in (None, "gate"):
            raise OptionError(f"--bdm scores with the gate profile, not {args.profile!r}")
        return _score_gate(args)
    if args.error_rate or args.fp_per:
        raise OptionError("--error-rate and --fp-per are GATE's figures: they apply with --profile gate (and to "
                          "accord diff, qa and benchmark)")
    if args.mat_csv is None and (args.tag_output_mismatch_details or args.csv_formula_output != ["excel"]):
        raise OptionError("--csv-formula-output and --tag-output-mismatch-details apply with --mat-csv DIR")
    if args.mat_csv is not None:
        from ..pairs.mat_csv import check_formula_formats

        check_formula_formats(args.csv_formula_output)    # before scoring, not after
    from ..parallel._run import SENTENCES, STREAM, sentence_policy

    # in one process too, the comparison is scored shard by shard as --jobs does (one shard's documents alive at a
    # time) when the outputs asked for need only the count tables; --details, --html and --mat-csv need the documents
    token = STREAM.set(getattr(args, "jobs", "1") == "1" and not getattr(args, "dask", None)
                       and not (args.details or args.html or args.mat_csv))
    # the shards keep their sentences' counts only for a bootstrap that may resample sentences
    resampled = getattr(args, "bootstrap", None) is not None or bool(getattr(args, "confidence_data", False))
    kept = SENTENCES.set(sentence_policy(resampled, getattr(args, "resample", None)))
    try:
        result, draw = score_result(args, args.pred)
    finally:
        STREAM.reset(token)
        SENTENCES.reset(kept)
    if args.details:
        write_details(result, args.details)
    status = emit(args, result, draw)
    if args.mat_csv is not None:
        from ..pairs.mat_csv import write_mat_csv

        write_mat_csv(result, args.mat_csv, args.csv_formula_output, args.tag_output_mismatch_details,
                      *_task_profile(args))
    if args.html:
        from pathlib import Path

        from ._pages import write_report

        write_report(args.html, {Path(args.pred or args.gold).stem: result},
                     title=f"{Path(args.gold).name}: {Path(args.pred or args.gold).name}", args=args)
    return status


COMMANDS = {"score": run_score}
