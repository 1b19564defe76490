"""Adjudication: build a gold annotation set from annotators' sets or from an Annotation Diff.

* :func:`consensus` keeps what enough annotators agree on (a vote per annotator and span).
"""

from ._consensus import consensus

__all__ = ["consensus"]
