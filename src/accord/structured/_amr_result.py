"""``accord smatch``'s result: the Smatch measure, the fine-grained aspects when asked, and the optimality gap of
the pairs whose integer program a time limit stopped."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..result import Result

__all__ = ["SmatchResult", "FINE_MEASURES"]

FINE_MEASURES = {"smatch": "fine_smatch", "unlabeled": "unlabeled", "no_wsd": "no_wsd", "concepts": "concepts",
                 "named_entities": "named_entities", "negations": "negations", "wikification": "wikification",
                 "reentrancies": "reentrancies", "srl": "srl"}
"""Each fine-grained aspect's measure name (the aspects' own Smatch, under the amr-evaluation scripts' triple
conventions, is ``fine_smatch``: ``smatch`` stays accord's)."""


class SmatchResult(Result):
    """``accord smatch``: ``bounds`` holds, for each pair whose integer program the time limit stopped, the most
    triples its best mapping could match (the optimum lies between the measure's ``match`` and it)."""

    def __init__(self, *args: Any, bounds: Mapping[str, int] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.bounds: dict[str, int] = dict(bounds or {})

    def optimality_gap(self) -> dict[str, Any] | None:
        """The Smatch totals' gap when a time limit was given (``None`` otherwise): the pairs stopped, the matched
        triples, their upper bound, and the F1 that bound would give."""
        if self.options.get("time_limit") is None:
            return None
        table = self.measures["smatch"].table
        docs = list(table.documents)
        values = table.values[:, 0, :]
        match = int(values[:, 0].sum())
        gold, pred = int(values[:, 1].sum()), int(values[:, 2].sum())
        bounds = {d: b for d, b in getattr(self, "bounds", {}).items() if d in docs}
        bound = match + sum(b - int(values[docs.index(d), 0]) for d, b in bounds.items())
        return {"pairs_stopped": sorted(bounds, key=docs.index), "match": match, "match_bound": bound,
                "f1": 2 * match / (gold + pred) if gold and pred else 0.0,
                "f1_bound": 2 * bound / (gold + pred) if gold and pred else 0.0}

    def extras_dict(self) -> dict[str, Any]:
        gap = self.optimality_gap()
        return {} if gap is None else {"optimality_gap": gap}

    def _merged_into(self, out: Result, other: Result) -> None:
        assert isinstance(out, SmatchResult) and isinstance(other, SmatchResult)
        out.bounds = {**getattr(self, "bounds", {}), **getattr(other, "bounds", {})}
