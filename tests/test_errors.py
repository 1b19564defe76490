"""Messages quote input within bounds: a long span, line or field is shortened with an ellipsis and its length."""

from __future__ import annotations

import json

import pytest

from accord.cli import main
from accord.errors import FormatError, quoted
from accord.formats import read


def test_quoted_keeps_short_values_as_repr():
    assert quoted("John") == "'John'"
    assert quoted(3) == "3" and quoted([0, 1]) == "[0, 1]"
    assert quoted("it's") == repr("it's")


def test_quoted_shortens_long_values_with_their_length():
    long = "a" * 30 + "b" * 1_000_000 + "c" * 30
    q = quoted(long)
    assert q.startswith("'aaaa") and "…" in q and q.endswith("cccc' (1,000,060 characters)")
    assert len(q) < 100
    assert quoted(list(range(10_000))).endswith("characters)") and len(quoted(list(range(10_000)))) < 100


def test_brat_quote_mismatch_of_a_long_span_is_one_short_line(tmp_path, capsys):
    # the case: a 1 MB span quoted wrongly printed a 2 MB line
    (tmp_path / "d.txt").write_text("x" * 1_000_000)
    (tmp_path / "d.ann").write_text("T1\tPER 0 1000000\t" + "y" * 1_000_000 + "\n")
    with pytest.raises(FormatError, match=r"d\.ann:1: T1 quotes 'y+…y+' \(1,000,000 characters\) but the text at "
                                          r"0-1000000 is 'x+…x+' \(1,000,000 characters\)"):
        read(tmp_path / "d.ann")
    assert main(["score", str(tmp_path), str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and len(err) < 400 + len(str(tmp_path)), len(err)


def test_brat_long_lines_and_ids_are_shortened(tmp_path):
    (tmp_path / "d.txt").write_text("John")
    (tmp_path / "d.ann").write_text("T" + "9" * 100_000 + "\n")
    with pytest.raises(FormatError) as err:
        read(tmp_path / "d.ann")
    assert len(str(err.value)) < 300 and "(100,001 characters)" in str(err.value)
    (tmp_path / "d.ann").write_text("T1\tPER 0 4\tJohn\nR1\tRel " + "x" * 100_000 + "\n")
    with pytest.raises(FormatError) as err:
        read(tmp_path / "d.ann")
    assert len(str(err.value)) < 300 and "bad relation argument" in str(err.value)


def test_conll_and_doccano_quotes_are_shortened(tmp_path):
    (tmp_path / "x.conll").write_text("John B-PER\n" + "w " * 50_000 + "O\n")
    with pytest.raises(FormatError) as err:
        read(tmp_path / "x.conll")
    assert len(str(err.value)) < 300 and "expected 2 columns" in str(err.value)
    (tmp_path / "x.jsonl").write_text(json.dumps({"text": "ab", "label": [[0, 1, "L" * 100_000, 4]]}) + "\n")
    with pytest.raises(FormatError) as err:
        read(tmp_path / "x.jsonl", format="doccano")
    assert len(str(err.value)) < 300 and "expected [start, end, label]" in str(err.value)


# every reader names a file as the user gave it (a relative path stays relative)
_BAD = {
    "brat": ("d.ann", "T1\tPER 0 4\tNope\n"), "conll": ("d.conll", "a B-X\nb\n"), "conllu": ("d.conllu", "1\ta\n"),
    "jsonl": ("d.jsonl", "{}\n"), "doccano": ("d.jsonl", '{"label": []}\n'), "mat-json": ("d.json", "{"),
    "label-studio": ("d.json", "[1]"), "vrt": ("d.vrt", "<text>\na\tb\nc\n</text>\n"),
    "webanno-tsv": ("d.tsv", "nope\n"), "xml-inline": ("d.xml", "<a>"), "gate": ("d.xml", "<"),
    "xmi": ("d.xmi", "<"), "spacy": ("d.spacy", "no"),
}


@pytest.mark.parametrize("fmt", sorted(_BAD))
def test_errors_name_the_path_as_given(tmp_path, monkeypatch, capsys, fmt):
    name, content = _BAD[fmt]
    (tmp_path / "rel").mkdir()
    (tmp_path / "rel" / name).write_text(content)
    (tmp_path / "rel" / "d.txt").write_text("John")
    monkeypatch.chdir(tmp_path)
    status = main(["score", f"rel/{name}", f"rel/{name}", "--format", fmt])
    err = capsys.readouterr().err
    if status == 0 or "needs" in err:   # (an optional reader not installed: its own message)
        pytest.skip(err)
    assert status == 2 and str(tmp_path) not in err, err
    assert "rel/" in err, err


def test_an_xmi_type_system_is_named_as_given(tmp_path, monkeypatch, capsys):
    pytest.importorskip("cassis")
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "a.xmi").write_text('<?xml version="1.0"?><xmi:XMI xmlns:xmi="http://www.omg.org/XMI" '
                                          'xmi:version="2.0"></xmi:XMI>')
    (tmp_path / "x" / "TypeSystem.xml").write_text("<bad")
    monkeypatch.chdir(tmp_path)
    assert main(["score", "x/a.xmi", "x/a.xmi"]) == 2
    err = capsys.readouterr().err
    # before: /tmp/.../x/TypeSystem.xml, the resolved path, where every other reader names rel/... as given
    assert err.startswith("accord: error: x/TypeSystem.xml: not a UIMA type system"), err


def test_vrt_and_mat_json_quotes_are_shortened(tmp_path):
    (tmp_path / "x.vrt").write_text("<text>\nJohn\tB-PER\n" + "w\t" * 50_000 + "O\n</text>\n")
    with pytest.raises(FormatError) as err:
        read(tmp_path / "x.vrt", format="vrt")
    assert len(str(err.value)) < 300 and "characters)" in str(err.value)
    mat = {"signal": "John", "version": 2, "asets": [{"type": "PER", "attrs": [], "annots": [[0, "9" * 100_000]]}]}
    (tmp_path / "x.json").write_text(json.dumps(mat))
    with pytest.raises(FormatError) as err:
        read(tmp_path / "x.json", format="mat-json")
    assert len(str(err.value)) < 300
