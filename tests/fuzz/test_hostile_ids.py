"""Fuzz: hostile document ids for every command that names files after them, hostile task files for every command
that reads them. Nothing is written outside the output folder (a snapshot of the folder around it, before and after),
nothing named by a data file is imported, and each run is a result or one clear error (harness.run)."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from accord._support.safe_paths import document_id

from .harness import PROFILE, run

settings.load_profile(PROFILE)

HOSTILE = ["../x", "/abs/x", "a/b", "..", ".", "", "CON", "nul.txt", "x" * 300, "a\0b", "C:x", "a\\b", "..\\..\\x",
           "~", "-", "%2E%2E", "é" * 120, "line\nbreak", " ", "trailing.", "COM1"]
COLLIDING = [("Doc", "doc"), ("caf\u00e9", "cafe\u0301")]

FRAGMENTS = st.sampled_from(["..", "/", "\\", ".", "\0", "\n", "\t", "C:", "CON", "%", "%2F", "~", "é", "x", " ",
                             "aux", "LPT1", "-"])
ids = st.one_of(st.sampled_from(HOSTILE), st.lists(FRAGMENTS, min_size=1, max_size=8).map("".join),
                st.text(min_size=1, max_size=30))

TEXT = "John lives in Paris"


def _docs(doc_ids):
    return [{"id": i, "text": TEXT, "annotations": [{"label": "PER", "start": 0, "end": 4}]} for i in doc_ids]


def _snapshot(root: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(root)): (p.read_bytes() if p.is_file() else None) for p in root.rglob("*")}


def _in_sandbox(doc_ids, argv_of):
    """Write the documents to a fresh folder, run the command built by ``argv_of(folder)``, and check that only
    ``folder/out`` changed; returns the run and the folder."""
    root = Path(tempfile.mkdtemp(prefix="accord-hostile-"))
    work = root / "work"
    work.mkdir()
    (work / "in.jsonl").write_text("".join(json.dumps(d) + "\n" for d in _docs(doc_ids)), encoding="utf-8")
    (work / "in2.jsonl").write_text("".join(json.dumps(d) + "\n" for d in _docs(doc_ids)), encoding="utf-8")
    before = _snapshot(root)
    cwd = os.getcwd()
    os.chdir(work)        # a relative id ("../x") would land beside the output folder, in work/ or root/
    try:
        result = run(argv_of(work))
    finally:
        os.chdir(cwd)
    after = _snapshot(root)
    changed = {k for k in set(before) | set(after) if before.get(k, 0) != after.get(k, 0)}
    assert all(k == "work/out" or k.startswith("work/out/") for k in changed), sorted(changed)
    out = work / "out"
    if result.status == 0 and out.is_dir():
        for p in out.iterdir():       # plain names only, and none a temporary left behind
            assert not p.name.startswith(".") and "accord-tmp" not in p.name, p.name
    return result, out, root


def _cleanup(root: Path) -> None:
    import shutil

    shutil.rmtree(root, ignore_errors=True)


WRITERS = {
    "brat": lambda w: ["convert", "in.jsonl", "out", "--to", "brat", "-q"],
    "mat-json": lambda w: ["convert", "in.jsonl", "out", "--to", "mat-json", "-q"],
    "xml-inline": lambda w: ["convert", "in.jsonl", "out", "--to", "xml-inline", "-q"],
    "adjudicate": lambda w: ["adjudicate", "in.jsonl", "in2.jsonl", "-o", "out", "--out-format", "brat", "-q"],
    "mat-csv": lambda w: ["score", "in.jsonl", "in2.jsonl", "--mat-csv", "out", "-q", "-o", "out/s.json"],
}


@pytest.mark.parametrize("writer", sorted(WRITERS))
@pytest.mark.parametrize("doc_id", HOSTILE)
def test_every_hostile_id_in_every_writer(writer, doc_id):
    doc_ids = [doc_id, "ok"] if doc_id != "ok" else [doc_id]
    result, out, root = _in_sandbox(doc_ids, WRITERS[writer])
    try:
        if result.status == 2:
            assert "accord: error:" in result.stderr
        elif writer in ("brat", "mat-json", "xml-inline", "adjudicate"):
            names = {p.name for p in out.iterdir()}
            ext = {"brat": ".ann", "mat-json": ".json", "xml-inline": ".xml", "adjudicate": ".ann"}[writer]
            stems = {document_id(n[: -len(ext)]) for n in names if n.endswith(ext)}
            cut = [n for n in names if "%~" in n and n.endswith(ext)]
            assert stems - {None} <= set(doc_ids) and len(stems - {None}) + len(cut) == len(set(doc_ids))
    finally:
        _cleanup(root)


@pytest.mark.parametrize("writer", ["brat", "mat-json", "adjudicate"])
@pytest.mark.parametrize("pair", COLLIDING)
def test_ids_sharing_a_file_are_one_error(writer, pair):
    result, out, root = _in_sandbox(list(pair), WRITERS[writer])
    try:
        assert result.status == 2 and repr(pair[0]) in result.stderr and repr(pair[1]) in result.stderr
        assert not out.exists()
    finally:
        _cleanup(root)


@pytest.mark.slow
@settings(max_examples=30 if os.environ.get("ACCORD_FULL") != "1" else 300)
@given(st.lists(ids, min_size=1, max_size=4, unique=True), st.sampled_from(sorted(WRITERS)))
@example(["../x", "/tmp/accord-hostile-abs"], "brat")
def test_generated_ids_never_write_outside(doc_ids, writer):
    _, _, root = _in_sandbox(doc_ids, WRITERS[writer])
    _cleanup(root)


# -- task files naming code -------------------------------------------------------------------------------------------
TASK = """<task><annotation_set_descriptors><annotation_set_descriptor name='content'>
<annotation label='PER'/></annotation_set_descriptor></annotation_set_descriptors>
<score_profile><partition_decomposition method={method} true_labels='PER'/></score_profile></task>"""

METHODS = ["this:x", "os:system", "subprocess:run", "builtins:exec", "importlib:import_module", "accord_mark:f",
           "..:x", ":x", "x:", "a:b:c", "os.path:join", "\0:x", "sys:exit", "ctypes:CDLL", "antigravity:x"]
READERS = {
    "score": lambda w: ["score", "in.jsonl", "in2.jsonl", "--task", "task.xml", "-q"],
    "report": lambda w: ["report", "in.jsonl", "in2.jsonl", "--task", "task.xml", "-o", "out", "--bootstrap", "0",
                         "-q"],
    "compare": lambda w: ["compare", "in.jsonl", "in.jsonl", "in2.jsonl", "--task", "task.xml", "-q"],
}


@pytest.fixture
def marker(tmp_path, monkeypatch):
    """A module ``accord_mark`` on sys.path whose import writes a mark file."""
    mark = tmp_path / "imported"
    (tmp_path / "accord_mark.py").write_text(f"open({str(mark)!r}, 'w').close()\ndef f(a, d):\n    return 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield mark
    sys.modules.pop("accord_mark", None)


@pytest.mark.parametrize("command", sorted(READERS))
@pytest.mark.parametrize("method", METHODS)
def test_a_task_file_naming_code_imports_nothing(command, method, marker):
    from xml.sax.saxutils import quoteattr

    modules = set(sys.modules)
    root = Path(tempfile.mkdtemp(prefix="accord-hostile-task-"))
    try:
        (root / "in.jsonl").write_text("".join(json.dumps(d) + "\n" for d in _docs(["a"])), encoding="utf-8")
        (root / "in2.jsonl").write_text("".join(json.dumps(d) + "\n" for d in _docs(["a"])), encoding="utf-8")
        (root / "task.xml").write_text(TASK.format(method=quoteattr(method.replace("\0", ""))), encoding="utf-8")
        cwd = os.getcwd()
        os.chdir(root)
        try:
            result = run(READERS[command](root))
        finally:
            os.chdir(cwd)
        assert result.status == 2 and "accord: error:" in result.stderr
        assert not marker.exists()
        new = {m for m in set(sys.modules) - modules if not m.startswith(("accord", "encodings"))}
        assert not new & {"this", "antigravity", "ctypes", "accord_mark", "subprocess"}
    finally:
        import shutil

        shutil.rmtree(root, ignore_errors=True)


def test_the_same_task_file_with_plugins_scores(marker, tmp_path):
    (tmp_path / "in.jsonl").write_text("".join(json.dumps(d) + "\n" for d in _docs(["a"])), encoding="utf-8")
    (tmp_path / "task.xml").write_text(TASK.format(method="'accord_mark:f'"), encoding="utf-8")
    result = run(["score", str(tmp_path / "in.jsonl"), str(tmp_path / "in.jsonl"), "--task", str(tmp_path / "task.xml"),
                  "--plugins", "accord_mark", "--output", "json", "-q"])
    assert result.status == 0 and marker.exists()
    assert json.loads(result.stdout)["decompositions"]["PER"]["accord_mark:f=1"]["match"] == 1
