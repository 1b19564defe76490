"""``accord convert``: read a file in one format, write it in another."""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import OptionError
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
    g = cv.add_argument_group("generated records", "INPUT of generated records (strings without offsets, the "
                              "records format) written with offsets: each string placed on the text of the gold "
                              "document of its id, as accord score places it; what could not be placed is left out, "
                              "with a warning that counts it")
    g.add_argument("--gold", metavar="GOLD", help="the gold file or folder whose texts (or tokens) the records of "
                   "INPUT are placed on; OUTPUT then holds the aligned predictions, with the gold documents' texts")
    g.add_argument("--gold-format", metavar="FORMAT", help="the format of GOLD (sniffed by default)")
    g.add_argument("--align", choices=("exact", "fuzzy"), default=None,
                   help="with --gold: how the strings are placed, exact (when not given) or fuzzy (which needs "
                   "rapidfuzz)")
    g.add_argument("--align-threshold", type=float, default=None, metavar="SIMILARITY",
                   help="with --align fuzzy: the least similarity, 0 to 1 (0.9 when not given)")
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
    if args.gold is None and (args.gold_format or args.align or args.align_threshold is not None):
        raise OptionError("--gold-format, --align and --align-threshold apply with --gold (records placed on a gold "
                          "text)")
    with input_options(format="--from", set="--set"):    # (the hints of reading errors name convert's options)
        corpus = read(args.input, format=args.from_format, **options)
    if args.gold is not None:
        corpus = _aligned(args, corpus, options)
    converted = for_format(corpus, target)
    write_options = {"scheme": args.scheme} if target in ("conll", "conllu", "vrt") else {}
    if args.annotation_set and target in ("gate", "label-studio"):
        write_options["annotation_set"] = args.annotation_set
    write(converted, args.output, target, **write_options)
    info(args, f"{len(converted)} document(s), {converted.annotation_count()} annotation(s) written to "
               f"{args.output} ({target})")
    return 0


def _aligned(args: argparse.Namespace, corpus: Any, options: dict[str, Any]) -> Any:
    """The records of INPUT placed on the texts of GOLD, what could not be placed left out with a warning."""
    import warnings

    from ..errors import AccordWarning
    from ..formats._registry import input_options, read
    from ..formats.convert import on_gold
    from ..formats.records.generated import is_records
    from ..pipeline._align import align_records

    if not is_records(corpus):
        raise OptionError(f"--gold places generated records (strings without offsets) on the gold text; {args.input} "
                          "holds annotations with offsets (give --from records if it holds records)")
    with input_options(format="--gold-format"):
        gold = read(args.gold, format=args.gold_format, **options)
    aligned, summary = align_records(gold, corpus, args.align or "exact", args.align_threshold)
    placed, dropped, missing = on_gold(aligned, gold)
    strings = sum(summary.get(k, 0) for k in ("unaligned", "unaligned_triggers", "unaligned_arguments"))
    if strings or summary["unaligned_relations"]:
        shown = ", ".join(f"{x['text']!r} ({x['document']})" for x in summary["unaligned_listed"][:3])
        relations = summary["unaligned_relations"]
        events = summary.get("unaligned_triggers", 0)
        warnings.warn(AccordWarning(
            f"{strings} predicted string(s) of {args.input} not placed on the gold text (not in it, or listed more "
            f"often than it holds them) are not written"
            + (f", nor {relations} relation(s) with an end not placed" if relations else "")
            + (f", nor the {events} event(s) of the triggers not placed" if events else "")
            + f": {shown}{' ...' if len(summary['unaligned_listed']) > 3 else ''}"), stacklevel=2)
    if missing:
        warnings.warn(AccordWarning(f"{len(missing)} document(s) of {args.input} have no gold document of their id and "
                                    f"are not written: {', '.join(map(repr, missing[:5]))}"
                                    f"{' ...' if len(missing) > 5 else ''}"), stacklevel=2)
    return placed


COMMANDS = {"convert": run_convert}
