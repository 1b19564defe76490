"""Adjudication: build a gold annotation set from annotators' sets or from an Annotation Diff.

* :func:`consensus` keeps what enough annotators agree on (a vote per annotator and span);
* :func:`adjudicate` keeps, row by row of a diff, the key's or the response's annotation,
  by rule or from a decisions file (which the HTML diff page saves).
"""

from ._consensus import consensus
from ._decisions import CHOICES, Adjudication, adjudicate, read_decisions, row_id, write_decisions

__all__ = ["consensus", "adjudicate", "Adjudication", "CHOICES", "read_decisions", "write_decisions", "row_id"]
