"""The nesting depth of JSON text (:func:`accord.formats._json._nesting_depth`) against the exact depth by a
cumulative sum over every character (:func:`accord.formats._json._exact_depth`), on random JSON.

Without a backslash in the text, the depth is the deepest running count of the brackets outside strings, one
numpy pass; with one, the brackets are still removed pair by pair. The values are random JSON (strings holding
brackets, quotes, backslashes and characters outside ASCII) inside enough arrays to pass the bound of
:data:`~accord.formats._json.MAX_DEPTH` opening brackets below which the count of brackets is returned, some cut
short so that their brackets do not balance.
"""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from accord.formats._json import MAX_DEPTH, _exact_depth, _nesting_depth

from .harness import FULL, PROFILE

settings.load_profile(PROFILE)
EXAMPLES = 500 if FULL else 100

_TEXT = st.text(alphabet=st.sampled_from(list('[]{}"\\ aé,:\u2028')), max_size=8)
_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), _TEXT)
_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                         st.dictionaries(_TEXT, inner, max_size=4)), max_leaves=30)


@st.composite
def json_texts(draw: st.DrawFn) -> str:
    """A random JSON value at the bottom of ``depth`` arrays or objects, after ``wide`` small arrays (more than
    MAX_DEPTH opening brackets in all); the text cut short, or a closing bracket dropped, now and then."""
    value = draw(_VALUES)
    depth = draw(st.integers(0, 230))
    wide = draw(st.integers(0, 210))
    kinds = draw(st.lists(st.booleans(), min_size=depth, max_size=depth))
    text = json.dumps(value, ensure_ascii=draw(st.booleans()))
    for is_array in kinds:
        text = f"[{text}]" if is_array else f'{{"k": {text}}}'
    text = "[" + "[0], " * wide + text + "]"
    cut = draw(st.sampled_from(["none", "none", "end", "drop"]))
    if cut == "end":
        text = text[: draw(st.integers(0, len(text)))]
    elif cut == "drop":
        at = draw(st.integers(0, len(text) - 1))
        text = text[:at] + text[at:].replace("]", "", 1)
    return text


@settings(max_examples=EXAMPLES)
@given(json_texts())
def test_nesting_depth_is_the_exact_depth(text: str) -> None:
    """Above MAX_DEPTH opening brackets, the depth is exact (below it, the count of brackets, a bound)."""
    opens = text.count("[") + text.count("{")
    assert _nesting_depth(text) == (_exact_depth(text) if opens > MAX_DEPTH else opens)


def test_nesting_depth_hand_counts() -> None:
    """Hand counts: 250 arrays in one another (one pass), 201 around a string of closing brackets, 3 around 300
    empty arrays, and an unbalanced text (two arrays around 300 empty ones, one left open) measured exactly: 3."""
    assert _nesting_depth("[" * 250 + "]" * 250) == 250
    assert _nesting_depth("[" * 201 + '"]]]}"' + "]" * 201) == 201
    assert _nesting_depth("[{" + '"a": [' + "[], " * 300 + "[]]}]") == 4
    assert _nesting_depth("[[" + "[], " * 300 + "]") == 3
