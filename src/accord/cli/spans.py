"""``accord errors`` (CLUEval's error tables) and ``accord merge`` (CLUEval's combined model)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._support.safe_paths import write_text as write_file
from ..errors import OptionError
from ._inputs import read_span_sides
from ._options import add_allow_missing, add_columns, add_discontinuous, add_sides_format, add_tagging, csv_list
from ._output import info

if TYPE_CHECKING:
    from ..clueval import ClueEvaluation

__all__ = ["register", "COMMANDS"]


def register(sub: argparse._SubParsersAction) -> None:
    _register_errors(sub)
    _register_merge(sub)


def _register_errors(sub: argparse._SubParsersAction) -> None:
    er = sub.add_parser("errors", help="CLUEval error tables: every false negative and false positive in context",
                        description="List the gold spans that are not hits (FN) and the predicted spans that are "
                        "not hits (FP) at a leniency level, each with the spans of the other side over it and its "
                        "sentence: as an HTML page, TSV or CSV (the context marked with emoji for spreadsheets).")
    er.add_argument("gold", help="gold file or directory")
    er.add_argument("pred", nargs="?", help="predicted file or directory (leave out with --gold-column and "
                    "--pred-column)")
    add_sides_format(er)
    add_tagging(er)
    add_discontinuous(er)
    add_columns(er)
    add_allow_missing(er)
    er.add_argument("--leniency", default="1", help="1-4 or exact, superset, tiling, overlap (default 1)")
    er.add_argument("--unlabelled", action="store_true", help="ignore labels (default: labelled)")
    er.add_argument("--attribute", metavar="NAME", help="the errors of this attribute of the spans (spans with "
                    "several, as accord merge writes them) instead of their label: its values stand for the labels")
    er.add_argument("--only", choices=("fn", "fp"), help="only false negatives or only false positives")
    er.add_argument("--html", help="write the error page (self-contained HTML) to this file")
    er.add_argument("--tsv", help="write the error table as TSV to this file")
    er.add_argument("--csv", help="write the error table as CSV to this file")
    er.add_argument("--align", choices=("exact", "fuzzy"), default=None,
                    help="a predicted side of generated records (strings without offsets): how its strings are placed "
                         "on the gold text, as in accord score (exact when not given); an unaligned string is a false "
                         "positive whose note says what it was")
    er.add_argument("--align-threshold", type=float, default=None, metavar="SIMILARITY",
                    help="with --align fuzzy: the least similarity, 0 to 1 (0.9 when not given)")


def run_errors(args: argparse.Namespace) -> int:
    from ..clueval import error_table, evaluate_spans, leniency_level
    from ..clueval._error_rows import error_page_view, errors_table
    from ..report.error_report import errors_delimited, errors_html

    level = leniency_level(args.leniency)
    gold, pred = read_span_sides(args, args.gold_format or args.format, args.pred_format or args.format)
    gold, pred, notes = _aligned(args, gold, pred)
    if args.attribute:
        from ..clueval._result import attribute_as_label, check_attributes

        check_attributes((args.attribute,), gold, pred)
        gold, pred = attribute_as_label(gold, args.attribute), attribute_as_label(pred, args.attribute)
    ev = evaluate_spans(gold, pred, allow_missing=args.allow_missing)
    labelled = not args.unlabelled
    rows = []
    for side, kind in (("gold", "fn"), ("pred", "fp")):
        if args.only in (None, kind):
            rows.extend(error_table(ev, side, level, labelled))
    rows = _by_position(ev, rows)
    written = []
    if args.html:
        write_file(args.html, errors_html(error_page_view(ev, rows, level=level, labelled=labelled, notes=notes)))
        written.append(args.html)
    for path, delimiter in ((args.tsv, "\t"), (args.csv, ",")):
        if path:
            write_file(path, errors_delimited(errors_table(ev, rows, notes), delimiter))
            written.append(path)
    if not written:
        sys.stdout.write(errors_delimited(errors_table(ev, rows, notes), "\t"))
        return 0
    fn = sum(r.kind == "FN" for r in rows)
    info(args, f"{fn} false negatives and {len(rows) - fn} false positives at leniency {level} "
               f"({'labelled' if labelled else 'unlabelled'}) written to {', '.join(written)}")
    return 0


def _aligned(args: argparse.Namespace, gold: Any, pred: Any) -> tuple[Any, Any, dict]:
    """The sides with a predicted side of generated records placed on the gold text (as accord score places them),
    and the notes of its unaligned and fuzzily placed strings (:func:`accord.clueval._browser.span_notes`)."""
    from ..formats.records.generated import is_records

    if not is_records(pred) and args.align is None and args.align_threshold is None:
        return gold, pred, {}
    if is_records(gold) or not is_records(pred):
        raise OptionError("--align places generated records (strings without offsets) of the predicted side on the "
                          "gold text: the gold side must have offsets and the predicted side be records")
    from ..clueval._browser import span_notes
    from ..pipeline._align import align_records

    pred, summary = align_records(gold, pred, args.align or "exact", args.align_threshold)
    return gold, pred, span_notes(summary, gold, pred)


def _by_position(ev: ClueEvaluation, rows: list) -> list:
    """False negatives and false positives interleaved: by document, start, longer spans first, FN first."""
    order = {d.id: k for k, d in enumerate(ev.documents)}
    return sorted(rows, key=lambda r: (order[r.document], r.start, -r.end, r.kind))


def _register_merge(sub: argparse._SubParsersAction) -> None:
    mg = sub.add_parser("merge", help="merge several BIO columns of a VRT file into one sequence of spans",
                        description="CLUEval's combined model: the spans of all COLUMNS that overlap, directly or "
                        "in a chain, become one span (their hull); each column's value on it is its label with "
                        "most tokens there (a tie: the leftmost span's label). The result is written as VRT (the "
                        "input with the COLUMNS replaced by the merged spans) or as JSON lines (.jsonl).")
    mg.add_argument("input", help="a VRT file")
    mg.add_argument("--columns", required=True, help="the BIO columns to merge, comma-separated (names or "
                    "1-based numbers)")
    mg.add_argument("-o", "--out", required=True, help="output file: .vrt or .jsonl")
    mg.add_argument("--out-format", choices=("vrt", "jsonl"), help="default: by the extension of --out")
    mg.add_argument("--unknown-label", default="UNK", help="VRT output: the label written in a column that has "
                    "no span in a merged span (default UNK)")
    mg.add_argument("--scheme", default="IOB2", help="tag scheme of the columns, read and written (default IOB2)")
    mg.add_argument("--repair", default="conlleval", choices=("conlleval", "discard", "error"),
                    help="invalid tag sequences (default conlleval)")
    mg.add_argument("--positional-attributes", type=csv_list, metavar="NAMES",
                    help="names of the columns, for files without a '#vrt positional-attributes' comment")
    mg.add_argument("--word-column", default="1", help="the token text column (default 1)")
    mg.add_argument("--token-id-column", help="a column of token ids, kept in JSON lines output")


def run_merge(args: argparse.Namespace) -> int:
    from .._support.io import read_text
    from ..clueval import merge_layers
    from ..formats.text.jsonl import write_jsonl
    from ..formats.tokens.vrt import parse_vrt, read_vrt_layers, rewrite_columns
    from ..model import tagging

    columns = csv_list(args.columns)
    if len(set(columns)) != len(columns):
        raise OptionError(f"--columns names a column twice: {args.columns}")
    fmt = args.out_format or ("jsonl" if args.out.lower().endswith(".jsonl") else
                              "vrt" if args.out.lower().endswith(".vrt") else None)
    if fmt is None:
        raise OptionError(f"cannot tell the output format from {args.out}; give --out-format vrt or jsonl")
    text = read_text(args.input)
    vrt = parse_vrt(text, path=Path(args.input), positional_attributes=args.positional_attributes)
    layers = read_vrt_layers(args.input, columns, vrt=vrt, word_column=args.word_column,
                             token_id_column=args.token_id_column, scheme=args.scheme, repair=args.repair)
    merged = merge_layers(layers)
    if fmt == "jsonl":
        from .._support.safe_paths import staged_file

        with staged_file(args.out) as staged:     # whole or not at all
            write_jsonl(merged, staged)
    else:
        values: dict[int, list[str]] = {vrt.column(c): [] for c in columns}
        for doc in merged.values():
            n = len(doc.tokens or ())
            for name, k in zip(layers, values):
                spans = [(a.attributes.get(name, args.unknown_label), a.start, a.end) for a in doc.annotations
                         if a.start is not None and a.end is not None]   # (all: merged from tag layers)
                values[k].extend(tagging.encode(spans, n, args.scheme))
        write_file(args.out, rewrite_columns(text, values, path=args.input))
    before = sum(len(d.annotations) for layer in layers.values() for d in layer.values())
    info(args, f"{before} spans in {len(layers)} columns merged into {merged.annotation_count()} spans, "
               f"written to {args.out}")
    return 0


COMMANDS = {"errors": run_errors, "merge": run_merge}
