"""accord.structured.head_word: exported, documented, and a relaxed mention similarity (Chen et al. 2023, section 6:
"More relaxed mention similarities — such as head word matching or Jaccard score"), counted by hand."""

from __future__ import annotations

import inspect

import pytest

from accord import structured as S
from accord.errors import OptionError


def test_head_word_is_exported_with_a_docstring():
    assert "head_word" in S.__all__
    from accord.structured import head_word

    doc = inspect.getdoc(head_word)
    assert doc.startswith("Head-word match of two mentions") and "section 6" in doc


def test_relations_under_head_word_and_under_exact_mentions():
    # gold: one relation whose first argument is "the old man" (0-3, head 2); the first prediction marks "old man"
    # (1-3, head 2): exact offsets miss it, the head word does not; the second marks "the old" (0-2, head 1)
    gold = [{"type": "R", "arg1": (0, 3, 2), "arg2": (5, 6, 5)}]
    pred = [{"type": "R", "arg1": (1, 3, 2), "arg2": (5, 6, 5)}, {"type": "R", "arg1": (0, 2, 1), "arg2": (5, 6, 5)}]
    by_head = S.f1(S.match(S.product(type=S.exact, arg1=S.head_word, arg2=S.head_word), "1:1"))(pred, gold)
    # 1 matched of 2 predicted and 1 gold: P 1/2, R 1, F 2/3
    assert (by_head.precision, by_head.recall, float(by_head)) == (pytest.approx(0.5), 1.0, pytest.approx(2 / 3))
    same_offsets = S.func(lambda p, g: float(p[:2] == g[:2]))
    strict = S.f1(S.match(S.product(type=S.exact, arg1=same_offsets, arg2=same_offsets), "1:1"))(pred, gold)
    assert float(strict) == 0.0     # neither prediction has the gold offsets


def test_a_mention_without_a_head_is_an_error():
    with pytest.raises(OptionError, match="needs a head"):
        S.head_word((0, 3), (0, 3))
