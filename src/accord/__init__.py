"""accord: compare annotations, a system against gold or annotators against each other.

>>> import accord
>>> report = accord.score("gold.conll", "pred.conll")      # doctest: +SKIP
>>> report.totals.match, report.f1                          # doctest: +SKIP
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

from ._support.lazy import submodule_getattr

if TYPE_CHECKING:   # the names below are loaded on first use (PEP 562): ``import accord`` loads no numpy
    from ._api import score
    from ._support.plugins import register_method
    from .accumulate import Accumulator
    from .agreement._commands import agree
    from .checks import check
    from .diff._commands import benchmark, gate_diff, qa
    from .errors import AccordError
    from .formats import read, write
    from .model import Annotation, Corpus, Document, make_annotation
    from .model.schema import Task, load_task
    from .objects import as_corpus
    from .pairs import Report
    from .result import Result
    from .stats import compare
    from .structured._commands import coref, smatch, structured_metrics

_LAZY = {
    "agree": ".agreement._commands", "benchmark": ".diff._commands", "coref": ".structured._commands",
    "gate_diff": ".diff._commands", "qa": ".diff._commands", "smatch": ".structured._commands",
    "structured_metrics": ".structured._commands", "AccordError": ".errors", "read": ".formats",
    "write": ".formats", "Annotation": ".model", "Corpus": ".model", "Document": ".model",
    "make_annotation": ".model", "Report": ".pairs", "Result": ".result", "Task": ".model.schema",
    "load_task": ".model.schema", "score": "._api", "compare": ".stats", "as_corpus": ".objects",
    "register_method": "._support.plugins", "Accumulator": ".accumulate",
    "check": ".checks",
}

__all__ = [
    "AccordError",
    "Accumulator",
    "Annotation",
    "Corpus",
    "Document",
    "Report",
    "Result",
    "Task",
    "agree",
    "as_corpus",
    "benchmark",
    "check",
    "compare",
    "coref",
    "gate_diff",
    "qa",
    "smatch",
    "structured_metrics",
    "load_task",
    "make_annotation",
    "read",
    "register_method",
    "score",
    "write",
    "__version__",
]


_submodule = submodule_getattr(__name__)


def __getattr__(name: str) -> Any:
    """The public names, imported from their modules on first use; the subpackages and modules
    (``accord.agreement``, ``accord.formats``...), imported on first use; and ``accord.__version__``, read from the
    installed package's metadata (written once, in pyproject.toml)."""
    if name in _LAZY:
        value = getattr(import_module(_LAZY[name], __name__), name)
        globals()[name] = value
        return value
    if name == "__version__":
        return _dist_info_version() or _metadata_version()
    return _submodule(name)


def _dist_info_version() -> str | None:
    """The version in the METADATA of the first ``accord-*.dist-info`` folder on ``sys.path`` (where
    :func:`importlib.metadata.version` finds it, without importing :mod:`importlib.metadata` and the email parser:
    a quarter of ``accord --version``), or ``None`` when there is none to read."""
    import os
    import sys

    for entry in sys.path:
        try:
            names = sorted(n for n in os.listdir(entry or ".") if n.startswith("accord-") and n.endswith(".dist-info"))
        except OSError:
            continue
        for name in names:
            try:
                with open(os.path.join(entry or ".", name, "METADATA"), encoding="utf-8") as fh:
                    head = dict(line.rstrip("\n").split(": ", 1) for line in iter(fh.readline, "\n") if ": " in line)
            except OSError:
                continue
            if head.get("Name", "").lower() == "accord" and head.get("Version"):
                return head["Version"]
        if names:
            return None
    return None


def _metadata_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("accord")
    except PackageNotFoundError:   # pragma: no cover - a source tree that was never installed
        return "0+unknown"


def __dir__() -> list[str]:
    return sorted(set(__all__) | {name for name in globals() if name.startswith("__")})
