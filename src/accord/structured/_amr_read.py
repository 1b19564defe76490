"""Reading one PENMAN graph for Smatch and its variants: penman's log kept from standard error, a role without a
target refused (shared by :mod:`accord.structured.amr`, :mod:`._amr_standardize` and :mod:`._amr_fine`)."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from ..errors import AccordWarning, FormatError, OptionError

if TYPE_CHECKING:
    import logging

__all__: list[str] = []


@contextmanager
def _penman_log() -> Iterator[list[logging.LogRecord]]:
    """penman's log records (logger ``penman``) while it works, kept from standard error and from the handlers of
    the root logger: accord reports what matters in them itself (see :func:`_no_target`)."""
    import logging  # here: a file of plain graphs is read without penman, and without logging

    logger = logging.getLogger("penman")
    caught: list[logging.LogRecord] = []

    class _Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            caught.append(record)

    # penman's warnings are read whatever a caller set: the logger's level, or logging.disable(WARNING)
    handler, propagate, level = _Keep(logging.WARNING), logger.propagate, logger.level
    disabled = logging.root.manager.disable
    logger.addHandler(handler)
    logger.propagate = False
    logger.setLevel(logging.WARNING)
    if disabled >= logging.WARNING:
        logging.disable(logging.INFO)
    try:
        yield caught
    finally:
        logger.removeHandler(handler)
        logger.propagate = propagate
        logger.setLevel(level)
        if disabled >= logging.WARNING:
            logging.disable(disabled)


_NO_TARGET = ("Missing target: ", "Triple without a target: ")


def _no_target(records: list[logging.LogRecord]) -> str | None:
    """The source line of a role without a target that penman read past (it logs a warning and makes the target
    ``None``, which would become a constant ``"None"``), if any. A missing concept is left to :func:`amr_triples`,
    whose error names the node."""
    for rec in records:
        msg = rec.getMessage()
        for prefix in _NO_TARGET:
            if msg.startswith(prefix):
                return msg[len(prefix):]
    return None


def _short(line: str, width: int = 80) -> str:
    line = line.strip()
    return line if len(line) <= width else line[:width - 3] + "..."


def _tree(graph: Any, where: str) -> Any:
    from ._amr_fast import PlainTree

    if isinstance(graph, PlainTree):    # read without penman (read_amr(..., plain=True))
        return graph
    import penman

    if isinstance(graph, penman.Tree):
        return graph
    if isinstance(graph, penman.Graph):
        with _penman_log() as log:
            tree = penman.configure(graph)
        for rec in log:
            warnings.warn(AccordWarning(f"{where}: {rec.getMessage()}"), stacklevel=3)
        return tree
    if isinstance(graph, str):
        from ._amr_fast import parse_plain

        plain = parse_plain(graph)      # the common shape without penman's lexer and log (the same tree)
        if plain is not None:
            return plain
        try:
            with _penman_log() as log:
                tree = penman.parse(graph)
        except penman.DecodeError as exc:
            raise FormatError(f"{where}: not a PENMAN graph: {exc}") from None
        line = _no_target(log)
        if line is not None:
            raise FormatError(f"{where}: not a PENMAN graph: a role without a target in {_short(line)!r}")
        return tree
    raise OptionError(f"{where}: expected a PENMAN string, a penman.Tree or a penman.Graph, got {type(graph).__name__}")
