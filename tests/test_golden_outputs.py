"""Every command's JSON on the test data, byte for byte as stored before the pipeline was moved into stages.

The outputs in tests/golden/ were made by accord itself (commit 27e2fca's code) from the inputs of
tests/result/commands.py; moving code must not change one byte of them (paths of the inputs shown as ``<data>`` and
``<tmp>``). A change of a number that is meant (a fixed defect) regenerates them with
``ACCORD_REGENERATE_GOLDEN=1 python -m pytest tests/test_golden_outputs.py`` and says why in its commit.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import os
import warnings
from pathlib import Path

import pytest

import accord
from accord.cli import main

from .result.commands import DATA, command_lines, command_names, write_inputs

GOLDEN = Path(__file__).resolve().parent / "golden"
REGENERATE = os.environ.get("ACCORD_REGENERATE_GOLDEN") == "1"
SEEDED = {"agree gamma": ["--seed", "0"]}
"""Commands that sample: seeded, so that their output is one."""


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("golden")
    return tmp, write_inputs(tmp)


def _normalized(text: str, tmp: Path) -> str:
    """The paths of the inputs and the version of accord (in the generator object) replaced by placeholders."""
    text = text.replace(str(DATA), "<data>").replace(str(tmp), "<tmp>")
    return text.replace(f'"version": "{accord.__version__}"', '"version": "<version>"')


@pytest.mark.parametrize("name", command_names())
def test_json_is_byte_identical_to_the_stored_output(inputs, name):
    tmp, paths = inputs
    argv = [*command_lines(paths)[name], *SEEDED.get(name, []), "--output", "json"]
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main(argv) == 0
    text = _normalized(out.getvalue(), tmp)
    stored = GOLDEN / (name.replace(" ", "_") + ".json.gz")
    if REGENERATE or not stored.exists():
        if not REGENERATE:
            pytest.fail(f"{stored} is missing: make it with ACCORD_REGENERATE_GOLDEN=1")
        stored.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
    expected = gzip.decompress(stored.read_bytes()).decode("utf-8")
    if text != expected:
        lines = [(k, a, b) for k, (a, b) in enumerate(zip(text.splitlines(), expected.splitlines())) if a != b]
        where = f"line {lines[0][0] + 1}: {lines[0][1].strip()[:120]!r} instead of {lines[0][2].strip()[:120]!r}" \
            if lines else f"{len(text)} characters instead of {len(expected)}"
        pytest.fail(f"{name}: the JSON differs from {stored.name} ({where})")
