"""accord: compare annotations, a system against gold or annotators against each other.

>>> import accord
>>> report = accord.score("gold.conll", "pred.conll")      # doctest: +SKIP
>>> report.totals.match, report.f1                          # doctest: +SKIP
"""

from .errors import AccordError
from .formats import read, write
from .model import Annotation, Corpus, Document, make_annotation
from .report import Report
from .schema import Task, load_task
from .scoring import score

__version__ = "0.1.0"

__all__ = [
    "AccordError",
    "Annotation",
    "Corpus",
    "Document",
    "Report",
    "Task",
    "load_task",
    "make_annotation",
    "read",
    "score",
    "write",
    "__version__",
]
