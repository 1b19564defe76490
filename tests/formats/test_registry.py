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
            "heavy = sorted(m for m in ('numpy', 'scipy', 'rich', 'jinja2', 'accord.formats.tokens.conll', "
            "'accord.formats.text.gate') if m in sys.modules); print(','.join(heavy))")
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
            "print(','.join(m for m in ('accord.formats.text.gate', 'accord.formats.tokens.vrt', 'accord.formats.text.brat', "
            "'xml.sax.saxutils') if m in sys.modules))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and run.stdout.strip() == "", run.stderr


def _conll(path, tag):
    path.write_text(f"Ann B-{tag}\nmet O\n", encoding="utf-8")
    return path


def test_file_lists_and_glob_patterns(tmp_path):
    # issue 19.1: inputs given as many files, by a list (@list.txt) or a pattern; documents named by file
    import pytest

    from accord import score
    from accord.errors import FormatError
    from accord.formats import read

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


# -- issue 33: file lists that are not text, folders sniffed by content, formats of no extension, hints


def test_a_file_list_that_is_not_utf8_is_an_error_naming_the_byte(tmp_path, capsys):
    import pytest

    from accord.cli import main
    from accord.errors import FormatError
    from accord.formats import read

    _conll(tmp_path / "a.conll", "PER")
    (tmp_path / "list.txt").write_bytes(b"a.conll\n\xff\xfebad\n")
    with pytest.raises(FormatError, match=r"cannot read the file list .*list\.txt: not utf-8 text: .* at byte 8"):
        read(f"@{tmp_path / 'list.txt'}")
    # before: exit 3, UnicodeDecodeError at utf_8_sig.py
    assert main(["score", f"@{tmp_path / 'list.txt'}", f"@{tmp_path / 'list.txt'}"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    (tmp_path / "long.txt").write_text("x" * 5000 + "\n")
    with pytest.raises(FormatError, match=r"long\.txt:1: 'x+…x+' \(5,000 characters\) is not a file"):
        read(f"@{tmp_path / 'long.txt'}")   # (a name too long for the system: no OSError, a bounded quote)
    (tmp_path / "nul.txt").write_text("a.conll\na\0b\n")
    with pytest.raises(FormatError, match=r"nul\.txt: a NUL byte at byte 9: a binary file"):
        read(f"@{tmp_path / 'nul.txt'}")


def _jsonl_doc(doc_id, label):
    import json

    return json.dumps({"id": doc_id, "text": "John", "annotations": [{"label": label, "start": 0, "end": 4}]}) + "\n"


def test_a_folder_of_jsonl_files_is_sniffed_by_content(tmp_path):
    import json

    import pytest

    from accord.errors import FormatError
    from accord.formats import read, sniff

    ours = tmp_path / "ours"
    ours.mkdir()
    (ours / "a.jsonl").write_text(_jsonl_doc("d1", "PER"))
    (ours / "b.jsonl").write_text(_jsonl_doc("d2", "LOC"))
    # before: "cannot tell the format of this directory from its file extensions"
    assert sniff(ours).name == "jsonl"
    assert [a.label for d in read(ours).values() for a in d.annotations] == ["PER", "LOC"]
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "a.jsonl").write_text(json.dumps({"text": "John", "label": [[0, 4, "PER"]]}) + "\n")
    assert sniff(theirs).name == "doccano"
    (theirs / "b.jsonl").write_text(_jsonl_doc("d2", "LOC"))
    with pytest.raises(FormatError, match=r"several formats \(a\.jsonl \(doccano\), b\.jsonl \(jsonl\)\)"):
        sniff(theirs)


def test_fake_xml_inline_reads_a_folder(tmp_path):
    from accord.formats import read

    (tmp_path / "a.txt").write_text("John <PER>Smith</PER> lives")
    (tmp_path / "b.sgml").write_text("in <LOC>Rome</LOC>")
    (tmp_path / ".hidden").write_text("<X>never</X>")
    corpus = read(tmp_path, format="fake-xml-inline")   # before: "no fake-xml-inline files () in this directory"
    assert sorted((d, a.label) for d, doc in corpus.items() for a in doc.annotations) == [("a", "PER"), ("b", "LOC")]


def test_a_label_studio_configuration_is_named(tmp_path):
    import pytest

    from accord.errors import FormatError
    from accord.formats import read

    (tmp_path / "config.xml").write_text('<View>\n  <Labels name="label" toName="text"/>\n</View>\n')
    with pytest.raises(FormatError, match="a Label Studio labelling configuration"):
        read(tmp_path / "config.xml")


def test_the_format_hint_names_the_commands_option(tmp_path, capsys):
    from accord.cli import main

    (tmp_path / "what.json").write_text("[1, 2]")
    assert main(["convert", str(tmp_path / "what.json"), str(tmp_path / "o.jsonl")]) == 2
    err = capsys.readouterr().err
    assert "give it with --from" in err and "--format" not in err   # before: --format, which convert does not take
    assert main(["score", str(tmp_path / "what.json"), str(tmp_path / "what.json")]) == 2
    assert "give it with --format" in capsys.readouterr().err


def test_standard_input_is_named_as_given(tmp_path, capsys, monkeypatch):
    import io
    import sys

    from accord.cli import main

    _conll(tmp_path / "p.conll", "PER")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b'{"a": 1}\n')))
    assert main(["score", "-", str(tmp_path / "p.conll"), "--gold-format", "jsonl"]) == 2
    err = capsys.readouterr().err
    # before: /tmp/accord-stdin-XXXXXXXX:1: ...
    assert err.startswith("accord: error: <stdin>:1: ") and "accord-stdin" not in err, err
