"""accord's reader of plain PENMAN text (:mod:`accord.structured._amr_fast`) against penman itself: on generated
files (comment lines with ``::key value`` fields, repeated keys, graphs over several lines, quoted constants with
parentheses and colons, blank lines, and the shapes it leaves to penman: alignments, comments inside a graph,
missing concepts and targets, text after a graph) it returns penman's trees and metadata (in penman's order), or
None; and on every AMR file of ../shared/corpora it returns penman's trees."""

from __future__ import annotations

import glob
from pathlib import Path

import penman
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accord.structured._amr_fast import iterparse_plain, parse_plain

from .harness import FULL, PROFILE

settings.load_profile(PROFILE)
EXAMPLES = 700 if FULL else 150
ROOT = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpora"

SYMBOLS = ["want-01", "boy", "-", "5", "Paris", "x:y", "a#b", "amr-unknown", "b~e.2", "3.14"]
STRINGS = ['"Obama"', '"new (york"', '"a:b / c"', '"q\\"uote"', '"#tag"', '"open']
ROLES = [":ARG0", ":ARG1-of", ":mod", ":op1", ":polarity", ":", ":ARG0~e.3", ":wiki"]


@st.composite
def graphs(draw: st.DrawFn, depth: int = 0) -> str:
    var = draw(st.sampled_from(["a", "b", "c2", "x"])) + str(depth)
    concept = draw(st.sampled_from(SYMBOLS + STRINGS[:2] + [""]))
    parts = [f"({var} / {concept}" if concept else f"({var} /" if draw(st.booleans()) else f"({var}"]
    for _ in range(draw(st.integers(0, 3))):
        role = draw(st.sampled_from(ROLES))
        kind = draw(st.integers(0, 4))
        if kind == 0 and depth < 3:
            target = draw(graphs(depth + 1))
        elif kind == 1:
            target = draw(st.sampled_from(STRINGS))
        elif kind == 2:
            target = ""             # a role without a target
        else:
            target = draw(st.sampled_from(SYMBOLS))
        parts.append(f"{role} {target}".rstrip())
    sep = draw(st.sampled_from([" ", "\n   ", "\n\t"]))
    return sep.join(parts) + ")"


@st.composite
def files(draw: st.DrawFn) -> str:
    out = []
    for _k in range(draw(st.integers(1, 4))):
        for _ in range(draw(st.integers(0, 2))):
            fields = draw(st.lists(st.sampled_from(["::id g1", "::snt a b ", "::id g2", ":: x", "::", " plain"]),
                                   max_size=3))
            out.append(draw(st.sampled_from(["#", "# ", "  #"])) + " ".join(fields))
        out.append(draw(graphs()) + draw(st.sampled_from(["", " ", " (z / tail)", " # note"])))
        out.append(draw(st.sampled_from(["", "", "\n"])))
    return "\n".join(out)


def _penman(text: str):
    try:
        trees = list(penman.iterparse(text))
    except penman.DecodeError:
        return "error"
    return [(t.node, list(t.metadata.items())) for t in trees]


@given(files())
@settings(max_examples=EXAMPLES)
def test_a_file_reads_as_penman_reads_it_or_is_left_to_penman(text: str) -> None:
    fast = iterparse_plain(text)
    if fast is not None:
        assert [(t.node, list(t.metadata.items())) for t in fast] == _penman(text)


@given(graphs())
@settings(max_examples=EXAMPLES)
def test_a_graph_string_parses_as_penman_parses_it_or_is_left_to_penman(text: str) -> None:
    fast = parse_plain(text)
    if fast is not None:
        assert fast.node == penman.parse(text).node and fast.metadata == {}


def test_hand_cases() -> None:
    text = ('# ::id g1 ::snt The boy (wants) it . ::id ignored\n# ::date 2012\n(w / want-01\n   :ARG0 (b / boy)'
            '\n   :ARG1 (c / city :name (n / name :op1 "New (York" :op2 "x:y")))\n\n(a / amr-unknown)\n')
    trees = iterparse_plain(text)
    assert trees is not None and [t.node for t in trees] == [t.node for t in penman.iterparse(text)]
    assert list(trees[0].metadata.items()) == [("id", "g1"), ("snt", "The boy (wants) it ."), ("date", "2012")]
    for left in ("(w / want-01 :ARG0~e.1 (b / boy))", "(w / want-01 :ARG0)", "(w :ARG0 (b / boy))",
                 "(w / want-01) (b / boy)", "(w / want-01 # c\n)", '(w / "open\n)'):
        assert parse_plain(left) is None


@pytest.mark.skipif(not ROOT.exists(), reason="../shared/corpora is not here")
def test_every_amr_file_of_the_corpora() -> None:
    names = [p for pattern in ("amr/*.txt", "outside/smatch/*.txt", "outside3/smatch_pp/*.txt", "official/amr_fine/*")
             for p in glob.glob(str(ROOT / pattern))]
    read = 0
    for name in names:
        text = Path(name).read_text(encoding="utf-8")
        fast = iterparse_plain(text)
        if fast is None:
            continue
        read += 1
        assert [(t.node, t.metadata) for t in fast] == [(t.node, t.metadata) for t in penman.iterparse(text)], name
    assert read >= 5
