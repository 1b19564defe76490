"""The byte scan of :func:`accord.parallel._plan.scan_marks` looks at a range in slices (numpy, a mask a slice long):
marks, line counts and newlines must not depend on where the slices fall. Checked with slices of a few bytes
against counts of the raw bytes (what a plain ``bytes.count`` gives), on files where ``-DOCSTART-`` lines, their
indents, the ``-D`` of other tokens and the line breaks straddle slice ends."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accord.parallel import _plan
from accord.parallel._plan import Marks, byte_ranges, scan_marks

_LINES = st.sampled_from([b"-DOCSTART- O", b" -DOCSTART- O", b"\t -DOCSTART-", b"-DOCSTART-", b"x-DOCSTART- O",
                          b"-DOCSTARTED O", b"-D O", b"--D O", b"w O", b"", b" ", b"EU B-ORG", b"-DOCSTART-\r"])


def _expected(raw: bytes) -> tuple[list[int], list[int]]:
    """The document lines of ``raw`` counted byte by byte: a line whose first field is ``-DOCSTART-``."""
    offsets, lines, at = [], [], 0
    for k, line in enumerate(raw.split(b"\n")):
        rest = line.lstrip(b" \t")
        if rest.startswith(b"-DOCSTART-") and rest[10:11] in (b"", b" ", b"\t", b"\r"):
            offsets.append(at)
            lines.append(k)
        at += len(line) + 1
    return offsets, lines


@given(st.lists(_LINES, max_size=40), st.booleans(), st.integers(2, 9), st.integers(1, 5))
def test_marks_do_not_depend_on_the_slices(lines, final_newline, slice_bytes, parts):
    raw = b"\n".join(lines) + (b"\n" if final_newline and lines else b"")
    with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as mp:
        path = Path(tmp, "g.conll")
        path.write_bytes(raw)
        mp.setattr(_plan, "SLICE", slice_bytes)
        joined = Marks.join([scan_marks(str(path), a, b) for a, b in byte_ranges(len(raw), parts)]) if raw else \
            scan_marks(str(path), 0, 0)
    assert joined.newlines == raw.count(b"\n")
    assert (joined.offsets, joined.lines) == _expected(raw)


def test_a_mark_on_a_slice_end(tmp_path, monkeypatch):
    """Hand-counted: slices of 3 bytes; the second ``-DOCSTART-`` begins at byte 18, a slice's first byte, after
    four newlines; the ``-D`` at byte 11 is a token's; six newlines in all."""
    raw = b"-DOCSTART-\n-D O\n\n\n-DOCSTART- O\nw O\n"
    assert raw.index(b"-DOCSTART-", 1) == 18 and raw.index(b"-D O") == 11
    path = tmp_path / "g.conll"
    path.write_bytes(raw)
    monkeypatch.setattr(_plan, "SLICE", 3)
    marks = scan_marks(str(path), 0, len(raw))
    assert (marks.offsets, marks.lines, marks.newlines) == ([0, 18], [0, 4], 6)
