"""Property: the pairing's whole-array token check (accord.pipeline._pair._same_tokens) says "the same" exactly when
the two sides' token tuples are equal (Python's own string comparison is the independent truth), for tokens of any
length and alphabet, a difference at any byte of any token."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from accord.formats.tokens.conll import read_conll
from accord.pipeline._pair import _same_tokens

from .harness import PROFILE

settings.load_profile(PROFILE)

_TOKEN = st.text(alphabet=st.sampled_from("ab-X\u00e9\u4e2d"), min_size=1, max_size=20)
_DOC = st.lists(_TOKEN, min_size=1, max_size=6)


def _text(docs: list[list[str]]) -> str:
    return "".join("-DOCSTART- O\n\n" + "".join(f"{t} O\n" for t in doc) + "\n" for doc in docs)


@given(st.lists(_DOC, min_size=1, max_size=4), st.data())
def test_same_tokens_agrees_with_string_equality(docs: list[list[str]], data: st.DataObject) -> None:
    changed = [list(doc) for doc in docs]
    d = data.draw(st.integers(0, len(docs) - 1))
    k = data.draw(st.integers(0, len(changed[d]) - 1))
    if data.draw(st.booleans()):
        changed[d][k] = data.draw(_TOKEN)
    gtext, ptext = _text(docs), _text(changed)
    gold = read_conll("g.conll", text=gtext)
    pred = read_conll("p.conll", text=ptext)
    got = _same_tokens([(gold[i], pred[i]) for i in gold])
    truth = [tuple(gold[i].tokens) == tuple(pred[i].tokens) for i in gold]
    assert truth == [a == b for a, b in zip(docs, changed)]
    if gtext.isascii() == ptext.isascii():
        assert got == truth
    else:      # one byte a character on one side, four on the other: left to the walk
        assert not any(got)


_PIECE = st.sampled_from(["-DOCSTART-", "-DOCSTART-DOCSTART-", "x-DOCSTART-", "-DOCSTART-x", "a", "B-X", "O", " ",
                          "\t", "\n", "\r\n", "\u2028", "\u3000", "\x1c", "é", "#"])


@given(st.lists(_PIECE, max_size=40))
def test_docstart_lines_found_by_search_as_by_comparison(pieces: list[str]) -> None:
    # the byte search for -DOCSTART- finds the lines the character-by-character comparison of first fields finds
    from accord.formats.tokens._fields import field_layout
    from accord.formats.tokens.conll import _lines_beginning_with, _lines_found
    from accord.model._text_fields import code_points

    text = "".join(pieces)
    codes = code_points(text)
    f = field_layout(text, codes)
    candidate = f.widths > 0
    compared = _lines_beginning_with("-DOCSTART-", f, codes, candidate)
    searched = _lines_found("-DOCSTART-", f, candidate, text)
    by_python = [i for i, line in enumerate(text.splitlines()) if line.split()[:1] == ["-DOCSTART-"]]
    assert compared.tolist() == by_python
    assert searched.tolist() == by_python
