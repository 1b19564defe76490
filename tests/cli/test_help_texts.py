"""The help texts say what the parser and the code do: every stated default is the parser's default, the groups of
a command have distinct names, every command has a description, and the docs pages a help text names exist."""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from accord.cli import build_parser
from accord.cli._options import byte_size

ROOT = Path(__file__).resolve().parents[2]

# Options whose parser default is None (so that the code can tell "given" from "not given") and whose documented
# default is applied by the code: each with the value the code uses, read from the code itself.
def _resolved_elsewhere() -> dict[str, object]:
    from accord.parallel import DEFAULT_SHARD_BYTES
    from accord.pipeline._regions import TOKEN_LABELS

    return {"--shard-size": DEFAULT_SHARD_BYTES, "--token-annotations": list(TOKEN_LABELS),
            "--digits": 2,                                      # cli/_coref_options.py: draw_coref
            "--measures": ["strict", "lenient", "average"]}     # diff/_commands.py without --bdm


# "default" followed by a word that is not a value: "default: ...", "default they are an error", "default all"
# (every one), "default half-open [start, end)" (a description), "default when ...".
_NOT_A_VALUE = {"they", "all", "half-open", "when", "values", "only", "and", "with", "without", "set", "the",
                "'consensus'", "(gate's", "profile"}


def _commands(parser: argparse.ArgumentParser) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            yield from action.choices.items()


def _options() -> Iterator[tuple[str, argparse.Action]]:
    for name, command in _commands(build_parser()):
        for action in command._actions:
            if action.help and action.help is not argparse.SUPPRESS and action.option_strings:
                yield name, action


def _as_parsed(action: argparse.Action, text: str) -> object:
    """``text`` as the parser would store it for ``action``."""
    if action.type is not None and callable(action.type):
        return action.type(text)
    return text


def _same(action: argparse.Action, stated: str, default: object) -> bool:
    if isinstance(default, list):
        return [str(d) for d in default] == stated.split(",")
    try:
        value = _as_parsed(action, stated)
    except (argparse.ArgumentTypeError, ValueError, TypeError):
        return False
    if isinstance(value, list):
        return value == default
    return value == default or str(value) == str(default)


def stated_defaults(help_text: str, choices: object) -> list[str]:
    """The defaults a help text states: "default X" and, among choices, "X (default" or "X, default"."""
    found = []
    for match in re.finditer(r"\bdefault ([\w.'(-]+(?:,[\w.-]+)*)", help_text):
        word = match.group(1)
        if word.lower() not in _NOT_A_VALUE:
            found.append(word)
    if choices:
        names = [str(c) for c in choices]
        for match in re.finditer(r"(?:\(|, |; )default\b(?!:)", help_text):
            before = re.split(r"[;]", help_text[:match.start()])[-1]
            named = [(m.start(), m.group(0)) for n in names for m in re.finditer(rf"(?<![\w-]){re.escape(n)}(?![\w-])",
                                                                                     before)]
            if named:
                found.append(max(named)[1])
    return found


def test_the_checker_reads_what_it_should():
    assert stated_defaults("tag scheme (default IOB2)", None) == ["IOB2"]
    assert stated_defaults("percentile (default) or bca", ("percentile", "bca")) == ["percentile"]
    assert stated_defaults("rate: 0 (default), 1 (MAT)", None) == []
    assert stated_defaults("read as conlleval does (default, as seqscore), discard", ("conlleval", "discard")) == \
        ["conlleval"]
    assert stated_defaults("gate (default): GATE's; optimal: ...", ("gate", "optimal")) == ["gate"]
    assert stated_defaults("(default: by extension)", None) == []


def test_every_stated_default_is_the_parsers_default():
    resolved = _resolved_elsewhere()
    wrong = []
    checked = 0
    for command, action in _options():
        for stated in stated_defaults(action.help or "", action.choices):
            checked += 1
            option = action.option_strings[0]
            default = resolved.get(option, action.default)
            if option in resolved and action.default is not None:
                wrong.append(f"{command} {option}: the parser has a default, {action.default!r}")
            elif not _same(action, stated, default):
                wrong.append(f"{command} {option}: help says default {stated!r}, the parser has {default!r}")
    assert checked > 100
    assert not wrong, "\n".join(wrong)


def test_the_shard_size_default_is_what_the_code_uses():
    """The help said 16M; the shards are cut at 4 MiB (accord.parallel._plan)."""
    from accord.parallel import DEFAULT_SHARD_BYTES

    action = next(a for c, a in _options() if c == "score" and "--shard-size" in a.option_strings)
    stated = re.search(r"default (\w+)", action.help or "")
    assert stated is not None
    assert byte_size(stated.group(1)) == DEFAULT_SHARD_BYTES == 4 * 1024 * 1024


def test_agree_bootstrap_says_it_resamples_items():
    agree = dict(_commands(build_parser()))["agree"]
    action = next(a for a in agree._actions if "--bootstrap" in a.option_strings)
    assert "items" in (action.help or "") and "document" not in (action.help or "").split("items")[0]


@pytest.mark.parametrize("name", [name for name, _ in _commands(build_parser())])
def test_each_group_title_once_and_a_description(name):
    command = dict(_commands(build_parser()))[name]
    titles = [g.title for g in command._action_groups if g._group_actions]
    assert len(titles) == len(set(titles)), f"accord {name} -h repeats a group: {titles}"
    command.format_help()       # a lazy description is made here
    assert command.description, f"accord {name} -h has no description"


def _help_texts() -> list[str]:
    texts = [action.help or "" for _, action in _options()]
    for _, command in _commands(build_parser()):
        texts += [group.title or "" for group in command._action_groups]
    return texts


def test_the_docs_pages_a_help_text_names_exist():
    named = {page for text in _help_texts() for page in re.findall(r"docs/[\w/-]+\.md", text)}
    assert named
    missing = [page for page in named if not (ROOT / page).is_file()]
    assert not missing
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in named:     # a page of the site's navigation, under the title the help text gives
        title = re.search(rf"the site's ([\w -]+) page, {re.escape(page)}", " ".join(_help_texts()))
        assert title is not None, page
        assert f"{title.group(1)}: {page.removeprefix('docs/')}" in nav, page
