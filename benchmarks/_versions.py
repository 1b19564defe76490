"""The versions a benchmark ran with, printed first: figures depend on them (scipy's solvers, numpy's kernels)."""

from __future__ import annotations

import platform
import sys
from importlib.metadata import PackageNotFoundError, version

__all__ = ["print_versions"]


def print_versions(*peers: str) -> None:
    """One line: Python, numpy, scipy, accord and the peers measured, with the machine's processor count."""
    import os

    parts = [f"python {sys.version.split()[0]}"]
    for name in ("numpy", "scipy", "accord", *peers):
        try:
            parts.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            parts.append(f"{name} (not installed)")
    print(f"versions: {', '.join(parts)}; {platform.machine()}, {os.cpu_count()} cores")
