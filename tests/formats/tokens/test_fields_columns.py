"""PlainLayout.fields (several columns in one pass) and intern_fields's masks, against str.split and a dict."""

from __future__ import annotations

import random

import numpy as np
import pytest

from accord.formats.tokens._fields import PlainLayout, column_layout
from accord.formats.tokens._tags import intern_fields
from accord.model._text_fields import code_points


def _plain_text(rng: random.Random, ncols: int, lines: int) -> str:
    words = ["a", "bb", "ccc", "EU", "-", "x" * 9, "B-PER", "I-MISC", "B-LONGLABEL", "O"]
    out = []
    for _ in range(lines):
        out.append("" if rng.random() < 0.2 else " ".join(rng.choice(words) for _ in range(ncols)))
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("seed", range(20))
def test_fields_equal_str_split(seed: int) -> None:
    rng = random.Random(seed)
    ncols = rng.randint(1, 4)
    text = _plain_text(rng, ncols, rng.randint(1, 60))
    f = column_layout(text)
    assert isinstance(f, PlainLayout)
    lines = np.flatnonzero(f.widths > 0)
    split = [line.split() for line in text.splitlines()]
    columns = [rng.randrange(ncols) for _ in range(rng.randint(1, 3))]
    for column, (starts, ends) in zip(columns, f.fields(lines, *columns)):
        got = [text[s:e] for s, e in zip(starts.tolist(), ends.tolist())]
        assert got == [split[i][column] for i in lines.tolist()]


@pytest.mark.parametrize("seed", range(20))
def test_intern_fields_equals_a_dict(seed: int) -> None:
    rng = random.Random(seed)
    # tags of 1 to 16 bytes (one and two words), some sharing their first eight bytes
    pool = ["O", "B-PER", "I-PER", "B-ABCDEFGH", "B-ABCDEFGHIJ", "B-ABCDEFGHIJK", "I-MISCELLA", "x" * 16, "ab"]
    pool = rng.sample(pool, rng.randint(1, len(pool)))
    tags = [rng.choice(pool) for _ in range(rng.randint(1, 300))]
    text = "".join(f"tok {t}\n" for t in tags)
    f = column_layout(text)
    ((starts, ends),) = f.fields(np.flatnonzero(f.widths > 0), 1)
    distinct, index = intern_fields(text, code_points(text), starts, ends)
    expected: dict[str, int] = {}
    for t in tags:
        expected.setdefault(t, len(expected))
    assert distinct == list(expected)
    assert index.tolist() == [expected[t] for t in tags]
