"""``mypy src/accord`` finds no error (the configuration is pyproject.toml's ``[tool.mypy]``).

The package ships ``py.typed``, so its annotations are what users' type checkers read: an error here is a
signature that lies to them. A fresh run takes about 20 s (mypy's cache makes the next ones fast), hence ``slow``;
CI runs it (``.ci/run`` runs the whole suite).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

PENDING: frozenset[str] = frozenset()
"""Files whose mypy errors are tolerated while other work changes them (none now: the whole package is clean)."""

_ERROR = re.compile(r"^(?P<file>[^:\n]+):\d+: error: ", re.MULTILINE)


def _errors_by_file(report: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in report.splitlines():
        m = _ERROR.match(line)
        if m:
            out.setdefault(Path(m["file"]).as_posix(), []).append(line)
    return out


def test_error_lines_are_read_by_file():
    # the parsing the test below relies on, on mypy's own output format (hand-written lines)
    report = ("src/accord/a.py:3: error: Incompatible types  [assignment]\n"
              "src/accord/a.py:3: note: See https://mypy.readthedocs.io\n"
              "src/accord/b/c.py:10: error: Name \"x\" is not defined  [name-defined]\n"
              "Found 2 errors in 2 files (checked 3 source files)\n")
    assert {f: len(lines) for f, lines in _errors_by_file(report).items()} == {"src/accord/a.py": 1,
                                                                                "src/accord/b/c.py": 1}
    assert _errors_by_file("Success: no issues found in 3 source files\n") == {}


@pytest.mark.slow
def test_mypy_finds_no_error(monkeypatch):
    api = pytest.importorskip("mypy.api", reason="mypy is in the test extra: pip install -e '.[test]'")
    monkeypatch.chdir(ROOT)     # the paths in the report, and mypy's cache, relative to the checkout
    stdout, stderr, status = api.run(["--config-file", "pyproject.toml", "src/accord"])
    assert status in (0, 1), f"mypy did not run (status {status}):\n{stderr}{stdout}"
    errors = _errors_by_file(stdout)
    new = {f: lines for f, lines in errors.items() if f not in PENDING}
    assert not new, "mypy errors:\n" + "\n".join(line for lines in new.values() for line in lines)
    if not errors:
        assert status == 0, stdout
