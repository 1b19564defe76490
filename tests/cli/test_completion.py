"""``accord --print-completion SHELL`` prints a completion script made from the parser (every command and option),
and a reader that goes away early (``| head``) ends the command quietly with status 0."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _accord(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "accord", *args], capture_output=True, text=True, timeout=120,
                          **kwargs)


def test_bash_completion_knows_every_command_and_option():
    pytest.importorskip("shtab", reason="the completion extra (pip install 'accord[completion]')")
    from accord.cli import build_parser

    run = _accord("--print-completion", "bash")
    assert run.returncode == 0, run.stderr
    script = run.stdout
    commands = build_parser()._subparsers._group_actions[0].choices
    for name, sub in commands.items():
        assert name in script, name
        for action in sub._actions:
            for option in action.option_strings:
                if option.startswith("--"):
                    assert option in script, (name, option)
    if shutil.which("bash"):
        check = subprocess.run(["bash", "-c", f"{script}\ncomplete -p accord"], capture_output=True, text=True,
                               timeout=60)
        assert check.returncode == 0 and "accord" in check.stdout, check.stderr[-2000:]


def test_zsh_and_an_unknown_shell():
    pytest.importorskip("shtab", reason="the completion extra (pip install 'accord[completion]')")
    assert "#compdef accord" in _accord("--print-completion", "zsh").stdout
    run = _accord("--print-completion", "fish")
    assert run.returncode == 2 and "invalid choice: 'fish'" in run.stderr


@pytest.mark.parametrize("args", [["score", str(EXAMPLES / "gold.conll"), str(EXAMPLES / "system.conll")],
                                  ["score", str(EXAMPLES / "gold.conll"), str(EXAMPLES / "system.conll"),
                                   "--output", "json"], ["--help"]])
def test_a_reader_that_went_away_ends_the_command_quietly(args):
    """Before, a table's reader closing the pipe (``accord score ... | head -1``) ended with status 1."""
    proc = subprocess.Popen([sys.executable, "-m", "accord", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()          # the reader is gone before the first write
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 0 and err == "", err
