"""A tag column interned from the text's bytes (``_tags.intern_fields``) equals the strings' own first-seen order."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from accord.formats.tokens._tags import intern_fields
from accord.model._text_fields import code_points

TAGS = st.sampled_from(["O", "B-PER", "I-PER", "B-ORG", "I-ORG", "B-MISC", "I-ORGANIZATION", "B-ORGANIZATIO",
                        "B-ORGANIZATIONAL-UNIT-X", "É", "B-É", "B-PER\x00", "x" * 8, "x" * 9, "x" * 16, "x" * 17])


def by_strings(fields):
    """The reference: a dict of the strings in the order first met."""
    seen: dict[str, int] = {}
    index = [seen.setdefault(f, len(seen)) for f in fields]
    return list(seen), index


@settings(max_examples=300, deadline=None)
@given(st.lists(TAGS, min_size=1, max_size=40), st.integers(0, 3))
def test_interned_equals_the_strings(tags, tail):
    # a token column, the tags last on each line, a few characters after the last one (or none)
    lines = [f"w{k} {t}" for k, t in enumerate(tags)]
    text = "\n".join(lines) + "\n" * tail
    starts, ends, at = [], [], 0
    for line in lines:
        starts.append(at + line.index(" ") + 1)
        ends.append(at + len(line))
        at += len(line) + 1
    distinct, index = intern_fields(text, code_points(text), np.asarray(starts), np.asarray(ends))
    want_distinct, want_index = by_strings(tags)
    assert distinct == want_distinct and index.tolist() == want_index
    assert index.dtype == np.int32


def test_hand_example_of_long_and_short_tags():
    text = "a B-ORGANIZATION\nb O\nc I-ORGANIZATION\nd B-ORGANIZATION\ne O"
    starts = np.asarray([2, 19, 23, 40, 57])
    ends = np.asarray([16, 20, 37, 54, 58])
    assert [text[s:e] for s, e in zip(starts, ends)] == ["B-ORGANIZATION", "O", "I-ORGANIZATION",
                                                         "B-ORGANIZATION", "O"]
    distinct, index = intern_fields(text, code_points(text), starts, ends)
    assert distinct == ["B-ORGANIZATION", "O", "I-ORGANIZATION"]
    assert index.tolist() == [0, 1, 2, 0, 1]
