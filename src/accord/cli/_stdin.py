"""``-`` as an input: standard input, spooled to a temporary file that the readers (and the format
sniffer) read as any other; outputs and errors name it ``<stdin>``, never by the temporary file's path."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from .._support.io import named_as
from ..errors import AccordError, FormatError, OptionError

__all__ = ["INPUTS", "STDIN_NAME", "standard_input"]

STDIN_NAME = "<stdin>"
"""How captions, the JSON's ``inputs`` and messages name standard input (as Python names it)."""

INPUTS = ("gold", "pred", "key", "response", "before", "after", "input", "ontology")
"""The positional input arguments of the commands (``agree`` takes a list, ``inputs``)."""


@contextmanager
def standard_input(args: argparse.Namespace) -> Iterator[None]:
    """Replace an input given as ``-`` by a temporary copy of standard input for the command's run."""
    places: list[tuple[str, int | None]] = [(name, None) for name in INPUTS if getattr(args, name, None) == "-"]
    for name in (*INPUTS, "inputs", "preds"):     # the lists: agree's inputs, report's and compare's systems
        value = getattr(args, name, None)
        if isinstance(value, list):
            places += [(name, k) for k, v in enumerate(value) if v == "-"]
    if not places:
        yield
        return
    if len(places) > 1:
        raise OptionError("standard input ('-') can be only one of the inputs")
    import shutil  # here: a command that reads no standard input does not import them
    import tempfile

    fd, path = tempfile.mkstemp(prefix="accord-stdin-")
    try:
        with os.fdopen(fd, "wb") as fh:   # copied a megabyte at a time: never the whole input in memory
            shutil.copyfileobj(sys.stdin.buffer, fh, 1 << 20)
        name, k = places[0]
        if k is None:
            setattr(args, name, path)
        else:
            getattr(args, name)[k] = path
        try:
            with named_as(path, STDIN_NAME):
                yield
        except AccordError as exc:   # the input as the user gave it, not the temporary file's path
            exc.args = tuple(a.replace(path, STDIN_NAME) if isinstance(a, str) else a for a in exc.args)
            if isinstance(exc, FormatError) and exc.path is not None and str(exc.path) == path:
                exc.path = STDIN_NAME
            raise
    finally:
        os.unlink(path)
