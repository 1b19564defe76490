"""``ruff check src/accord`` finds nothing (the rule set is pyproject.toml's ``[tool.ruff]`` and ``[tool.ruff.lint]``).

The rules chosen: pycodestyle errors and warnings (E, W, lines up to 120 characters), pyflakes (F), bugbear (B: loop
variables captured by closures, mutable defaults...), import order (I) and pyupgrade (UP). ruff is pinned in the test
extra because each release adds rules. A run takes well under a second; CI runs it (``.ci/run`` runs the whole suite).
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_finds_nothing():
    if importlib.util.find_spec("ruff") is None:
        pytest.skip("ruff is in the test extra: pip install -e '.[test]'")
    run = subprocess.run([sys.executable, "-m", "ruff", "check", "src/accord"], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, f"ruff check src/accord (exit {run.returncode}):\n{run.stdout}{run.stderr}"
