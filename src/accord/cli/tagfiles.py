"""Tag-file tools: ``accord validate``, ``accord repair`` and ``accord count`` (CoNLL column files)."""

from __future__ import annotations

import argparse
import sys

from ._options import count_of, csv_list

__all__ = ["register", "COMMANDS"]

EXIT_INVALID = 1
"""The exit status of ``validate`` when a problem was found."""


def _scheme(p: argparse.ArgumentParser, default: str | None = "IOB2") -> None:
    p.add_argument("--scheme", default=default, help="tag scheme: IOB1, IOB2 (BIO), IOE1, IOE2, IOBES (BIOES), "
                   "BILOU, IO" + (f" (default {default})" if default else " (required)"), required=default is None)
    p.add_argument("--tag-column", type=int, default=-1,
                   help="0-based index of the tag column (default -1: the last)")


def register(sub: argparse._SubParsersAction) -> None:
    v = sub.add_parser("validate", help="list the problems of tag files: invalid transitions, mixed schemes, "
                       "unknown labels, token counts differing between two files",
                       description="Check FILE (CoNLL columns) under --scheme: tags of another scheme, invalid "
                       "transitions, labels outside --labels, each with its line; with FILE2, also the tokens of "
                       "both files (documents, sentences, tokens). Exit 0 when valid, 1 when a problem was found "
                       "(a bounded list and the count of each kind), 2 on bad input.")
    v.add_argument("file", help="the tag file")
    v.add_argument("file2", nargs="?", help="a second tag file that should hold the same tokens (predictions of "
                   "FILE's gold, say): validated too, and its tokens compared with FILE's")
    _scheme(v)
    v.add_argument("--labels", type=csv_list, metavar="LABELS", help="the labels allowed, comma-separated")
    v.add_argument("--max-problems", type=count_of(0, 1_000_000, zero=True), default=50,
                   help="how many problems are listed (default 50; all are counted)")
    v.add_argument("--output", choices=("text", "json"), default="text", help="text (default) or json")
    v.add_argument("-o", "--out", help="write the report to this file ('-': standard output)")

    r = sub.add_parser("repair", help="repair the invalid tag transitions of a tag file, as seqscore repair",
                       description="Write FILE with its invalid transitions repaired: each sentence holding one is "
                       "read with --method (conlleval: an invalid tag begins a chunk; discard: its chunk is dropped) "
                       "and written back in --scheme; only the tags that change are rewritten. For IOB2 (and IOB1 "
                       "with conlleval) this is seqscore repair's output. The changed tags are listed in a warning.")
    r.add_argument("file", help="the tag file")
    r.add_argument("-o", "--out", required=True, help="the repaired file (never the input)")
    _scheme(r)
    r.add_argument("--method", choices=("conlleval", "discard"), default="conlleval",
                   help="conlleval (default: I-X after O begins a chunk, as conlleval.pl) or discard (its chunk "
                   "dropped)")

    c = sub.add_parser("count", help="count the spans of tag files: by mention (as seqscore count), label or "
                       "document", description="Count the spans of FILE... read under --scheme with --repair (as "
                       "accord score reads them). --by mention (default): count, label and tokens of each distinct "
                       "mention, the most frequent first (seqscore count's rows); label: spans and documents per "
                       "label; document: spans per document and label. Tab-separated, or --output csv|json.")
    c.add_argument("files", nargs="+", metavar="FILE", help="tag files")
    _scheme(c)
    c.add_argument("--repair", choices=("conlleval", "discard", "error"), default="conlleval",
                   help="invalid transitions: read as conlleval does (default), discard their chunks, or stop")
    c.add_argument("--by", choices=("mention", "label", "document"), default="mention",
                   help="mention (default), label or document")
    c.add_argument("--output", choices=("tsv", "csv", "json"), default="tsv", help="tsv (default), csv or json")
    c.add_argument("-o", "--out", help="write the counts to this file ('-': standard output)")


_HEADERS = {"mention": ("count", "label", "tokens"), "label": ("label", "spans", "documents"),
            "document": ("document", "label", "spans")}


def run_validate(args: argparse.Namespace) -> int:
    from ..checks._validate import validate
    from ._output import write_text

    paths = [args.file] + ([args.file2] if args.file2 else [])
    report = validate(paths, scheme=args.scheme, labels=args.labels, tag_column=args.tag_column,
                      limit=args.max_problems)
    if args.output == "json":
        write_text(args, report.to_json())
    elif args.out or not args.quiet or not report.valid:
        write_text(args, str(report))
    if not report.valid:     # the verdict on standard error, as the one line a CI log shows
        print(f"accord: {report.verdict()}", file=sys.stderr)
    return 0 if report.valid else EXIT_INVALID


def run_repair(args: argparse.Namespace) -> int:
    from .._support.safe_paths import write_text as write_file
    from ..checks._repair import repair_file
    from ._output import info

    fixed = repair_file(args.file, scheme=args.scheme, method=args.method, tag_column=args.tag_column)
    write_file(args.out, fixed.text)
    info(args, f"{len(fixed.changes):,} tag(s) changed; written to {args.out}")
    return 0


def run_count(args: argparse.Namespace) -> int:
    import csv
    import io
    import json

    from ..checks._count import count_spans
    from ._output import write_text

    rows = count_spans(args.files, by=args.by, scheme=args.scheme, repair=args.repair, tag_column=args.tag_column)
    header = _HEADERS[args.by]
    if args.output == "json":
        text = json.dumps([dict(zip(header, row)) for row in rows], indent=2, ensure_ascii=False)
    elif args.output == "csv":
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)
        text = buf.getvalue()
    else:
        text = "".join("\t".join(str(x) for x in row) + "\n" for row in rows)
    if text:
        write_text(args, text)
    return 0


COMMANDS = {"validate": run_validate, "repair": run_repair, "count": run_count}
