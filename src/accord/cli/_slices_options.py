"""``accord score``'s options of slices (``--slices``, ``--length-bins``, ``--train``): the pairs mode's items counted
again by nesting, length and whether they were seen in training, each slice a measure of the result
(:mod:`accord.pairs._slices`)."""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["add_slices_options", "slices_settings"]


def _slices(value: str) -> list[str]:
    from ..pairs._slices import SLICINGS

    names = [v.strip() for v in value.split(",") if v.strip()]
    unknown = [v for v in names if v not in SLICINGS and not (v.startswith("metadata:") and v[len("metadata:"):])]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"expected slicings among {', '.join(SLICINGS)} or metadata:FIELD "
                                         f"(comma-separated), got {value!r}")
    return names


def add_slices_options(p: argparse.ArgumentParser) -> None:
    """The options, in a group of their own on ``p``."""
    g = p.add_argument_group("slices (the pairs mode: each slice a measure of the result, with its intervals)")
    g.add_argument("--slices", type=_slices, action="extend", default=None, metavar="SLICINGS",
                   help="nesting (flat, nested, outer, inner entities: inner inside another entity's span, outer "
                        "not, nested inner or containing one, flat neither), length (entity length in tokens, by "
                        "--length-bins), seen (whether the entity's text and label are an entity of --train); "
                        "with --match clueval metadata:FIELD (a document's or a sentence's metadata, as a VRT "
                        "file's <text> and <s> attributes); comma-separated or repeated")
    g.add_argument("--length-bins", metavar="BINS",
                   help="with --slices length: the bins of entity length in tokens, as 1-2,3-5,6+ (default: 1,2,3,4+)")
    g.add_argument("--train", metavar="FILE",
                   help="with --slices seen: the training file or directory (read in the gold side's format)")


def slices_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of :func:`accord.score` these options give (none when not given: a mode that does not
    take them refuses them by name)."""
    out: dict[str, Any] = {}
    if getattr(args, "slices", None):
        out["slices"] = list(args.slices)
    if getattr(args, "length_bins", None) is not None:
        out["length_bins"] = args.length_bins
    if getattr(args, "train", None) is not None:
        out["train"] = args.train
    return out
