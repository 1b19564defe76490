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


def _conll(path, tag):
    path.write_text(f"Ann B-{tag}\nmet O\n", encoding="utf-8")
    return path


def test_file_lists_and_glob_patterns(tmp_path):
    # issue 19.1: inputs given as many files, by a list (@list.txt) or a pattern; documents named by file
    import pytest

    from accord.errors import FormatError
    from accord.formats import read
    from accord.scoring import score

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    _conll(tmp_path / "a" / "d1.conll", "PER")
    _conll(tmp_path / "a" / "d2.conll", "LOC")
    _conll(tmp_path / "b" / "d3.conll", "ORG")
    (tmp_path / "list.txt").write_text("# two files\na/d1.conll\n\nb/d3.conll\n", encoding="utf-8")
    listed = read(f"@{tmp_path / 'list.txt'}")
    assert list(listed) == ["d1", "d3"] and listed.files == {"d1": "d1.conll", "d3": "d3.conll"}
    globbed = read(str(tmp_path / "**" / "*.conll"))
    assert list(globbed) == ["d1", "d2", "d3"]
    assert [a.label for d in globbed.values() for a in d.annotations] == ["PER", "LOC", "ORG"]
    # scored against the same files through a directory pattern: 3 matches
    assert score(str(tmp_path / "*" / "*.conll"), str(tmp_path / "**" / "*.conll")).totals.match == 3
    with pytest.raises(FormatError, match="matches no file"):
        read(str(tmp_path / "*.nothing"))
    (tmp_path / "bad.txt").write_text("a/d1.conll\nmissing.conll\n", encoding="utf-8")
    with pytest.raises(FormatError, match=r"bad.txt:2: 'missing.conll' is not a file"):
        read(f"@{tmp_path / 'bad.txt'}")
    _conll(tmp_path / "b" / "d1.conll", "PER")
    with pytest.raises(FormatError, match="comes from two files"):
        read(str(tmp_path / "*" / "d1.conll"))
