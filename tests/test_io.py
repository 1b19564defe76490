"""Reading text: encodings, byte-order marks and undecodable bytes, through every text reader."""

from __future__ import annotations

import json

import pytest

from accord._io import read_text, text_encoding
from accord.cli import main
from accord.errors import AccordError, FormatError, OptionError
from tests.result.contract import checked


def test_bom_is_dropped_and_line_endings_kept(tmp_path):
    p = tmp_path / "x.txt"
    p.write_bytes(b"\xef\xbb\xbfa\r\nb\n")
    assert read_text(p) == "a\r\nb\n"


def test_encoding_argument_and_context(tmp_path):
    p = tmp_path / "x.txt"
    p.write_bytes("Müller".encode("latin-1"))
    with pytest.raises(FormatError, match=r"x\.txt.*not utf-8 text.*at byte 1 .*--encoding"):
        read_text(p)
    assert read_text(p, "latin-1") == "Müller"
    with text_encoding("cp1252"):
        assert read_text(p) == "Müller"
    with pytest.raises(OptionError, match="unknown text encoding 'klingon'"):
        read_text(p, "klingon")


def test_utf16_with_bom(tmp_path):
    p = tmp_path / "x.txt"
    p.write_bytes("\ufeffé".encode("utf-16-le"))
    assert read_text(p, "utf-16") == "é"


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(FormatError, match="cannot read"):
        read_text(tmp_path / "nope.txt")
    with pytest.raises(FormatError, match="is a directory"):
        read_text(tmp_path)


# one valid file per reader, and the byte 0xff (never UTF-8) put in its middle
_MAT = {"signal": "John ran.", "version": 2, "asets": [{"type": "PER", "attrs": [], "annots": [[0, 4]]}]}
_JSONL = {"id": "d", "text": "John ran.", "annotations": [{"label": "PER", "start": 0, "end": 4}]}
READERS = {
    "conll": ("x.conll", "John B-PER\nran O\n", ["score", "{gold}", "{pred}", "--format", "conll"]),
    "brat": ("x.ann", "T1\tPER 0 4\tJohn\n", ["score", "{gold}", "{pred}", "--format", "brat"]),
    "mat-json": ("x.json", json.dumps(_MAT), ["score", "{gold}", "{pred}", "--format", "mat-json"]),
    "jsonl": ("x.jsonl", json.dumps(_JSONL) + "\n", ["score", "{gold}", "{pred}", "--format", "jsonl"]),
    "penman": ("x.amr", "(r / run-01\n   :ARG0 (j / John))\n", ["smatch", "{gold}", "{pred}"]),
    "coref": ("x.conll", "#begin document (d); part 000\nd 0 0 John (1)\n#end document\n",
              ["coref", "{gold}", "{pred}", "--format", "conll2012"]),
    "ratings": ("x.csv", "a,b\nx,y\ny,y\n", ["agree", "{gold}"]),
    "taxonomy": ("x.tsv", "A\tB\n", ["bdm", "{gold}"]),
}


@pytest.mark.parametrize("reader", sorted(READERS))
def test_undecodable_bytes_name_file_and_offset(tmp_path, capsys, reader):
    name, text, argv = READERS[reader]
    good = tmp_path / ("good_" + name)
    good.write_text(text, encoding="utf-8")
    bad = tmp_path / ("bad_" + name)
    raw = text.encode("utf-8")
    cut = len(raw) // 2
    bad.write_bytes(raw[:cut] + b"\xff" + raw[cut + 1:])
    if reader == "brat":
        for stem in ("good_x", "bad_x"):
            (tmp_path / (stem + ".txt")).write_text("John ran.", encoding="utf-8")
    args = [a.format(gold=bad, pred=good) for a in argv]
    assert main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Traceback" not in err[0]
    assert str(bad) in err[0] or bad.name in err[0]
    assert f"at byte {cut}" in err[0] and "--encoding" in err[0]


def test_task_xml_undecodable(tmp_path):
    from accord.schema import load_task

    p = tmp_path / "task.xml"
    p.write_bytes(b"<task name='\xff'/>")
    with pytest.raises(AccordError, match="task.xml"):
        load_task(p)


def test_encoding_option_reads_latin1_conll(tmp_path, capsys):
    gold = tmp_path / "g.conll"
    gold.write_bytes("Müller B-PER\nlief O\n".encode("latin-1"))
    assert main(["score", str(gold), str(gold), "--encoding", "latin-1", "--output", "json"]) == 0
    result = checked(capsys.readouterr().out)
    assert result["totals"]["match"] == 1 and result["totals"]["f1"] == 1.0
    assert main(["score", str(gold), str(gold), "--encoding", "klingon"]) == 2
    assert "--encoding: unknown text encoding" in capsys.readouterr().err


def test_bom_conll_against_plain_conll(tmp_path, capsys):
    gold = tmp_path / "g.conll"
    pred = tmp_path / "p.conll"
    body = "EU B-ORG\nrejects O\nGerman B-MISC\n"
    gold.write_text(body, encoding="utf-8")
    pred.write_bytes(b"\xef\xbb\xbf" + body.encode("utf-8"))
    assert main(["score", str(gold), str(pred), "--output", "json"]) == 0
    totals = checked(capsys.readouterr().out)["totals"]
    assert (totals["match"], totals["missing"], totals["spurious"]) == (2, 0, 0)
