"""For tests that compare the JSON of two command lines (serial and sharded, an option and its default): the
outputs differ by design in the command line their ``generator`` names, and in nothing else."""

from __future__ import annotations

import re

__all__ = ["without_command_line"]

_COMMAND = re.compile(r'("generator": \{\s*"name": "accord",\s*"version": "[^"]*",\s*"command": )(\[[^\n]*?\]|null)')


def without_command_line(text: str) -> str:
    """``text`` (JSON written by accord, indented) with the command line of each ``generator`` replaced by
    ``"<command>"``."""
    return _COMMAND.sub(r'\1"<command>"', text)
