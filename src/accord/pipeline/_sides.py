"""How the sides of a comparison meet: two single files pair as given, offsets are brought to one unit.

:func:`meet` is called wherever two (or more) corpora are compared, once they are read: it pairs single files
(:func:`pair_single_files`) and places a token side on the text of a character side
(:func:`accord.pipeline._offset_units.unify_units`).

Two single files compared pair as given, whatever their names (``accord score gold.json pred.json``).

Documents pair by id, and a file read alone names its document after the file (``gold.json`` holds ``gold``), so
two files of different names would hold no document in common. As MATScore's ``--file``/``--ref_file`` and every
other scorer do, :func:`pair_single_files` pairs the one document of each file under the first side's id; files
that hold several documents (JSON lines, CoNLL with ``-DOCSTART-``) pair document by document, by their ids inside
the files. Two documents that both files name inside (JSON lines' ``id``) and name differently are paired too, with
a warning naming both. Folders, lists and patterns of files pair by file name as before.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import AccordWarning
from ..model import Corpus

__all__ = ["is_single_file", "meet", "pair_single_files"]


def meet(corpora: Sequence[Corpus], sources: Sequence[Any], sides: Sequence[str] | None = None) -> list[Corpus]:
    """The corpora of a comparison ready to pair by document id: single files paired as given, every document in
    one offset unit.

    Parameters
    ----------
    corpora : sequence of Corpus
        The sides as read.
    sources : sequence
        What each side was read from (a path, or a Python object), as given by the caller.
    sides : sequence of str, optional
        What each side is called in messages (``gold``, ``predicted``; ``key``, ``response``...).
    """
    from ._offset_units import unify_units

    corpora = pair_single_files(corpora, sources)
    names = [str(s) if isinstance(s, (str, os.PathLike)) else (c.name or f"<{type(s).__name__}>")
             for c, s in zip(corpora, sources)]
    return unify_units(corpora, names, sides)


def is_single_file(source: Any) -> bool:
    """Whether an input is a path naming one regular file (not a folder, a ``@list`` or a pattern)."""
    if not isinstance(source, (str, os.PathLike)):
        return False
    try:
        return Path(source).is_file()
    except (OSError, ValueError):
        return False


def pair_single_files(corpora: Sequence[Corpus], sources: Sequence[Any]) -> list[Corpus]:
    """The corpora, the one document of each renamed to the first's id when every source is a single file holding
    one document; as they are otherwise.

    The renamed corpora keep the file each document came from in :attr:`~accord.model.Corpus.files` (under its
    new id), as MAT's CSV files name them.
    """
    corpora = list(corpora)
    if len(corpora) < 2 or not all(len(c) == 1 for c in corpora) or not all(map(is_single_file, sources)):
        return corpora
    target = next(iter(corpora[0]))
    out = [corpora[0]]
    for corpus, source in zip(corpora[1:], sources[1:]):
        (doc_id, doc), = corpus.items()
        if doc_id == target:
            out.append(corpus)
            continue
        if _named_inside(target, sources[0]) and _named_inside(doc_id, source):
            warnings.warn(f"{sources[0]} and {source} hold one document each, named {target!r} and {doc_id!r} "
                          "inside the files: compared as given, as two files are", AccordWarning, stacklevel=3)
        files = {target: corpus.files.get(doc_id, Path(source).name)}
        out.append(Corpus([doc._replace(id=target)], name=corpus.name, files=files))
    return out


def _named_inside(doc_id: str, source: Any) -> bool:
    """Whether a file's one document is named inside the file (JSON lines' ``id``, CoNLL-U's ``newdoc id``), not
    after the file nor by its position."""
    return doc_id not in (Path(source).stem, "1")
