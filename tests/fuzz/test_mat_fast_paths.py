"""The faster paths of the MAT command (issue 41) against the code they replace, on random inputs.

The nesting depth of JSON text (:func:`accord.formats._json._nesting_depth`, run on every MAT JSON document of more
than 200 brackets) takes the brackets outside strings from one ``bytes.translate`` when the text has no backslash;
here it is compared with the regular expressions it replaced (written out below) and with the exact depth by a
cumulative sum, on texts of brackets, quotes, backslashes, letters and characters outside ASCII (a lone surrogate
among them), balanced or not.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from accord.formats._json import MAX_DEPTH, _exact_depth, _nesting_depth

from .harness import FULL, PROFILE

settings.load_profile(PROFILE)
EXAMPLES = 600 if FULL else 120

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_OTHER = re.compile(r"[^\[\]{}]+")
_PAIR = re.compile(r"\[\]|\{\}")


def regex_depth(text: str) -> int:
    """The depth as the module measured it before: strings cut out by a regular expression, then the empty pairs
    removed one level a pass."""
    opens = text.count("[") + text.count("{")
    if opens <= MAX_DEPTH:
        return opens
    brackets = _OTHER.sub("", _STRING.sub("", text))
    depth = 0
    while brackets and depth <= MAX_DEPTH:
        fewer = _PAIR.sub("", brackets)
        if len(fewer) == len(brackets):
            break
        brackets = fewer
        depth += 1
    return depth if not brackets else _exact_depth(text)


PIECES = ["[", "]", "{", "}", '"', '"', "\\", "a", "1", ",", ":", " ", "é", "\ud800", "[]", "{}", '"x[y"', '"}"']


@st.composite
def texts(draw: st.DrawFn) -> str:
    """Nested arrays and objects around random pieces, with more than MAX_DEPTH opening brackets."""
    depth = draw(st.integers(0, 260))
    inner = "".join(draw(st.lists(st.sampled_from(PIECES), max_size=60)))
    wide = draw(st.integers(0, 220))
    kind = draw(st.sampled_from(["[", "{", "mixed"]))
    opens = "".join("[" if kind == "[" or (kind == "mixed" and k % 3) else "{" for k in range(depth))
    closes = "".join("]" if c == "[" else "}" for c in reversed(opens))
    if draw(st.booleans()):
        closes = closes[: draw(st.integers(0, len(closes)))]
    return "[" + "[1, 2], " * wide + opens + inner + closes + "]"


@settings(max_examples=EXAMPLES)
@given(texts())
def test_nesting_depth_equals_the_regular_expressions(text: str) -> None:
    assert _nesting_depth(text) == regex_depth(text)


def test_nesting_depth_hand_counts() -> None:
    """Hand counts: 201 arrays in one another; the same with a bracket and a quote in a string (no backslash); and
    with an escaped quote in the string (the old path)."""
    deep = "[" * 201 + "]" * 201
    assert _nesting_depth(deep) == 201
    assert _nesting_depth("[" * 201 + '"]]]"' + "]" * 201) == 201
    assert _nesting_depth("[" * 201 + '"\\"]]]"' + "]" * 201) == 201
    assert _nesting_depth("[" + "[1], " * 250 + '"é{"' + "]") == 2
