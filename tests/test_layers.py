"""The layers' import contracts of pyproject.toml ([tool.importlinter]) hold: readers import no mode, the pipeline's
stages import no mode, the sharded runner never imports the scoring it runs, nothing below the command line imports
it. A new upward import fails here; the captured output names the chain of imports."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_import_contracts_are_kept(monkeypatch, capsys):
    pytest.importorskip("importlinter", reason="import-linter is in the test extra")
    from importlinter.cli import EXIT_STATUS_SUCCESS, lint_imports

    monkeypatch.chdir(ROOT)
    monkeypatch.syspath_prepend(str(ROOT / "src"))
    monkeypatch.setattr(sys, "argv", ["lint-imports"])
    status = lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True, no_logo=True)
    out = capsys.readouterr().out
    assert status == EXIT_STATUS_SUCCESS, out
    assert "4 kept, 0 broken" in out
