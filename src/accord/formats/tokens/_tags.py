"""A column's tags interned to small integers, read off the text's bytes without a string per tag.

A tag column holds a handful of distinct values (``O``, ``B-PER``...) a million times. Each tag of an ASCII text
is read as one or two 64-bit words at its offset (the bytes past its end masked), a tag of up to eight bytes being
its word; longer ones are hashed from their words and every tag is then checked, word by word, against the first
tag given its code, so that equal codes mean equal strings. Other texts (not ASCII, a NUL character, tags longer
than sixteen characters, a collision of hashes) take :func:`accord.model._text_fields.factorize_fields`, which
gives the same result.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ...model._text_fields import factorize_fields

__all__ = ["intern_fields"]

_MASKS = np.array([(1 << (8 * k)) - 1 for k in range(8)] + [(1 << 64) - 1], dtype=np.uint64)
"""The bytes of a word that belong to a field of ``k`` more bytes (``k`` clipped to 0..8)."""
_MIX = np.uint64(0x9E3779B97F4A7C15)
_WORDS = 2
"""Words of a field read here at most (longer tags go to the general path)."""


def intern_fields(text: str, codes: npt.NDArray[np.unsignedinteger[Any]], starts: np.ndarray,
                  ends: np.ndarray) -> tuple[list[str], npt.NDArray[np.int32]]:
    """The distinct strings among ``text[starts[k]:ends[k]]`` in the order of their first occurrence, and the
    index of each field's string among them (as :func:`~accord.model._text_fields.factorize_fields`)."""
    n = len(starts)
    if n == 0 or codes.dtype != np.uint8 or len(codes) < 8:
        return factorize_fields(text, codes, starts, ends)
    lens = (ends - starts).astype(np.int64)
    words = -(-int(lens.max()) // 8)
    if words > _WORDS or not codes.all():    # (a NUL byte would read as the padding of a shorter tag)
        return factorize_fields(text, codes, starts, ends)
    top = len(codes) - 8
    # eight bytes from any offset up to the last eight: an unaligned view of the text's bytes, one byte apart
    view = np.ndarray(shape=(top + 1,), dtype="<u8", buffer=codes, strides=(1,))
    begin = starts.astype(np.int64)
    late = np.flatnonzero(begin + 8 * words > len(codes)) if int(begin.max()) + 8 * words > len(codes) else None
    parts = []
    for k in range(words):
        at = begin + 8 * k
        if late is not None:
            np.minimum(at, top, out=at)
        word = view[at]
        # the bytes of each field within this word: min(len - 8k, 8), at least 0 (np.clip costs twice as much)
        left = lens if k == 0 else np.maximum(lens - 8 * k, 0)
        word &= _MASKS[np.minimum(left, 8) if words > 1 or k else left]
        parts.append(word)
    if late is not None:     # the last tags of the text: their bytes read one by one
        for k in range(words):
            parts[k][late] = [int.from_bytes(codes[b + 8 * k:min(b + 8 * k + 8, e)].tobytes(), "little")
                              for b, e in zip(begin[late].tolist(), ends[late].tolist())]
    key = parts[0] if words == 1 else parts[0] * _MIX + parts[1]
    book = _distinct(key[:4096])
    index = np.searchsorted(book, key)
    found = book.take(index, mode="clip") == key     # (an index past the book is clipped to its last value)
    if not found.all():
        book = _distinct(np.concatenate([book, key[~found]]))
        index = np.searchsorted(book, key)
    first = _first_occurrences(index, len(book))
    if words > 1 and not all(bool((part == part[first][index]).all()) for part in parts):
        return factorize_fields(text, codes, starts, ends)     # two tags of one hash (never seen)
    order = np.argsort(first, kind="stable")
    rank = np.empty(len(book), dtype=np.int32)
    rank[order] = np.arange(len(book), dtype=np.int32)
    distinct = [text[int(starts[i]):int(ends[i])] for i in first[order].tolist()]
    return distinct, rank[index]


def _distinct(values: np.ndarray) -> np.ndarray:
    """The distinct values, sorted (np.unique would import numpy.ma, a few milliseconds of every start)."""
    values = np.sort(values)
    return values[np.concatenate(([True], values[1:] != values[:-1]))]


def _first_occurrences(index: np.ndarray, count: int) -> np.ndarray:
    """The position of the first occurrence of each of the values ``0 .. count - 1`` of ``index`` (all occur):
    looked for in a window at the start that doubles until all are seen, so that a column whose values all come
    early costs a pass over the window, not over the column."""
    first = np.full(count, -1, dtype=np.int64)
    lo, size = 0, 4096
    while lo < len(index):
        window = index[lo:lo + size]
        seen = np.bincount(window, minlength=count) > 0
        for value in np.flatnonzero(seen & (first < 0)).tolist():
            first[value] = lo + int(np.argmax(window == value))
        if bool((first >= 0).all()):
            break
        lo += size
        size *= 2
    return first
