"""The command-line reference is generated from the argument parser: each page lists exactly the parser's options."""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
from types import ModuleType

import pytest

from accord.cli import build_parser
from accord.result import contract_schema

from .docblocks import DOCS


def _hook() -> ModuleType:
    spec = importlib.util.spec_from_file_location("accord_docs_hook", DOCS / "_hooks" / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


HOOK = _hook()
PARSER = build_parser()
COMMANDS = HOOK.subcommands(PARSER)


def _listed(page: str) -> set[str]:
    """The option strings in the first cell of every table row of a generated page."""
    found = set()
    for line in page.splitlines():
        if line.startswith("| `"):
            first = line.split(" | ")[0]
            found.update(re.findall(r"`([^`]+)`", first))
    return found


def test_one_page_per_command() -> None:
    pages = HOOK.command_pages(PARSER)
    sub = next(a for a in PARSER._actions if isinstance(a, argparse._SubParsersAction))
    assert {p for p in pages if not p.endswith("index.md")} == {f"reference/cli/{n}.md" for n in sub.choices}
    index = pages["reference/cli/index.md"]
    assert all(f"[`accord {n}`]({n}.md)" in index for n in sub.choices)


@pytest.mark.parametrize("name", list(COMMANDS))
def test_page_lists_exactly_the_parsers_options(name: str) -> None:
    parser, summary = COMMANDS[name]
    page = HOOK.command_page(name, parser, summary)
    expected = set()
    for action in parser._actions:
        if action.help == argparse.SUPPRESS:
            continue
        expected.update(action.option_strings or [action.metavar or action.dest])
    assert _listed(page) == expected
    for action in parser._actions:   # each option's default and choices as the parser has them
        if action.option_strings and action.choices is not None and action.help != argparse.SUPPRESS:
            row = next(line for line in page.splitlines() if line.startswith(f"| `{action.option_strings[0]}`"))
            assert all(f"`{c}`" in row for c in action.choices)
        if action.option_strings and isinstance(action.default, (int, float, str)) and action.nargs != 0 \
                and not isinstance(action.default, bool) and action.help != argparse.SUPPRESS:
            row = next(line for line in page.splitlines() if line.startswith(f"| `{action.option_strings[0]}`"))
            assert f"`{action.default}`" in row


def test_a_new_option_appears_on_its_page() -> None:
    """The page follows the parser: an option added to it is listed without touching the docs."""
    parser, summary = COMMANDS["bdm"]
    parser.add_argument("--zz-new-option", choices=["a", "b"], default="a", help="made by this test")
    try:
        page = HOOK.command_page("bdm", parser, summary)
        row = next(line for line in page.splitlines() if line.startswith("| `--zz-new-option`"))
    finally:
        parser._remove_action(parser._actions[-1])
        parser._option_string_actions.pop("--zz-new-option")
    assert "`a` \\| `b`" in row and "made by this test" in row


def test_contract_page_lists_every_key_of_the_schema() -> None:
    schema = json.loads(json.dumps(contract_schema()))
    page = HOOK.contract_page(schema)
    for key in schema["properties"]:
        assert f"| `{key}` |" in page
    for name, definition in schema["$defs"].items():
        assert f"## {name}" in page
        for key in definition.get("properties", {}):
            assert f"| `{key}` |" in page


def test_modes_table_lists_every_registered_mode() -> None:
    from accord.modes import mode, mode_names

    table = HOOK.modes_table()
    rows = [line for line in table.splitlines()[2:]]
    assert [re.match(r"\| `([^`]+)`", row).group(1) for row in rows] == list(mode_names())   # type: ignore[union-attr]
    for name in mode_names():
        assert mode(name).summary.split()[0] in table
    assert HOOK.MODES_MARKER in (DOCS / "how-it-works" / "contributing.md").read_text(encoding="utf-8")


def test_docstring_formulas_are_set_apart() -> None:
    html = "<p>Counts.</p>\n<p>.. math:: P = match / pred,\\quad\n          R = match / gold</p>"
    out = HOOK.formulas(html)
    assert ".. math::" not in out
    assert '<pre class="formula"><code>P = match / pred,     R = match / gold</code></pre>' in out
