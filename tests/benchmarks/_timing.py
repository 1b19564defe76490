"""What the speed floors share: the least CPU time of a few calls, and the scripts of ``benchmarks/`` as modules."""

from __future__ import annotations

import importlib
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

BENCHMARKS = Path(__file__).parents[2] / "benchmarks"


def best_time(fn: Callable[[], Any], repeat: int = 3) -> float:
    """The least CPU time of ``repeat`` calls (what other work on the machine inflates least)."""
    times = []
    for _ in range(repeat):
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return min(times)


def benchmark_module(name: str) -> ModuleType:
    """A script of ``benchmarks/`` (``bench_mat``...) imported as a module, the folder on the path only meanwhile."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(BENCHMARKS))
