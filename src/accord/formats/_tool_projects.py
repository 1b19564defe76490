"""Project layouts of Label Studio, Prodigy, doccano and brat (registered in :mod:`accord.formats.projects`).

* ``label-studio``: a Label Studio JSON export; its annotators are the users of the annotations (``completed_by``)
  and the optional ``predictions`` (:func:`accord.formats.text.label_studio.read_label_studio_annotators`).
* ``prodigy``: a Prodigy JSON-lines file; its annotators are the tasks' ``_annotator_id`` (else ``_session_id``)
  (:func:`accord.formats.text.prodigy.read_prodigy_annotators`); or a folder of Prodigy files, one annotator each
  (:func:`accord.formats.text.prodigy.read_prodigy_files`).
* ``doccano``: the unzipped export of a doccano project without collaborative annotation, a folder of
  ``USER.jsonl`` files, one per member (two or more, every one a doccano export); the annotator is the file's name.
* ``brat``: a folder of one subfolder per annotator, each holding the annotator's ``.ann``/``.txt`` files
  (bratiaa's layout; the ``annotation.conf`` and other files at the root are not read).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import FormatError
from ..model import Corpus
from ._project_registry import MAX_ENTRIES, register

__all__: list[str] = []


def _is_file(p: Path) -> bool:
    try:
        return p.is_file()
    except (OSError, ValueError):
        return False


def _is_dir(p: Path) -> bool:
    try:
        return p.is_dir()
    except (OSError, ValueError):
        return False


def _sniffed(p: Path, name: str) -> bool:
    """Whether the file ``p`` is of the format ``name`` as sniffing tells (by content among formats sharing the
    extension)."""
    from ._registry import sniff

    try:
        return sniff(p).name == name
    except (FormatError, OSError, ValueError):
        return False


def _detect_label_studio(p: Path) -> bool:
    return _is_file(p) and p.suffix.lower() == ".json" and _sniffed(p, "label-studio")


def _read_label_studio(p: Path, **options: Any) -> dict[str, Corpus]:
    from .text.label_studio import read_label_studio_annotators

    return read_label_studio_annotators(p, encoding=options.get("encoding"))


def _detect_prodigy(p: Path) -> bool:
    if _is_file(p):
        return _sniffed(p, "prodigy")
    files = _jsonl_files(p)
    return len(files) >= 2 and all(_sniffed(f, "prodigy") for f in files[:_SNIFFED])


def _read_prodigy(p: Path, **options: Any) -> dict[str, Corpus]:
    from .text.prodigy import read_prodigy_annotators, read_prodigy_files

    kept = {"encoding": options.get("encoding"), "answers": options.get("answers")}
    if _is_file(p):
        return read_prodigy_annotators(p, **kept)
    return read_prodigy_files(_jsonl_files(p), **kept)


_SNIFFED = 20
"""The files of a folder of doccano or Prodigy files sniffed to recognise it (every file is read in that format)."""


def _jsonl_files(p: Path) -> list[Path]:
    if not _is_dir(p):
        return []
    files = []
    try:
        for k, f in enumerate(p.iterdir()):
            if k >= MAX_ENTRIES:
                raise FormatError(f"more than {MAX_ENTRIES:,} entries in this project: refused before reading",
                                  path=p)
            if f.suffix.lower() == ".jsonl" and not f.name.startswith(".") and _is_file(f):
                files.append(f)
    except OSError:
        return []
    return sorted(files)


def _detect_doccano(p: Path) -> bool:
    files = _jsonl_files(p)
    return len(files) >= 2 and all(_sniffed(f, "doccano") for f in files[:_SNIFFED])


def _read_doccano(p: Path, **options: Any) -> dict[str, Callable[[], Corpus]]:
    from .text.doccano import read_doccano

    def reader(f: Path) -> Callable[[], Corpus]:
        return lambda: read_doccano(f, encoding=options.get("encoding"))
    return {f.stem: reader(f) for f in _jsonl_files(p)}


def _detect_brat(p: Path) -> bool:
    from .text.brat import annotator_folders

    return _is_dir(p) and annotator_folders(p, MAX_ENTRIES) is not None


def _read_brat(p: Path, **options: Any) -> dict[str, Callable[[], Corpus]]:
    from .text.brat import read_annotator_folders

    keep = {k: v for k, v in options.items() if k in ("discontinuous", "encoding")}
    return read_annotator_folders(p, MAX_ENTRIES, **keep)


register("label-studio", _detect_label_studio, _read_label_studio,
         "Label Studio JSON export: the users of the annotations (completed_by), and the predictions",
         optional=("predictions",))
register("prodigy", _detect_prodigy, _read_prodigy, "Prodigy JSON lines: the tasks' _annotator_id or _session_id")
register("doccano", _detect_doccano, _read_doccano, "doccano export without collaborative annotation: USER.jsonl files")
register("brat", _detect_brat, _read_brat, "brat: one folder per annotator of .ann/.txt files (bratiaa's layout)")
