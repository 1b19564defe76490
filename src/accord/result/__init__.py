"""One result model for every command: additive counts per document, measures computed from them.

>>> from accord.result import CountTable, Measure, PairsKind, Result

The names load on first use (PEP 562), so that a submodule that needs no numpy (the JSON writer,
:mod:`._json_text`; the contract's version, :mod:`._contract`) is imported without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._support.lazy import names_getattr

if TYPE_CHECKING:
    from ._contract import contract_schema
    from ._kinds import (
        BetterKind,
        ClueKind,
        CorefKind,
        GateKind,
        Kind,
        PairsKind,
        RecordsKind,
        SemEvalKind,
        SmatchKind,
        UnitsKind,
    )
    from ._result import SCHEMA_VERSION, Block, Measure, Result
    from ._table import ALL, CountTable, Row, SentenceCounts, document_table, label_table
    from ._tables import ResultTable

__all__ = ["ALL", "SCHEMA_VERSION", "Block", "BetterKind", "ClueKind", "CorefKind", "CountTable", "GateKind", "Kind",
           "Measure", "PairsKind", "RecordsKind", "Result", "ResultTable", "Row", "SentenceCounts", "SmatchKind",
           "SemEvalKind", "UnitsKind", "contract_schema", "document_table", "label_table"]

_LAZY = {"contract_schema": "._contract", "SCHEMA_VERSION": "._contract",
         **dict.fromkeys(("BetterKind", "ClueKind", "CorefKind", "GateKind", "Kind", "PairsKind", "RecordsKind",
                          "SemEvalKind", "SmatchKind", "UnitsKind"), "._kinds"),
         **dict.fromkeys(("Block", "Measure", "Result"), "._result"),
         **dict.fromkeys(("ALL", "CountTable", "Row", "SentenceCounts", "document_table", "label_table"), "._table"),
         "ResultTable": "._tables"}
"""Each public name and the submodule it lives in."""


__getattr__ = names_getattr(__name__, _LAZY, globals())


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
