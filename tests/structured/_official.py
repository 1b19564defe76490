"""The official scorers the preset tests run as peers: fetched repositories (never committed here), read from the
mirror the ``fetch`` tool fills (``/work/.mirror``, or ``ACCORD_OFFICIAL_MIRROR``) at a pinned commit, and the
official data under ``../shared/corpora/official``. A test skips, saying why, when either is absent."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

OFFICIAL = Path(__file__).resolve().parents[3] / "shared" / "corpora" / "official"
MIRROR = Path(os.environ.get("ACCORD_OFFICIAL_MIRROR", "/work/.mirror"))


def official_data(*parts: str) -> Path:
    """A file of ``../shared/corpora/official``, or a skip."""
    path = OFFICIAL.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"official data {path} absent")
    return path


def official_source(repo: str, commit: str, path: str, dest: Path) -> Path:
    """Write ``path`` of ``repo`` (``owner/name``) at ``commit`` to ``dest`` (a temporary copy), or skip."""
    base = MIRROR / repo.replace("/", "+") / "repo"
    git_dir = base / ".git" if (base / ".git").exists() else base
    if not git_dir.exists():
        pytest.skip(f"{repo} is not fetched ({git_dir} absent)")
    done = subprocess.run(["git", f"--git-dir={git_dir}", "show", f"{commit}:{path}"], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"{repo}@{commit[:7]}:{path} unreadable: {done.stderr.decode(errors='replace').strip()}")
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_bytes(done.stdout)
    return dest
