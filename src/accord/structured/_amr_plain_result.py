"""``accord smatch``'s result in plain Python, for the command line's JSON, CSV and table when no interval is asked.

The command's whole run on a file of short graphs (QALD-9: 150 graphs) takes less time than importing numpy, which
:class:`~accord.result.Result` is built on. :class:`PlainSmatchResult` holds the same per-pair counts (``match``,
``gold``, ``pred``) as lists and writes the same outputs byte for byte: each rate is the same IEEE division of the
same whole numbers as :class:`~accord.result.SmatchKind`'s (``match / pred``, ``match / gold``, ``2 match / (gold +
pred)``, all 0 when either side has no triple), the macro means are the same sums in the same order, and the JSON
text is :func:`accord.result._json_text.json_text`'s. :meth:`PlainSmatchResult.to_result` gives the numpy result
(:func:`accord.structured._result.smatch_result`) of the same counts, for everything else (intervals, merging,
frames); ``tests/structured/test_amr_plain_result.py`` checks every output against it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["PlainSmatchResult", "smatch_block"]

_RATES = ("precision", "recall", "f1")
_FIELDS = ("match", "gold", "pred")


def smatch_block(match: int, gold: int, pred: int) -> dict[str, Any]:
    """One row's counts and rates, as :meth:`accord.result.SmatchKind.blocks` gives them."""
    if not gold or not pred:    # smatch's convention: every rate 0 when either side has no triple
        return {"match": match, "gold": gold, "pred": pred, "precision": 0.0, "recall": 0.0, "f1": 0.0}
    return {"match": match, "gold": gold, "pred": pred, "precision": match / pred, "recall": match / gold,
            "f1": 2.0 * match / (gold + pred)}


class _Kind:
    """What the terminal table and the caption read of :class:`~accord.result.SmatchKind`."""

    name = "smatch"
    fields = _FIELDS
    rate_names = _RATES
    columns = (("match", "match"), ("gold", "gold"), ("pred", "pred"))


class _Table:
    """The per-pair counts: ``documents`` and one ``[match, gold, pred]`` row each."""

    def __init__(self, documents: Sequence[str], values: list[list[int]]):
        self.documents = tuple(documents)
        self.values = values
        self.fields = _FIELDS


class _Measure:
    """The Smatch measure over :class:`_Table`: the views :class:`~accord.result.Measure` gives for one measure
    without labels."""

    def __init__(self, table: _Table):
        self.kind = _Kind()
        self.table = table

    def counts(self) -> list[int]:
        """The counts summed over the documents."""
        return [sum(column) for column in zip(*self.table.values)] if self.table.values else [0, 0, 0]

    def totals(self) -> dict[str, Any]:
        return smatch_block(*self.counts())

    def by_label(self) -> dict[str, Any]:
        return {}

    def by_document(self) -> dict[str, dict[str, Any]]:
        return {d: smatch_block(*row) for d, row in zip(self.table.documents, self.table.values)}

    def macro(self, over: str = "label") -> dict[str, float | None]:
        """The mean of each rate over the documents (``over="document"``; no rate is ever undefined here), or
        ``None`` for each (``"label"``: Smatch has no labels)."""
        blocks = list(self.by_document().values()) if over != "label" else []
        return {name: sum(b[name] for b in blocks) / len(blocks) if blocks else None for name in _RATES}

    def to_dict(self) -> dict[str, Any]:
        by_document = self.by_document()
        return {"kind": self.kind.name, "totals": self.totals(), "macro": self.macro("label"),
                "macro_by_document": self.macro("document"), "by_label": {}, "by_document": by_document,
                "by_document_label": {d: {} for d in self.table.documents}}


class PlainSmatchResult:
    """``accord smatch``'s result for its outputs: :attr:`measures` (``smatch``), :attr:`options`,
    :attr:`inputs`, :attr:`source` (the :class:`~accord.structured.amr.SmatchScore` of the corpus) and
    ``bounds`` (the pairs a time limit stopped), as :class:`~accord.structured._amr_result.SmatchResult`."""

    command = "smatch"
    mode = "smatch"
    nested = False
    ci = None

    def __init__(self, total: Any, *, documents: Sequence[str] | None = None,
                 options: Mapping[str, Any] | None = None, inputs: Mapping[str, Any] | None = None):
        pairs = total.by_pair
        documents = list(documents) if documents is not None else [str(k + 1) for k in range(len(pairs))]
        values = [[int(s.match), int(s.gold_triples), int(s.test_triples)] for s in pairs]
        self.measures = {"smatch": _Measure(_Table(documents, values))}
        self.options: dict[str, Any] = dict(options or {})
        self.inputs: dict[str, Any] = dict(inputs or {})
        self.bounds = {d: s.bound for d, s in zip(documents, pairs) if s.bound is not None}
        self.source: Any = total
        self._total, self._documents = total, documents

    @property
    def main(self) -> _Measure:
        return self.measures["smatch"]

    @property
    def documents(self) -> tuple[str, ...]:
        return self.main.table.documents

    def optimality_gap(self) -> dict[str, Any] | None:
        """As :meth:`accord.structured._amr_result.SmatchResult.optimality_gap`."""
        if self.options.get("time_limit") is None:
            return None
        docs = list(self.documents)
        values = self.main.table.values
        match, gold, pred = self.main.counts()
        bounds = {d: b for d, b in self.bounds.items() if d in docs}
        bound = match + sum(b - values[docs.index(d)][0] for d, b in bounds.items())
        return {"pairs_stopped": sorted(bounds, key=docs.index), "match": match, "match_bound": bound,
                "f1": 2 * match / (gold + pred) if gold and pred else 0.0,
                "f1_bound": 2 * bound / (gold + pred) if gold and pred else 0.0}

    def to_dict(self) -> dict[str, Any]:
        """Exactly :meth:`accord.result.Result.to_dict` of the numpy result."""
        from .._support.surface import generator
        from ..result._contract import SCHEMA_VERSION

        out = {"schema_version": SCHEMA_VERSION, "generator": generator(), "command": self.command,
               "mode": self.mode, "options": self.options, "inputs": self.inputs}
        out.update(self.main.to_dict())
        gap = self.optimality_gap()
        if gap is not None:
            out["optimality_gap"] = gap
        return out

    def to_json(self, indent: int | None = 2) -> str:
        from ..result._json_text import json_text

        return json_text(self.to_dict(), indent=indent)

    def to_csv(self) -> str:
        """Exactly :meth:`accord.result.Result.to_csv` of the numpy result: the corpus row, then each pair's."""
        import io

        from .._support.csv_cells import SpreadsheetDictWriter

        scopes = [("<all>", self.main.totals())] + list(self.main.by_document().items())
        records = [{"measure": "smatch", "document": d, "group": "all", "row": "<all>", "subset": "", **block}
                   for d, block in scopes]
        buf = io.StringIO()
        w = SpreadsheetDictWriter(buf, fieldnames=list(records[0]), lineterminator="\n", restval="")
        w.writeheader()
        w.writerows(records)
        return buf.getvalue()

    def to_result(self) -> Any:
        """The numpy result of the same counts (:class:`~accord.structured._amr_result.SmatchResult`)."""
        from ._result import smatch_result

        result = smatch_result(self._total, documents=self._documents, options=self.options, inputs=self.inputs)
        result.source = self.source
        return result
