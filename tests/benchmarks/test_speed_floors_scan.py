"""Regression guard of issue 43 (the whole ``accord score`` near a plain reader): planning the shards of a column
file scans it for ``-DOCSTART-`` lines and newlines before any reading. That scan should cost a few times what reading
the bytes and counting their newlines with numpy costs, not the byte-at-a-time walk of ``bytes.count``."""

from __future__ import annotations

import numpy as np

from accord._support.io import read_bytes_range
from accord.parallel._plan import byte_ranges, scan_marks

from ._timing import best_time

SCAN_CEILING = 7.0
"""CPU time of :func:`scan_marks` over an 8 MB CoNLL file (2,000 documents of 60 sentences), as a multiple of reading
its bytes and counting their newlines by numpy: 3.7-4.9x when this ceiling was set (2026-11-27, a 2-core machine at
load 6), 11-13x before the scan looked at the bytes in numpy slices (``bytes.count`` of newlines and ``bytes.find`` of
three-byte line breaks walked them at about 5 ns a byte)."""


def _column_file(path) -> int:
    sentence = "".join(f"w{k} {'B-PER' if k % 7 == 0 else 'O'}\n" for k in range(14)) + "\n"
    doc = "-DOCSTART- O\n\n" + sentence * 60
    path.write_text(doc * 2000)
    return path.stat().st_size


def test_scanning_a_column_file_costs_a_few_newline_counts(tmp_path):
    path = tmp_path / "g.conll"
    size = _column_file(path)
    ranges = byte_ranges(size, 2)

    def scan():
        return [scan_marks(str(path), a, b) for a, b in ranges]

    def floor():
        return sum(int(np.count_nonzero(np.frombuffer(read_bytes_range(str(path), a, b), np.uint8) == 10))
                   for a, b in ranges)

    marks = scan()
    assert sum(len(m.offsets) for m in marks) == 2000
    assert sum(m.newlines for m in marks) == floor() == 2000 * (2 + 60 * 15)
    ratio = best_time(scan, repeat=5) / best_time(floor, repeat=5)
    assert ratio <= SCAN_CEILING, f"scanning a column file took {ratio:.1f}x a newline count (ceiling {SCAN_CEILING}x)"
