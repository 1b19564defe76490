"""The leaderboard of a comparison: the systems ranked by their headline figure, with the systems each one beats.

The headline figure of a system is the main measure's total of the first compared rate (the mean over its runs,
:attr:`accord.stats.ComparisonResult.headline`). Systems are ordered from the highest figure to the lowest, an
undefined figure last (with no rank); equal figures share a rank (``1, 1, 3``: standard competition ranking) and
keep the order of the input. Each system gets a key (``a``, ``b``, … in the order of the ranking) and, as ranx's
reports mark them (Bassani 2022), the keys of the systems it beats significantly: the paired test of the two
systems' totals of the headline measure and rate is significant after correction, and its figure is the higher.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeGuard

if TYPE_CHECKING:
    from ._compare import Comparison

__all__ = ["Leaderboard", "Standing", "key_of", "leaderboard"]


@dataclass(frozen=True)
class Standing:
    """One system's row of the leaderboard."""

    rank: int | None
    """1 for the highest figure; systems with equal figures share a rank; ``None``: the figure is undefined."""
    key: str
    """The system's mark (``a`` for the first row, ``b``, … ``z``, then ``aa``, ``ab``, …)."""
    system: str
    value: float | None
    """The headline figure (the mean over the system's runs)."""
    interval: tuple[float | None, float | None] | None
    """Its confidence interval (after :meth:`accord.stats.ComparisonResult.bootstrap`), else ``None``."""
    runs: int
    sd: float | None
    """The standard deviation of the figure over the runs (``ddof=1``; ``None`` for one run)."""
    beats: tuple[str, ...]
    """The systems this one beats significantly on the headline question, in the order of the leaderboard."""
    beats_keys: tuple[str, ...]
    """Their keys."""

    @property
    def marks(self) -> str:
        """The keys of the systems beaten, run together when each is one letter (``bc``), else comma-separated."""
        return ("" if all(len(k) == 1 for k in self.beats_keys) else ",").join(self.beats_keys)

    def to_dict(self) -> dict[str, Any]:
        return {"rank": self.rank, "key": self.key, "system": self.system, "value": self.value,
                "interval": None if self.interval is None else list(self.interval), "runs": self.runs,
                "sd": self.sd, "beats": list(self.beats), "beats_keys": list(self.beats_keys)}


@dataclass(frozen=True)
class Leaderboard:
    """The systems of a comparison ranked by ``rate`` of ``measure``'s totals."""

    measure: str
    rate: str
    standings: tuple[Standing, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"measure": self.measure, "rate": self.rate, "standings": [s.to_dict() for s in self.standings]}

    def __iter__(self) -> Iterator[Standing]:
        return iter(self.standings)

    def __len__(self) -> int:
        return len(self.standings)


def key_of(k: int) -> str:
    """The key of the ``k``-th system (0-based): ``a`` … ``z``, ``aa`` … ``az``, ``ba`` …"""
    letters = ""
    k += 1
    while k:
        k, r = divmod(k - 1, 26)
        letters = chr(ord("a") + r) + letters
    return letters


def _defined(x: object) -> TypeGuard[float]:
    return x is not None and isinstance(x, (int, float)) and math.isfinite(x)


def leaderboard(headline: Mapping[str, Mapping[str, Any]], comparisons: Sequence[Comparison]) -> Leaderboard:
    """The leaderboard of the systems of ``headline`` (name -> headline figure, in the input order; see
    :attr:`accord.stats.ComparisonResult.headline`) from their ``comparisons``
    (:class:`accord.stats.Comparison`)."""
    names = list(headline)
    if not names:
        return Leaderboard("", "", ())
    first = headline[names[0]]
    measure, rate = first["measure"], first["rate"]
    position = {name: k for k, name in enumerate(names)}
    defined = [n for n in names if _defined(headline[n]["value"])]
    order = sorted(defined, key=lambda n: (-headline[n]["value"], position[n])) + \
        [n for n in names if not _defined(headline[n]["value"])]
    ranks: dict[str, int | None] = {}
    for k, name in enumerate(order):
        if name not in defined:
            ranks[name] = None
        elif k and order[k - 1] in defined and headline[order[k - 1]]["value"] == headline[name]["value"]:
            ranks[name] = ranks[order[k - 1]]
        else:
            ranks[name] = k + 1
    keys = {name: key_of(k) for k, name in enumerate(order)}
    beaten: dict[str, set[str]] = {name: set() for name in names}
    for c in comparisons:
        if c.label is not None or c.measure != measure or c.rate != rate or not c.significant:
            continue
        if c.a not in beaten or c.b not in beaten or not _defined(c.difference) or c.difference == 0:
            continue
        winner, loser = (c.b, c.a) if c.difference > 0 else (c.a, c.b)
        beaten[winner].add(loser)
    standings = []
    for name in order:
        head = headline[name]
        interval = head.get("interval")
        losers = tuple(n for n in order if n in beaten[name])
        standings.append(Standing(ranks[name], keys[name], name, head["value"] if _defined(head["value"]) else None,
                                  None if interval is None else (interval[0], interval[1]), int(head.get("runs", 1)),
                                  head.get("sd"), losers, tuple(keys[n] for n in losers)))
    return Leaderboard(measure, rate, tuple(standings))
