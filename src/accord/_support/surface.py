"""Where a call came from, for the outputs and messages that say it: the command line or Python.

``accord``'s command-line entry point runs the command inside :func:`command_line`; everything else is a call from
Python. :func:`generator` is the ``generator`` object of every JSON output and the footer of every page (which accord
made it, and the command line when there was one); :func:`spelled` writes an option as the caller wrote it:
``--repair error`` on the command line, ``repair="error"`` from Python.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

__all__ = ["command_line", "current_command", "generator", "generator_line", "spelled"]

_COMMAND: ContextVar[tuple[str, ...] | None] = ContextVar("accord_command_line", default=None)
_UNSET: Any = object()


@contextmanager
def command_line(argv: Sequence[str]) -> Iterator[None]:
    """Run the block as ``accord ARGV...`` typed on the command line."""
    token = _COMMAND.set(("accord", *map(str, argv)))
    try:
        yield
    finally:
        _COMMAND.reset(token)


def current_command() -> list[str] | None:
    """``["accord", ARGV...]`` inside :func:`command_line`, else ``None`` (a call from Python)."""
    command = _COMMAND.get()
    return None if command is None else list(command)


def _version() -> str:
    import accord

    return str(accord.__version__)


def generator() -> dict[str, Any]:
    """``{"name": "accord", "version": ..., "command": [argv...] or None}``: who made an output, and how."""
    return {"name": "accord", "version": _version(), "command": current_command()}


def generator_line() -> str:
    """One line for a page's footer: ``accord 1.2.3: accord score gold.conll pred.conll`` (no command from Python)."""
    command = current_command()
    head = f"accord {_version()}"
    return f"{head}: {shlex.join(command)}" if command else f"{head} (from Python)"


def spelled(name: str, value: Any = _UNSET, *, flag: str | None = None, cli_value: Any = _UNSET) -> str:
    """An option as the caller spells it: ``--repair error`` on the command line, ``repair="error"`` from Python.

    Parameters
    ----------
    name
        The Python argument (``"repair"``).
    value
        Its value, if the message names one (``"error"``).
    flag
        The command-line option when it is not ``--`` and ``name`` with ``-`` for ``_``.
    cli_value
        The value as the command line writes it, when it differs from Python's (``zero`` for ``0.0``).
    """
    if _COMMAND.get() is not None:
        option = flag or "--" + name.replace("_", "-")
        shown = value if cli_value is _UNSET else cli_value
        return option if shown is _UNSET else f"{option} {shown}"
    if value is _UNSET:
        return name
    return f'{name}="{value}"' if isinstance(value, str) else f"{name}={value!r}"
