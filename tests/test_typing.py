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


STRICT_MODULES = ("accord.stats", "accord.stats.*", "accord.match", "accord.match.*", "accord.pipeline",
                  "accord.pipeline.*", "accord.metrics", "accord.metrics.*", "accord._support", "accord._support.*",
                  "accord.model", "accord.model.*", "accord.modes", "accord.result", "accord.result.*")
"""The core checked as ``mypy --strict`` checks it (issue 35): the statistics, the pairing engine, the pipeline's
stages, the metrics, the support modules, the model, the modes' registry and the result."""


def _strict_flags(tmp_path: Path) -> dict[str, bool]:
    """The per-module options ``mypy --strict`` changes, with the value it gives them (read from mypy itself, so
    that a flag a later release adds to ``--strict`` is asked for too)."""
    main = pytest.importorskip("mypy.main", reason="mypy is in the test extra: pip install -e '.[test]'")
    from mypy.options import PER_MODULE_OPTIONS

    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\n")
    _, plain = main.process_options(["--config-file", str(config), "-c", "pass"])
    _, strict = main.process_options(["--config-file", str(config), "--strict", "-c", "pass"])
    return {name: getattr(strict, name) for name in sorted(PER_MODULE_OPTIONS)
            if getattr(strict, name) != getattr(plain, name)}


def test_the_core_is_checked_strictly(tmp_path):
    # pyproject.toml lists the core's modules in one override that sets every per-module flag of --strict (strict =
    # true there would turn them on for every module: mypy issue 11401), so that dropping a module or a flag fails
    import tomllib

    flags = _strict_flags(tmp_path)
    assert {"disallow_untyped_defs", "disallow_any_generics", "warn_return_any"} <= set(flags)   # a sanity check
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    # a flag set for the whole run (warn_unused_ignores) counts for the block
    strict_blocks = [block for block in config.get("overrides", [])
                     if all(block.get(name, config.get(name)) == value for name, value in flags.items())]
    listed = {module for block in strict_blocks for module in block["module"]}
    assert not set(STRICT_MODULES) - listed, f"not checked strictly: {sorted(set(STRICT_MODULES) - listed)}"
    # the flags --strict sets for the whole run are set for the whole run
    assert config.get("warn_redundant_casts") is True
    assert "strict" not in config and not any("strict" in block for block in config.get("overrides", []))
