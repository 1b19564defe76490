"""Every command's rendered outputs on the test data, byte for byte as stored before the renderers were made to
draw from the result only (issue 35, part 3): the terminal tables (``-o FILE``, 120 columns), the CSV of
``--details``, MATScore's files of ``--mat-csv``, the HTML pages of ``--html`` and ``accord report``, and the
error table and page of ``accord errors``; and, added later, the report of generated output (strings without
offsets, aligned exactly and fuzzily: issue 38).

The stored outputs in tests/golden/renders/ were made by accord itself (commit 6c48870's code) from the inputs of
tests/result/commands.py; moving the renderers must not change one byte of them. The inputs are named relative to
the run's working directory, the temporary directory (``data/...`` for the test data), so that the captions, which
wrap at 120 columns, do not depend on where the files are; the pages' script hashes (Content-Security-Policy) follow
the scripts, whose text the page holds, and are shown as ``<sha256>``. A meant change regenerates them with
``ACCORD_REGENERATE_GOLDEN=1 python -m pytest tests/report/test_golden_renders.py`` and says why in its commit.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import os
import re
import warnings
from pathlib import Path

import pytest

import accord
from accord.cli import main

from ..result.commands import CONLL_GOLD, CONLL_PRED, DATA, command_lines, worse_copy, write_inputs

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "renders"
REGENERATE = os.environ.get("ACCORD_REGENERATE_GOLDEN") == "1"
SEEDED = {"agree gamma": ["--seed", "0"]}
"""Commands that sample: seeded, so that their output is one."""

DETAILS = ("score pairs", "score pairs nan", "score task", "score units", "score gate", "coref", "smatch",
           "structured relations", "structured templates", "diff", "qa", "benchmark", "agree gamma")
"""The commands that write ``--details``."""
HTML = ("score pairs", "score pairs nan", "score task", "score units", "score clueval", "score semeval", "score gate",
        "diff", "qa", "benchmark", "agree ratings", "agree sets", "agree iaa", "agree corpus-qa",
        "agree gamma", "agree alpha-u")
"""The commands that write ``--html``."""
MAT_CSV = ("score pairs", "score pairs nan", "score task", "score units")
"""The commands that write MATScore's files (``--mat-csv``)."""


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("renders")
    paths = write_inputs(tmp)
    paths["worse"] = worse_copy(tmp)
    paths.update(_generated_inputs(tmp))
    (tmp / "data").symlink_to(DATA, target_is_directory=True)
    return tmp, paths


GENERATED_GOLD = [
    {"id": "d1", "text": "Maria works for Aurora Air. Maria Lund met her in Bergen.", "annotations": [
        {"label": "PER", "start": 0, "end": 5}, {"label": "ORG", "start": 16, "end": 26},
        {"label": "PER", "start": 28, "end": 38}, {"label": "LOC", "start": 50, "end": 56}]},
    {"id": "d2", "text": "Aurora Air flies from Oslo to Paris.", "annotations": [
        {"label": "ORG", "start": 0, "end": 10}, {"label": "LOC", "start": 22, "end": 26},
        {"label": "LOC", "start": 30, "end": 35}]}]
GENERATED_PRED = {
    "model_a": [{"id": "d1", "entities": [["Maria", "PER"], ["Aurora Ar", "ORG"], ["Maria", "PER"], ["Oslo", "LOC"]]},
                {"id": "d2", "entities": [["Aurora Air", "ORG"], ["Oslo", "LOC"], ["Paris", "LOC"], ["Paris", "LOC"]]}],
    "model_b": [{"id": "d1", "entities": [["Maria Lund", "PER"], ["Bergen", "LOC"], ["Trondheim", "LOC"]]},
                {"id": "d2", "entities": [["Aurora Air", "ORG"], ["Oslo", "ORG"]]}]}
"""Generated output (strings without offsets) of two models: exact, fuzzy, repeated and absent strings."""


def _generated_inputs(tmp: Path) -> dict[str, str]:
    import json

    out = {"generated_gold": str(tmp / "generated_gold.jsonl")}
    Path(out["generated_gold"]).write_text("".join(json.dumps(d) + "\n" for d in GENERATED_GOLD), encoding="utf-8")
    for name, docs in GENERATED_PRED.items():
        path = tmp / f"{name}.jsonl"
        path.write_text("".join(json.dumps({"id": d["id"], "entities": [{"text": t, "label": lab}
                                                                        for t, lab in d["entities"]]}) + "\n"
                                for d in docs), encoding="utf-8")
        out[name] = str(path)
    return out


def _relative(argv: list[str], tmp: Path) -> list[str]:
    """The arguments with the inputs named relative to ``tmp`` (the working directory of the run), so that the
    outputs, whose captions wrap at 120 columns, do not depend on where the test data and the temporary files are."""
    return [a.replace(str(DATA), "data").replace(str(tmp) + "/", "") for a in argv]


def _extra_lines(p: dict[str, str]) -> dict[str, list[str]]:
    """Commands whose only output is a table or a page: ``compare`` and ``report`` of two systems."""
    systems = [CONLL_GOLD, CONLL_PRED, p["worse"], "--samples", "20", "--seed", "0"]
    return {"compare": ["compare", *systems],
            "report": ["report", *systems, "--bootstrap", "20"],
            "report clueval": ["report", *systems, "--bootstrap", "20", "--match", "clueval", "--leniency", "2"],
            "errors": ["errors", CONLL_GOLD, CONLL_PRED, "--leniency", "3"],
            "report generated": ["report", p["generated_gold"], p["model_a"], p["model_b"], "--samples", "20",
                                 "--seed", "0", "--bootstrap", "20"],
            "report generated fuzzy": ["report", p["generated_gold"], p["model_a"], p["model_b"], "--align", "fuzzy",
                                       "--align-threshold", "0.8", "--samples", "20", "--seed", "0", "--bootstrap",
                                       "20"]}


def _normalized(text: str, tmp: Path) -> str:
    text = text.replace(str(DATA), "<data>").replace(str(tmp), "<tmp>")
    text = text.replace(f"Made by accord {accord.__version__}:", "Made by accord <version>:")
    return re.sub(r"sha256-[A-Za-z0-9+/=]+", "<sha256>", text)


def _run(argv: list[str]) -> None:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()), \
            warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main(argv) == 0, argv


def _check(text: str, stored: Path) -> None:
    if REGENERATE:
        stored.parent.mkdir(parents=True, exist_ok=True)
        stored.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
    if not stored.exists():
        pytest.fail(f"{stored} is missing: make it with ACCORD_REGENERATE_GOLDEN=1")
    expected = gzip.decompress(stored.read_bytes()).decode("utf-8")
    if text != expected:
        lines = [(k, a, b) for k, (a, b) in enumerate(zip(text.splitlines(), expected.splitlines())) if a != b]
        where = f"line {lines[0][0] + 1}: {lines[0][1].strip()[:160]!r} instead of {lines[0][2].strip()[:160]!r}" \
            if lines else f"{len(text)} characters instead of {len(expected)}"
        pytest.fail(f"{stored.name} differs ({where})")


def _stem(name: str) -> str:
    return name.replace(" ", "_")


def _cases() -> list[tuple[str, str]]:
    from ..result.commands import command_names

    names = [*command_names(), "compare"]
    return ([(n, "table") for n in names] + [(n, "details") for n in DETAILS] + [(n, "html") for n in HTML]
            + [(n, "mat-csv") for n in MAT_CSV] + [("report", "html"), ("report clueval", "html"), ("errors", "html"),
                                                   ("errors", "tsv"), ("report generated", "html"),
                                                   ("report generated fuzzy", "html")])


@pytest.mark.parametrize(("name", "kind"), _cases())
def test_rendered_output_is_byte_identical_to_the_stored_one(inputs, name, kind, monkeypatch):
    tmp, paths = inputs
    monkeypatch.chdir(tmp)
    lines = {**command_lines(paths), **_extra_lines(paths)}
    argv = _relative([*lines[name], *SEEDED.get(name, [])], tmp)
    if "fuzzy" in argv:
        pytest.importorskip("rapidfuzz")
    out = tmp / f"{_stem(name)}.{kind}"
    if kind == "table":
        _run([*argv, "--output", "table", "-o", str(out)])
    elif kind == "details":
        out = out.with_suffix(".csv")
        _run([*argv, "--output", "json", "-o", str(tmp / "ignored.json"), "--details", str(out)])
    elif kind == "html" and name.startswith("report"):
        _run([*argv, "-o", str(out)])
    elif name == "errors":
        _run([*argv, f"--{kind}", str(out)])
    elif kind == "html":
        _run([*argv, "--output", "json", "-o", str(tmp / "ignored.json"), "--html", str(out)])
    else:
        _run([*argv, "--output", "json", "-o", str(tmp / "ignored.json"), "--mat-csv", str(out)])
        files = sorted(out.iterdir())
        assert files, f"{name}: --mat-csv wrote no file"
        for f in files:
            _check(_normalized(f.read_text(encoding="utf-8"), tmp), GOLDEN / f"{_stem(name)}.mat-csv.{f.name}.gz")
        return
    _check(_normalized(out.read_text(encoding="utf-8"), tmp), GOLDEN / f"{_stem(name)}.{kind}.gz")
