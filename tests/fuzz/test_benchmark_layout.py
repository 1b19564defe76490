"""Fuzz: GATE's benchmark layout trees (marked/, processed/, nested corpora) with missing parts, a serial datastore's
marker, Java-serialized, gzipped, empty and broken files; accord benchmark gives a result or one clear error
(harness.run)."""

from __future__ import annotations

import gzip
import shutil
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from .harness import FULL, PROFILE, run

settings.load_profile(PROFILE)
EXAMPLES = 300 if FULL else 30
"""Trees per test (each run reads a small tree, about 0.1 s)."""

GATE = ("<?xml version='1.0' encoding='UTF-8'?>\n<GateDocument version=\"3\">\n<GateDocumentFeatures>\n"
        "</GateDocumentFeatures>\n<TextWithNodes><Node id=\"0\"/>Ann<Node id=\"3\"/> met Bob.<Node id=\"12\"/>"
        "</TextWithNodes>\n<AnnotationSet>\n{anns}</AnnotationSet>\n</GateDocument>\n")
ANN = "<Annotation Id=\"1\" Type=\"Person\" StartNode=\"0\" EndNode=\"3\">\n</Annotation>\n"
CONTENTS = {
    "gate": GATE.format(anns=ANN).encode(), "gate-empty": GATE.format(anns="").encode(), "empty": b"",
    "java": b"\xac\xed\x00\x05sr\x00\x17gate.corpora.DocumentImpl", "gzip-java": gzip.compress(b"\xac\xed\x00\x05"),
    "gzip-junk": gzip.compress(b"<x"), "broken": b"<GateDocument><TextWithNodes>", "binary": bytes(range(256)),
}
PARTS = st.sampled_from(["marked", "processed", "processed/__GATE_SerialDataStore__", "err", "clean"])
FILES = st.lists(st.tuples(st.sampled_from(["", "sub/", "sub/deeper/"]), PARTS, st.sampled_from(["d1.xml", "d2.xml",
                                                                                                  "d1___1", "x"]),
                           st.sampled_from(sorted(CONTENTS))), max_size=8)


@settings(max_examples=EXAMPLES)
@given(FILES, st.sampled_from(["same", "other"]))
def test_benchmark_on_layout_trees(files, after):
    tmp = Path(tempfile.mkdtemp())
    try:
        root = tmp / "bench"
        root.mkdir()
        for prefix, part, name, content in files:
            folder = root / prefix / part
            if part.endswith("__GATE_SerialDataStore__"):
                folder.parent.mkdir(parents=True, exist_ok=True)
                folder.write_bytes(b"")
                continue
            folder.mkdir(parents=True, exist_ok=True)
            (folder / name).write_bytes(CONTENTS[content])
        new = tmp / "new"
        new.mkdir()
        (new / "d1.xml").write_bytes(CONTENTS["gate"])
        run(["benchmark", str(root), str(root), str(root if after == "same" else new), "--output", "json"])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
