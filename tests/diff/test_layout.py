"""GATE's Corpus Benchmark layout (marked/ and processed/, subdirectories included; issue 44, item 9), on the
corpus of tests/diff/test_benchmark.py counted by hand there: 3 annotations fixed and 2 broken, the macro
precision over documents after 0.875."""

import json

import pytest
from tests.diff.test_benchmark import AFTER, BEFORE, KEY, corpus

from accord.cli import main
from accord.formats import write as write_format


def _gate(spec, folder, prefix=""):
    folder.mkdir(parents=True, exist_ok=True)
    for doc in corpus(spec).values():
        if doc.id.startswith(prefix):
            write_format(corpus([s for s in spec if s[0] == doc.id]), folder / f"{doc.id}.xml", "gate")


def _run(capsys, *args):
    code = main(["benchmark", *map(str, args), "--output", "json"])
    captured = capsys.readouterr()
    return code, captured


def test_marked_and_processed_are_the_key_and_the_stored_run(tmp_path, capsys):
    _gate(KEY, tmp_path / "bench" / "marked")
    _gate(BEFORE, tmp_path / "bench" / "processed")
    _gate(AFTER, tmp_path / "new")
    code, out = _run(capsys, tmp_path / "bench", tmp_path / "bench", tmp_path / "new")
    assert code == 0, out.err
    result = json.loads(out.out)
    directions = sorted(r["direction"] for r in result["changed"])
    assert directions == ["broken", "broken", "fixed", "fixed", "fixed"]
    assert result["measures"]["after"]["macro_by_document"]["precision"] == pytest.approx(0.875)


def test_subdirectories_are_corpora_too(tmp_path, capsys):
    # one document in each of two nested layouts; the new run a second tree of the same layout
    for sub, doc in (("s1", "d1"), ("deeper/s2", "d2")):
        _gate(KEY, tmp_path / "old" / sub / "marked", doc)
        _gate(BEFORE, tmp_path / "old" / sub / "processed", doc)
        (tmp_path / "new" / sub / "marked").mkdir(parents=True)
        _gate(AFTER, tmp_path / "new" / sub / "processed", doc)
    code, out = _run(capsys, tmp_path / "old", tmp_path / "old", tmp_path / "new")
    assert code == 0, out.err
    result = json.loads(out.out)
    assert sorted((r["document"], r["direction"]) for r in result["changed"]) == [
        ("deeper/s2/d2", "broken"), ("s1/d1", "broken"), ("s1/d1", "fixed"), ("s1/d1", "fixed"), ("s1/d1", "fixed")]
    assert result["measures"]["after"]["macro_by_document"]["precision"] == pytest.approx(0.875)


def test_a_serial_datastore_is_refused_naming_it(tmp_path, capsys):
    _gate(KEY, tmp_path / "bench" / "marked")
    store = tmp_path / "bench" / "processed"
    (store / "gate.corpora.DocumentImpl").mkdir(parents=True)
    (store / "__GATE_SerialDataStore__").write_text("1\n")
    code, out = _run(capsys, tmp_path / "bench", tmp_path / "bench", tmp_path / "bench")
    assert code == 2 and "serial datastore" in out.err and "processed" in out.err
    (store / "__GATE_SerialDataStore__").unlink()
    # a Java-serialized document without the marker: named by its file
    (store / "gate.corpora.DocumentImpl" / "d1___1").write_bytes(b"\xac\xed\x00\x05sr\x00")
    code, out = _run(capsys, tmp_path / "bench", tmp_path / "bench", tmp_path / "bench")
    assert code == 2 and "d1___1" in out.err and "Java-serialized" in out.err


def test_a_layout_without_processed_is_refused(tmp_path, capsys):
    _gate(KEY, tmp_path / "bench" / "marked")
    code, out = _run(capsys, tmp_path / "bench", tmp_path / "bench", tmp_path / "bench")
    assert code == 2 and "no processed/" in out.err and len(out.err.strip().splitlines()) == 1
