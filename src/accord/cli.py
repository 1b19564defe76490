"""The ``accord`` command."""

from __future__ import annotations

import argparse
import gc
import sys
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import AccordError, OptionError

if TYPE_CHECKING:
    from .clueval import ClueEvaluation

__all__ = ["main", "build_parser"]


def _equivalence(value: str) -> tuple[str, list[str]]:
    name, sep, members = value.partition("=")
    if not sep or not name or not members:
        raise argparse.ArgumentTypeError(f"expected NAME=LABEL,LABEL; got {value!r}")
    return name, [m for m in members.split(",") if m]


def _beta(value: str) -> float:
    try:
        beta = float(value)
    except ValueError:
        beta = float("nan")
    if not 0 <= beta < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a finite number >= 0, got {value!r}")
    return beta


def _csv_list(value: str) -> list[str]:
    return [v for v in value.split(",") if v]


class _Parser(argparse.ArgumentParser):
    """An argument parser whose description may be computed when help is shown (``lazy_description``),
    so that building the parser imports nothing a command does not need."""

    def __init__(self, *args: object, lazy_description: Callable[[], str] | None = None, **kwargs: object):
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._lazy_description = lazy_description

    def format_help(self) -> str:
        if self._lazy_description is not None:
            self.description, self._lazy_description = self._lazy_description(), None
        return super().format_help()


def _structured_help() -> str:
    from .structured.named import NAMED_METRICS

    return ("Score RESPONSE against KEY (JSON lines, one document per line; the record formats are in the README "
            "and accord.formats.records) with one or more metrics:\n\n"
            + "\n".join(f"  {n:<20} [{kind}] {d}" for n, (kind, d) in NAMED_METRICS.items()))


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``accord`` command."""
    parser = argparse.ArgumentParser(prog="accord", description="Compare annotations: a system against gold, "
                                     "or annotators against each other.")
    from . import __version__

    parser.add_argument("--version", action="version", version=f"accord {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    sc = sub.add_parser("score", help="score predicted annotations against gold annotations",
                        description="Score PRED against GOLD (files or directories paired by document name).")
    sc.add_argument("gold", help="gold file or directory")
    sc.add_argument("pred", nargs="?", help="predicted file or directory (leave out with --gold-column and "
                    "--pred-column: both sides are columns of GOLD)")
    io = sc.add_argument_group("input")
    io.add_argument("--format", help="format of both sides (conll, brat, mat-json, jsonl); sniffed by default")
    io.add_argument("--gold-format", help="format of the gold side")
    io.add_argument("--pred-format", help="format of the predicted side")
    io.add_argument("--scheme", default="IOB2", help="tag scheme of column files: IOB1, IOB2 (BIO), IOE1, IOE2, "
                    "IOBES (BIOES), BILOU, IO (default IOB2)")
    io.add_argument("--repair", default="conlleval", choices=("conlleval", "discard", "error"),
                    help="what to do with invalid tag sequences (default conlleval, as conlleval and seqscore)")
    io.add_argument("--tag-column", type=int, default=-1,
                    help="0-based index of the tag column in column files (default: the last)")
    _column_options(io)
    io.add_argument("--allow-missing", choices=("empty", "skip"),
                    help="score documents found on one side only as empty on the other (empty) or leave them "
                    "out (skip); by default they are an error")
    io.add_argument("--discontinuous", choices=("error", "merge"), default="error",
                    help="brat: refuse discontinuous spans (error, default) or use their covering extent (merge)")
    io.add_argument("--gold-set", help="GATE XML: the gold side's annotation set (default: the default set)")
    io.add_argument("--pred-set", help="GATE XML: the predicted side's annotation set (default: the default set)")
    m = sc.add_argument_group("matching")
    m.add_argument("--task", help="MAT task file: labels, attributes, effective labels, profiles")
    m.add_argument("--profile", help="strict (default without --task), lenient, mat, gate (GATE's Corpus QA "
                   "tables, as accord qa), or a similarity profile "
                   "named in the task (default with --task: the task's default profile)")
    m.add_argument("--score-profile", help="a score profile named in the task")
    m.add_argument("--attributes", type=_csv_list, default=[],
                   help="attributes that must be equal for a strict or lenient match (comma-separated)")
    m.add_argument("--equivalence-class", type=_equivalence, action="append", default=[], metavar="NAME=A,B",
                   help="score labels A and B as NAME (repeatable)")
    m.add_argument("--ignore", type=_csv_list, default=[], help="labels removed before pairing (comma-separated)")
    m.add_argument("--bdm", help="a BDM score file: score as GATE's Corpus QA with the BDM measures (implies "
                   "--profile gate)")
    m.add_argument("--match", choices=("pairs", "clueval", "semeval"), default="pairs",
                   help="pairs: one-to-one pairing and the profile's similarity (default); clueval: CLUEval's "
                   "coverage classes, recall and precision per leniency level; semeval: the SemEval-2013 "
                   "schemas strict, exact, partial and type (as nervaluate, on an optimal pairing)")
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
    u.add_argument("--token-label", default="lex", help="the label of token annotations in documents with text "
                   "(default lex, as MAT); they are not scored themselves")
    o = sc.add_argument_group("output")
    o.add_argument("--output", choices=("table", "json", "csv"), default="table", help="output format")
    o.add_argument("-o", "--out", help="write the output to this file instead of standard output")
    o.add_argument("--details", help="write one row per item to this file (CSV, or JSON lines for .jsonl)")
    o.add_argument("--beta", type=_beta, default=1.0, help="F-beta weight (default 1)")
    o.add_argument("--zero-division", choices=("zero", "one", "nan"), default="zero",
                   help="rate for an empty denominator: 0 (default), 1 (MAT) or NaN (null in JSON)")
    co = sub.add_parser("coref", help="coreference metrics (MUC, B-cubed, CEAFm, CEAFe, BLANC, LEA) as the "
                                      "CoNLL-2012 scorer computes them")
    co.add_argument("key", help="key (gold) file: CoNLL-2012 (#begin document ...) or JSON lines (.jsonl)")
    co.add_argument("response", help="response file, same formats")
    co.add_argument("--metrics", type=_csv_list, default=["muc", "bcub", "ceafm", "ceafe", "blanc", "lea"],
                    help="comma-separated subset of muc,bcub,ceafm,ceafe,blanc,lea (default all)")
    co.add_argument("--format", choices=("conll2012", "jsonl"), help="input format (default: by extension)")
    _output_options(co, "the CEAF entity alignments (document, metric, key entity, response entity, phi)")
    sm = sub.add_parser("smatch", help="Smatch between AMR graphs (PENMAN), with the optimal variable mapping")
    sm.add_argument("gold", help="gold graphs, PENMAN notation, blank-line separated")
    sm.add_argument("pred", help="predicted graphs, paired with the gold graphs in order")
    _output_options(sm, "the variable mapping of each pair (pair, test variable, gold variable)")
    st = sub.add_parser("structured", help="relations, events, role-filler entities and templates from JSON lines",
                        formatter_class=argparse.RawDescriptionHelpFormatter, lazy_description=_structured_help)
    st.add_argument("key", help="key (gold) records, JSON lines")
    st.add_argument("response", help="response records, JSON lines")
    st.add_argument("--metric", type=_csv_list, required=True, help="comma-separated metric names (see above)")
    st.add_argument("--inclusive-spans", action="store_true",
                    help="scirex: spans are inclusive [start, end] (default half-open [start, end))")
    st.add_argument("--premodifiers", type=_csv_list, default=[],
                    help="muc4, better: words that do not count as a string-fill overlap (comma-separated)")
    st.add_argument("--hierarchy", help="muc4, better: JSON object mapping a set-fill value to its parent value, "
                    "for half credit when the response is more specific")
    _output_options(st, "the matched record pairs (document, metric, indices, similarity, both records)")
    ag = sub.add_parser("agree", help="agreement between annotators: the kappa family and Krippendorff's alpha",
                        description="Agreement of two or more annotators. One INPUT: a CSV/TSV ratings table, wide "
                        "(a column per rater) or long (--items, --raters, --labels). Several INPUTs: annotation sets "
                        "(files or directories, one per annotator), items paired by exact span.")
    ag.add_argument("inputs", nargs="+", metavar="INPUT", help="a ratings table, or one annotation set per annotator")
    ag.add_argument("--items", help="ratings table: the item column (wide: an id column to leave out)")
    ag.add_argument("--raters", help="long ratings table: the rater column")
    ag.add_argument("--labels", help="long ratings table: the label column")
    ag.add_argument("--type", type=_csv_list, help="annotation sets: the annotation labels whose spans are the "
                    "items, comma-separated (several types: the label is the category unless --feature; the GATE "
                    "conventions average over types, as GATE's IAA plugin)")
    ag.add_argument("--feature", help="annotation sets: the attribute holding the category (default: the label, "
                    "or 'Anns' with --type); an unannotated span is 'Non-cat', a missing attribute ''")
    ag.add_argument("--format", help="annotation sets: their format (sniffed by default)")
    ag.add_argument("--level", default="nominal", choices=("nominal", "ordinal", "interval", "ratio"),
                    help="Krippendorff's alpha: the level of measurement (default nominal)")
    ag.add_argument("--categories", type=_csv_list,
                    help="ratings table: the categories in order (ordinal scales; categories nobody used)")
    ag.add_argument("--sets", type=_csv_list, help="annotation sets of one GATE XML INPUT (file or directory) to "
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
    ag.add_argument("--output", choices=("table", "json", "csv"), default="table", help="output format")
    ag.add_argument("-o", "--out", help="write the output to this file instead of standard output")
    df = sub.add_parser("diff", help="GATE's Annotation Diff: correct, partial, missing, spurious; strict, lenient "
                        "and average measures", description="Compare RESPONSE with KEY type by type as GATE's "
                        "Annotation Diff does (files or directories; GATE XML, brat, MAT JSON, JSON lines, columns).")
    _diff_options(df, "type")
    qa = sub.add_parser("qa", help="GATE's Corpus QA: Annotation Diff tables by type and by document with micro "
                        "and macro rows", description="Corpus QA: KEY (A) against RESPONSE (B) over a corpus, one "
                        "table per --by, each with a macro summary (mean of the rows) and a micro summary (summed "
                        "counts).")
    _diff_options(qa, "type,document")
    bm = sub.add_parser("benchmark", help="GATE's Corpus Benchmark: two responses against one key, what improved "
                        "and what regressed", description="Diff BEFORE and AFTER against KEY (files or "
                        "directories) and show, per document and type, the figures before and after and the "
                        "annotations that became right (fixed) or wrong (broken).")
    bm.add_argument("key", help="key file or directory")
    bm.add_argument("before", help="the old response (file or directory)")
    bm.add_argument("after", help="the new response (file or directory)")
    bm.add_argument("--format", help="format of all three (sniffed by default)")
    bm.add_argument("--key-set", help="GATE XML: the key's annotation set")
    bm.add_argument("--before-set", help="GATE XML: the old response's annotation set")
    bm.add_argument("--after-set", help="GATE XML: the new response's annotation set")
    _pairing_options(bm)
    bm.add_argument("--measure", default="average", help="strict, lenient or average (default, as GATE's tool)")
    bm.add_argument("--beta", type=_beta, default=1.0, help="F-beta weight (default 1)")
    bm.add_argument("--allow-missing", choices=("empty", "skip"),
                    help="documents on one side only: score against nothing (empty) or leave out (skip)")
    _output_options(bm, "one row per changed annotation")
    ad = sub.add_parser("adjudicate", help="build a gold set from an Annotation Diff: keep key or response "
                        "annotations by rule or from a decisions file", description="Diff RESPONSE against KEY and "
                        "keep, row by row, the key's annotation, the response's, both or neither: --rest for every "
                        "row, then each --take rule in order, then the rows of --decisions (the file the HTML diff "
                        "page of accord diff --html saves).")
    _key_response_inputs(ad)
    ad.add_argument("-o", "--out", required=True, help="the adjudicated corpus (format by extension or "
                    "--out-format)")
    ad.add_argument("--out-format", help="format of the output (default: by the extension of --out)")
    ad.add_argument("--set-name", help="GATE XML output: the annotation set to write the annotations in")
    _pairing_options(ad)
    ad.add_argument("--take", action="append", metavar="RULE",
                    help="matches (the key side of correct rows; the default), key:TYPE or response:TYPE "
                    "(that side of every row of the type); repeat to apply several in order")
    ad.add_argument("--decisions", help="a decisions CSV (saved from the HTML diff page); overrides the rules")
    ad.add_argument("--rest", choices=("none", "key", "response", "both"), default="none",
                    help="what rows no rule or decision covers keep (default none)")
    ad.add_argument("--allow-missing", choices=("empty", "skip"),
                    help="documents on one side only: compare with nothing (empty) or leave out (skip)")
    _errors_parser(sub)
    _merge_parser(sub)
    bd = sub.add_parser("bdm", help="the BDM of every pair of concepts of an ontology, as GATE's BDM score file",
                        description="Compute the balanced distance metric (Maynard et al. 2006) of every pair of "
                        "concepts of ONTOLOGY (OWL/RDF read with rdflib, or a taxonomy file of 'concept<TAB>"
                        "superclass' lines) and write GATE's BDM score file.")
    bd.add_argument("ontology", help="OWL/RDF file (.owl, .rdf, .ttl, ...) or taxonomy file (.tsv, .txt)")
    bd.add_argument("--format", help="taxonomy, or an rdflib parser name (xml, turtle, nt, ...); by extension "
                    "by default")
    bd.add_argument("-o", "--out", help="write the BDM file here instead of standard output")
    bd.add_argument("--pairs", choices=("unordered", "ordered"), default="unordered",
                    help="each pair once (default; the BDM is symmetric) or every ordered pair")
    for command in sub.choices.values():
        command.add_argument("--encoding", default="utf-8",
                             help="text encoding of the input files (default utf-8; a byte-order mark is always "
                             "accepted; GATE XML follows its own declaration)")
    return parser


def _errors_parser(sub: argparse._SubParsersAction) -> None:
    er = sub.add_parser("errors", help="CLUEval error tables: every false negative and false positive in context",
                        description="List the gold spans that are not hits (FN) and the predicted spans that are "
                        "not hits (FP) at a leniency level, each with the spans of the other side over it and its "
                        "sentence: as an HTML page, TSV or CSV (the context marked with emoji for spreadsheets).")
    er.add_argument("gold", help="gold file or directory")
    er.add_argument("pred", nargs="?", help="predicted file or directory (leave out with --gold-column and "
                    "--pred-column)")
    er.add_argument("--format", help="format of both sides (sniffed by default)")
    er.add_argument("--gold-format", help="format of the gold side")
    er.add_argument("--pred-format", help="format of the predicted side (e.g. spans, with --spans-vrt)")
    er.add_argument("--scheme", default="IOB2", help="tag scheme of column files (default IOB2)")
    er.add_argument("--repair", default="conlleval", choices=("conlleval", "discard", "error"),
                    help="invalid tag sequences (default conlleval)")
    er.add_argument("--tag-column", type=int, default=-1, help="CoNLL: 0-based tag column (default: the last)")
    _column_options(er)
    er.add_argument("--allow-missing", choices=("empty", "skip"),
                    help="documents on one side only: score against an empty document, or leave out")
    er.add_argument("--leniency", default="1", help="1-4 or exact, superset, tiling, overlap (default 1)")
    er.add_argument("--unlabelled", action="store_true", help="ignore labels (default: labelled)")
    er.add_argument("--only", choices=("fn", "fp"), help="only false negatives or only false positives")
    er.add_argument("--html", help="write the error page (self-contained HTML) to this file")
    er.add_argument("--tsv", help="write the error table as TSV to this file")
    er.add_argument("--csv", help="write the error table as CSV to this file")


def _errors(args: argparse.Namespace) -> int:
    from .clueval import error_table, evaluate_spans, leniency_level
    from .report.error_report import errors_delimited, errors_html

    level = leniency_level(args.leniency)
    gold, pred = _read_span_sides(args, args.gold_format or args.format, args.pred_format or args.format)
    ev = evaluate_spans(gold, pred, allow_missing=args.allow_missing)
    labelled = not args.unlabelled
    rows = []
    for side, kind in (("gold", "fn"), ("pred", "fp")):
        if args.only in (None, kind):
            rows.extend(error_table(ev, side, level, labelled))
    rows = _by_position(ev, rows)
    written = []
    if args.html:
        Path(args.html).write_text(errors_html(ev, rows, level=level, labelled=labelled), encoding="utf-8")
        written.append(args.html)
    for path, delimiter in ((args.tsv, "\t"), (args.csv, ",")):
        if path:
            Path(path).write_text(errors_delimited(ev, rows, delimiter), encoding="utf-8")
            written.append(path)
    if not written:
        sys.stdout.write(errors_delimited(ev, rows, "\t"))
        return 0
    fn = sum(r.kind == "FN" for r in rows)
    print(f"accord: {fn} false negatives and {len(rows) - fn} false positives at leniency {level} "
          f"({'labelled' if labelled else 'unlabelled'}) written to {', '.join(written)}", file=sys.stderr)
    return 0


def _read_span_sides(args: argparse.Namespace, gold_format: str | None, pred_format: str | None) -> tuple:
    """Both sides of ``errors`` and ``score --match clueval|semeval``, with the column and tag options."""
    from .scoring import read_sides

    options = _vrt_options(args)
    gold_column, pred_column = options.pop("gold_column"), options.pop("pred_column")
    options.update(scheme=args.scheme, repair=args.repair, tag_column=args.tag_column)
    return read_sides(args.gold, args.pred, gold_format, pred_format, options, gold_column, pred_column,
                      getattr(args, "gold_set", None), getattr(args, "pred_set", None))


def _by_position(ev: "ClueEvaluation", rows: list) -> list:
    """False negatives and false positives interleaved: by document, start, longer spans first, FN first."""
    order = {d.id: k for k, d in enumerate(ev.documents)}
    return sorted(rows, key=lambda r: (order[r.document], r.start, -r.end, r.kind))


def _merge_parser(sub: argparse._SubParsersAction) -> None:
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
    mg.add_argument("--positional-attributes", type=_csv_list, metavar="NAMES",
                    help="names of the columns, for files without a '#vrt positional-attributes' comment")
    mg.add_argument("--word-column", default="1", help="the token text column (default 1)")
    mg.add_argument("--token-id-column", help="a column of token ids, kept in JSON lines output")


def _merge(args: argparse.Namespace) -> int:
    from . import tagging
    from ._io import read_text
    from .clueval import merge_layers
    from .formats.jsonl import write_jsonl
    from .formats.vrt import parse_vrt, read_vrt_layers, rewrite_columns

    columns = _csv_list(args.columns)
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
        write_jsonl(merged, args.out)
    else:
        values: dict[int, list[str]] = {vrt.column(c): [] for c in columns}
        for doc in merged.values():
            n = len(doc.tokens or ())
            for name, k in zip(layers, values):
                spans = [(a.attributes.get(name, args.unknown_label), a.start, a.end) for a in doc.annotations]
                values[k].extend(tagging.encode(spans, n, args.scheme))
        Path(args.out).write_text(rewrite_columns(text, values, path=args.input), encoding="utf-8")
    before = sum(len(d.annotations) for layer in layers.values() for d in layer.values())
    print(f"accord: {before} spans in {len(layers)} columns merged into {merged.annotation_count()} spans, "
          f"written to {args.out}", file=sys.stderr)
    return 0


def _column_options(p: argparse.ArgumentParser) -> None:
    """Options that choose the columns of VRT and CoNLL files."""
    p.add_argument("--columns", help="VRT: the BIO column, by name or 1-based number (CoNLL: like --tag-column); "
                   "the same for both sides (sides in other formats ignore it)")
    p.add_argument("--gold-column", help="the gold side's tag column (VRT: name or 1-based number; CoNLL: "
                   "0-based, as --tag-column)")
    p.add_argument("--pred-column", help="the predicted side's tag column (same numbering)")
    p.add_argument("--positional-attributes", type=_csv_list, metavar="NAMES",
                   help="VRT: names of the columns, comma-separated, for files without a "
                   "'#vrt positional-attributes' comment")
    p.add_argument("--word-column", default="1", help="VRT: the token text column (default 1)")
    p.add_argument("--token-id-column", help="VRT: a column of token ids, checked to be equal on both sides")
    p.add_argument("--spans-vrt", metavar="FILE", help="spans tables (--format spans, or --gold-format/"
                   "--pred-format spans): the VRT file that gives their documents and tokens")


def _vrt_options(args: argparse.Namespace) -> dict:
    """Reader options from the column options (``gold_column``/``pred_column`` included)."""
    columns = _csv_list(args.columns) if args.columns else []
    if len(columns) > 1:
        raise OptionError(f"--columns: score one BIO column at a time, not {len(columns)}; combine several with "
                          "'accord merge' first")
    options = {"gold_column": args.gold_column, "pred_column": args.pred_column, "word_column": args.word_column}
    if columns:
        options["columns"] = columns    # read by the VRT and CoNLL readers of both sides
    if args.positional_attributes:
        options["positional_attributes"] = args.positional_attributes
    if args.token_id_column:
        options["token_id_column"] = args.token_id_column
    if args.spans_vrt:
        options["spans_vrt"] = args.spans_vrt
    return options


def _key_response_inputs(p: argparse.ArgumentParser) -> None:
    """KEY and RESPONSE, their format and their GATE annotation sets."""
    p.add_argument("key", help="key file or directory (A)")
    p.add_argument("response", help="response file or directory (B)")
    p.add_argument("--format", help="format of both sides (sniffed by default)")
    p.add_argument("--key-set", help="GATE XML: the key's annotation set (default: the default set)")
    p.add_argument("--response-set", help="GATE XML: the response's annotation set (default: the default set)")


def _pairing_options(p: argparse.ArgumentParser) -> None:
    """The Annotation Diff's options: types, significant features, value comparison, pairing."""
    p.add_argument("--type", type=_csv_list, help="annotation types to compare (comma-separated; default all)")
    p.add_argument("--features", default="", help="significant features, comma-separated; 'all' for every key "
                   "feature (GATE's API default); none by default (GATE's diff window)")
    p.add_argument("--compare-as-strings", action="store_true",
                   help="compare feature values as strings (by default values of different types never match)")
    p.add_argument("--pairing", choices=("gate", "optimal"), default="gate",
                   help="gate (default): GATE's greedy pairing, GATE's exact counts; optimal: the maximum-value "
                   "one-to-one pairing, independent of annotation order")


def _diff_options(p: argparse.ArgumentParser, by: str) -> None:
    _key_response_inputs(p)
    _pairing_options(p)
    p.add_argument("--measures", type=_csv_list,
                   help="comma-separated strict, lenient, average, strict-bdm, lenient-bdm, average-bdm (default "
                   "strict, lenient, average; with --bdm strict, lenient, strict-bdm, lenient-bdm)")
    p.add_argument("--bdm", help="a BDM score file (accord bdm, or GATE's): credit missing keys with the BDM of a "
                   "coextensive spurious response of a close concept (types, or the --features values)")
    p.add_argument("--beta", type=_beta, default=1.0, help="F-beta weight (default 1)")
    p.add_argument("--by", type=_csv_list, default=by.split(","), help=f"tables: type, document (default {by})")
    p.add_argument("--allow-missing", choices=("empty", "skip"),
                   help="documents on one side only: score against nothing (empty) or leave out (skip)")
    p.add_argument("--output", choices=("table", "json", "csv"), default="table", help="output format")
    p.add_argument("-o", "--out", help="write the output to this file instead of standard output")
    p.add_argument("--html", help="write the diff view (summary tables, annotations side by side) to this HTML file")
    p.add_argument("--details", help="write one row per diff line (CSV, or JSON lines for .jsonl)")


def _output_options(p: argparse.ArgumentParser, details: str) -> None:
    p.add_argument("--output", choices=("table", "json", "csv"), default="table", help="output format")
    p.add_argument("-o", "--out", help="write the output to this file instead of standard output")
    p.add_argument("--details", help=f"write {details} to this file (CSV, or JSON lines for .jsonl)")


def _emit(args: argparse.Namespace, totals: dict, by_document: dict, counts: tuple[str, ...],
          extra: dict | None = None) -> int:
    from .report.metric_rows import metric_rows_csv, metric_rows_json, render_metric_table

    if args.output == "table":
        _render(args, lambda console: render_metric_table(totals, console, counts=counts))
        return 0
    _write_text(args, metric_rows_json(totals, by_document, extra) if args.output == "json"
                else metric_rows_csv(totals, by_document))
    return 0


def _render(args: argparse.Namespace, draw: Callable[[object], None]) -> None:
    """Draw a rich table on the terminal, or into ``-o FILE`` (160 columns wide)."""
    if args.out:
        from rich.console import Console
        with open(args.out, "w", encoding="utf-8") as fh:
            draw(Console(file=fh, width=160))
    else:
        draw(None)


def _json(obj: object, indent: int = 2) -> str:
    from .report.serialize import json_text

    return json_text(obj, indent=indent)


def _write_text(args: argparse.Namespace, text: str) -> None:
    """Write JSON or CSV output to ``-o FILE`` or standard output, ending with a newline."""
    text = text if text.endswith("\n") else text + "\n"
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)


def _coref(args: argparse.Namespace) -> int:
    from .formats.coref import read_coref
    from .structured.coref import conll_f1, coref_scores

    key = read_coref(args.key, args.format)
    resp = read_coref(args.response, args.format)
    scores = coref_scores(key, resp, metrics=args.metrics)
    totals = {m: s.to_dict() for m, s in scores.items()}
    by_doc = {d: {m: s.by_document[d].to_dict() for m, s in scores.items()} for d in key}
    extra = {"conll_f1": conll_f1(scores)} if all(m in scores for m in ("muc", "bcub", "ceafe")) else {}
    if args.details:
        from .report.details import write_rows

        rows = ({"document": d, "metric": m, "key_entity": k, "response_entity": r, "phi": phi}
                for m, s in scores.items() for d, k, r, phi in s.alignment)
        write_rows(rows, args.details, ("document", "metric", "key_entity", "response_entity", "phi"))
    code = _emit(args, totals, by_doc, ("recall_num", "recall_den", "precision_num", "precision_den"), extra)
    if args.output == "table" and extra and not args.out:
        print(f"CoNLL F1 (mean of MUC, B-cubed, CEAFe F1): {100 * extra['conll_f1']:.2f}")
    return code


def _smatch(args: argparse.Namespace) -> int:
    from .structured.amr import read_amr, smatch_corpus

    gold, pred = read_amr(args.gold), read_amr(args.pred)
    if len(gold) != len(pred):
        raise OptionError(f"{args.gold} has {len(gold)} graphs but {args.pred} has {len(pred)}; "
                          "they pair in order")
    total = smatch_corpus(pred, gold)
    by_pair = {str(i + 1): {"smatch": s.to_dict()} for i, s in enumerate(total.by_pair)}
    if args.details:
        from .report.details import write_rows

        rows = ({"pair": i + 1, "test_variable": t, "gold_variable": g}
                for i, s in enumerate(total.by_pair) for t, g in sorted(s.mapping.items()))
        write_rows(rows, args.details, ("pair", "test_variable", "gold_variable"))
    return _emit(args, {"smatch": total.to_dict()}, by_pair, ("match", "test_triples", "gold_triples"))


def _structured(args: argparse.Namespace) -> int:
    import json

    from .formats.records import read_records
    from .structured.named import NAMED_METRICS, score_records

    if not args.metric:
        raise OptionError(f"--metric: name one or more of {', '.join(NAMED_METRICS)}")
    from ._names import unknown_message

    for m in args.metric:
        if m not in NAMED_METRICS:
            raise OptionError(unknown_message(m, NAMED_METRICS, "structured metric", "--metric", from_input=False))
    parent = None
    if args.hierarchy:
        try:
            parent = json.loads(Path(args.hierarchy).read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise OptionError(f"{args.hierarchy}: not JSON ({exc.msg}, line {exc.lineno})") from None
        if not isinstance(parent, dict):
            raise OptionError(f"{args.hierarchy}: expected a JSON object mapping a value to its parent")
    options = {"inclusive": args.inclusive_spans, "premodifiers": args.premodifiers, "set_parent": parent}
    loaded: dict[str, tuple[dict, dict]] = {}
    results = {}
    for name in dict.fromkeys(args.metric):
        kind = NAMED_METRICS[name][0]
        if kind not in loaded:
            loaded[kind] = (read_records(args.key, kind), read_records(args.response, kind))
            held = loaded[kind][0].kinds | loaded[kind][1].kinds
            if kind not in held:
                raise OptionError(f"--metric {name} scores {kind!r} records, and neither {args.key} nor "
                                  f"{args.response} has any; they hold {', '.join(sorted(held)) or 'no records'}")
        key, resp = loaded[kind]
        results[name] = score_records(name, key, resp, **options)
    totals = {n: r.block() for n, r in results.items()}
    docs = next(iter(loaded.values()))[0]
    by_doc = {d: {n: r.block(r.by_document[d]) for n, r in results.items()} for d in docs}
    if args.details:
        from .report.details import write_rows

        def rows():
            for n, r in results.items():
                key, resp = loaded[NAMED_METRICS[n][0]]
                for d, s in r.by_document.items():
                    for i, j, sim in s.pairs:
                        yield {"document": d, "metric": n, "pred_index": i, "gold_index": j, "similarity": sim,
                               "pred": resp[d][i], "gold": key[d][j]}

        write_rows(rows(), args.details, ("document", "metric", "pred_index", "gold_index", "similarity", "pred",
                                          "gold"))
    counts = ("match", "pred_total", "gold_total") + (("type_f1", "score") if "better" in results else ())
    return _emit(args, totals, by_doc, counts)


def _agree(args: argparse.Namespace) -> int:
    from .agreement._sources import ratings_from_corpora, read_ratings_table
    from .agreement._stats import agreement_stats
    from .agreement._summary import summarize, summary_rows

    by_document = {}
    span_summary = None
    sets_given = args.sets is not None
    if len(args.inputs) == 1 and not sets_given:
        if args.type or args.feature or args.html or args.convention != "accord":
            raise OptionError("--type, --feature, --sets, --convention and --html apply to annotation sets; give one "
                              "INPUT per annotator, or --sets for one GATE XML input")
        table = read_ratings_table(args.inputs[0], items=args.items, raters=args.raters, labels=args.labels,
                                   categories=args.categories)
        total = agreement_stats(table)
    else:
        if args.items or args.raters or args.labels:
            raise OptionError("--items, --raters and --labels apply to one ratings table, not to annotation sets")
        from .formats import read

        if sets_given:
            if len(args.inputs) != 1:
                raise OptionError("--sets names the annotation sets of one INPUT (a GATE XML file or directory)")
            names = args.sets
            corpora = [read(args.inputs[0], format=args.format, annotation_set=n) for n in names]
        else:
            names = args.inputs
            corpora = [read(path, format=args.format) for path in args.inputs]
        if len(set(names)) != len(names):
            raise OptionError("the same annotation set is given twice")
        if args.html or args.output == "json":
            from .agreement._spans import span_agreement

            spans = span_agreement(corpora, names, types=args.type or None, feature=args.feature,
                                   pairing=args.pairing)
            span_summary = spans.to_dict(args.measure)
            if args.html:
                from .report.agreement_matrix import matrix_html

                Path(args.html).write_text(matrix_html(spans, args.measure, title="Agreement of " + ", ".join(names)),
                                           encoding="utf-8")
        if args.convention != "accord":
            if not args.type:
                raise OptionError(f"--convention {args.convention} needs --type (and --feature for corpus-qa)")
            return _agree_gate(args, corpora, names, span_summary)
        tables = ratings_from_corpora(corpora, names, type=args.type, feature=args.feature)
        stats = {d: agreement_stats(t) for d, t in tables.items()}
        total = None
        for st in stats.values():
            total = st if total is None else total + st
        if total is None:
            raise OptionError("the annotation sets hold no documents")
        by_document = {d: summarize(st, level=args.level)[0] for d, st in stats.items()}
    summary, warned = summarize(total, level=args.level)
    for message in warned:
        print(f"accord: warning: {message}", file=sys.stderr)
    if args.output == "json":
        extra = {"span_agreement": span_summary} if span_summary is not None else {}
        _write_text(args, _json({**summary, "by_document": by_document, **extra}, indent=2))
    elif args.output == "csv":
        import csv
        import io

        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=["scope", "coefficient", "raters", "value"], lineterminator="\n")
        w.writeheader()
        w.writerows(summary_rows("<all>", summary))
        for d, sm in by_document.items():
            w.writerows(summary_rows(d, sm))
        _write_text(args, buf.getvalue())
    else:
        from .report.agreement_table import render_agreement

        _render(args, lambda console: render_agreement(summary, console))
    return 0


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


def _agree_gate(args: argparse.Namespace, corpora: list, names: list, span_summary: dict | None) -> int:
    """``accord agree --convention iaa|corpus-qa``: GATE's pairwise tables and its averaging."""
    from .agreement._gate import gate_pair_tables, gate_summary

    from .agreement._sources import check_corpus_names

    check_corpus_names(corpora, args.type, args.feature)
    by_type = {}
    for t in dict.fromkeys(args.type):
        by_type[t] = gate_summary(gate_pair_tables(corpora, names, type=t, feature=args.feature,
                                                   convention=args.convention), args.convention)
        if args.convention == "iaa" and len(names) > 2:
            from .agreement._allway import iaa_allway_kappa

            by_type[t]["all_way"] = iaa_allway_kappa(corpora, names, type=t, feature=args.feature)
    summary = next(iter(by_type.values())) if len(by_type) == 1 else _mean_over_types(by_type)
    if span_summary is not None:
        summary["span_agreement"] = span_summary
    if args.output == "json":
        _write_text(args, _json(summary, indent=2))
    elif args.output == "csv":
        import csv
        import io

        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["scope", "coefficient", "raters", "value"])
        for scope, coefs in [("<all>", summary["coefficients"])] + list(summary["by_document"].items()):
            for name, v in coefs.items():
                w.writerow([scope, name, "all (mean of pairs)", v["mean"]])
                for p in v["pairs"]:
                    w.writerow([scope, name, " | ".join(p["raters"]), p["value"]])
        for name in ("observed_agreement", "davies_fleiss_kappa", "siegel_castellan_kappa"):
            if "all_way" in summary:
                w.writerow(["<all>", name, "all (all-way)", summary["all_way"][name]])
        _write_text(args, buf.getvalue())
    else:
        from .report.agreement_table import render_gate_agreement

        _render(args, lambda console: render_gate_agreement(summary, console))
    return 0


def _diff(args: argparse.Namespace) -> int:
    import json

    from .diff import diff_corpora, parse_measure
    from .diff._qa import qa_summary, qa_table
    from .formats import read
    from .report.details import write_rows
    from .report.diff_report import diff_html, qa_csv, render_qa

    bdm = None
    if args.bdm:
        from .bdm import read_bdm_file

        bdm = read_bdm_file(args.bdm)
    names = args.measures or (["strict", "lenient", "strict-bdm", "lenient-bdm"] if bdm is not None
                              else ["strict", "lenient", "average"])
    measures = tuple(parse_measure(m) for m in names)
    if bdm is None and any(m.endswith("-bdm") for m in measures):
        raise OptionError("the BDM measures need --bdm FILE (a BDM score file; see accord bdm)")
    features = None if args.features.strip().lower() == "all" else tuple(_csv_list(args.features))
    key = read(args.key, format=args.format, annotation_set=args.key_set)
    resp = read(args.response, format=args.format, annotation_set=args.response_set)
    cd = diff_corpora(key, resp, types=args.type or None, features=features, pairing=args.pairing,
                      compare_as_strings=args.compare_as_strings, allow_missing=args.allow_missing, bdm=bdm)
    tables = [qa_table(cd, by, measures, args.beta) for by in args.by]
    if args.html:
        Path(args.html).write_text(diff_html(cd, measures, args.beta, title=f"{args.key} vs {args.response}"),
                                   encoding="utf-8")
    if args.details:
        rows = []
        for d, types in cd.diffs.items():
            text = cd.texts.get(d)
            for t, td in types.items():
                for r in td.rows:
                    row = {"document": d, "type": t, "outcome": r.outcome}
                    for side, a in (("key", r.key), ("response", r.response)):
                        row[f"{side}_start"] = a.start if a is not None else None
                        row[f"{side}_end"] = a.end if a is not None else None
                        row[f"{side}_text"] = text[a.start:a.end] if a is not None and text is not None else None
                        row[f"{side}_features"] = (json.dumps(dict(a.attributes), ensure_ascii=False, default=str)
                                                   if a is not None else None)
                    rows.append(row)
        write_rows(rows, args.details, columns=list(rows[0]) if rows else ["document", "type", "outcome"])
    if args.output == "json":
        _write_text(args, _json(qa_summary(cd, measures, args.beta), indent=2))
    elif args.output == "csv":
        _write_text(args, qa_csv(cd, measures, args.beta))
    else:
        def draw(console: object) -> None:
            for table in tables:
                render_qa(table, console)
        _render(args, draw)
    return 0


def _benchmark(args: argparse.Namespace) -> int:
    from .diff import parse_measure
    from .diff._benchmark import benchmark
    from .formats import read
    from .report.benchmark_report import benchmark_csv, benchmark_json, change_rows, render_benchmark
    from .report.details import write_rows

    measure = parse_measure(args.measure)
    if measure.endswith("-bdm"):
        raise OptionError("accord benchmark compares strict, lenient or average figures")
    features = None if args.features.strip().lower() == "all" else tuple(_csv_list(args.features))
    key = read(args.key, format=args.format, annotation_set=args.key_set)
    before = read(args.before, format=args.format, annotation_set=args.before_set)
    after = read(args.after, format=args.format, annotation_set=args.after_set)
    bench = benchmark(key, before, after, types=args.type or None, features=features, pairing=args.pairing,
                      compare_as_strings=args.compare_as_strings, allow_missing=args.allow_missing)
    if args.details:
        write_rows(change_rows(bench), args.details, columns=["document", "type", "side", "start", "end", "text",
                                                              "features", "before", "after", "direction"])
    if args.output == "json":
        _write_text(args, benchmark_json(bench, measure, args.beta))
    elif args.output == "csv":
        _write_text(args, benchmark_csv(bench, measure, args.beta))
    else:
        _render(args, lambda console: render_benchmark(bench, measure, args.beta, console))
    return 0


def _adjudicate(args: argparse.Namespace) -> int:
    from .adjudicate import adjudicate, read_decisions
    from .diff import diff_corpora
    from .formats import read, write
    from .formats._registry import by_extension
    from .model import Corpus

    features = None if args.features.strip().lower() == "all" else tuple(_csv_list(args.features))
    key = read(args.key, format=args.format, annotation_set=args.key_set)
    resp = read(args.response, format=args.format, annotation_set=args.response_set)
    cd = diff_corpora(key, resp, types=args.type or None, features=features, pairing=args.pairing,
                      compare_as_strings=args.compare_as_strings, allow_missing=args.allow_missing)
    decisions = read_decisions(args.decisions) if args.decisions else None
    result = adjudicate(cd, rules=args.take or ["matches"], decisions=decisions, rest=args.rest)
    # documents keep the key's metadata and tokens where it has them
    docs = [key[d.id]._replace(annotations=d.annotations) if d.id in key else d for d in result.corpus.documents]
    fmt = args.out_format or by_extension(args.out)
    options = {"annotation_set": args.set_name} if args.set_name else {}
    if options and fmt != "gate":
        raise OptionError("--set-name applies to GATE XML output")
    write(Corpus(docs), args.out, fmt, **options)
    n = sum(len(d.annotations) for d in docs)
    by = result.decided_by
    print(f"accord: {n} annotations in {len(docs)} document(s) written to {args.out}; rows decided by the "
          f"decisions file {by['decisions']}, by rules {by['rules']}, by --rest {by['rest']}", file=sys.stderr)
    return 0


def _bdm(args: argparse.Namespace) -> int:
    from .bdm import bdm_scores, read_hierarchy
    from .bdm._file import format_bdm_file

    taxonomy = read_hierarchy(args.ontology, format=args.format)
    text = format_bdm_file(bdm_scores(taxonomy, pairs=args.pairs))
    _write_text(args, text)
    if args.out:
        print(f"accord: {text.count(chr(10)) - 1} concept pairs of {len(taxonomy.concepts)} concepts written to "
              f"{args.out}", file=sys.stderr)
    return 0


def _score_gate(args: argparse.Namespace) -> int:
    """``accord score --profile gate`` (or ``--bdm``): the Corpus QA tables of ``accord qa``."""
    unsupported = [name for name, given in (("--task", args.task), ("--score-profile", args.score_profile),
                                            ("--equivalence-class", args.equivalence_class),
                                            ("--ignore", args.ignore)) if given]
    if unsupported:
        raise OptionError(f"{', '.join(unsupported)} do not apply to the gate profile (GATE's Annotation Diff)")
    if args.gold_format != args.pred_format:
        raise OptionError("the gate profile reads both sides in one --format")
    qa = argparse.Namespace(
        key=args.gold, response=args.pred, format=args.format or args.gold_format, key_set=args.gold_set,
        response_set=args.pred_set,
        type=None, features=",".join(args.attributes), compare_as_strings=False, pairing="gate", measures=None,
        bdm=args.bdm, beta=args.beta, by=["type", "document"], allow_missing=args.allow_missing,
        output=args.output, out=args.out, html=None, details=args.details)
    return _diff(qa)


def _score_spans(args: argparse.Namespace) -> int:
    """``accord score --match clueval`` (CLUEval's coverage classes and lenient levels) or
    ``--match semeval`` (the SemEval-2013 schemas)."""
    from .clueval import evaluate_spans, leniency_level
    from .report.clueval_report import clueval_csv, clueval_json, render_clueval
    from .report.semeval_report import render_semeval, semeval_csv, semeval_json
    from .semeval import semeval_schemas

    unsupported = [name for name, given in (("--task", args.task), ("--profile", args.profile),
                                            ("--score-profile", args.score_profile),
                                            ("--attributes", args.attributes), ("--bdm", args.bdm),
                                            ("--equivalence-class", args.equivalence_class),
                                            ("--ignore", args.ignore), ("--details", args.details),
                                            ("--by-token/--by-pseudo-token/--by-character/--confusability",
                                             args.by_token or args.by_pseudo_token or args.by_character or
                                             args.confusability)) if given]
    if args.match == "semeval" and (args.leniency != "1" or args.unlabelled):
        unsupported.append("--leniency/--unlabelled")
    if unsupported:
        raise OptionError(f"{', '.join(unsupported)} do not apply to --match {args.match}")
    level = leniency_level(args.leniency)
    gold, pred = _read_span_sides(args, args.gold_format or args.format, args.pred_format or args.format)
    if args.match == "semeval":
        result = semeval_schemas(gold, pred, allow_missing=args.allow_missing, beta=args.beta,
                                 zero_division=args.zero_division)
        if args.output == "table":
            _render(args, lambda console: render_semeval(result, console))
            return 0
        _write_text(args, semeval_json(result) if args.output == "json" else semeval_csv(result))
        return 0
    ev = evaluate_spans(gold, pred, allow_missing=args.allow_missing, beta=args.beta,
                        zero_division=args.zero_division)
    labelled = not args.unlabelled
    if args.output == "table":
        _render(args, lambda console: render_clueval(ev, level, labelled, console))
        return 0
    _write_text(args, clueval_json(ev, level, labelled) if args.output == "json" else clueval_csv(ev))
    return 0


def _score(args: argparse.Namespace) -> int:
    from . import scoring
    from .report import render_table, to_csv, to_json, write_details

    if args.match in ("clueval", "semeval"):
        return _score_spans(args)
    if args.leniency != "1" or args.unlabelled:
        raise OptionError("--leniency and --unlabelled apply to --match clueval")
    units = [name for name, on in (("token", args.by_token), ("pseudo-token", args.by_pseudo_token),
                                   ("character", args.by_character)) if on]
    if args.confusability and not units:
        units = ["token"]   # the matrix is counted in tokens, as MAT's
    if args.profile == "gate" or args.bdm:
        if args.profile not in (None, "gate"):
            raise OptionError(f"--bdm scores with the gate profile, not {args.profile!r}")
        return _score_gate(args)
    equivalences: dict[str, list[str]] = {}
    for name, members in args.equivalence_class:
        equivalences.setdefault(name, []).extend(members)
    report = scoring.score(
        args.gold, args.pred, format=args.format, gold_format=args.gold_format, pred_format=args.pred_format,
        task=args.task, profile=args.profile, score_profile=args.score_profile, attributes=args.attributes,
        equivalence_classes=equivalences, ignore=args.ignore, beta=args.beta, zero_division=args.zero_division,
        allow_missing=args.allow_missing, scheme=args.scheme, repair=args.repair, tag_column=args.tag_column,
        discontinuous=args.discontinuous, units=units, token_label=args.token_label,
        confusability=(units[0] if units else "token") if args.confusability else None,
        gold_set=args.gold_set, pred_set=args.pred_set, **_vrt_options(args),
    )
    if args.details:
        write_details(report, args.details)
    if args.output == "table":
        _render(args, lambda console: render_table(report, console))
        return 0
    _write_text(args, to_json(report) if args.output == "json" else to_csv(report))
    return 0


EXIT_OK, EXIT_BAD_INPUT, EXIT_BUG = 0, 2, 3
"""Exit statuses: success; bad input or options (one line naming the file, line, document or
option); an unexpected exception, which is a defect in accord (one line, never a traceback)."""

def main(argv: Sequence[str] | None = None) -> int:
    """Run the command and return its exit status: 0, 2 for bad input or options, 3 for a defect in accord."""
    from ._io import text_encoding

    parser = build_parser()
    args = parser.parse_args(argv)
    # a short-lived command building many small immutable objects and no reference cycles worth
    # collecting: the cyclic collector would only rescan them (about a third of the run time)
    gc.disable()
    try:
        with text_encoding(args.encoding), warnings.catch_warnings():
            warnings.simplefilter("default")
            warnings.showwarning = _show_warning
            return _run(args)
    except AccordError as exc:
        print(f"accord: error: {_one_line(str(exc))}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as exc:
        if isinstance(exc, BrokenPipeError):   # the reader of our output went away (| head)
            return EXIT_OK
        print(f"accord: error: {_one_line(str(exc))}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("accord: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - the last line of defence: no user sees a traceback
        where = ""
        tb = exc.__traceback__
        while tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
        if tb is not None:
            where = f" at {Path(tb.tb_frame.f_code.co_filename).name}:{tb.tb_lineno}"
        print(f"accord: internal error (a bug in accord, please report it with the command and input): "
              f"{type(exc).__name__}{where}: {_one_line(str(exc))}", file=sys.stderr)
        return EXIT_BUG
    finally:
        gc.enable()


def _show_warning(message: Warning | str, category: type, filename: str, lineno: int, file: object = None,
                  line: str | None = None) -> None:
    """Warnings reach the user as one line each on standard error, without Python's source line."""
    print(f"accord: warning: {_one_line(str(message))}", file=sys.stderr)


def _one_line(message: str) -> str:
    """A message on one line (readers' messages may quote several lines of input)."""
    return " ".join(message.split()) if "\n" in message or "\r" in message else message


def _run(args: argparse.Namespace) -> int:
    if getattr(args, "out", None) == "-":   # -o - is standard output
        if args.command in ("adjudicate", "merge"):
            raise OptionError(f"-o -: accord {args.command} writes a corpus to a file; give a file name")
        args.out = None
    commands: dict[str, Callable[[argparse.Namespace], int]] = {
        "score": _score, "coref": _coref, "smatch": _smatch, "structured": _structured, "agree": _agree,
        "diff": _diff, "qa": _diff, "bdm": _bdm, "errors": _errors, "merge": _merge, "benchmark": _benchmark,
        "adjudicate": _adjudicate}
    if args.command in commands:
        return commands[args.command](args)
    raise OptionError(f"unknown command {args.command!r}")  # pragma: no cover - argparse refuses first


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
