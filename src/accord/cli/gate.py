"""GATE's tools: ``accord diff``, ``qa``, ``benchmark``, ``adjudicate`` and ``bdm``."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from .._support.io import shown_name
from .._support.safe_paths import write_text as write_file
from ..errors import OptionError
from ._inputs import features_option
from ._options import (
    add_allow_missing,
    add_diff_pairing,
    add_discontinuous,
    add_key_response,
    add_output,
    add_rates,
    add_statistics,
    closed_fraction,
    csv_list,
)
from ._output import emit, info, write_text
from .agree import add_annotators

__all__ = ["register", "COMMANDS", "run_qa"]


def _diff_options(p: argparse.ArgumentParser, by: str) -> None:
    add_key_response(p)
    add_diff_pairing(p)
    p.add_argument("--measures", "--measure", dest="measures", type=csv_list,
                   help="comma-separated strict, lenient, average, strict-bdm, lenient-bdm, average-bdm (default "
                   "strict,lenient,average; with --bdm strict,lenient,strict-bdm,lenient-bdm)")
    p.add_argument("--bdm", help="a BDM score file (accord bdm, or GATE's): credit missing keys with the BDM of a "
                   "coextensive spurious response of a close concept (types, or the --features values)")
    add_rates(p, zero_division=False)
    add_gate_extra_rates(p)
    p.add_argument("--by", type=csv_list, default=by.split(","), help=f"tables: type, document (default {by})")
    add_allow_missing(p)
    add_output(p, "one row per diff line")
    add_statistics(p)
    p.add_argument("--html", help="write the diff view (summary tables, annotations side by side) to this HTML file")
    p.add_argument("--hide-set", metavar="SET", help="GATE XML: hide the rows already adjudicated into this set of "
                   "the key's files (accord adjudicate --set-name): a key or response of its type and span")


def add_gate_extra_rates(p: argparse._ActionsContainer) -> None:   # a parser or an argument group
    """``--error-rate`` and ``--fp-per`` (GATE's user guide 10.1.3 and 10.8)."""
    p.add_argument("--error-rate", action="store_true",
                   help="also GATE's error rate of each measure: 1 - precision, the share of responses that are wrong")
    p.add_argument("--fp-per", choices=("token", "sentence"),
                   help="also the false positives per token or per sentence (spurious / the documents' tokens or "
                   "sentences: their own, else their Token or Sentence annotations, else for tokens the "
                   "whitespace-separated words), which do not depend on how many entities a document has")


def register(sub: argparse._SubParsersAction) -> None:
    df = sub.add_parser("diff", help="GATE's Annotation Diff: correct, partial, missing, spurious; strict, lenient "
                        "and average measures", description="Compare RESPONSE with KEY type by type as GATE's "
                        "Annotation Diff does (files or directories; GATE XML, brat, MAT JSON, JSON lines, columns).")
    _diff_options(df, "type")
    qa = sub.add_parser("qa", help="GATE's Corpus QA: Annotation Diff tables by type and by document with micro "
                        "and macro rows", description="Corpus QA: KEY (A) against RESPONSE (B) over a corpus, one "
                        "table per --by, each with a macro summary (mean of the rows) and a micro summary (summed "
                        "counts).")
    _diff_options(qa, "type,document")
    qa.add_argument("--all-types", action="store_true", help="without --types: compare every type of either side "
                    "(by default only the types both sides have, as GATE's Corpus QA; the others are named in a "
                    "warning)")
    bm = sub.add_parser("benchmark", help="GATE's Corpus Benchmark: two responses against one key, what improved "
                        "and what regressed", description="Diff BEFORE and AFTER against KEY (files or "
                        "directories) and show, per document and type, the figures before and after and the "
                        "annotations that became right (fixed) or wrong (broken).")
    bm.add_argument("key", help="key file or directory")
    bm.add_argument("before", help="the old response (file or directory)")
    bm.add_argument("after", help="the new response (file or directory)")
    bm.add_argument("--format", help="format of all three (sniffed by default)")
    bm.add_argument("--key-set", help="GATE XML: the key's annotation set (default: the default set); Label Studio: "
                    "annotations, annotations:N, predictions or predictions:N")
    bm.add_argument("--before-set", help="GATE XML: the old response's annotation set")
    bm.add_argument("--after-set", help="GATE XML: the new response's annotation set")
    add_discontinuous(bm)
    add_diff_pairing(bm)
    bm.add_argument("--measure", default="average", help="strict, lenient or average (default, as GATE's tool)")
    add_rates(bm, zero_division=False)
    add_gate_extra_rates(bm)
    add_allow_missing(bm)
    add_output(bm, "one row per changed annotation")
    bm.add_argument("--threshold", type=closed_fraction, metavar="T",
                    help="also list the annotations (not correct in the "
                    "new run) of every document type whose precision or recall after is below T (GATE's "
                    "threshold, 0.5 in its tool, with -verbose)")
    bm.add_argument("--html", help="write the one-page HTML report of the two runs (as accord report) to this file")
    add_statistics(bm)
    ad = sub.add_parser("adjudicate", help="build a gold set: from an Annotation Diff of two sides (by rule or a "
                        "decisions file), or from many annotators by majority, Dawid-Skene or MACE (--method)",
                        description="Two sides: diff RESPONSE against KEY and "
                        "keep, row by row, the key's annotation, the response's, both or neither: --rest for every "
                        "row, then each --take rule in order, then the rows of --decisions (the file the HTML diff "
                        "page of accord diff --html saves). With --method: aggregate two or more annotators (one "
                        "annotation set each, one project export, or one ratings table) into gold, the "
                        "disagreements written as a queue (--queue, --queue-html) that --decisions reads back.")
    add_key_response(ad)
    _response_optional(ad)
    ad.add_argument("more", nargs="*", metavar="SIDE", help="with --method: a third annotator and more (one "
                    "annotation set each, files or folders)")
    add_annotators(ad)
    ad.add_argument("-o", "--out", required=True, help="the adjudicated corpus (format by extension or "
                    "--out-format)")
    ad.add_argument("--out-format", help="format of the output (default: by the extension of --out)")
    ad.add_argument("--set-name", help="GATE XML output: the annotation set to write the annotations in (default "
                    "'consensus' when the key is GATE XML: its document is written back with all its sets, as "
                    "GATE's copy to target; else the default set)")
    ad.add_argument("--only-adjudicated", action="store_true", help="GATE XML output: write only the adjudicated "
                    "set, not the key document's other sets")
    add_diff_pairing(ad)
    ad.add_argument("--take", action="append", metavar="RULE",
                    help="matches (the key side of correct rows; the default), key:TYPE or response:TYPE "
                    "(that side of every row of the type); repeat to apply several in order")
    ad.add_argument("--decisions", help="a decisions CSV (saved from the HTML diff page); overrides the rules")
    ad.add_argument("--rest", choices=("none", "key", "response", "both"), default="none",
                    help="what rows no rule or decision covers keep (default none)")
    add_allow_missing(ad)
    from ._aggregate import add_aggregation

    add_aggregation(ad)
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


def run_qa(args: argparse.Namespace) -> int:
    """``accord diff`` and ``accord qa`` (and ``score --profile gate``)."""
    from .. import _api
    from ..diff._qa import QA_BY
    from ..report.details import write_rows
    from ..report.diff_report import diff_html, render_qa

    result = _api.qa(args.key, args.response, measures=args.measures, beta=args.beta, types=args.type,
                     features=features_option(args.features), pairing=args.pairing,
                     compare_as_strings=args.compare_as_strings, allow_missing=args.allow_missing, bdm=args.bdm,
                     format=args.format, key_set=args.key_set, response_set=args.response_set,
                     command=args.command, discontinuous=getattr(args, "discontinuous", "fragments"),
                     all_types=getattr(args, "all_types", args.command == "diff"),
                     hide_set=getattr(args, "hide_set", None), error_rate=getattr(args, "error_rate", False),
                     fp_per=getattr(args, "fp_per", None))
    cd, measures = result.source, tuple(result.measures)
    for by in args.by:
        if by not in QA_BY:
            raise OptionError(f"--by must be type or document (or both, comma-separated); got {by!r}")
    qa_tables = {t.name: t for t in result.tables}     # the Corpus QA tables the mode made (by type, by document)
    tables = [qa_tables[f"by {by}"] for by in args.by]
    if "present in every" in qa_tables:     # accord qa: GATE's "present in every document, set, type" lists
        tables.append(qa_tables["present in every"])
    if args.html:
        from ..diff._views import diff_view

        view = diff_view(cd, measures, args.beta, error_rate=getattr(args, "error_rate", False),
                         fp_per=getattr(args, "fp_per", None))
        write_file(args.html, diff_html(view, title=f"{shown_name(args.key)} vs {shown_name(args.response)}"))
    if args.details:
        from ..diff._views import diff_details

        details = diff_details(cd)
        write_rows(details.records(), args.details, columns=details.columns)

    def draw(console: object) -> None:
        for table in tables:
            render_qa(table, console)
    return emit(args, result, draw)


def run_benchmark(args: argparse.Namespace) -> int:
    from .. import _api
    from ..diff._views import below_threshold, benchmark_view
    from ..report.benchmark_report import benchmark_html, benchmark_section, render_below_threshold, render_benchmark
    from ..report.details import write_rows

    result = _api.benchmark(args.key, args.before, args.after, measure=args.measure, beta=args.beta,
                            types=args.type, features=features_option(args.features), pairing=args.pairing,
                            compare_as_strings=args.compare_as_strings, allow_missing=args.allow_missing,
                            format=args.format, key_set=args.key_set, before_set=args.before_set,
                            after_set=args.after_set, discontinuous=getattr(args, "discontinuous", "fragments"),
                            error_rate=args.error_rate, fp_per=args.fp_per)
    if args.details:
        write_rows(result.changed, args.details, columns=["document", "type", "side", "start", "end", "text",
                                                          "features", "before", "after", "direction"])
    measure = result.options["measure"]
    if args.threshold is not None and not 0 <= args.threshold <= 1:
        raise OptionError(f"--threshold is a precision or recall between 0 and 1; got {args.threshold:g}")
    if args.html:
        from ..clueval._browser import span_views
        from ..diff._result import diff_result
        from ..report.html_report import report_html

        bench = result.source
        runs = {name: diff_result(diff, (measure,), args.beta, command="benchmark")
                for name, diff in (("before", bench.before), ("after", bench.after))}
        page = report_html(runs, None, title=f"{shown_name(args.key)}: {shown_name(args.before)} → "
                                             f"{shown_name(args.after)}", views=span_views(runs))
        section = benchmark_section(benchmark_view(bench, measure, args.beta, error_rate=args.error_rate,
                                                   fp_per=args.fp_per),
                                    None if args.threshold is None else below_threshold(bench, measure, args.threshold),
                                    args.threshold)
        write_file(args.html, benchmark_html(page, section))

    def draw(console: object) -> None:
        render_benchmark(benchmark_view(result.source, measure, args.beta, error_rate=args.error_rate,
                                        fp_per=args.fp_per), console)
        if args.threshold is not None:
            render_below_threshold(below_threshold(result.source, measure, args.threshold), args.threshold, console)
    if args.threshold is not None:
        result.options["threshold"] = args.threshold
        result.below_threshold = below_threshold(result.source, measure, args.threshold)
    return emit(args, result, draw)


def run_adjudicate(args: argparse.Namespace) -> int:
    from ..adjudicate import adjudicate, read_decisions
    from ..diff import diff_corpora
    from ..formats import read, sniff, write
    from ..formats._registry import by_extension
    from ..formats.convert import for_format
    from ..model import Corpus
    from ..pipeline._sides import meet

    if args.method is not None or args.more:
        from ._aggregate import run_aggregate

        return run_aggregate(args, adjudicate_sides)
    features = features_option(args.features)
    how = getattr(args, "discontinuous", "fragments")
    sides = adjudicate_sides(args)
    if sides is None:
        if args.response is None:
            raise OptionError("accord adjudicate takes KEY and RESPONSE, or one project export (an INCEpTION or "
                              "WebAnno export folder) with --annotators A,B")
        key = read(args.key, format=args.format, annotation_set=args.key_set, discontinuous=how)
        resp = read(args.response, format=args.format, annotation_set=args.response_set, discontinuous=how)
        key, resp = meet((key, resp), (args.key, args.response), ("key", "response"))   # single files, one unit
    elif len(sides) != 2:
        raise OptionError(f"accord adjudicate compares two annotators, the key and the response; the project has "
                          f"{', '.join(c.name or '' for c in sides)}: choose two with --annotators A,B")
    else:
        key, resp = sides
    cd = diff_corpora(key, resp, types=args.type or None, features=features, pairing=args.pairing,
                      compare_as_strings=args.compare_as_strings, allow_missing=args.allow_missing)
    decisions = read_decisions(args.decisions) if args.decisions else None
    result = adjudicate(cd, rules=args.take or ["matches"], decisions=decisions, rest=args.rest)
    # documents keep the key's metadata and tokens where it has them
    docs = [key[d.id]._replace(annotations=d.annotations) if d.id in key else d for d in result.corpus.documents]
    fmt = args.out_format or by_extension(args.out)
    if fmt != "gate" and (args.set_name or args.only_adjudicated):
        raise OptionError("--set-name and --only-adjudicated apply to GATE XML output")
    by = result.decided_by
    n = sum(len(d.annotations) for d in docs)
    decided = (f"rows decided by the decisions file {by['decisions']}, by rules {by['rules']}, by --rest "
               f"{by['rest']}")
    key_format = args.format or (sniff(args.key).name if sides is None else "")
    if fmt == "gate" and key_format == "gate" and not args.only_adjudicated:
        name = args.set_name or "consensus"
        written, added = _write_with_key_sets(Path(args.key), key, docs, Path(args.out), name)
        info(args, f"{added} new annotations in set {name!r} of {written} document(s) written to {args.out}, with "
                   f"the key's other sets ({n} adjudicated, the others already there); {decided}")
        return 0
    options = {"annotation_set": args.set_name} if args.set_name else {}
    write(for_format(Corpus(docs), fmt), args.out, fmt, **options)
    info(args, f"{n} annotations in {len(docs)} document(s) written to {args.out}; {decided}")
    return 0


def _response_optional(p: argparse.ArgumentParser) -> None:
    """RESPONSE may be left out when KEY is a project export holding both sides (``--annotators``)."""
    action = next(a for a in p._actions if a.dest == "response")
    action.nargs, action.default, action.required = "?", None, False
    action.help = "response (predicted) file or directory (B); left out when KEY is a project export"


def adjudicate_sides(args: argparse.Namespace) -> list[Any] | None:
    """The sides of ``accord adjudicate`` when its one input is a project export (an INCEpTION or WebAnno export
    folder): one corpus per annotator chosen by ``--annotators`` (every annotator's own work by default), named by
    the annotator; ``None`` for inputs that are the sides themselves (``--annotators`` is then an error)."""
    from ..agreement._sources import project_sides

    single = args.response is None
    sides = project_sides(args.key if single else [args.key, args.response], args.annotators, layer=args.layer)
    if sides is None and args.layer is not None:
        raise OptionError("--layer applies to a project export given as the one INPUT; read other WebAnno TSV or "
                          "XMI files with accord convert --layer first")
    if sides is not None:
        from ..pipeline._sides import meet

        sides = meet(sides, [args.key] * len(sides), [c.name or "" for c in sides])
    return sides


def _write_with_key_sets(key_path: Path, key: object, docs: list, out: Path, set_name: str) -> tuple[int, int]:
    """Each key document written back with every annotation set it has, plus ``set_name`` holding the
    adjudicated annotations (added to what the set already holds, once). One document: ``out`` is the file; several:
    ``out`` is a folder of files named as the key's, built beside ``out`` and moved in when complete. Returns the
    documents written and the annotations added."""
    from .._support.safe_paths import atomic_directory, staged_file

    added = 0
    with (atomic_directory(out) if len(docs) > 1 else staged_file(out)) as target:   # whole or not at all
        for doc in docs:
            added += _with_key_sets(key_path, key, doc, target, set_name, folder=len(docs) > 1)
    return len(docs), added


def _with_key_sets(key_path: Path, key: object, doc: Any, target: Path, set_name: str, folder: bool) -> int:
    """One key document written back to ``target`` (a file, or a folder) with ``set_name`` added; the number added."""
    from .._support.safe_paths import file_name, inside
    from ..formats.text.gate import read_gate_sets, write_gate_sets

    files = getattr(key, "files", {})
    # read from the key folder by the file's own name (a link to a file elsewhere is read as the folder lists it:
    # git-annex, DataLad and DVC keep files so); only what is written is checked to stay in its folder
    src = key_path if key_path.is_file() else key_path / (files.get(doc.id) or file_name(doc.id, ".xml"))
    base, sets = read_gate_sets(src)

    def same(a: Any) -> tuple:
        return (a.label, a.start, a.end, repr(sorted(a.attributes.items())))
    held = list(sets.get(set_name, ()))
    seen = {same(a) for a in held}
    new = [a for a in doc.annotations if same(a) not in seen]
    sets[set_name] = tuple(held) + tuple(a._replace(id=None) for a in new)
    write_gate_sets(base, sets, inside(target, src.name) if folder else target)
    return len(new)


def run_bdm(args: argparse.Namespace) -> int:
    from ..bdm import bdm_scores, read_hierarchy
    from ..bdm._file import format_bdm_file

    taxonomy = read_hierarchy(args.ontology, format=args.format)
    text = format_bdm_file(bdm_scores(taxonomy, pairs=args.pairs))
    write_text(args, text)
    if args.out:
        info(args, f"{text.count(chr(10)) - 1} concept pairs of {len(taxonomy.concepts)} concepts written to "
                   f"{args.out}")
    return 0


COMMANDS = {"diff": run_qa, "qa": run_qa, "benchmark": run_benchmark, "adjudicate": run_adjudicate,
            "bdm": run_bdm}
