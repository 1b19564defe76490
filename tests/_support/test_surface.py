"""Outputs say which accord and which command made them; messages spell an option as the caller wrote it."""

from __future__ import annotations

import contextlib
import io
import warnings
from importlib.metadata import version
from pathlib import Path

import pytest

import accord
from accord._support.surface import command_line, current_command, generator, generator_line, spelled
from accord.cli import main

from ..result.contract import checked

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
GOLD, PRED = str(EXAMPLES / "gold.conll"), str(EXAMPLES / "system.conll")


def _run(argv: list[str]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main(argv) == 0
    return out.getvalue()


def test_the_generator_names_the_installed_version_and_no_command_from_python():
    assert generator() == {"name": "accord", "version": version("accord"), "command": None}
    assert current_command() is None
    assert generator_line() == f"accord {version('accord')} (from Python)"


def test_the_command_line_is_set_for_the_block_only():
    with command_line(["score", "a b.conll", "-"]):
        assert generator()["command"] == ["accord", "score", "a b.conll", "-"]
        assert generator_line() == f"accord {version('accord')}: accord score 'a b.conll' -"
    assert generator()["command"] is None


def test_the_json_of_a_command_names_its_command_line():
    argv = ["score", GOLD, PRED, "--output", "json"]
    out = checked(_run(argv))
    assert out["generator"] == {"name": "accord", "version": version("accord"), "command": ["accord", *argv]}
    assert list(out)[:3] == ["schema_version", "generator", "command"]


def test_the_json_of_a_python_call_has_no_command():
    out = checked(accord.score(GOLD, PRED).to_json())
    assert out["generator"] == {"name": "accord", "version": version("accord"), "command": None}


def test_every_result_kind_carries_the_generator(tmp_path):
    other = tmp_path / "other.conll"
    other.write_text(Path(GOLD).read_text(encoding="utf-8"), encoding="utf-8")
    compared = checked(_run(["compare", GOLD, PRED, str(other), "--samples", "10", "--seed", "0", "--output", "json"]))
    assert compared["generator"]["command"][:2] == ["accord", "compare"]
    agreed = checked(accord.agree([GOLD, PRED], format="conll").to_json())
    assert agreed["generator"]["command"] is None


def test_the_page_footer_names_accord_and_the_command(tmp_path):
    page = tmp_path / "r.html"
    _run(["score", GOLD, PRED, "--output", "json", "-o", str(tmp_path / "r.json"), "--html", str(page)])
    html = page.read_text(encoding="utf-8")
    assert f'<footer class="generator">Made by accord {version("accord")}: accord score {GOLD} {PRED}' in html


def test_the_page_footer_escapes_the_command(tmp_path):
    from accord.report._csp import page_environment

    template = page_environment().from_string('{% extends "_base.html" %}')
    with command_line(["score", "<b>.conll"]):
        html = template.render(title="t")
    assert "accord score &#39;&lt;b&gt;.conll&#39;</footer>" in html


@pytest.mark.parametrize(("args", "python", "cli"), [
    (("repair", "error"), 'repair="error"', "--repair error"),
    (("allow_missing", "skip"), 'allow_missing="skip"', "--allow-missing skip"),
    (("beta",), "beta", "--beta"),
    (("beta", 2.0), "beta=2.0", "--beta 2.0"),
])
def test_spelled_from_python_and_from_the_command_line(args, python, cli):
    assert spelled(*args) == python
    with command_line([]):
        assert spelled(*args) == cli


def test_spelled_with_a_flag_or_a_value_of_its_own():
    assert spelled("equivalence_classes", flag="--equivalence-class") == "equivalence_classes"
    assert spelled("zero_division", 0.0, cli_value="zero") == "zero_division=0.0"
    with command_line([]):
        assert spelled("equivalence_classes", flag="--equivalence-class") == "--equivalence-class"
        assert spelled("zero_division", 0.0, cli_value="zero") == "--zero-division zero"
