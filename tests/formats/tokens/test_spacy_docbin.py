"""spaCy ``.spacy`` files: a DocBin that inflates beyond the limit is refused before the memory is spent."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import tracemalloc
import zlib
from pathlib import Path

import pytest

from accord.cli import main
from accord.errors import FormatError

spacy = pytest.importorskip("spacy")

from accord.formats.tokens import spacy_docbin
from tests._peak import PEAK_KB

OUTSIDE = Path(__file__).resolve().parents[3] / ".." / "shared" / "corpora" / "outside3b" / "spacy"


def _bomb(path: Path, inflated: int) -> int:
    """A DocBin-like file: a msgpack map whose 'tokens' value is ``inflated`` zero bytes, zlib-compressed a
    megabyte at a time (the test never holds the inflated bytes). Returns the file's size."""
    shell = b"\x81" + b"\xa6tokens" + b"\xc6" + inflated.to_bytes(4, "big")   # {"tokens": bin32 of N bytes}
    packer = zlib.compressobj(9)
    chunk = bytes(1 << 20)
    with path.open("wb") as fh:
        fh.write(packer.compress(shell))
        left = inflated
        while left:
            n = min(left, len(chunk))
            fh.write(packer.compress(chunk[:n]))
            left -= n
        fh.write(packer.flush())
    return path.stat().st_size


@pytest.mark.timing
def test_a_bomb_is_refused_naming_the_limit_with_a_chunk_of_memory(tmp_path, monkeypatch):
    monkeypatch.setattr(spacy_docbin, "MAX_INFLATED_BYTES", 64 << 20)
    bomb = tmp_path / "bomb.spacy"
    size = _bomb(bomb, 256 << 20)
    assert size < 1 << 20      # a quarter of a gigabyte in less than a megabyte
    tracemalloc.start()
    try:
        with pytest.raises(FormatError, match=r"bomb\.spacy: inflates to more than 67,108,864 bytes"):
            spacy_docbin.read_docbin(bomb)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # before: DocBin.from_bytes inflated the whole 256 MB (then msgpack copied it); now a chunk of 1 MB at a time
    assert peak < 8 << 20, peak


def test_a_file_under_the_limit_still_reads(tmp_path):
    nlp = spacy.blank("en")
    doc = nlp.make_doc("John lives in Rome")
    doc.ents = [doc.char_span(0, 4, label="PER"), doc.char_span(14, 18, label="LOC")]
    from spacy.tokens import DocBin

    path = tmp_path / "ok.spacy"
    DocBin(docs=[doc]).to_disk(path)
    corpus = spacy_docbin.read_docbin(path)
    assert [(a.label, a.start, a.end) for a in corpus.documents[0].annotations] == [("PER", 0, 4), ("LOC", 14, 18)]


@pytest.mark.parametrize("name", ["healthsea_spancat_dev.spacy", "ner_tweets_demo.spacy", "ud_english_ewt_dev.spacy"])
def test_real_docbins_are_under_the_limit(name):
    path = OUTSIDE / name
    if not path.exists():
        pytest.skip(f"{path} is not on this machine")
    size = spacy_docbin.inflated_size(path.read_bytes(), spacy_docbin.MAX_INFLATED_BYTES)
    assert size == len(zlib.decompress(path.read_bytes()))


def test_damaged_and_cut_zlib_are_errors(tmp_path):
    cut = tmp_path / "cut.spacy"
    cut.write_bytes(zlib.compress(b"\x80" * 5000)[:-10])
    with pytest.raises(FormatError, match="cut short"):
        spacy_docbin.read_docbin(cut)
    damaged = tmp_path / "damaged.spacy"
    damaged.write_bytes(b"this is no zlib")
    with pytest.raises(FormatError, match="not a spaCy DocBin file"):
        spacy_docbin.read_docbin(damaged)


@pytest.mark.timing
@pytest.mark.slow
def test_a_4_gb_bomb_from_the_command_line(tmp_path):
    """The issue's case: a 4 MB file inflating to 4 GB peaked at 3.7 GB before its error."""
    full = os.environ.get("ACCORD_FULL") == "1"
    inflated = (4 << 30) - 64 if full else (1 << 30) + (64 << 20)   # beyond the limit of 1 GiB either way
    bomb = tmp_path / "bomb.spacy"
    _bomb(bomb, inflated)
    code = ("import resource, sys; from accord.cli import main; status = main(sys.argv[1:]); "
            f"print({PEAK_KB}, status)")
    start = time.monotonic()
    out = subprocess.run([sys.executable, "-c", code, "score", str(bomb), str(bomb)], check=False, capture_output=True,
                         text=True, timeout=300)
    elapsed = time.monotonic() - start
    rss_kb, status = map(int, out.stdout.split())
    assert status == 2 and "inflates to more than 1,073,741,824 bytes" in out.stderr, out.stderr
    assert rss_kb < 600 << 10, rss_kb    # spaCy's import and a chunk: far from the inflated gigabytes
    assert elapsed < 60


def test_command_line_error_is_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(spacy_docbin, "MAX_INFLATED_BYTES", 1 << 20)
    bomb = tmp_path / "b.spacy"
    _bomb(bomb, 4 << 20)
    assert main(["score", str(bomb), str(bomb)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "inflates to more than 1,048,576 bytes" in err
