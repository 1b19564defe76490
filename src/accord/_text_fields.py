"""A sequence of strings kept as offsets into one text: the tokens of a column file without a string each.

A column file of a million tokens read into a tuple of strings costs a Python object per token
(about 55 bytes each, on both sides of an evaluation) and the time to make them; most tokens are
never looked at, only compared between gold and prediction. :class:`TextFields` keeps the file's
text once and two offset arrays; a token becomes a string when it is read
(``fields[k]``), and two sequences are compared as arrays of code points.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, overload

import numpy as np

__all__ = ["TextFields", "factorize_fields"]


def _code_points(text: str) -> np.ndarray:
    if text.isascii():
        return np.frombuffer(text.encode("ascii"), dtype=np.uint8)
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)


class TextFields(Sequence[str]):
    """Strings ``text[starts[k]:ends[k]]``, made when they are read.

    Equal to any sequence of the same strings (a tuple, a list, another ``TextFields``);
    slicing gives a ``TextFields`` over the same text.
    """

    __slots__ = ("text", "starts", "ends")

    def __init__(self, text: str, starts: np.ndarray, ends: np.ndarray):
        self.text = text
        self.starts = starts
        self.ends = ends

    def __len__(self) -> int:
        return len(self.starts)

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> "TextFields": ...

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return TextFields(self.text, self.starts[index], self.ends[index])
        return self.text[int(self.starts[index]):int(self.ends[index])]

    def __iter__(self) -> Iterator[str]:
        text = self.text
        return map(text.__getitem__, map(slice, self.starts.tolist(), self.ends.tolist()))

    def __repr__(self) -> str:
        shown = ", ".join(map(repr, self[:5]))
        return f"TextFields([{shown}{', ...' if len(self) > 5 else ''}], {len(self)} fields)"

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __reduce__(self) -> tuple:
        # pickled as its own strings: a document's view must not carry its whole file along
        return (tuple, (tuple(self),))

    def lengths(self) -> np.ndarray:
        """The length of every string, in code points."""
        return self.ends - self.starts

    def _chars(self) -> np.ndarray:
        """The code points of all strings, concatenated."""
        if not len(self.starts):
            return np.zeros(0, dtype=np.uint8)
        lo, hi = int(self.starts.min()), int(self.ends.max())
        region = _code_points(self.text[lo:hi])
        lens = self.lengths()
        before = np.cumsum(lens) - lens
        index = np.arange(int(lens.sum()), dtype=np.int64) + np.repeat(self.starts - lo - before, lens)
        return region[index]

    def first_difference(self, other: Sequence[str]) -> int | None:
        """The index of the first string that differs from ``other``'s (``min`` of the lengths when one
        sequence is a prefix of the other), or ``None`` when both hold the same strings."""
        if not isinstance(other, TextFields):
            n = min(len(self), len(other))
            i = next((k for k, (a, b) in enumerate(zip(self, other)) if a != b), n)
            return None if i == n and len(self) == len(other) else i
        n = min(len(self), len(other))
        mine, theirs = self.lengths()[:n], other.lengths()[:n]
        differ = np.flatnonzero(mine != theirs)
        limit = int(differ[0]) if len(differ) else n     # same lengths before it: the characters line up
        a, b = self[:limit]._chars(), other[:limit]._chars()
        wrong = np.flatnonzero(a != b)
        if len(wrong):
            return int(np.searchsorted(np.cumsum(mine[:limit]), wrong[0], side="right"))
        if limit < n or len(self) != len(other):
            return limit
        return None

    def __eq__(self, other: object) -> bool:
        if isinstance(other, TextFields):
            if len(self) != len(other) or not np.array_equal(self.lengths(), other.lengths()):
                return False
            return bool(np.array_equal(self._chars(), other._chars()))
        if isinstance(other, Sequence) and not isinstance(other, (str, bytes)):
            return len(self) == len(other) and all(map(str.__eq__, self, other))
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal


def factorize_fields(text: str, codes: np.ndarray, starts: np.ndarray, ends: np.ndarray
                     ) -> tuple[list[str], np.ndarray]:
    """The distinct strings among ``text[starts[k]:ends[k]]`` and the index of each field's string among them.

    Computed on the code points (``codes``, as :func:`~accord.formats._fields.code_points` gives them):
    the length and then the characters, a few at a time packed into one integer, refine a grouping of
    equal fields; no string is made but one per distinct value. The distinct strings come in the order
    of their first occurrence.
    """
    n = len(starts)
    if n == 0:
        return [], np.zeros(0, dtype=np.int64)
    lens = ends - starts
    group, _ = _factorize(lens)
    bits = 8 if codes.dtype == np.uint8 else 21
    per_word = 64 // bits
    width = int(lens.max())
    last = len(codes) - 1
    for k0 in range(0, width, per_word):
        word = np.zeros(n, dtype=np.uint64)
        for k in range(k0, min(k0 + per_word, width)):
            inside = lens > k
            char = codes[np.minimum(starts + k, last)].astype(np.uint64)
            char[~inside] = 0       # lengths are already in the grouping: padding cannot be confused
            word = (word << np.uint64(bits)) | char
        word_group, size = _factorize(word)
        group, _ = _factorize(group * size + word_group)
    ngroups = int(group.max()) + 1
    first = np.full(ngroups, n, dtype=np.int64)
    np.minimum.at(first, group, np.arange(n, dtype=np.int64))
    order = np.argsort(first, kind="stable")
    rank = np.empty(ngroups, dtype=np.int64)
    rank[order] = np.arange(ngroups)
    distinct = [text[int(starts[i]):int(ends[i])] for i in first[order].tolist()]
    return distinct, rank[group]


def _factorize(values: np.ndarray) -> tuple[np.ndarray, int]:
    """Codes 0..k-1 of ``values`` (equal values, equal codes) and k; fast when few values are distinct."""
    n = len(values)
    sample = np.unique(values[:: max(1, n // 2048)])
    index = np.searchsorted(sample, values)
    np.minimum(index, len(sample) - 1, out=index)
    found = sample[index] == values
    if not found.all():
        sample = np.union1d(sample, values[~found])
        index = np.searchsorted(sample, values)
    return index, len(sample)
