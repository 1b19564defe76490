"""A column file's tags as the tag-file tools read them: codes per scheme, sentence starts, lines."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .._support.io import read_text
from ..errors import SchemeError
from ..formats.tokens.conll import parse_columns
from ..model import tagging

__all__ = ["TagColumn", "read_tag_column", "classify"]


@dataclass
class TagColumn:
    """One tag column of a file: the text and its parse, the distinct tags, and where each token is."""

    path: str
    text: str
    cols: object
    distinct: list[str]
    index: np.ndarray
    lines: np.ndarray
    first: np.ndarray
    """True at the first token of each sentence and of each document."""

    @property
    def tokens(self) -> int:
        return len(self.index)

    @property
    def sentences(self) -> int:
        return len(self.cols.sentence_starts)     # type: ignore[attr-defined]

    @property
    def documents(self) -> int:
        return len(self.cols.doc_starts) if self.tokens else 0     # type: ignore[attr-defined]

    def tag(self, i: int) -> str:
        return self.distinct[int(self.index[i])]


def read_tag_column(path: str | Path, tag_column: int = -1, encoding: str | None = None) -> TagColumn:
    """Read ``path`` as a CoNLL column file (a :class:`~accord.errors.FormatError` names what is wrong)."""
    text = read_text(path, encoding)
    cols = parse_columns(text, tag_column=tag_column, path=path)
    distinct, index = cols.tag_codes
    n = len(index)
    first = np.zeros(n, dtype=bool)
    for starts in (cols.sentence_starts, cols.doc_starts):
        at = np.asarray(starts, dtype=np.int64)
        first[at[at < n]] = True
    return TagColumn(str(path), text, cols, list(distinct), np.asarray(index), np.asarray(cols.lines), first)


_ANY_LETTER = frozenset("BIESLU")


def classify(distinct: list[str], scheme: str) -> tuple[tagging.TagTable, np.ndarray, np.ndarray, list[str]]:
    """The scheme's reading of each distinct tag: its table, prefix and type codes (``O`` and ``-1`` for a tag the
    scheme does not read) and, per tag, ``""`` or what is wrong with it: ``scheme`` (a letter of another scheme)
    or ``tag`` (no scheme's tag)."""
    table = tagging.TagTable(scheme)
    prefix = np.zeros(len(distinct), dtype=np.int8)
    types = np.full(len(distinct), -1, dtype=np.int32)
    wrong = [""] * len(distinct)
    for k, tag in enumerate(distinct):
        try:
            code = int(table.intern([tag])[0])
        except SchemeError:
            wrong[k] = "scheme" if tag[:1] in _ANY_LETTER and (len(tag) == 1 or tag[1] in "-_") else "tag"
            continue
        prefix[k] = table.prefix[code]
        types[k] = table.type_id[code]
    return table, prefix, types, wrong
