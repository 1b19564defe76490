"""``accord convert``: read a file in one format, write it in another."""

from __future__ import annotations

import argparse

from ._options import add_discontinuous, add_tagging, repair_of
from ._output import info

__all__ = ["register", "COMMANDS"]


def register(sub: argparse._SubParsersAction) -> None:
    from ..formats._registry import names

    cv = sub.add_parser("convert", help="convert annotations from one format to another",
                        description="Read INPUT (a file or directory) in one format and write OUTPUT in another. "
                        "Token offsets (CoNLL, CoNLL-U, VRT) and character offsets (brat, MAT JSON, GATE XML, "
                        "Label Studio, doccano, XMI) are converted through the tokens: a text's words are its tokens, "
                        "tokens are joined by spaces. What the output cannot hold (relations or attributes in a "
                        "column format, overlapping spans as tags, a span that is not on word boundaries) is an "
                        "error naming the document, not a silent drop.")
    cv.add_argument("input", help="input file or directory")
    cv.add_argument("output", help="output file (or directory, for brat)")
    cv.add_argument("--from", dest="from_format", metavar="FORMAT",
                    help=f"input format: {', '.join(names())} (sniffed by default)")
    cv.add_argument("--to", dest="to_format", metavar="FORMAT", help="output format (default: by the extension of "
                    "OUTPUT)")
    cv.add_argument("--set", dest="annotation_set", help="GATE XML: the annotation set read and written; Label "
                    "Studio: annotations (default), annotations:N, predictions or predictions:N")
    cv.add_argument("--layer", metavar="TYPE[:FEATURE],...", help="UIMA XMI: the annotation types read, each with the "
                    "feature that gives its label (default: DKPro Core's NamedEntity:value)")
    add_tagging(cv)
    add_discontinuous(cv)


def run_convert(args: argparse.Namespace) -> int:
    from ..formats._registry import by_extension, get, input_options, read, write
    from ..formats.convert import for_format

    target = args.to_format or by_extension(args.output, "--to")
    get(target)   # an unknown format is an error before anything is read
    options = {"scheme": args.scheme, "repair": repair_of(args), "suffix": args.suffix, "tag_column": args.tag_column,
               "discontinuous": args.discontinuous}
    if args.annotation_set:
        options["annotation_set"] = args.annotation_set
    if args.layer:
        options["layer"] = args.layer
    with input_options(format="--from", set="--set"):    # (the hints of reading errors name convert's options)
        corpus = read(args.input, format=args.from_format, **options)
    converted = for_format(corpus, target)
    write_options = {"scheme": args.scheme} if target in ("conll", "conllu", "vrt") else {}
    if args.annotation_set and target in ("gate", "label-studio"):
        write_options["annotation_set"] = args.annotation_set
    write(converted, args.output, target, **write_options)
    info(args, f"{len(converted)} document(s), {converted.annotation_count()} annotation(s) written to "
               f"{args.output} ({target})")
    return 0


COMMANDS = {"convert": run_convert}
