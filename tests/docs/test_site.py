"""The documentation site builds with every MkDocs warning an error (a broken link, anchor, nav entry or API name)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .docblocks import ROOT


def _missing(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is None
    except ModuleNotFoundError:   # a dotted name whose parent package is absent
        return True


pytestmark = pytest.mark.skipif(
    any(_missing(m) for m in ("mkdocs", "material", "mkdocstrings_handlers.python")),
    reason="mkdocs, mkdocs-material or mkdocstrings[python] is not installed (pip install -e '.[docs]')")


def test_site_builds_strict(tmp_path: Path) -> None:
    site = tmp_path / "site"
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)], cwd=ROOT,
                         capture_output=True, text=True, timeout=300, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    problems = [line for line in run.stderr.splitlines() if line.startswith(("WARNING", "ERROR"))]
    assert run.returncode == 0, "\n".join(problems) or run.stderr[-2000:]
    assert not problems
    # the generated pages are there: one per command, the JSON contract, the API from the docstrings
    assert (site / "reference" / "cli" / "score" / "index.html").is_file()
    assert (site / "reference" / "contract" / "index.html").is_file()
    api = (site / "reference" / "api" / "index.html").read_text(encoding="utf-8")
    assert "accord.score" in api and "Parameters" in api


def test_start_page_links_every_job() -> None:
    """A newcomer reaches each job's tutorial in one click from the start page."""
    start = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    jobs = sorted(p.name for p in (ROOT / "docs" / "jobs").glob("*.md") if p.name != "index.md")
    assert jobs
    missing = [j for j in jobs if f"(jobs/{j})" not in start]
    assert not missing, f"the start page does not link {missing}"
