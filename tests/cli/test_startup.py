"""Start-up (issues 41 and 43): running a command imports that command's module and builds that command's options
only; ``--version`` and a command's ``--help`` load neither numpy nor rich; a one-token ``accord score`` loads no
solver, data frame, template engine or masked arrays."""

from __future__ import annotations

import subprocess
import sys
from importlib import import_module

import pytest

import accord.cli as cli

HEAVY = ("numpy", "rich", "scipy", "pandas", "jinja2", "accord.formats.tokens.conll")


def modules_after(argv: list[str], cwd=None) -> set[str]:
    """The modules in ``sys.modules`` after ``accord ARGV`` ran in a fresh interpreter."""
    code = ("import sys\nfrom accord.cli import main\ntry:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
            "sys.stdout.flush()\nprint('\\n--modules--\\n' + '\\n'.join(sorted(sys.modules)))")
    run = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, timeout=120, cwd=cwd)
    assert run.returncode == 0, run.stderr
    return set(run.stdout.split("\n--modules--\n")[1].split())


def test_the_command_table_names_the_module_that_runs_each_command():
    run_by = {command: name for name in cli._MODULE_NAMES
              for command in import_module(f"accord.cli.{name}").COMMANDS}
    assert cli.COMMAND_MODULES == run_by
    assert set(cli.build_parser()._subparsers._group_actions[0].choices) == set(run_by)


@pytest.mark.parametrize("argv", [["score", "g.conll", "p.conll", "--output", "json", "--beta", "2"],
                                  ["coref", "k.conll", "r.conll", "--metrics", "muc"],
                                  ["validate", "a.conll", "--scheme", "IOB2"],
                                  ["adjudicate", "a", "b", "c", "--method", "mace", "-o", "gold.json"]])
def test_a_command_alone_reads_its_options_as_all_commands_do(argv):
    alone = cli.build_parser([argv[0]])
    assert set(alone._subparsers._group_actions[0].choices) <= {c for c, m in cli.COMMAND_MODULES.items()
                                                                   if m == cli.COMMAND_MODULES[argv[0]]}
    assert vars(alone.parse_args(argv)) == vars(cli.build_parser().parse_args(argv))
    assert alone._subparsers._group_actions[0].choices[argv[0]].format_help() == \
        cli.build_parser()._subparsers._group_actions[0].choices[argv[0]].format_help()


@pytest.mark.parametrize("argv", [["--version"], ["score", "--help"], ["coref", "--help"], ["agree", "--help"]])
def test_version_and_a_commands_help_load_neither_numpy_nor_rich(argv):
    loaded = modules_after(argv)
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))
    if argv == ["--version"]:     # nor any command's module
        assert not {m for m in loaded if m.startswith("accord.cli.")} - {"accord.cli._options", "accord.cli._stdin"}


def test_version_is_printed_without_building_the_commands(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--version"])
    assert capsys.readouterr().out.startswith("accord ")


def test_an_unknown_command_still_lists_every_command(capsys):
    with pytest.raises(SystemExit):
        cli.main(["scroe", "a", "b"])
    err = capsys.readouterr().err
    assert "invalid choice: 'scroe'" in err and "smatch" in err and "validate" in err


def test_a_one_token_score_loads_no_solver_frame_template_or_masked_arrays(tmp_path):
    for name in ("g.conll", "p.conll"):
        (tmp_path / name).write_text("w1 B-PER\n", encoding="utf-8")
    loaded = modules_after(["score", "g.conll", "p.conll"], cwd=tmp_path)
    assert "accord.formats.tokens.conll" in loaded     # it did read the files
    unwanted = {"scipy", "scipy.optimize", "pandas", "jinja2", "numpy.ma", "sklearn", "matplotlib", "dask",
                "accord.stats", "accord.structured", "accord.adjudicate", "accord.formats.text.gate",
                "accord.match._bulk_spanless", "accord.match.user_methods",   # relations' batch, a task's methods
                "accord.formats.records.generated", "csv"}   # the records reader: only is_records is asked
    assert not loaded & unwanted, sorted(loaded & unwanted)


@pytest.mark.parametrize("output", ["json", "table"])
def test_a_one_token_score_imports_no_xml_parser_spool_or_table_it_does_not_use(tmp_path, output):
    """No task file: no XML parser (defusedxml, imported by accord.model.schema for task files); no misspelt name:
    no difflib; no standard input: no temporary spool; no JSON schema read; no rich: JSON draws no table, and a
    table on output that is not a terminal is written by the plain writer (report/plain_table.py)."""
    for name in ("g.conll", "p.conll"):
        (tmp_path / name).write_text("w1 B-PER\n", encoding="utf-8")
    loaded = modules_after(["score", "g.conll", "p.conll", "--output", output], cwd=tmp_path)
    assert "accord.formats.tokens.conll" in loaded
    unwanted = {"defusedxml", "xml.etree.ElementTree", "difflib", "tempfile", "importlib.resources", "logging",
                "rich"}
    if output == "json":
        unwanted |= {"accord.report.table", "accord.report.pairs_table"}
    assert not loaded & unwanted, sorted(loaded & unwanted)


def test_the_aggregation_methods_of_the_parser_are_the_adjudicators():
    from accord.adjudicate import METHODS
    from accord.cli._aggregate import METHODS as named

    assert named == METHODS


def test_the_version_read_from_the_dist_info_is_the_installed_packages():
    from importlib.metadata import version

    import accord

    assert accord._dist_info_version() == version("accord") == accord.__version__
    assert subprocess.run([sys.executable, "-m", "accord", "--version"], capture_output=True, text=True,
                          timeout=60).stdout == f"accord {version('accord')}\n"
    assert "importlib.metadata" not in modules_after(["--version"])


SMATCH_PAIR = ("# ::id a\n(w / want-01\n   :ARG0 (b / boy)\n   :ARG1 (g / go-02 :ARG0 b))\n\n"
               "# ::id b\n(d / dog :mod (s / small))\n")


@pytest.mark.parametrize("output", ["json", "csv", "table"])
def test_accord_smatch_loads_neither_numpy_scipy_nor_penman(tmp_path, output):
    """The whole ``accord smatch`` on short graphs costs less than importing numpy: its outputs without intervals
    are written from a plain-Python result (structured/_amr_plain_result.py), its plain PENMAN read without penman;
    rich only for the table."""
    (tmp_path / "g.amr").write_text(SMATCH_PAIR, encoding="utf-8")
    (tmp_path / "p.amr").write_text(SMATCH_PAIR.replace("small", "big"), encoding="utf-8")
    loaded = modules_after(["smatch", "g.amr", "p.amr", "--output", output], cwd=tmp_path)
    assert "accord.structured._latent" in loaded     # it did score the pairs
    unwanted = {"numpy", "scipy", "penman", "pandas", "jinja2", "logging", "tempfile", "importlib.resources",
                "accord.pipeline._read", "accord.model"}
    if output != "table":     # rich draws the table (and imports dataclasses)
        unwanted |= {"rich", "dataclasses"}
    assert not loaded & unwanted, sorted(loaded & unwanted)


def test_accord_smatch_with_intervals_still_builds_the_numpy_result(tmp_path, capsys):
    from accord.cli import main

    (tmp_path / "g.amr").write_text(SMATCH_PAIR, encoding="utf-8")
    (tmp_path / "p.amr").write_text(SMATCH_PAIR.replace("small", "big"), encoding="utf-8")
    assert main(["smatch", str(tmp_path / "g.amr"), str(tmp_path / "p.amr"), "--output", "json", "--bootstrap",
                 "20", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert '"ci"' in out and '"bootstrap": 20' in out


@pytest.mark.parametrize("columns", [None, "57", "0", "-3", "wide"])
def test_the_help_is_as_wide_as_argparse_makes_it_without_importing_shutil(monkeypatch, columns):
    """The parser measures the terminal as ``shutil.get_terminal_size`` does (argparse's own width), without
    importing shutil (and bz2, lzma) on every run."""
    import argparse
    import shutil

    from accord.cli._options import terminal_columns

    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert terminal_columns() == shutil.get_terminal_size().columns
    ours = cli.build_parser(["score"])._subparsers._group_actions[0].choices["score"]
    formatter = argparse.ArgumentParser._get_formatter(ours)      # argparse's own: shutil's width
    assert (formatter._width, formatter._max_help_position) == (ours._get_formatter()._width,
                                                                 ours._get_formatter()._max_help_position)
    help_text = ours.format_help()
    monkeypatch.setattr(ours, "_get_formatter", lambda: argparse.ArgumentParser._get_formatter(ours))
    assert help_text == ours.format_help()


def test_a_one_token_score_imports_no_shutil(tmp_path):
    for name in ("g.conll", "p.conll"):
        (tmp_path / name).write_text("w1 B-PER\n", encoding="utf-8")
    loaded = modules_after(["score", "g.conll", "p.conll"], cwd=tmp_path)
    assert "accord.formats.tokens.conll" in loaded
    assert not loaded & {"shutil", "bz2", "lzma"}, sorted(loaded & {"shutil", "bz2", "lzma"})
