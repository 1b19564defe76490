"""``accord score``'s options of generated output (``--align``, ``--align-threshold``): how a predicted side of
records, strings without offsets, is placed on the gold text (:mod:`accord.pipeline._align`)."""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["add_align_options", "align_settings"]


def add_align_options(p: argparse.ArgumentParser) -> None:
    """The options, in a group of their own on ``p``."""
    g = p.add_argument_group("generated output (a predicted side of records: strings and labels without offsets)")
    g.add_argument("--align", choices=("exact", "fuzzy", "none"), default=None,
                   help="how each predicted string is placed on the gold text: exact (when not given; its occurrences, "
                        "chosen to agree best with the gold spans) or fuzzy (then the most similar window of words, "
                        "with rapidfuzz: pip install 'accord[fuzzy]'); a string not placed counts as spurious; none: "
                        "not placed, each document's multiset of (string, label) against the gold strings'")
    g.add_argument("--normalize", metavar="NAMES",
                   help="with --align none: string normalisers, comma-separated: nfkc, lower, strip-punctuation, "
                        "articles, digits, whitespace (applied in this order)")
    g.add_argument("--align-threshold", type=float, default=None, metavar="SIMILARITY",
                   help="with --align fuzzy: the least similarity, 0 to 1 (0.9 when not given)")


def align_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of :func:`accord.score` these options give (none when not given)."""
    out: dict[str, Any] = {}
    if getattr(args, "align", None) is not None:
        out["align"] = args.align
    if getattr(args, "normalize", None):
        out["normalize"] = args.normalize
    if getattr(args, "align_threshold", None) is not None:
        out["align_threshold"] = args.align_threshold
    return out
