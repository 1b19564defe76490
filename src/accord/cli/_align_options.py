"""``accord score``'s options of generated output (``--align``, ``--align-threshold``): how a predicted side of
records, strings without offsets, is placed on the gold text (:mod:`accord.pipeline._align`); with ``--align none``,
the normalisers, relaxed matching and a judge (``--normalize``, ``--relaxed``, ``--judge``...:
:mod:`accord.pipeline._multisets`)."""

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
    g.add_argument("--relaxed", choices=("token-f1", "ratio", "containment"), default=None,
                   help="with --align none: also pair the strings left after the strict matching, one-to-one and of "
                        "the same label, by this similarity of the normalised strings (token-f1: SQuAD's token F1; "
                        "ratio: rapidfuzz's ratio, pip install 'accord[fuzzy]'; containment: one string's tokens "
                        "among the other's), into a second measure, relaxed")
    g.add_argument("--relaxed-threshold", type=float, default=None, metavar="SIMILARITY",
                   help="with --relaxed: the least similarity of a relaxed match, above 0 and at most 1 (when not "
                        "given: 0.5 for token-f1, 0.8 for ratio, 1 for containment)")
    g.add_argument("--judge", metavar="MODULE:FUNCTION",
                   help="with --align none: a Python function judge(gold, pred) of two records (dicts: document, "
                        "text, label) returning true/false or a number from 0 to 1 (0.5 or more: a match), asked "
                        "only about the strings still left of one document and label; into a measure, judge")
    g.add_argument("--judge-cache", metavar="FILE",
                   help="the judge's verdicts, JSON lines keyed by the two records: read first, each new verdict "
                        "appended; without --judge, its verdicts alone (a pair without one does not match)")
    g.add_argument("--judge-limit", type=int, default=None, metavar="N",
                   help="the most pairs the judge may be asked about in one run (1000 when not given; more is "
                        "refused before the first call)")


def align_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of :func:`accord.score` these options give (none when not given)."""
    out: dict[str, Any] = {}
    if getattr(args, "align", None) is not None:
        out["align"] = args.align
    if getattr(args, "normalize", None):
        out["normalize"] = args.normalize
    if getattr(args, "align_threshold", None) is not None:
        out["align_threshold"] = args.align_threshold
    for name in ("relaxed", "relaxed_threshold", "judge", "judge_cache", "judge_limit"):
        if getattr(args, name, None) is not None:
            out[name] = getattr(args, name)
    return out
