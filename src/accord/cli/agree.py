"""``accord agree``: agreement between annotators."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import OptionError
from ._options import add_output, csv_list
from ._output import output_format, render, write_text

__all__ = ["register", "COMMANDS"]


def register(sub: argparse._SubParsersAction) -> None:
    ag = sub.add_parser("agree", help="agreement between annotators: the kappa family and Krippendorff's alpha",
                        description="Agreement of two or more annotators. One INPUT: a CSV/TSV ratings table, wide "
                        "(a column per rater) or long (--items, --raters, --labels). Several INPUTs: annotation sets "
                        "(files or directories, one per annotator), items paired by exact span.")
    ag.add_argument("inputs", nargs="+", metavar="INPUT", help="a ratings table, or one annotation set per annotator")
    ag.add_argument("--items", help="ratings table: the item column (wide: an id column to leave out)")
    ag.add_argument("--raters", help="long ratings table: the rater column")
    ag.add_argument("--labels", help="long ratings table: the label column")
    ag.add_argument("--types", "--type", dest="type", type=csv_list,
                    help="annotation sets: the annotation labels whose spans are the items, comma-separated (several "
                    "types: the label is the category unless --feature; the GATE conventions average over types, as "
                    "GATE's IAA plugin)")
    ag.add_argument("--feature", help="annotation sets: the attribute holding the category (default: the label, "
                    "or 'Anns' with --types); an unannotated span is 'Non-cat', a missing attribute ''")
    ag.add_argument("--format", help="annotation sets: their format (sniffed by default)")
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
    ag.add_argument("--html", help="annotation sets: write the annotator matrix of pairwise F to this HTML file")
    ag.add_argument("--measure", choices=("strict", "lenient", "average"), default="strict",
                    help="annotation sets: the F of the matrix and of span_agreement in JSON (default strict)")
    ag.add_argument("--pairing", choices=("gate", "optimal"), default="gate",
                    help="annotation sets: the Annotation Diff pairing of the span agreement (default gate)")
    add_output(ag)


def _mean_over_types(by_type: dict[str, dict]) -> dict:
    """Several types under a GATE convention: each coefficient (mean and pairs) averaged over the types,
    as GATE's IAA plugin does; each type's own summary under ``by_type``, its documents as ``TYPE / DOC``."""
    first = next(iter(by_type.values()))

    def mean(values: list) -> float | None:
        kept = [v for v in values if v is not None]
        return sum(kept) / len(kept) if kept else None

    coefficients = {}
    for name, block in first["coefficients"].items():
        pairs = []
        for k, pair in enumerate(block["pairs"]):
            pairs.append({"raters": pair["raters"], "value": mean([s["coefficients"][name]["pairs"][k]["value"]
                                                                   for s in by_type.values()])})
        coefficients[name] = {"pairs": pairs, "mean": mean([s["coefficients"][name]["mean"] for s in by_type.values()])}
    by_document = {f"{t} / {d}": v for t, s in by_type.items() for d, v in s["by_document"].items()}
    return {"convention": first["convention"], "raters": first["raters"], "types": list(by_type),
            "coefficients": coefficients, "by_document": by_document, "by_type": by_type}


def _gate_summary(args: argparse.Namespace, corpora: list, names: list) -> dict:
    """``accord agree --convention iaa|corpus-qa``: GATE's pairwise tables and its averaging."""
    from ..agreement._gate import gate_pair_tables, gate_summary
    from ..agreement._sources import check_corpus_names

    check_corpus_names(corpora, args.type, args.feature)
    by_type = {}
    for t in dict.fromkeys(args.type):
        by_type[t] = gate_summary(gate_pair_tables(corpora, names, type=t, feature=args.feature,
                                                   convention=args.convention), args.convention)
        if args.convention == "iaa" and len(names) > 2:
            from ..agreement._allway import iaa_allway_kappa

            by_type[t]["all_way"] = iaa_allway_kappa(corpora, names, type=t, feature=args.feature)
    return next(iter(by_type.values())) if len(by_type) == 1 else _mean_over_types(by_type)


def run_agree(args: argparse.Namespace) -> int:
    from ..agreement._result import AgreementResult
    from ..agreement._sources import ratings_from_corpora, read_ratings_table
    from ..agreement._stats import agreement_stats

    options = {"level": args.level}
    extras = {}
    if len(args.inputs) == 1 and args.sets is None:
        if args.type or args.feature or args.html or args.convention != "accord":
            raise OptionError("--types, --feature, --sets, --convention and --html apply to annotation sets; give "
                              "one INPUT per annotator, or --sets for one GATE XML input")
        table = read_ratings_table(args.inputs[0], items=args.items, raters=args.raters, labels=args.labels,
                                   categories=args.categories)
        options.update(items=args.items, raters=args.raters, labels=args.labels, categories=args.categories)
        result = AgreementResult("ratings", stats={args.inputs[0]: agreement_stats(table)}, options=options,
                                 inputs={"ratings": {"sources": [args.inputs[0]], "documents": 1}})
    else:
        if args.items or args.raters or args.labels:
            raise OptionError("--items, --raters and --labels apply to one ratings table, not to annotation sets")
        from ..formats import read

        if args.sets is not None:
            if len(args.inputs) != 1:
                raise OptionError("--sets names the annotation sets of one INPUT (a GATE XML file or directory)")
            names = args.sets
            corpora = [read(args.inputs[0], format=args.format, annotation_set=n) for n in names]
        else:
            names = args.inputs
            corpora = [read(path, format=args.format) for path in args.inputs]
        if len(set(names)) != len(names):
            raise OptionError("the same annotation set is given twice")
        inputs = {str(n): {"sources": [args.inputs[0] if args.sets is not None else str(n)], "documents": len(c)}
                  for n, c in zip(names, corpora)}
        options.update(types=args.type, feature=args.feature, convention=args.convention)
        if args.html or output_format(args) == "json":
            from ..agreement._spans import span_agreement

            spans = span_agreement(corpora, names, types=args.type or None, feature=args.feature,
                                   pairing=args.pairing)
            extras["span_agreement"] = spans.to_dict(args.measure)
            if args.html:
                from ..report.agreement_matrix import matrix_html

                Path(args.html).write_text(matrix_html(spans, args.measure, title="Agreement of " + ", ".join(names)),
                                           encoding="utf-8")
        if args.convention != "accord":
            if not args.type:
                raise OptionError(f"--convention {args.convention} needs --types (and --feature for corpus-qa)")
            result = AgreementResult(args.convention, summary=_gate_summary(args, corpora, names), options=options,
                                     inputs=inputs, extras=extras)
        else:
            tables = ratings_from_corpora(corpora, names, type=args.type, feature=args.feature)
            if not tables:
                raise OptionError("the annotation sets hold no documents")
            result = AgreementResult("annotation-sets", stats={d: agreement_stats(t) for d, t in tables.items()},
                                     options=options, inputs=inputs, extras=extras)
    for message in result.warnings:
        print(f"accord: warning: {message}", file=sys.stderr)
    fmt = output_format(args)
    if fmt == "json":
        write_text(args, result.to_json())
    elif fmt == "csv":
        write_text(args, result.to_csv())
    else:
        from ..report.agreement_table import render_agreement, render_gate_agreement

        sides = ", ".join(result.inputs)
        caption = f"{sides} · {result.mode} · {len(result.documents)} document(s)"
        if result.summary is not None:
            render(args, lambda console: render_gate_agreement(result.summary, console), caption)
        else:
            render(args, lambda console: render_agreement(result.totals, console), caption)
    return 0


COMMANDS = {"agree": run_agree}
