"""The plain table writer (report/plain_table.py) against rich itself: the same characters for every table it
draws, rich for the rest; the one-cell rule against rich's ``cell_len`` for every code point."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from accord.report.plain_table import PlainConsole, RecordedTable, _one_cell, plain_text, plain_width
from accord.report.table import TableConsole, new_table, print_table

DATA = Path(__file__).resolve().parents[1] / "data" / "conll03"


def both(build, width=80, caption=None):
    """What a plain console and a rich console of the same width write for the table ``build()`` makes."""
    plain, rich = io.StringIO(), io.StringIO()
    print_table(PlainConsole(TableConsole, file=plain, width=width, caption=caption), build())
    print_table(TableConsole(file=rich, width=width, caption=caption), build())
    return plain.getvalue(), rich.getvalue()


def scores_table():
    t = new_table("profile lenient", ["label", "gold", "pred", "P %", "F1 %"])
    t.add_row("PER", "1", "12", "100.00", "—", style="dim")
    t.add_row("LOC-x\x1b", "12345", "0", "5.00", "33.33")
    t.add_section()
    t.add_row("ALL", "12346", "12", "8.00", "9.99", style="bold")
    t.add_row("macro", "", "", "50.00", "—")
    return t


def test_the_one_cell_rule_agrees_with_richs_cell_widths_for_every_code_point():
    from rich.cells import cell_len

    wrong = [hex(o) for o in range(sys.maxunicode + 1) if _one_cell(chr(o)) and cell_len(chr(o)) != 1]
    assert not wrong, wrong[:20]


def test_a_table_that_fits_is_written_by_the_plain_writer_as_rich_writes_it():
    table = scores_table()
    text = plain_text(table, 80, "a.conll vs b.conll · pairs, profile strict · 1 document")
    assert text is not None       # drawn without rich
    plain, rich = both(scores_table, caption="a.conll vs b.conll · pairs, profile strict · 1 document")
    assert plain == rich == text
    # a hand check of the shape: title centred over the table, heavy head, a rule under the section
    lines = text.splitlines()
    assert lines[0].strip() == "profile lenient" and len(lines[0]) == len(lines[1])
    assert lines[1] == " label     ┃ gold  ┃ pred ┃ P %    ┃ F1 %  "
    assert lines[4] == " LOC-x\\x1b │ 12345 │ 0    │ 5.00   │ 33.33 "
    assert lines[5] == "─" * 11 + "┼" + "─" * 7 + "┼" + "─" * 6 + "┼" + "─" * 8 + "┼" + "─" * 7


@pytest.mark.parametrize("width", [10, 30, 40, 46, 47, 48, 200])
def test_a_table_narrower_than_its_console_or_not_is_the_same_either_way(width):
    plain, rich = both(scores_table, width=width, caption="the caption under it")
    assert plain == rich


@pytest.mark.parametrize("cells", [("  PER [sub]", "1"), ("a  b", "2"), ("trail ", "3"), (" ", "4"), ("", "5"),
                                   ("[red]x[/red]", "6"), (":smile:", "7"), ("東京", "8"), ("e\u0301", "9"),
                                   ("tab\there", "1"), ("Straße", "10"), ("→ ok", "11")])
def test_cells_the_plain_writer_may_refuse_are_still_written_as_rich_writes_them(cells):
    def build():
        t = new_table(None, ["label", "n"])
        t.add_row(*cells)
        return t
    plain, rich = both(build)
    assert plain == rich


@pytest.mark.parametrize("title", [None, "", "t", "[b]bold[/b]", "a:b:", "a title far longer than the table is"])
def test_titles_are_written_as_rich_writes_them(title):
    def build():
        t = new_table(title, ["label", "n"])
        t.add_row("x", "1")
        return t
    plain, rich = both(build)
    assert plain == rich


def test_an_empty_table_and_a_section_after_the_last_row_are_written_as_rich_writes_them():
    def empty():
        return new_table("nothing", ["label", "n"])

    def trailing():
        t = new_table(None, ["label", "n"])
        t.add_row("x", "1")
        t.add_section()
        t.add_section()
        return t
    for build in (empty, trailing):
        plain, rich = both(build, caption="c")
        assert plain == rich


def test_a_styled_cell_goes_to_rich():
    from rich.text import Text

    def build():
        t = new_table(None, ["label", "n"])
        t.add_row(Text("x", style="red"), "1")
        return t
    assert plain_text(build(), 80, None) is None
    plain, rich = both(build)
    assert plain == rich


def test_the_plain_width_is_richs_width_for_a_file(monkeypatch):
    from rich.console import Console

    for columns in (None, "52", "0", "x"):
        if columns is None:
            monkeypatch.delenv("COLUMNS", raising=False)
        else:
            monkeypatch.setenv("COLUMNS", columns)
        assert plain_width() == Console(file=io.StringIO()).width


def test_a_recorded_table_is_a_rich_table_to_everything_else():
    t = scores_table()
    assert isinstance(t, RecordedTable)
    assert [c.header for c in t.columns] == ["label", "gold", "pred", "P %", "F1 %"]
    t.add_row("more", "1", "2", "3", "4")      # after the rich table exists, calls go to it
    assert t.row_count == 5


@pytest.mark.parametrize("extra", [[], ["--profile", "lenient"]])
def test_piped_accord_score_is_byte_identical_to_richs_and_imports_no_rich(extra):
    """The whole command: ``FORCE_COLOR=""`` keeps rich (rich still draws for a file with it) and is the peer."""
    if not DATA.is_dir():
        pytest.skip("tests/data/conll03 absent")
    argv = [sys.executable, "-c", "import sys\nfrom accord.cli import main\ncode = main(sys.argv[1:])\n"
            "sys.stderr.write('rich loaded\\n' if 'rich' in sys.modules else '')\nsys.exit(code)",
            "score", str(DATA / "gold.conll"), str(DATA / "xlm_flert.conll"), *extra]
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE", "COLUMNS")}
    plain = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120)
    rich = subprocess.run(argv, capture_output=True, text=True, env={**env, "FORCE_COLOR": ""}, timeout=120)
    assert plain.returncode == rich.returncode == 0, plain.stderr + rich.stderr
    assert plain.stdout == rich.stdout and "ALL" in plain.stdout
    assert "rich loaded" not in plain.stderr and "rich loaded" in rich.stderr


@pytest.mark.parametrize("width", [8, 9, 10, 11, 12, 13, 14, 20, 79, 80])
@pytest.mark.parametrize("caption", ["tests/data/conll03/gold.conll vs tests/data/conll03/xlm_flert.conll · pairs, "
                                     "profile strict · 231 documents", "ab cd efgh i jk lmnop q", "abcdefghijk lm",
                                     "a  b", " lead", "nb\xa0sp x"])
def test_a_caption_wider_than_the_console_wraps_as_rich_wraps_it(caption, width):
    def build():
        t = new_table(None, ["l", "n"])
        t.add_row("x", "1")
        return t
    plain, rich = both(build, width=width, caption=caption)
    assert plain == rich
    if width >= 9 and "  " not in caption and caption[0] != " " and "\xa0" not in caption \
            and max(map(len, caption.split())) <= width:
        assert plain_text(build(), width, caption) is not None
