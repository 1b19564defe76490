"""Shards: which parts of the inputs each worker reads, cut at document boundaries.

A column file (CoNLL) is cut at ``-DOCSTART-`` lines by byte offset: :func:`scan_marks` finds the lines that begin a
document in a byte range of the file (the ranges are scanned by the workers, in parallel, at the speed of a byte
search: nothing is parsed), and :func:`plan_shards` chooses cuts that give shards of about ``shard_bytes`` bytes.
Documents of a column file are numbered in file order and the gold and the predicted file pair by that number, so a
cut in the gold file is mirrored in the predicted file at the same document. Each piece knows the number of file
lines before it and the number of its first document, so that a worker reads exactly the documents, ids and line
numbers of reading the whole file.

Several files (a folder, a glob pattern, ``@list.txt``) are shared out file by file, a gold file and the predicted
file of the same name in one shard; a file of another format is one piece, read whole.

An input the plan cannot cut (one file of a format without documents boundaries, a file whose line breaks are not
all ``\\n`` or ``\\r\\n``, an encoding that is not ASCII-compatible, an object given in Python) is one shard.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .._support.io import check_encoding, read_bytes_range

__all__ = ["Piece", "Side", "Shard", "Marks", "scan_marks", "plan_shards", "byte_ranges", "DEFAULT_SHARD_BYTES"]

DEFAULT_SHARD_BYTES = 4 << 20
"""The input bytes of a shard when none is given (about 300,000 tokens of CoNLL): small enough for the work to
balance over the workers and for a worker's memory to stay near 200 MB, large enough that a shard's fixed costs
(a task, a count table sent back) stay below 1 % of its time."""

DOCSTART = b"-DOCSTART-"

_IRREGULAR_BREAKS = (b"\x0b", b"\x0c", b"\x1c", b"\x1d", b"\x1e", b"\xe2\x80\xa8", b"\xe2\x80\xa9")
"""Line breaks of ``str.splitlines`` besides ``\\n`` and ``\\r\\n`` (as UTF-8): a file holding one is read whole,
since its lines cannot be counted by counting newline bytes."""

_BYTE_ENCODINGS = ("utf-8", "ascii", "latin-1", "iso8859-", "cp125", "cp437", "cp850", "mac-roman")
"""Encodings in which ``\\n`` and the letters of ``-DOCSTART-`` are the bytes of ASCII, whatever the text around."""


def byte_compatible(encoding: str) -> bool:
    """Whether a file in ``encoding`` can be cut at the bytes of ASCII line breaks and ``-DOCSTART-``."""
    return check_encoding(encoding).startswith(_BYTE_ENCODINGS)


@dataclass(frozen=True)
class Piece:
    """A part of an input file that a worker reads: bytes ``start`` to ``end`` (``None``: to the end of the file).

    ``line_offset`` is the number of file lines before ``start`` and ``first_document`` the number of the first
    document in it (column files number their documents in file order); ``documents`` is how many documents the
    plan expects in it (``None`` for a whole file, read as it is).
    """

    path: str
    format: str
    start: int = 0
    end: int | None = None
    line_offset: int = 0
    first_document: int = 1
    documents: int | None = None

    @property
    def whole(self) -> bool:
        return self.start == 0 and self.end is None


@dataclass(frozen=True)
class Side:
    """One side of a shard: the pieces to read in order, the name of the whole input (the corpus name of messages),
    and whether documents are named by their files (several files: ``stem`` or ``stem:id``) or by the reader."""

    name: str
    pieces: tuple[Piece, ...]
    by_file: bool = False


@dataclass(frozen=True)
class Shard:
    """The work of one task: its number (shards are gathered in this order) and the pieces of each side."""

    index: int
    gold: Side
    pred: Side


@dataclass
class Marks:
    """What a scan of a byte range found: the offsets of the lines beginning a document in it and the newlines
    before each of them (from the range's start, or from the file's start once ranges are joined), the newline
    bytes in the range, and whether it holds a line break other than ``\\n`` and ``\\r\\n``."""

    offsets: list[int] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    newlines: int = 0
    irregular: bool = False

    @classmethod
    def join(cls, parts: Sequence[Marks]) -> Marks:
        """The marks of consecutive ranges as those of their union (line counts from the first range's start)."""
        out = cls()
        for part in parts:
            out.offsets.extend(part.offsets)
            out.lines.extend(n + out.newlines for n in part.lines)
            out.newlines += part.newlines
            out.irregular |= part.irregular
        return out


def byte_ranges(size: int, parts: int) -> list[tuple[int, int]]:
    """``parts`` consecutive ranges covering ``[0, size)`` (fewer for a small file)."""
    parts = max(1, min(parts, size // 4096 or 1))
    cuts = [size * k // parts for k in range(parts + 1)]
    return [(a, b) for a, b in zip(cuts, cuts[1:]) if b > a] or [(0, size)]


def scan_marks(path: str, start: int, end: int, encoding: str = "utf-8") -> Marks:
    """The ``-DOCSTART-`` lines that begin in bytes ``[start, end)`` of a column file, and its newlines there.

    A line begins a document when its first field is ``-DOCSTART-``: it may be indented by spaces or tabs and
    ``-DOCSTART-`` is followed by whitespace or the end of the file. (Rarer spellings, such as an indent of a
    non-breaking space, are not found here; the workers count the documents they read, and a count that differs
    from the plan's makes the command score in one process, see :mod:`accord.parallel`.)

    The range is looked at by numpy in slices of :data:`SLICE` bytes (a comparison a byte, its mask a slice long
    whatever the range's size): where ``-D`` occurs, then the newlines, those before each mark counted from the mark
    before it.
    """
    lead = 1 if start > 0 else 0
    data = read_bytes_range(path, start - lead, end + len(DOCSTART) + 1)
    body_end = end - start + lead
    out = Marks()
    out.irregular = _irregular(data, lead, body_end, encoding)
    found = []
    for at in _occurrences(data, lead, body_end + len(DOCSTART)):
        line = at
        while line > 0 and data[line - 1] in b" \t":
            line -= 1
        after = data[at + len(DOCSTART): at + len(DOCSTART) + 1]
        if (line == 0 and start == 0 or line > 0 and data[line - 1:line] == b"\n") and after in (
                b"", b" ", b"\t", b"\n", b"\r") and lead <= line < body_end:
            found.append(line)
    out.lines, out.newlines = _newlines(data, lead, body_end, found)
    out.offsets = [start - lead + line for line in found]
    return out


SLICE = 1 << 20
"""Bytes of a scanned range compared at a time (for `-DOCSTART-` and for newlines)."""


def _irregular(data: bytes, lo: int, hi: int, encoding: str) -> bool:
    """Whether ``data[lo:hi]`` holds a line break other than ``\\n`` and ``\\r\\n``. The bytes 11 to 30 (the
    ASCII breaks, ``\\r`` and other controls) are looked for at once by numpy and ``\\xe2`` (the first byte of
    U+2028 and U+2029) by a byte search; only where they occur is each break searched for."""
    import numpy as np

    buf = np.frombuffer(data, dtype=np.uint8)
    controls = any(bool(((buf[a:min(a + SLICE, hi)] - np.uint8(11)) <= 19).any()) for a in range(lo, hi, SLICE))
    for b in _IRREGULAR_BREAKS:
        if (controls if len(b) == 1 else data.find(b[:1], lo, hi) != -1) and data.find(b, lo, hi) != -1:
            return True
    if controls and data.find(b"\r", lo, hi) != -1 and data.count(b"\r", lo, hi) != data.count(b"\r\n", lo, hi + 1):
        return True
    return not check_encoding(encoding).startswith("utf") and data.find(b"\x85", lo, hi) != -1


def _occurrences(data: bytes, lo: int, hi: int) -> list[int]:
    """The offsets ``at`` in ``[lo, hi)`` where ``data`` holds ``-DOCSTART-``: its first two bytes found by numpy
    (rare elsewhere: two comparisons of 16-bit words, at even and at odd offsets), each checked."""
    import numpy as np

    hi = min(hi, len(data) - len(DOCSTART) + 1)
    word = int.from_bytes(DOCSTART[:2], "little")
    out: list[int] = []
    for a in range(lo, hi, SLICE):
        b = min(a + SLICE, hi)
        found = []
        for parity in (0, 1):      # words beginning at offsets a + parity, a + parity + 2, ...
            first = a + parity
            count = (b - first + 1) // 2
            if count <= 0:
                continue
            words = np.frombuffer(data, dtype="<u2", count=count, offset=first)
            found.append(np.flatnonzero(words == word) * 2 + first)
        at = np.sort(np.concatenate(found)) if len(found) > 1 else found[0] if found else ()
        out.extend(k for k in np.asarray(at).tolist() if data.startswith(DOCSTART, k))
    return out


def _newlines(data: bytes, lo: int, hi: int, cuts: list[int]) -> tuple[list[int], int]:
    """The newline bytes of ``data[lo:cut]`` for each of ``cuts`` (ascending, in ``[lo, hi)``), and of
    ``data[lo:hi]``."""
    import numpy as np

    buf = np.frombuffer(data, dtype=np.uint8)
    before: list[int] = []
    total, k = 0, 0
    for a in range(lo, hi, SLICE):
        b = min(a + SLICE, hi)
        is_newline = buf[a:b] == 10
        at = a
        while k < len(cuts) and cuts[k] < b:
            total += int(np.count_nonzero(is_newline[at - a:cuts[k] - a]))
            at = cuts[k]
            before.append(total)
            k += 1
        total += int(np.count_nonzero(is_newline[at - a:]))
    return before, total


def plan_shards(gold: InputPlan, pred: InputPlan, shard_bytes: int, min_shards: int) -> list[Shard] | str:
    """The shards of a comparison, or why the inputs cannot be cut (said in the warning)."""
    if gold.kind == "files" and pred.kind == "files":
        return _plan_files(gold, pred, shard_bytes, min_shards)
    if gold.kind == "column" and pred.kind == "column":
        count = max(min_shards, math.ceil((gold.size + pred.size) / shard_bytes))
        return _plan_columns(gold, pred, count)
    if gold.kind == "whole" or pred.kind == "whole":
        return gold.why or pred.why
    return "a folder or several files cannot be paired with one file"


@dataclass
class InputPlan:
    """What the planner knows of one side's input.

    ``kind`` is ``column`` (one column file, with its document marks), ``files`` (several files, each read whole)
    or ``whole`` (anything else: one piece, ``why`` says why).
    """

    kind: str
    name: str
    format: str = ""
    files: list[str] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    marks: Marks | None = None
    prefix_document: bool = False
    why: str = ""

    @property
    def size(self) -> int:
        return sum(self.sizes)


def _plan_columns(gold: InputPlan, pred: InputPlan, count: int) -> list[Shard] | str:
    """Shards of a gold and a predicted column file: cut at the first gold mark at or after each of ``count - 1``
    evenly spaced byte offsets, and in the predicted file at the mark of the same document."""
    import bisect

    gm, pm = gold.marks, pred.marks
    assert gm is not None and pm is not None
    if gm.irregular or pm.irregular:
        return "a file holds line breaks other than \\n and \\r\\n"
    cuts: list[tuple[int, int, int]] = []     # (gold mark, predicted mark, document number)
    for k in range(1, count):
        j = bisect.bisect_left(gm.offsets, gold.size * k // count)
        number = j + 1 + gold.prefix_document  # the document beginning at gold mark j
        m = number - 1 - pred.prefix_document
        if 0 < j < len(gm.offsets) and 0 < m < len(pm.offsets) and (not cuts or j > cuts[-1][0]):
            cuts.append((j, m, number))
    if not cuts:
        return "the files hold too few -DOCSTART- documents to be cut"
    shards = []
    bounds: list[tuple[int | None, int | None, int]] = [(None, None, 1), *cuts]
    for s, (lo, hi) in enumerate(zip(bounds, bounds[1:] + [(None, None, 0)])):
        pieces = []
        for plan, marks, a, b in ((gold, gm, lo[0], hi[0]), (pred, pm, lo[1], hi[1])):
            start = 0 if a is None else marks.offsets[a]
            end = None if b is None else marks.offsets[b]
            documents = (len(marks.offsets) if b is None else b) - (0 if a is None else a)
            if a is None:
                documents += plan.prefix_document or not marks.offsets
            pieces.append(Piece(plan.files[0], plan.format, start, end, 0 if a is None else marks.lines[a],
                                lo[2], documents))
        shards.append(Shard(s, Side(gold.name, (pieces[0],)), Side(pred.name, (pieces[1],))))
    return shards


def _plan_files(gold: InputPlan, pred: InputPlan, shard_bytes: int, min_shards: int) -> list[Shard] | str:
    """Shards of two sets of files: consecutive gold files of about ``shard_bytes`` bytes each, with the predicted
    files of the same names; predicted files of no gold name in the last shard."""
    pred_by_stem: dict[str, list[int]] = {}
    for k, f in enumerate(pred.files):
        pred_by_stem.setdefault(Path(f).stem, []).append(k)
    total = sum(gold.sizes) + sum(pred.sizes)
    count = max(min_shards, math.ceil(total / shard_bytes))
    count = min(count, len(gold.files))
    if count < 2:
        return "there are too few files to share out"
    target = sum(gold.sizes) / count
    groups: list[list[int]] = [[]]
    filled = 0.0
    for k, size in enumerate(gold.sizes):
        if groups[-1] and filled >= target and len(groups) < count:
            groups.append([])
            filled = 0.0
        groups[-1].append(k)
        filled += size
    taken: set[int] = set()
    shards = []
    for s, group in enumerate(groups):
        pred_ids = sorted(k for g in group for k in pred_by_stem.get(Path(gold.files[g]).stem, ()))
        taken.update(pred_ids)
        if s == len(groups) - 1:
            pred_ids = sorted(set(pred_ids) | (set(range(len(pred.files))) - taken - set(pred_ids)))
            # files named like no gold file (and, if a stem repeats, every file of it) go to the last shard
        shards.append(Shard(s, Side(gold.name, tuple(Piece(gold.files[g], gold.format) for g in group), True),
                            Side(pred.name, tuple(Piece(pred.files[k], pred.format) for k in pred_ids), True)))
    return shards


def file_size(path: str) -> int:
    """The size of a local file or of an fsspec URL."""
    if "://" in path:
        import fsspec

        fs, _, paths = fsspec.get_fs_token_paths(path)
        return int(fs.size(paths[0]))
    return os.path.getsize(path)
