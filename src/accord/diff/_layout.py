"""GATE's Corpus Benchmark layout (user guide 10.4): a directory holding ``marked/`` (the human-marked documents, the
key) and ``processed/`` (the stored run), read as the benchmark's sides.

GATE's tool recurses into subdirectories: every directory under the one given that holds ``marked/`` is one such
corpus; the documents of a nested one are named ``<its path>/<name>`` (on every side, so that they pair). GATE keeps
``processed/`` as a serial datastore, whose documents are Java-serialized objects: accord reads the documents of
``processed/`` as files of a format it reads (GATE XML, as GATE Developer saves them) and refuses a serial datastore,
naming the file, rather than reading nothing.
"""

from __future__ import annotations

import gzip
import os
from pathlib import Path
from typing import Any

from ..errors import FormatError

__all__ = ["layout_dirs", "read_layout"]

DATASTORE_MARKER = "__GATE_SerialDataStore__"
"""The file GATE writes at the top of a serial datastore."""
_JAVA_MAGIC = b"\xac\xed"
"""The first two bytes of a Java serialization stream."""


def layout_dirs(path: Any) -> list[Path]:
    """The directories of GATE's benchmark layout under ``path`` (itself included): those holding ``marked/``,
    sorted; empty when ``path`` is not a directory or holds none."""
    if not isinstance(path, (str, os.PathLike)):
        return []
    p = Path(path)
    if not p.is_dir():
        return []
    return sorted({m.parent for m in p.rglob("marked") if m.is_dir()} | ({p} if (p / "marked").is_dir() else set()))


def _java_serialized(f: Path) -> bool:
    try:
        with f.open("rb") as fh:
            head = fh.read(2)
        if head == b"\x1f\x8b":
            with gzip.open(f, "rb") as gz:
                head = gz.read(2)
    except OSError:
        return False
    return head == _JAVA_MAGIC


def _check_part(folder: Path, part: str) -> None:
    if not folder.is_dir():
        raise FormatError(f"GATE's benchmark layout: this directory has marked/ but no {part}/ (the "
                          f"{'key' if part == 'marked' else 'stored run'})", path=folder.parent)
    if (folder / DATASTORE_MARKER).exists():
        raise FormatError(f"a GATE serial datastore ({DATASTORE_MARKER}): its documents are Java-serialized "
                          f"objects, which accord does not read; save them as GATE XML files in {part}/ (GATE "
                          "Developer: Save as XML)", path=folder)
    for f in sorted(folder.rglob("*")):
        if f.is_file() and _java_serialized(f):
            raise FormatError("a Java-serialized document (a GATE serial datastore's), which accord does not "
                              f"read; save it as a GATE XML file in {part}/ (GATE Developer: Save as XML)", path=f)


def read_layout(path: Any, part: str, format: str | None, annotation_set: str | None,
                discontinuous: str = "fragments") -> Any:
    """The corpus of ``part`` (``"marked"`` or ``"processed"``) of GATE's benchmark layout at ``path``, or None when
    ``path`` is not such a layout (then it is read as it is).

    Raises
    ------
    FormatError
        A layout directory without ``part``, or whose ``part`` is a serial datastore (Java-serialized documents).
    """
    from ..model import Corpus
    from ..pipeline._inputs import load_side

    dirs = layout_dirs(path)
    if not dirs:
        return None
    top = Path(path)
    docs: list[Any] = []
    for d in dirs:
        folder = d / part
        _check_part(folder, part)
        corpus = load_side(str(folder), format, annotation_set, "gold" if part == "marked" else "pred",
                           discontinuous)
        prefix = "" if d == top else d.relative_to(top).as_posix() + "/"
        docs.extend(doc._replace(id=prefix + doc.id) if prefix else doc for doc in corpus.values())
    return Corpus(docs, name=os.fspath(path))
