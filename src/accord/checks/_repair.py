"""``accord repair``: a tag file with its invalid transitions repaired as seqscore repairs them.

Each sentence holding an invalid transition is read under the scheme with the repair method (``conlleval``: an
invalid tag begins a chunk, as conlleval.pl reads it; ``discard``: the chunks holding an invalid transition are
dropped) and written back in the scheme; only the tag fields that change are rewritten, every other byte of the
file is kept. For IOB2 this is seqscore's ``repair`` (``conlleval``: ``I-X`` after ``O`` becomes ``B-X``;
``discard``: it becomes ``O``), for IOB1 seqscore's ``conlleval`` (``B-X`` after ``O`` becomes ``I-X``).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import OptionError, RepairWarning
from ..model import tagging
from ._columns import classify, read_tag_column

__all__ = ["Repair", "repair_file", "SHOWN"]

SHOWN = 5
"""How many changed tags the warning names."""


@dataclass(frozen=True)
class Repair:
    """The repaired text, and every changed tag: ``(line, old, new)``."""

    text: str
    changes: tuple[tuple[int, str, str], ...]


def repair_file(path: str | Path, *, scheme: str = "IOB2", method: str = "conlleval", tag_column: int = -1,
                encoding: str | None = None) -> Repair:
    """The text of ``path`` with its invalid tag sequences repaired (see the module's description).

    Raises
    ------
    OptionError
        An unknown scheme or method.
    FormatError, SchemeError
        The file is not a column file, or holds a tag the scheme does not have (the wrong scheme, which a repair
        cannot fix).
    """
    canon = tagging.canonical_scheme(scheme)
    if method not in ("conlleval", "discard"):
        raise OptionError(f"--method: {method!r} is not a repair method; expected conlleval or discard")
    col = read_tag_column(path, tag_column, encoding)
    table, d_prefix, d_types, wrong = classify(col.distinct, canon)
    bad = [k for k, w in enumerate(wrong) if w]
    if bad:
        first = int(np.flatnonzero(np.isin(col.index, bad))[0])
        table.intern([col.tag(first)], where=_At(col.path, int(col.lines[first])))   # raises, naming the line
    if not len(col.index):
        return Repair(col.text, ())
    prefix, types = d_prefix[col.index], d_types[col.index]
    chunks = tagging.decode(prefix, types, col.first, scheme=canon, repair=method)
    if not len(chunks.invalid):
        return Repair(col.text, ())
    n = len(col.index)
    starts = np.flatnonzero(col.first)
    ends = np.append(starts[1:], n)
    sentence_of = np.searchsorted(starts, chunks.invalid, side="right") - 1
    chunk_sentence = np.searchsorted(starts, chunks.start, side="right") - 1
    changes: list[tuple[int, str, str]] = []      # (token, old tag, new tag) in file order
    for s in np.unique(sentence_of).tolist():
        a, b = int(starts[s]), int(ends[s])
        mine = np.flatnonzero(chunk_sentence == s)
        spans = [(table.types[int(chunks.type_id[k])], int(chunks.start[k]) - a, int(chunks.end[k]) - a)
                 for k in mine.tolist()]
        new = tagging.encode(spans, b - a, canon)
        for j, tag in enumerate(new):
            if tag != col.tag(a + j):
                changes.append((a + j, col.tag(a + j), tag))
    tag_fields = col.cols.tags      # type: ignore[attr-defined]
    pieces, at = [], 0
    for i, _old, tag in changes:
        s, e = int(tag_fields.starts[i]), int(tag_fields.ends[i])
        pieces.append(col.text[at:s])
        pieces.append(tag)
        at = e
    pieces.append(col.text[at:])
    listed = tuple((int(col.lines[i]), old, tag) for i, old, tag in changes)
    shown = ", ".join(f"line {line} {old!r} -> {tag!r}" for line, old, tag in listed[:SHOWN])
    more = f" and {len(listed) - SHOWN:,} more" if len(listed) > SHOWN else ""
    warnings.warn(RepairWarning(f"{col.path}: {len(chunks.invalid):,} invalid {canon} transition(s) repaired "
                                f"({method}), {len(listed):,} tag(s) changed: {shown}{more}", path=col.path,
                                method=method, count=len(chunks.invalid)), stacklevel=2)
    return Repair("".join(pieces), listed)


@dataclass(frozen=True)
class _At:
    path: object
    line: int

    def at(self, i: int) -> dict[str, object]:
        return {"path": self.path, "line": self.line}
