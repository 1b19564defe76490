"""A relation's target in MAT's content keys (``accord.match._content.target_text``): the ``repr`` of the tuple
``("@", label, start, end)`` that the keys were first written from, with -1 for a missing offset."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from accord.match._content import target_text
from accord.model import Annotation


@settings(max_examples=200, deadline=None)
@given(st.text(min_size=1, max_size=12), st.one_of(st.none(), st.integers(0, 10**12)),
       st.one_of(st.none(), st.integers(0, 10**12)))
def test_target_text_is_the_repr_of_the_tuple(label, start, end):
    if (start is None) != (end is None):
        end = start
    if start is not None and end < start:
        start, end = end, start
    target = Annotation(label, start, end)
    want = repr(("@", label, -1 if start is None else start, -1 if end is None else end))
    assert target_text(target) == want


def test_target_text_hand_written():
    assert target_text(Annotation("PER", 3, 10)) == "('@', 'PER', 3, 10)"
    assert target_text(Annotation("it's", None, None)) == '(\'@\', "it\'s", -1, -1)'
