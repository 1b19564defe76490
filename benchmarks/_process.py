"""Whole commands as users run them: accord's modules compiled to bytecode first, peak memory of a child process."""

from __future__ import annotations

import compileall
import json
import subprocess
import sys
from pathlib import Path

__all__ = ["compile_accord", "peak_memory"]

_PEAK = ("import json, resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, capture_output=True); "
         "print(json.dumps(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))")


def compile_accord() -> None:
    """Compile accord's modules to bytecode, as installing its wheel does.

    The peers come from wheels with their bytecode; an editable install of accord under
    ``PYTHONDONTWRITEBYTECODE=1`` would otherwise compile every module it imports on every run
    (about 0.1 s of a whole command), a cost no user of an installed accord pays.
    """
    import accord

    compileall.compile_dir(str(Path(accord.__file__).parent), quiet=1)


def peak_memory(cmd: list[str]) -> float:
    """The peak resident memory of ``cmd`` in MiB (run once in a child of a fresh interpreter, so that the
    children's maximum is this command's alone)."""
    out = subprocess.run([sys.executable, "-c", _PEAK, *cmd], check=True, capture_output=True, text=True).stdout
    return json.loads(out) / 1024
