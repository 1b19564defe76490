"""The format registry loads readers on first use: its static table says what the modules register."""

import subprocess
import sys

from accord.formats import _registry


def test_the_builtin_table_equals_what_the_modules_register():
    _registry._load()
    registered = {f.name: f.extensions for f in _registry._FORMATS.values()}
    assert {name: exts for name, (_, exts) in _registry.BUILTIN_FORMATS.items()} == registered
    assert _registry.names() == sorted(registered)
    # sniffing tries the formats in the table's order, whichever module was imported first
    assert [f.name for f in _registry._ordered()] == list(_registry.BUILTIN_FORMATS)


def test_import_and_help_load_no_reader_and_no_numpy():
    code = ("import sys, accord; from accord.cli import build_parser; "
            "[p.format_help() for p in [build_parser()]]; "
            "heavy = sorted(m for m in ('numpy', 'scipy', 'rich', 'jinja2', 'accord.formats.conll', "
            "'accord.formats.gate') if m in sys.modules); print(','.join(heavy))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == ""
    help_text = subprocess.run([sys.executable, "-m", "accord", "score", "--help"], capture_output=True, text=True,
                               timeout=60).stdout
    assert "conll      .conll, .conll03" in help_text and "spans      (by --format)" in help_text


def test_a_file_whose_extension_one_format_claims_loads_only_that_reader():
    from ..conftest import DATA

    code = ("import sys, warnings; warnings.simplefilter('ignore'); import accord; "
            f"accord.read({str(DATA / 'conll03' / 'gold.conll')!r}); "
            "print(','.join(m for m in ('accord.formats.gate', 'accord.formats.vrt', 'accord.formats.brat', "
            "'xml.sax.saxutils') if m in sys.modules))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and run.stdout.strip() == "", run.stderr
