"""accord: compare annotations, a system against gold or annotators against each other.

>>> import accord
>>> report = accord.score("gold.conll", "pred.conll")      # doctest: +SKIP
>>> report.totals.match, report.f1                          # doctest: +SKIP
"""

from ._api import agree, benchmark, coref, gate_diff, qa, smatch, structured_metrics
from .errors import AccordError
from .formats import read, write
from .model import Annotation, Corpus, Document, make_annotation
from .report import Report
from .result import Result
from .schema import Task, load_task
from .scoring import score
from .stats import compare

__all__ = [
    "AccordError",
    "Annotation",
    "Corpus",
    "Document",
    "Report",
    "Result",
    "Task",
    "agree",
    "benchmark",
    "compare",
    "coref",
    "gate_diff",
    "qa",
    "smatch",
    "structured_metrics",
    "load_task",
    "make_annotation",
    "read",
    "score",
    "write",
    "__version__",
]


def __getattr__(name: str) -> str:
    """``accord.__version__``, read from the installed package's metadata (written once, in pyproject.toml)."""
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("accord")
        except PackageNotFoundError:   # pragma: no cover - a source tree that was never installed
            return "0+unknown"
    raise AttributeError(f"module 'accord' has no attribute {name!r}")
