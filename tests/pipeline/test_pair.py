"""The pairing's token check (accord.pipeline._pair): whole-array equality, and the first difference named as the
document-by-document walk names it."""

from __future__ import annotations

from pathlib import Path

import pytest

from accord.errors import PairingError
from accord.formats.tokens.conll import read_conll
from accord.pipeline._pair import _same_tokens, pair_documents


def _corpus(tmp_path: Path, name: str, docs: list[list[str]]):
    lines = []
    for tokens in docs:
        lines += ["-DOCSTART- O", ""] + [f"{t} O" for t in tokens] + [""]
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return read_conll(path)


def test_differing_token_named_by_line_and_index(tmp_path: Path) -> None:
    # hand count: lines 1-5 are document 1 (-DOCSTART-, blank, a, b, blank), line 6 starts document 2, line 7 is
    # blank, its tokens are lines 8, 9, 10: token 2 is line 10
    gold = _corpus(tmp_path, "g.conll", [["a", "b"], ["Tokyo", "is", "bigger"]])
    pred = _corpus(tmp_path, "p.conll", [["a", "b"], ["Tokyo", "is", "biggest"]])
    with pytest.raises(PairingError) as err:
        pair_documents(gold, pred)
    assert str(err.value) == (f"document '2': token 2 differs: 'bigger' at {tmp_path / 'g.conll'}:10 but 'biggest' at "
                              f"{tmp_path / 'p.conll'}:10; gold and prediction must hold the same tokens")


@pytest.mark.parametrize("left, right", [
    ("abcdefghX", "abcdefghY"),                  # the ninth byte: the second word of the token
    ("abcdefghijklmnoX", "abcdefghijklmnoY"),    # the last byte of a two-word token
    ("ab", "ac"),                                # the last character of the file's last token
    ("ééé", "éée"),                              # four bytes a character on both sides
    ("x" * 40 + "1", "x" * 40 + "2"),
])
def test_a_difference_anywhere_in_a_token_is_seen(tmp_path: Path, left: str, right: str) -> None:
    gold = _corpus(tmp_path, "g.conll", [["a", "b"], ["c", left]])
    pred = _corpus(tmp_path, "p.conll", [["a", "b"], ["c", right]])
    pairs = [(gold[d], pred[d]) for d in gold]     # (token 1 of document 2 is line 9, as above)
    # hand truth: document 1 the same on both sides, document 2 not
    assert _same_tokens(pairs) == [True, False]
    with pytest.raises(PairingError, match=r"document '2': token 1 differs: .*:9 but .*:9"):
        pair_documents(gold, pred)


def test_equal_tokens_of_any_length_are_equal(tmp_path: Path) -> None:
    tokens = ["", "x", "abcdefgh", "abcdefghi", "é" * 9, "z" * 17]
    docs = [[t for t in tokens if t]] * 3
    gold = _corpus(tmp_path, "g.conll", docs)
    pred = _corpus(tmp_path, "p.conll", docs)
    assert _same_tokens([(gold[d], pred[d]) for d in gold]) == [True, True, True]
    assert len(pair_documents(gold, pred)) == 3


def test_bytes_beyond_a_token_do_not_count(tmp_path: Path) -> None:
    # the same tokens followed by different tags: the words read past each token's end must be masked
    (tmp_path / "g.conll").write_text("ab B-PER\ncd O\n", encoding="utf-8")
    (tmp_path / "p.conll").write_text("ab I-LOC\ncd B-ORG\n", encoding="utf-8")
    gold, pred = read_conll(tmp_path / "g.conll"), read_conll(tmp_path / "p.conll")
    assert _same_tokens([(gold["1"], pred["1"])]) == [True]


def test_ascii_against_wider_text_left_to_the_walk(tmp_path: Path) -> None:
    gold = _corpus(tmp_path, "g.conll", [["naive"]])
    pred = _corpus(tmp_path, "p.conll", [["naïve"]])
    assert _same_tokens([(gold["1"], pred["1"])]) == [False]
    with pytest.raises(PairingError, match="token 0 differs: 'naive' at .* but 'naïve'"):
        pair_documents(gold, pred)
