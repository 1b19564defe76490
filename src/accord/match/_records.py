"""What pairing records of each item: its status (matched, clashed, unpaired) and the pairs made.

Kept apart from :mod:`accord.match.engine` so that the modules that pair a part of the work for the engine
(:mod:`accord.match._bulk_spanless`) record pairs the same way without importing the engine back.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["MATCH", "CLASH", "UNPAIRED", "Pair"]

MATCH, CLASH, UNPAIRED = 0, 1, 2


class Pair(NamedTuple):
    """A gold item and a predicted item paired, with their similarity and error tokens."""

    gold: int
    pred: int
    similarity: float
    gold_tokens: tuple[str, ...] = ()
    pred_tokens: tuple[str, ...] = ()
