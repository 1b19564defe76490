"""Writing a command's output: the format from ``--output`` or ``-o``'s extension, files or standard
output, terminal tables with a caption."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["output_format", "write_text", "render", "emit", "info", "caption", "add_conlleval_output"]

_BY_EXTENSION = {".json": "json", ".csv": "csv"}


def output_format(args: argparse.Namespace) -> str:
    """``--output`` when given, else ``json`` or ``csv`` by the extension of ``-o``, else ``table``."""
    if getattr(args, "output", None):
        return args.output
    out = getattr(args, "out", None)
    return _BY_EXTENSION.get(Path(out).suffix.lower(), "table") if out else "table"


def write_text(args: argparse.Namespace, text: str) -> None:
    """Write JSON or CSV output to ``-o FILE`` or standard output, ending with a newline."""
    from .._support.safe_paths import write_text as write_file

    text = text if text.endswith("\n") else text + "\n"
    if getattr(args, "out", None):
        write_file(args.out, text)     # whole or not at all
    else:
        sys.stdout.write(text)


_READINGS = {"preset": "conll2012", "mention_match": "exact", "singletons": "keep", "zeros": None,
             "standardize": None}
"""Options of ``coref`` and ``smatch`` that the caption names when they differ from these defaults."""


def caption(result: Any) -> str:
    """What a table shows: the inputs, the mode and profile, the number of documents."""
    if result.command == "agree":   # annotators by name
        sides = [", ".join(result.inputs)] if result.mode != "ratings" else list(result.inputs["ratings"]["sources"])
    else:
        sides = [", ".join(v["sources"]) for v in result.inputs.values()]
    profile = result.options.get("profile")
    mode = result.mode + (f", profile {profile}" if profile else "")
    for name, default in _READINGS.items():      # what changes the mode's reading, when not its default
        value = result.options.get(name)
        if value not in (None, default, False):
            mode += f", {name.replace('_', ' ')} {value}"
    n = len(result.documents)
    text = f"{' vs '.join(sides)} · {mode} · {n} document{'s' if n != 1 else ''}"
    if getattr(result, "ci", None) is not None:
        o = result.options
        units = "items" if result.command == "agree" else o.get("resample", "documents")
        count = o.get("resampled_units")
        text += (f" · {100 * o['confidence']:g} % intervals ({o['ci_method']}, {o['bootstrap']} resamples of the "
                 f"{'' if count is None else f'{count:,} '}{units}, seed {o['seed']})")
    return text


def render(args: argparse.Namespace, draw: Callable[[Any], None], text: str | None = None) -> None:
    """Draw rich tables on standard output or into ``-o FILE`` (120 columns), every table captioned
    with ``text``. Output that is not a terminal gets a console that writes the tables it can without importing
    rich, the same characters (:mod:`accord.report.plain_table`)."""
    from .._support.safe_paths import atomic_write
    from ..report.plain_table import PlainConsole, plain_console_wanted
    from ..report.table import TableConsole

    if getattr(args, "out", None):
        with atomic_write(args.out) as fh:
            wanted = plain_console_wanted(fh)
            draw(PlainConsole(TableConsole, file=fh, width=120, caption=text) if wanted else
                 TableConsole(file=fh, width=120, caption=text))
    elif plain_console_wanted():
        draw(PlainConsole(TableConsole, caption=text))
    else:
        draw(TableConsole(caption=text))


def add_conlleval_output(p: argparse.ArgumentParser) -> None:
    """``--output conlleval`` beside the common choices (``accord score``: conlleval.pl's text,
    :mod:`accord.report.conlleval_text`)."""
    for action in p._actions:
        if action.dest == "output" and action.choices is not None:
            action.choices = (*action.choices, "conlleval")     # the help stays the shared one


def emit(args: argparse.Namespace, result: Any, draw: Callable[[Any], None]) -> int:
    """A result as JSON, CSV, or the command's tables (with confidence intervals when ``--bootstrap`` is set)."""
    if output_format(args) == "conlleval":   # conlleval.pl's text: counts only, no intervals
        from ..report.conlleval_text import conlleval_of_args

        warn_if_nothing_counted(result)
        write_text(args, conlleval_of_args(args, result))
        return 0
    if getattr(args, "confidence_data", False) and args.bootstrap is None:
        args.bootstrap = 1000      # MAT's --compute_confidence_data draws 1000 samples
    if getattr(args, "bootstrap", None) is not None:
        extra = {} if getattr(args, "resample", None) in (None, "items") else {"resample": args.resample}
        result.bootstrap(args.bootstrap, seed=args.seed, confidence=args.confidence, method=args.ci_method,
                         summary=args.confidence_data, **extra)
    elif hasattr(args, "bootstrap") and any(
            getattr(args, name, None) not in (None, False, default) for name, default in (
            ("seed", None), ("confidence", 0.95), ("ci_method", "percentile"), ("resample", "auto"))):
        from ..errors import OptionError

        raise OptionError("--seed, --confidence, --ci-method and --resample apply with --bootstrap N (or "
                          "--confidence-data)")
    warn_if_nothing_counted(result)
    fmt = output_format(args)
    if fmt == "json":
        write_text(args, result.to_json())
    elif fmt == "csv":
        write_text(args, result.to_csv())
    else:
        render(args, draw, caption(result))
    return 0


def warn_if_nothing_counted(result: Any) -> None:
    """A warning when the main measure of ``result`` counts nothing at all (both sides empty): its rates are the
    zero-division convention's, not measured (never a quiet 0)."""
    measures = getattr(result, "measures", None)
    if not measures:
        return
    name, measure = next(iter(measures.items()))
    counts = getattr(measure, "counts", None)
    if counts is None:
        return
    values = counts()
    if values.any() if hasattr(values, "any") else any(values):   # numpy counts, or a plain result's list
        return
    import warnings

    from ..errors import NothingCountedWarning

    documents = len(measure.table.documents)
    warnings.warn(NothingCountedWarning(
        f"nothing to count: both sides are empty for the {name} measure ({documents} document"
        f"{'' if documents == 1 else 's'}); every rate shown is the zero-division convention's value, not a "
        "measured one"), stacklevel=2)


def info(args: argparse.Namespace, message: str) -> None:
    """A summary line on standard error, unless ``--quiet``."""
    if not getattr(args, "quiet", False):
        print(f"accord: {message}", file=sys.stderr)
