"""Reading the sides of a comparison from the command line's options."""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import OptionError
from ._options import csv_list, repair_of

__all__ = ["vrt_options", "read_span_sides", "features_option"]


def vrt_options(args: argparse.Namespace) -> dict:
    """Reader options from the column options (``gold_column``/``pred_column`` included)."""
    columns = csv_list(args.columns) if args.columns else []
    if len(columns) > 1:
        raise OptionError(f"--columns: score one BIO column at a time, not {len(columns)}; combine several with "
                          "'accord merge' first")
    options: dict[str, Any] = {"gold_column": args.gold_column, "pred_column": args.pred_column,
                               "word_column": args.word_column}
    if columns:
        options["columns"] = columns    # read by the VRT and CoNLL readers of both sides
    if args.positional_attributes:
        options["positional_attributes"] = args.positional_attributes
    if args.token_id_column:
        options["token_id_column"] = args.token_id_column
    if args.spans_vrt:
        options["spans_vrt"] = args.spans_vrt
    if getattr(args, "layer", None):
        options["layer"] = args.layer
    return options


def read_span_sides(args: argparse.Namespace, gold_format: str | None, pred_format: str | None) -> tuple:
    """Both sides of ``errors`` and ``score --match clueval|semeval``, with the column and tag options."""
    from ..pipeline import read_sides

    options = vrt_options(args)
    gold_column, pred_column = options.pop("gold_column"), options.pop("pred_column")
    options.update(scheme=args.scheme, repair=repair_of(args), suffix=args.suffix, tag_column=args.tag_column,
                   discontinuous=getattr(args, "discontinuous", "fragments"))
    return read_sides(args.gold, args.pred, gold_format, pred_format, options, gold_column, pred_column,
                      getattr(args, "gold_set", None), getattr(args, "pred_set", None),
                      (getattr(args, "gold_encoding", None), getattr(args, "pred_encoding", None)))


def features_option(value: str) -> tuple[str, ...] | None:
    """``--features``: ``all`` (every key feature: ``None``) or a comma-separated list."""
    return None if value.strip().lower() == "all" else tuple(csv_list(value))
