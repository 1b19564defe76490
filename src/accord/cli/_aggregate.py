"""``accord adjudicate A B C ... --method majority|dawid-skene|mace``: many annotators aggregated into gold.

Inputs: one annotation set per annotator (files or folders), one project export (its annotators, chosen with
``--annotators``), or one ratings table (CSV/TSV, wide or long as ``accord agree`` reads it). Spans are grouped
across annotators and one label chosen per group (:mod:`accord.adjudicate._spans`); a ratings table's items get
one label each (:mod:`accord.adjudicate._aggregate`). Outputs: the gold (``-o``, every writable format; a CSV of
items for a ratings table), the disagreements as a queue (``--queue`` CSV, ``--queue-html`` page with tick boxes),
each annotator's reliability on standard output (a table, or JSON with ``--output json``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .._support.io import shown_name
from ..errors import OptionError
from ._options import count_of
from ._output import info

__all__ = ["add_aggregation", "run_aggregate"]


METHODS = ("majority", "dawid-skene", "mace")
"""The names of :data:`accord.adjudicate.METHODS`, here so that building the parser imports no numpy (a test checks
that they are the same)."""


def add_aggregation(p: argparse.ArgumentParser) -> None:
    """The options of aggregation (``--method`` and what goes with it)."""
    g = p.add_argument_group("many annotators into gold (with --method; two or more sides, one project export, or "
                             "one ratings table)")
    g.add_argument("--method", choices=METHODS,
                   help="aggregate the annotators: majority vote, Dawid-Skene (EM over confusion matrices) or MACE "
                   "(Hovy et al. 2013); spans are grouped across annotators (--measure, --pairing) and one label "
                   "chosen per group, an annotator's 'no span here' counting as an answer")
    g.add_argument("--min-votes", type=count_of(1), metavar="K",
                   help="answers the chosen label needs (default: a strict majority of the answers for majority, 1 "
                   "for dawid-skene and mace)")
    g.add_argument("--measure", choices=("strict", "lenient"), default="strict",
                   help="spans grouped when coextensive (strict, default) or overlapping and paired by the Annotation "
                   "Diff's --pairing (lenient)")
    g.add_argument("--mace-method", choices=("vb", "em"), default="vb",
                   help="MACE's training: variational Bayes with the paper's priors (vb, default) or EM")
    g.add_argument("--queue", metavar="FILE", help="write the disagreements as CSV, a 'choice' column filled with "
                   "the method's choice (edit it and give the file to --decisions)")
    g.add_argument("--queue-html", metavar="FILE", help="write the disagreements as an HTML page with a tick box per "
                   "label, saving the decisions.csv --decisions reads")
    g.add_argument("--items", help="ratings table: the item column (wide: an id column to leave out)")
    g.add_argument("--raters", help="long ratings table: the rater column")
    g.add_argument("--labels", help="long ratings table: the label column")
    g.add_argument("--output", choices=("table", "json"), default="table",
                   help="the annotators' reliability and the counts on standard output: a table (default) or JSON")


def _is_table(path: str) -> bool:
    return Path(path).suffix.lower() in (".csv", ".tsv") and Path(path).is_file()


def _refuse_two_side_options(args: argparse.Namespace) -> None:
    used = [flag for flag, value in (("--take", args.take), ("--rest", args.rest != "none"),
                                     ("--set-name", args.set_name), ("--only-adjudicated", args.only_adjudicated),
                                     ("--features", args.features), ("--compare-as-strings", args.compare_as_strings),
                                     ("--allow-missing", args.allow_missing)) if value]
    if used:
        raise OptionError(f"{', '.join(used)} apply to the two-sided adjudication of a diff, not to --method")


def run_aggregate(args: argparse.Namespace, project_sides: Callable[[argparse.Namespace], list[Any] | None]) -> int:
    """Run the aggregation (see the module docstring); ``project_sides``: the annotators of one project export
    given as input (:func:`accord.cli.gate.adjudicate_sides`), or ``None``."""
    if args.method is None:
        raise OptionError("three or more sides are aggregated: give --method majority, dawid-skene or mace (two "
                          "sides without --method adjudicate a diff)")
    _refuse_two_side_options(args)
    options: dict[str, Any] = {"mace_method": args.mace_method} if args.method == "mace" else {}
    if args.mace_method != "vb" and args.method != "mace":
        raise OptionError("--mace-method applies with --method mace")
    paths = [args.key] + ([args.response] if args.response is not None else []) + list(args.more)
    if len(paths) == 1 and _is_table(paths[0]) and args.annotators is None:
        return _run_items(args, paths[0], options)
    if any((args.items, args.raters, args.labels)):
        raise OptionError("--items, --raters and --labels apply to one ratings table as input")
    return _run_spans(args, paths, options, project_sides)


def _sides(args: argparse.Namespace, paths: list[str],
           project_sides: Callable[[argparse.Namespace], list[Any] | None]) -> tuple[list[Any], list[str]]:
    from ..formats import read
    from ..pipeline._sides import meet

    if len(paths) <= 2:
        sides = project_sides(args)
        if sides is not None:
            return sides, [c.name or f"annotator {k + 1}" for k, c in enumerate(sides)]
    elif args.annotators is not None or args.layer is not None:
        raise OptionError("--annotators and --layer choose among the annotators of one project export; give one "
                          "INPUT then")
    if len(paths) < 2:
        raise OptionError(f"{paths[0]} is one annotation set; aggregation needs two or more annotators (or one "
                          "project export, or one ratings table)")
    how = args.discontinuous
    corpora = [read(p, format=args.format, discontinuous=how) for p in paths]
    names = [Path(p).stem or shown_name(p) for p in paths]     # an annotator is named by its file or folder
    if len(set(names)) < len(names):
        names = [shown_name(p) for p in paths]
        if len(set(names)) < len(names):
            names = [f"{n} ({k + 1})" for k, n in enumerate(names)]
    return meet(corpora, paths, names), names


def _run_spans(args: argparse.Namespace, paths: list[str], options: dict[str, Any],
               project_sides: Callable[[argparse.Namespace], list[Any] | None]) -> int:
    from ..adjudicate._queue import apply_span_decisions, read_span_decisions, span_queue
    from ..adjudicate._spans import aggregate_spans
    from ..formats import write
    from ..formats._registry import by_extension
    from ..formats.convert import for_format

    corpora, names = _sides(args, paths, project_sides)
    agg = aggregate_spans(corpora, names, method=args.method, min_votes=args.min_votes, measure=args.measure,
                          pairing=args.pairing, types=args.type or None, **options)
    gold = agg.corpus
    if args.decisions:
        gold = apply_span_decisions(agg, read_span_decisions(args.decisions))
    columns, rows = span_queue(agg)
    _write_queue(args, columns, rows, ("document", "start", "end"), agg.result, names)
    fmt = args.out_format or by_extension(args.out)
    write(for_format(gold, fmt), args.out, fmt)
    summary = agg.to_dict()
    n = sum(len(d.annotations) for d in gold.documents)
    rels = sum(a.start is None for d in gold.documents for a in d.annotations)
    info(args, f"{n} annotations{f' ({rels} relations)' if rels else ''} in {len(gold)} document(s) written to "
               f"{args.out}; {summary['groups']} groups, "
               f"{summary['disagreements']} with disagreement, {summary['tie']} tied, {summary['short']} short of "
               f"the votes{'; decisions from ' + args.decisions if args.decisions else ''}{_relations_line(summary)}")
    _report(args, summary, agg.result)
    return 0


def _relations_line(summary: dict[str, Any]) -> str:
    rel = summary.get("relations")
    if not rel:
        return ""
    return (f"; relations: {rel['items']} items, {rel['kept']} kept, {rel['disagreements']} with disagreement "
            f"(counted, not in the queue)")


def _run_items(args: argparse.Namespace, path: str, options: dict[str, Any]) -> int:
    from .._support.safe_paths import atomic_write
    from ..adjudicate._aggregate import aggregate
    from ..adjudicate._queue import item_queue, read_item_decisions
    from ..agreement._paired import table_item_ids
    from ..agreement._sources import read_ratings_table

    if args.type or args.more:
        raise OptionError("--types applies to annotation sets, not to a ratings table")
    ratings = read_ratings_table(path, items=args.items, raters=args.raters, labels=args.labels)
    ids = table_item_ids(path, items=args.items, raters=args.raters, labels=args.labels)
    items = [str(i) for i in ids] if ids is not None else [str(i + 1) for i in range(ratings.n_items)]
    names = [str(r) for r in ratings.raters]
    empty = [items[i] for i in range(ratings.n_items) if (ratings.codes[i] < 0).all()]
    if empty:
        from ..errors import RatingsError

        raise RatingsError(f"{path}: item {empty[0]!r} has no rating ({len(empty)} such item(s)); every item needs "
                           "one to be aggregated")
    result = aggregate(ratings.codes, ratings.categories, names, method=args.method, min_votes=args.min_votes,
                       **options)
    columns, rows = item_queue(result, items, ratings.codes)
    _write_queue(args, columns, rows, ("item",), result, names)
    labels: list[Any] = list(result.labels)
    if args.decisions:
        decided = read_item_decisions(args.decisions)
        where = {item: i for i, item in enumerate(items)}
        unknown = [d for d in decided if d not in where]
        if unknown:
            raise OptionError(f"{len(unknown)} decision(s) name no item of {path}, e.g. {unknown[0]!r}")
        for item, choice in decided.items():
            labels[where[item]] = choice[0] if choice else ""
    import csv

    with atomic_write(args.out, newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["item", "label", "posterior", "votes", "status"])
        for i, item in enumerate(items):
            k = result.categories.index(result.labels[i])
            w.writerow([item, labels[i], round(float(result.posteriors[i, k]), 6), int(result.votes[i]),
                        result.status[i]])
    summary = result.to_dict()
    info(args, f"{len(items)} items written to {args.out}; {len(rows)} with disagreement, {summary['tie']} tied, "
               f"{summary['short']} short of the votes")
    _report(args, summary, result)
    return 0


def _write_queue(args: argparse.Namespace, columns: list[str], rows: list[dict[str, Any]], key: tuple[str, ...],
                 result: Any, names: list[str]) -> None:
    from ..adjudicate._aggregate import RELIABILITY
    from ..adjudicate._queue import write_queue

    if args.queue:
        write_queue(args.queue, columns, rows)
    if args.queue_html:
        from .._support.safe_paths import write_text
        from ..report.queue_page import queue_html

        command = "accord adjudicate " + " ".join(
            [args.key] + ([args.response] if args.response else []) + list(args.more)) + f" --method {args.method}"
        counts = result.counts()
        summary = (f"{len(rows)} disagreement(s) of {len(result.labels)} items; method {args.method}: "
                   f"{counts['decided']} decided, {counts['tie']} tied, {counts['short']} short of the votes.")
        write_text(args.queue_html, queue_html(columns, rows, key=key, annotators=names,
                                               reliability=result.reliability,
                                               reliability_measure=RELIABILITY[result.method], summary=summary,
                                               command=command, title=f"Adjudication queue: {args.method}"))


def _report(args: argparse.Namespace, summary: dict[str, Any], result: Any) -> None:
    if args.output == "json":
        sys.stdout.write(json.dumps(summary, indent=2, default=str) + "\n")
        return
    from ..adjudicate._aggregate import RELIABILITY
    from ..report.table import TableConsole, new_table, print_table

    table = new_table(f"Annotators ({args.method})", ["annotator", RELIABILITY[result.method]])
    for a in result.annotators:
        r = result.reliability[a]
        table.add_row(a, "n/a" if r != r else f"{r:.4f}")
    print_table(TableConsole(), table)
