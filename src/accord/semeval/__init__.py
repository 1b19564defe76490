"""The SemEval-2013 partial-match schemas (strict, exact, partial, type), as nervaluate offers them,
on an optimal one-to-one pairing (see :mod:`accord.semeval._schemas`)."""

from ._schemas import SCHEMAS, SchemaCounts, SemEvalResult, semeval_schemas

__all__ = ["SCHEMAS", "SchemaCounts", "SemEvalResult", "semeval_schemas"]
