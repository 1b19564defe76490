"""Reading text: encodings, byte-order marks and undecodable bytes, through every text reader."""

from __future__ import annotations

import json

import pytest

from accord._support.io import read_text, text_encoding
from accord.cli import main
from accord.errors import AccordError, FormatError, OptionError
from tests._peak import PEAK_KB
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
    from accord.model.schema import load_task

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


# -- issue 33: binary files (1 GB of NUL bytes read as CoNLL was exit 3, after gigabytes of memory)


def _sparse_nuls(path, size):
    """A file of ``size`` NUL bytes that takes no disk space (a sparse file)."""
    with open(path, "wb") as fh:
        fh.truncate(size)
    return path


@pytest.mark.timing
def test_nul_bytes_are_refused_from_the_head_without_reading_the_file(tmp_path):
    import time
    import tracemalloc

    p = _sparse_nuls(tmp_path / "nul.conll", 50 << 20)
    tracemalloc.start()
    start = time.monotonic()
    try:
        with pytest.raises(FormatError, match=r"nul\.conll: a NUL byte at byte 0: a binary file, not utf-8 text"):
            read_text(p)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert time.monotonic() - start < 1.0
    assert peak < 1 << 20, peak   # the first 64 KB, not the 50 MB (before: the file, decoded, then split)


@pytest.mark.timing
def test_nul_bytes_under_every_reader_through_the_command(tmp_path, capsys):
    import time

    p = _sparse_nuls(tmp_path / "nul.bin", 50 << 20)
    for fmt in ("conll", "conllu", "jsonl", "doccano", "label-studio", "mat-json", "brat", "vrt", "xml-inline",
                "fake-xml-inline", "webanno-tsv"):
        start = time.monotonic()
        assert main(["score", str(p), str(p), "--format", fmt]) == 2, fmt
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "internal error" not in err, (fmt, err)
        assert time.monotonic() - start < 5, fmt


def test_a_nul_byte_past_the_head_and_in_a_shard(tmp_path):
    from accord._support.io import HEAD_BYTES, read_text_range

    p = tmp_path / "late.conll"
    text = "John B-PER\n" * (HEAD_BYTES // 11 + 10)
    p.write_bytes(text.encode() + b"x\0 O\n")
    with pytest.raises(FormatError, match=f"a NUL byte at byte {len(text) + 1}"):
        read_text(p)
    with pytest.raises(FormatError, match=f"a NUL byte at byte {len(text) + 1}"):
        read_text_range(str(p), len(text), None)
    # undecodable bytes are found in the head too, before any NUL after them
    p.write_bytes(b"ok O\n\xff\0")
    with pytest.raises(FormatError, match="not utf-8 text: invalid start byte at byte 5"):
        read_text(p)


def test_a_character_cut_at_the_end_of_the_head_is_not_an_error(tmp_path):
    from accord._support.io import HEAD_BYTES

    p = tmp_path / "cut.txt"
    body = "a" * (HEAD_BYTES - 1) + "é" * 10    # "é" is 2 bytes: the head ends inside the first
    p.write_text(body, encoding="utf-8")
    assert read_text(p) == body


@pytest.mark.timing
@pytest.mark.slow
def test_one_gigabyte_of_nul_bytes_as_conll(tmp_path):
    """The issue's case, in a process of its own to measure its memory."""
    import subprocess
    import sys
    import time

    p = _sparse_nuls(tmp_path / "nul.conll", 1 << 30)
    code = ("import resource, sys; from accord.cli import main; status = main(sys.argv[1:]); "
            f"print({PEAK_KB}, status)")
    start = time.monotonic()
    out = subprocess.run([sys.executable, "-c", code, "score", str(p), str(p)], check=False, capture_output=True, text=True,
                         timeout=120)
    elapsed = time.monotonic() - start
    rss_kb, status = map(int, out.stdout.split())
    assert status == 2 and "a NUL byte at byte 0: a binary file" in out.stderr, out.stderr
    assert rss_kb < 300 << 10, rss_kb      # before: exit 3 (MemoryError) after gigabytes
    assert elapsed < 20


@pytest.mark.timing
def test_standard_input_is_spooled_without_holding_it(tmp_path, monkeypatch, capsys):
    import io
    import sys
    import tracemalloc

    p = _sparse_nuls(tmp_path / "big", 64 << 20)
    (tmp_path / "p.conll").write_text("John B-PER\n")
    with open(p, "rb") as raw:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(raw))
        tracemalloc.start()
        try:
            assert main(["score", "-", str(tmp_path / "p.conll"), "--format", "conll"]) == 2
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert "<stdin>: a NUL byte at byte 0" in capsys.readouterr().err
    assert peak < 16 << 20, peak    # before: the 64 MB read whole, then written


@pytest.mark.parametrize("command", ["score", "coref", "smatch"])
def test_a_compressed_input_is_named_as_such(tmp_path, capsys, command):
    """A gzip-compressed file (as corpora ship) is refused as compressed, with how to decompress it, rather than as
    text in the wrong encoding or a format accord cannot tell."""
    import gzip

    from accord.cli import main

    packed = tmp_path / "gold.conll.gz"
    packed.write_bytes(gzip.compress(b"John B-PER\nran O\n" * 50))
    assert main([command, str(packed), str(packed)]) == 2
    err = capsys.readouterr().err
    assert err.strip() == f"accord: error: {packed}: a gzip-compressed file: decompress it first (gunzip -k FILE)"
