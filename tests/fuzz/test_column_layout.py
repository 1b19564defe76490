"""Column files read through the plain layout and the interned tags (issue 43) against the general path: the same
documents, spans, sentences, line numbers, warnings and errors, on files with odd whitespace, ``\\r\\n``, lines of
whitespace only, comments, ``-DOCSTART-`` lines, long and non-ASCII tags."""

from __future__ import annotations

import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accord.errors import AccordError
from accord.formats.tokens import _fields, conll
from accord.model._text_fields import factorize_fields

TOKENS = st.sampled_from(["EU", "rejects", "#", "#x", "Ü", "-DOCSTART-", "a" * 9])
TAGS = st.sampled_from(["O", "O", "B-PER", "I-PER", "B-ORG", "I-ORG", "I-ORGANIZATION", "B-É", "B-LONG-TYPE-NAME-X"])
GAPS = st.sampled_from([" ", " ", "\t", "  ", " \t"])
ENDS = st.sampled_from(["\n", "\n", "\r\n", " \n"])
LINES = st.one_of(
    st.tuples(TOKENS, GAPS, TAGS).map("".join),
    st.tuples(TOKENS, GAPS, TOKENS, GAPS, TAGS).map("".join),
    st.sampled_from(["", "", " ", "\t", "-DOCSTART- O", "-DOCSTART-", "# sent_id = 1"]),
)


def _read(text: str, general: bool):
    """read_conll's documents (or its error) and warnings, through the general path when ``general`` (annotations as
    plain tuples: an Annotation compares by identity)."""
    saved = conll.column_layout, conll.intern_fields
    if general:
        conll.column_layout, conll.intern_fields = _fields.field_layout, factorize_fields
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                corpus = conll.read_conll("f.conll", text=text)
                out = [(d.id, [tuple(a) for a in d.annotations], tuple(d.tokens or ()), d.sentences, dict(d.metadata))
                       for d in corpus.values()]
            except AccordError as exc:
                out = f"{type(exc).__name__}: {exc}"
        return out, [str(w.message) for w in caught]
    finally:
        conll.column_layout, conll.intern_fields = saved


@pytest.mark.parametrize("mixed", [False, True])
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_plain_path_equals_general_path(data, mixed):
    lines = data.draw(st.lists(LINES, max_size=25))
    ends = [data.draw(ENDS) if mixed else "\n" for _ in lines]
    text = "".join(line + end for line, end in zip(lines, ends))
    if data.draw(st.booleans()) and text:
        text = text.rstrip("\r\n")       # no line break after the last line
    assert _read(text, general=False) == _read(text, general=True)
