"""Fuzz: random project export trees (INCEpTION's annotation/<document>/<user>.tsv|.xmi, curation/..., as folders and
zipped) with hostile folder and file names, broken and empty files, stray entries; accord agree and accord adjudicate
on them give a result or one clear error (harness.run), and adjudicate's output lands in its output folder only."""

from __future__ import annotations

import os
import shutil
import tempfile
import zipfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from .harness import FULL, PROFILE, run

settings.load_profile(PROFILE)
EXAMPLES = 700 if FULL else 40
"""Trees per test: each run reads a folder tree (about 0.1 s); 40 keep the file under 10 s in CI."""

HEADER = "#FORMAT=WebAnno TSV 3.3\n#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|value\n\n\n"
TEXT = "Alice met Bob"


def _tsv(labels: tuple[str, str]) -> str:
    return (HEADER + f"#Text={TEXT}\n1-1\t0-5\tAlice\t{labels[0]}\t\n1-2\t6-9\tmet\t_\t\n"
            f"1-3\t10-13\tBob\t{labels[1]}\t\n")


# names a file system holds (no '/', no NUL), hostile to a careless reader or writer
HOSTILE = ["..x", "CON", "nul.txt", "-", "~", "%2E%2E", "%2F", "a\\b", "line\nbreak", " ", "trailing.", "é" * 60,
           "x" * 200, "CURATION_USER", "INITIAL_CAS", "curation", "TypeSystem.xml", ".hidden", "a b", "COM1"]
names = st.one_of(st.sampled_from(HOSTILE),
                  st.text(st.characters(blacklist_characters="/\0", blacklist_categories=("Cs",)), min_size=1,
                          max_size=20).filter(lambda n: n not in (".", "..") and len(n.encode()) < 200))
CONTENTS = st.sampled_from(["ok", "ok", "ok", "empty", "garbage", "short", "xmi", "dir", "binary"])
LABELS = st.tuples(st.sampled_from(["PER", "ORG", "_", "*", "PER[1]"]), st.sampled_from(["PER", "LOC", "_"]))


def _content(kind: str, labels: tuple[str, str]) -> bytes | None:
    return {"ok": _tsv(labels).encode(), "empty": b"", "garbage": b"#FORMAT=WebAnno TSV 3.3\n\x00\xff\xfe\n1-1\t9",
            "short": (HEADER + "#Text=a\n1-1\t0-1\n").encode(), "xmi": b"<not-xmi",
            "binary": bytes(range(256)), "dir": None}[kind]


tree = st.lists(st.tuples(st.sampled_from(["annotation", "curation"]), names, names,
                          st.sampled_from([".tsv", ".tsv", ".xmi", ".txt", ""]), CONTENTS, LABELS),
                min_size=0, max_size=8)


def _build(root: Path, entries) -> None:
    for kind, doc, user, ext, content, labels in entries:
        folder = root / kind / doc
        try:
            folder.mkdir(parents=True, exist_ok=True)
            data = _content(content, labels)
            target = folder / (user + ext)
            if data is None:
                target.mkdir(exist_ok=True)
            elif not target.exists():
                target.write_bytes(data)
        except OSError:          # a name this file system refuses (too long in bytes...): not part of the tree
            continue


def _snapshot(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


@settings(max_examples=EXAMPLES)
@given(tree, st.sampled_from([None, "a", "curation,a", "a,a", "x,y,z"]))
def test_agree_on_random_export_trees(entries, annotators):
    root = Path(tempfile.mkdtemp(prefix="accord-project-"))
    try:
        export = root / "export"
        export.mkdir()
        _build(export, entries)
        argv = ["agree", str(export)] + (["--annotators", annotators] if annotators else [])
        run(argv)
        run([*argv, "--output", "json"])
        archive = root / "export.zip"         # the same tree zipped, as INCEpTION gives it
        with zipfile.ZipFile(archive, "w") as z:
            for f in sorted(export.rglob("*")):
                if f.is_file():
                    z.write(f, "p/" + f.relative_to(export).as_posix())
        run(["agree", str(archive)] + (["--annotators", annotators] if annotators else []))
    finally:
        shutil.rmtree(root, ignore_errors=True)


@settings(max_examples=EXAMPLES)
@given(tree)
def test_adjudicate_on_random_export_trees_writes_inside_its_output(entries):
    root = Path(tempfile.mkdtemp(prefix="accord-project-"))
    cwd = os.getcwd()
    try:
        export = root / "export"
        export.mkdir()
        _build(export, entries)
        before = _snapshot(root)
        os.chdir(export)        # a document id such as ../x would land here, beside the output
        try:
            run(["adjudicate", str(export), "-o", str(root / "out"), "--out-format", "brat"])
        finally:
            os.chdir(cwd)
        changed = _snapshot(root) - before
        assert all(c == "out" or c.startswith("out/") for c in changed), sorted(changed)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def test_a_document_folder_named_like_a_path():
    """A document folder 'x..%2F..' and two annotators with valid files: read as a document named by its folder (by
    hand: both annotators mark Alice PER and Bob PER: observed agreement 1)."""
    root = Path(tempfile.mkdtemp(prefix="accord-project-"))
    try:
        _build(root, [("annotation", "x..%2F..", "u1", ".tsv", "ok", ("PER", "PER")),
                      ("annotation", "x..%2F..", "u2", ".tsv", "ok", ("PER", "PER"))])
        result = run(["agree", str(root), "--output", "json"])
        assert result.status == 0 and '"observed_agreement": 1.0' in result.stdout
    finally:
        shutil.rmtree(root, ignore_errors=True)
