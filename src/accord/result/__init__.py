"""One result model for every command: additive counts per document, measures computed from them.

>>> from accord.result import CountTable, Measure, PairsKind, Result
"""

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
