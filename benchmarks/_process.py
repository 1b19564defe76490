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


def _children(pid: int) -> list[int]:
    """The process ids of ``pid``'s children (Linux ``/proc``)."""
    import os

    out: list[int] = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as fh:
                out.extend(int(x) for x in fh.read().split())
    except OSError:
        pass
    return out


def _high_water(pid: int) -> int | None:
    """The peak resident memory of a running process in KiB (``VmHWM``), or None once it is gone."""
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def process_tree_peaks(cmd: list[str], interval: float = 0.02) -> tuple[float, int, dict[int, int], bytes]:
    """Run ``cmd`` and sample the peak resident memory of every process it starts (Linux).

    Returns the wall time, the command's own peak in KiB (from the kernel when it exits, exact), the peak of each
    descendant seen (KiB, the last ``VmHWM`` sampled every ``interval`` seconds: a worker's peak is reached while
    it scores, long before the pool ends) and the command's standard output.
    """
    import os
    import tempfile
    import time

    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL)
        peaks: dict[int, int] = {}
        while True:
            pid, _, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid == proc.pid:
                elapsed = time.perf_counter() - start
                proc.returncode = 0
                break
            stack = _children(proc.pid)
            while stack:
                child = stack.pop()
                hwm = _high_water(child)
                if hwm is not None:
                    peaks[child] = max(peaks.get(child, 0), hwm)
                stack.extend(_children(child))
            time.sleep(interval)
        out.seek(0)
        return elapsed, usage.ru_maxrss, peaks, out.read()
