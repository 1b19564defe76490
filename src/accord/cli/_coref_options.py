"""``accord coref``'s options of the CorefUD scorer's settings and of the display (``--preset``, ``--mention-match``,
``--singletons``, ``--zeros``, ``--digits``, ``--truncate``), and the lines it prints under its table: BLANC's two
parts with their counts and the CoNLL F1."""

from __future__ import annotations

import argparse
import math
from typing import Any

from ..errors import OptionError

__all__ = ["add_coref_options", "check_display", "coref_settings", "draw_coref", "rate_text"]


def _digits(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number of decimals from 0 to 10, got {text!r}") from None
    if not 0 <= value <= 10:
        raise argparse.ArgumentTypeError(f"expected a whole number of decimals from 0 to 10, got {value}")
    return value


def add_coref_options(p: argparse.ArgumentParser) -> None:
    """The options, on ``accord coref``'s parser."""
    p.add_argument("--preset", choices=("conll2012", "corefud"), default="conll2012",
                   help="conll2012 (default): the CoNLL-2012 reference scorer v8.01 (exact spans, singletons kept); "
                        "corefud: the CorefUD scorer's defaults, as in the CRAC shared tasks (head matching, "
                        "singletons dropped, zeros matched by their dependencies, mentions as sets of words)")
    p.add_argument("--mention-match", choices=("exact", "head", "partial"),
                   help="how a key and a response mention match (default: the preset's): the same words, the same "
                        "head (then the largest overlap), or within the key mention and holding its head; head and "
                        "partial read CorefUD files")
    p.add_argument("--singletons", choices=("keep", "drop"),
                   help="keep or drop the entities of one mention (default: the preset's)")
    p.add_argument("--zeros", choices=("dependent", "linear", "drop"),
                   help="CorefUD zeros (empty nodes): matched first by their dependencies, matched as other mentions, "
                        "or removed (default: the preset's; conll2012 does not read them)")
    p.add_argument("--digits", type=_digits, default=None,
                   help="decimals of the percentages in the table (default 2)")
    p.add_argument("--truncate", action="store_true",
                   help="cut the percentages to --digits decimals instead of rounding them, as the Perl scorer "
                        "prints them (89.29 for 89.2999)")


def coref_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of :func:`accord.coref` that these options give."""
    return {"preset": args.preset, "mention_match": args.mention_match, "singletons": args.singletons,
            "zeros": args.zeros}


def rate_text(x: float | None, digits: int = 2, truncate: bool = False) -> str:
    """A rate as a percentage with ``digits`` decimals, rounded or (``truncate``) cut as the Perl scorer does:
    ``int(100 * 10**digits * x) / 10**digits``."""
    if x is None or x != x:
        return "—"
    if truncate:
        scale = 10 ** digits
        return f"{math.trunc(x * 100 * scale) / scale:.{digits}f}"
    return f"{100 * x:.{digits}f}"


def draw_coref(result: Any, console: Any, args: argparse.Namespace) -> None:
    """The table of every measure (with ``--digits``/``--truncate``: drawn here, rates as asked), then BLANC's parts
    with their counts and the CoNLL F1."""
    digits = 2 if args.digits is None else args.digits
    truncate = bool(args.truncate)
    if args.digits is None and not truncate:
        from ..report.result_table import render_result

        render_result(result, console, by_label=False)
    else:
        _table(result, console, digits, truncate)
    blanc = result.measures.get("blanc")
    if blanc is not None:
        t = blanc.totals()
        console.print("BLANC: coreference links R {} / {}, P {} / {}; non-coreference links R {} / {}, P {} / {}"
                      .format(*(_count(t[k]) for k in ("recall_num", "recall_den", "precision_num", "precision_den",
                                                        "noncoref_recall_num", "noncoref_recall_den",
                                                        "noncoref_precision_num", "noncoref_precision_den"))))
    value = result.conll_f1()
    if value is not None:
        console.print(f"CoNLL F1 (mean of MUC, B-cubed, CEAFe F1): {rate_text(value, digits, truncate)}")


def _count(x: Any) -> str:
    return str(int(x)) if float(x).is_integer() else f"{float(x):.4f}"


def _table(result: Any, console: Any, digits: int, truncate: bool) -> None:
    from ..report.result_table import count_text
    from ..report.table import new_table, print_table

    main = next(iter(result.measures.values()))
    columns = list(main.kind.columns)
    table = new_table(f"{result.command} ({result.mode}): every measure",
                      ["measure"] + [h for h, _ in columns] + ["P %", "R %", "F1 %"])
    for k, (name, measure) in enumerate(result.measures.items()):
        block = measure.totals()
        table.add_row(name, *(count_text(block.get(c, "")) if c in block else "" for _, c in columns),
                      *(rate_text(block.get(r), digits, truncate) for r in ("precision", "recall", "f1")),
                      style="bold" if k == 0 else None)
    print_table(console, table)


def check_display(args: argparse.Namespace) -> None:
    """``--truncate`` and ``--digits`` shape the table only: an error with ``--output json`` or ``csv``."""
    from ._output import output_format

    if (args.digits is not None or args.truncate) and output_format(args) != "table":
        raise OptionError("--digits and --truncate shape the terminal table; JSON and CSV hold every digit")
