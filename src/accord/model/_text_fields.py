"""A sequence of strings kept as offsets into one text: the tokens of a column file without a string each.

A column file of a million tokens read into a tuple of strings costs a Python object per token
(about 55 bytes each, on both sides of an evaluation) and the time to make them; most tokens are
never looked at, only compared between gold and prediction. :class:`TextFields` keeps the file's
text once and two offset arrays; a token becomes a string when it is read
(``fields[k]``), and two sequences are compared as arrays of code points.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, TypeVar, overload

import numpy as np
import numpy.typing as npt

from .._support.arrays import Ints

__all__ = ["TextFields", "factorize_fields", "code_points", "field_chars"]

_Code = TypeVar("_Code", bound=np.unsignedinteger[Any])


def code_points(text: str) -> npt.NDArray[np.unsignedinteger[Any]]:
    """The code points of ``text``: uint8 for ASCII text (no copy beyond the encoding), uint32 otherwise."""
    if text.isascii():
        return np.frombuffer(text.encode("ascii"), dtype=np.uint8)
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)


def field_chars(codes: npt.NDArray[_Code], starts: Ints,
                ends: Ints) -> npt.NDArray[_Code]:
    """The code points of the fields ``codes[starts[k]:ends[k]]``, one field after the other."""
    lens = (ends - starts).astype(np.int64)
    before = np.cumsum(lens) - lens
    chars: npt.NDArray[_Code] = codes[np.arange(int(lens.sum()), dtype=np.int64)
                                      + np.repeat(starts.astype(np.int64) - before, lens)]
    return chars


_FEW = 32
"""Up to this many strings, two sequences compare string by string (a document of a few tokens costs
microseconds, not the tens of the array comparison)."""


class TextFields(Sequence[str]):
    """Strings ``text[starts[k]:ends[k]]``, made when they are read.

    Equal to any sequence of the same strings (a tuple, a list, another ``TextFields``);
    slicing gives a ``TextFields`` over the same text.
    """

    __slots__ = ("text", "_starts", "_ends", "_lo", "_hi")

    def __init__(self, text: str, starts: Ints, ends: Ints, lo: int = 0,
                 hi: int | None = None):
        # a contiguous slice keeps its parent's arrays and two bounds, not two array views: a document of a
        # few tokens costs one small object
        self.text = text
        self._starts, self._ends = starts, ends
        self._lo = lo
        self._hi = len(starts) if hi is None else hi

    def split(self, begins: Sequence[int], stops: Sequence[int]) -> list[TextFields]:
        """``[self[b:e] for b, e in zip(begins, stops)]`` for bounds within this sequence, made in one loop."""
        text, starts, ends, lo = self.text, self._starts, self._ends, self._lo
        return [TextFields(text, starts, ends, lo + b, lo + e) for b, e in zip(begins, stops)]

    @property
    def starts(self) -> Ints:
        """The start offset of every string in :attr:`text`."""
        return self._starts[self._lo:self._hi]

    @property
    def ends(self) -> Ints:
        """The end offset of every string in :attr:`text`."""
        return self._ends[self._lo:self._hi]

    def __len__(self) -> int:
        return self._hi - self._lo

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> TextFields: ...

    def __getitem__(self, index: int | slice) -> str | TextFields:
        if isinstance(index, slice):
            start, stop, step = index.indices(self._hi - self._lo)
            if step == 1:
                return TextFields(self.text, self._starts, self._ends, self._lo + start,
                                  self._lo + max(start, stop))
            return TextFields(self.text, self.starts[index], self.ends[index])
        k = index.__index__()
        n = self._hi - self._lo
        if k < 0:
            k += n
        if not 0 <= k < n:
            raise IndexError("TextFields index out of range")
        return self.text[int(self._starts[self._lo + k]):int(self._ends[self._lo + k])]

    def __iter__(self) -> Iterator[str]:
        text = self.text
        return map(text.__getitem__, map(slice, self.starts.tolist(), self.ends.tolist()))

    def __repr__(self) -> str:
        shown = ", ".join(map(repr, self[:5]))
        return f"TextFields([{shown}{', ...' if len(self) > 5 else ''}], {len(self)} fields)"

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __reduce__(self) -> tuple[type[tuple[str, ...]], tuple[tuple[str, ...]]]:
        # pickled as its own strings: a document's view must not carry its whole file along
        return (tuple, (tuple(self),))

    def lengths(self) -> Ints:
        """The length of every string, in code points."""
        lengths: Ints = self.ends - self.starts
        return lengths

    def _chars(self) -> npt.NDArray[np.unsignedinteger[Any]]:
        """The code points of all strings, concatenated."""
        if not len(self.starts):
            return np.zeros(0, dtype=np.uint8)
        lo, hi = int(self.starts.min()), int(self.ends.max())
        return field_chars(code_points(self.text[lo:hi]), self.starts - lo, self.ends - lo)

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
            if len(self) != len(other):
                return False
            if len(self) <= _FEW:     # a few strings: compared as strings, without the arrays' fixed cost
                mine, theirs = self.text, other.text
                a0, a1, b0, b1 = self._starts.item, self._ends.item, other._starts.item, other._ends.item
                if self._hi - self._lo == 1:
                    i, j = self._lo, other._lo
                    return mine[a0(i):a1(i)] == theirs[b0(j):b1(j)]
                for i, j in zip(range(self._lo, self._hi), range(other._lo, other._hi)):
                    if mine[a0(i):a1(i)] != theirs[b0(j):b1(j)]:
                        return False
                return True
            if not np.array_equal(self.lengths(), other.lengths()):
                return False
            return bool(np.array_equal(self._chars(), other._chars()))
        if isinstance(other, Sequence) and not isinstance(other, (str, bytes)):
            return len(self) == len(other) and all(map(str.__eq__, self, other))
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal


def factorize_fields(text: str, codes: npt.NDArray[np.unsignedinteger[Any]], starts: Ints,
                     ends: Ints) -> tuple[list[str], npt.NDArray[np.int32]]:
    """The distinct strings among ``text[starts[k]:ends[k]]`` and the index of each field's string among them.

    Computed on the code points (``codes``, as :func:`code_points` gives them,
    one byte or four a character): a field's characters, eight bytes at a time read as one integer,
    are looked up in small sorted code books (with the length first where a character may be NUL
    and so look like padding), a million fields at a time; no string is made but one per distinct
    value. The distinct strings come in the order of their first occurrence.
    """
    n = len(starts)
    if n == 0:
        return [], np.zeros(0, dtype=np.int32)
    size = codes.itemsize
    per_word = 8 // size
    raw = codes.view(np.uint8)
    if len(raw) < 8:
        raw = np.concatenate([raw, np.zeros(8 - len(raw), dtype=np.uint8)])
    top = len(raw) - 8
    # eight bytes from any byte offset up to the last eight: an unaligned view of the buffer, one byte apart
    words = np.ndarray(shape=(top + 1,), dtype="<u8", buffer=raw, strides=(1,))
    with_lengths = not codes.all()
    width = int((ends - starts).max())
    word_books: list[_CodeBook] = []
    pair_books: list[_CodeBook] = []
    group = np.empty(n, dtype=np.int64)
    for lo in range(0, n, _CHUNK):   # a chunk at a time: the temporaries stay small
        hi = min(lo + _CHUNK, n)
        begin = starts[lo:hi].astype(np.int64)
        lens = ends[lo:hi].astype(np.int64) - begin
        keys: list[npt.NDArray[np.int64]] = [lens] if with_lengths else []
        for k in range(0, width, per_word):
            at = (begin + k) * size
            beyond = np.maximum(at - top, 0)     # near the end: read the last eight bytes and shift
            word = words[np.minimum(at, top)] >> (np.uint64(8) * beyond.astype(np.uint64))
            left = lens - k
            short = left < per_word
            if short.any():
                bits = (np.clip(left[short], 0, None) * (8 * size)).astype(np.uint64)
                word[short] &= np.left_shift(np.uint64(1), bits) - np.uint64(1)
            keys.append(word.view(np.int64))
        chunk_group = _book(word_books, 0).encode(keys[0])
        for j in range(1, len(keys)):   # then the pair (group so far, this word) as one integer
            word_code = _book(word_books, j).encode(keys[j])
            chunk_group = _book(pair_books, j).encode((chunk_group << 32) | word_code)
        group[lo:hi] = chunk_group
    ngroups = int(group.max()) + 1
    if ngroups <= 64:
        first = np.array([int(np.argmax(group == g)) for g in range(ngroups)], dtype=np.int64)
    else:
        first = np.full(ngroups, n, dtype=np.int64)
        np.minimum.at(first, group, np.arange(n, dtype=np.int64))
    order = np.argsort(first, kind="stable")
    rank = np.empty(ngroups, dtype=np.int32)
    rank[order] = np.arange(ngroups, dtype=np.int32)
    distinct = [text[int(starts[i]):int(ends[i])] for i in first[order].tolist()]
    return distinct, rank[group]


_CHUNK = 1 << 20


def _book(books: list[_CodeBook], j: int) -> _CodeBook:
    while len(books) <= j:
        books.append(_CodeBook())
    return books[j]


class _CodeBook:
    """Codes 0, 1, 2... for int64 keys in the order they are met, kept sorted for lookups."""

    __slots__ = ("keys", "codes")

    def __init__(self) -> None:
        self.keys = np.zeros(0, dtype=np.int64)
        self.codes = np.zeros(0, dtype=np.int64)

    def encode(self, values: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        index = np.searchsorted(self.keys, values)
        if len(self.keys):
            np.minimum(index, len(self.keys) - 1, out=index)
            found = self.keys[index] == values
        else:
            found = np.zeros(len(values), dtype=bool)
        if not found.all():
            new = np.sort(values[~found])   # the distinct new values (np.unique would import numpy.ma: 6 ms)
            new = new[np.concatenate(([True], new[1:] != new[:-1]))]
            keys = np.concatenate([self.keys, new])
            codes = np.concatenate([self.codes, np.arange(len(self.keys), len(keys), dtype=np.int64)])
            order = np.argsort(keys, kind="stable")
            self.keys, self.codes = keys[order], codes[order]
            index = np.searchsorted(self.keys, values)
        return self.codes[index]
