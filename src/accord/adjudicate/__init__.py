"""Adjudication: build a gold annotation set from annotators' sets or from an Annotation Diff.

* :func:`consensus` keeps what enough annotators agree on (a vote per annotator and span);
* :func:`adjudicate` keeps, row by row of a diff, the key's or the response's annotation,
  by rule or from a decisions file (which the HTML diff page saves);
* :func:`aggregate` chooses one label per item from many annotators' answers (majority vote, Dawid-Skene, MACE),
  and :func:`aggregate_spans` groups many annotators' spans and chooses a label per group.
"""

from ._aggregate import METHODS, Aggregate, aggregate
from ._consensus import consensus
from ._decisions import CHOICES, Adjudication, adjudicate, read_decisions, row_id, write_decisions
from ._spans import SpanAggregate, aggregate_spans

__all__ = ["consensus", "adjudicate", "Adjudication", "CHOICES", "read_decisions", "write_decisions", "row_id",
           "aggregate", "aggregate_spans", "Aggregate", "SpanAggregate", "METHODS"]
