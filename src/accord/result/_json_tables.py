"""The JSON text of a result whose per-document tables are large, written a table at a time.

:func:`~accord.result._json_text.json_text` writes ``by_document`` (an object of one block of counts and rates per
document) and ``by_document_label`` (an object per document of one block per label) one block at a time: a dict
made per block by :meth:`Kind.blocks`, then a Python call and an encoder call per block; at 15,000 documents of four
labels that was a fifth of ``accord score --output json``. Here a table is written from its counts, column by column
(:func:`block_texts`: each distinct number's text made once, as the JSON encoder makes it), and put where a marker
stands for it in the text ``json_text`` writes for the rest of the result (:func:`json_text_tables`); the text is
the same, byte for byte (``tests/result/test_json_tables.py``, ``tests/fuzz/test_json_columns.py``).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._json_text import json_text, object_key
from ._kinds import ClueKind, GateKind, Kind

__all__ = ["MarkerLost", "TableMarkers", "block_texts", "json_text_tables"]

_reprs = json.JSONEncoder(allow_nan=True, separators=(",", ":")).encode
"""A list of floats as JSON writes it (each ``float.__repr__``, NaN and infinities as the names json gives them)."""


class MarkerLost(ValueError):
    """A table's marker is not in the text of the object (an object that left a table out); the caller writes the
    object with its tables instead."""


@dataclass(frozen=True)
class _DocumentTable:
    """``{document: block}``: the blocks ``kind.blocks(counts)`` of each document (empty blocks without a kind)."""

    documents: list[Any]
    kind: Kind | None = None
    counts: np.ndarray | None = None

    def plain(self) -> dict[Any, Any]:
        if self.kind is None:
            return {d: {} for d in self.documents}
        return dict(zip(self.documents, self.kind.blocks(np.asarray(self.counts))))

    def text(self, level: int, pad: str) -> str:
        """The text ``json_text`` writes at nesting ``level``."""
        if not self.documents:
            return "{}"
        blocks = ["{}"] * len(self.documents) if self.kind is None else block_texts(self.kind,
                                                                                     np.asarray(self.counts))
        if blocks is None or len(blocks) != len(self.documents):     # a kind that makes its blocks otherwise
            return _indented(self.plain(), level, pad)
        inner = "\n" + pad * (level + 1)
        return "{" + ",".join([f"{inner}{key}: {block}" for key, block in zip(_keys(self.documents), blocks)]) \
            + "\n" + pad * level + "}"


@dataclass(frozen=True)
class _LabelTable:
    """``{document: {label: block}}``: document ``d`` has the labels ``k`` where ``keep[d, k]``, in the order of
    ``labels``, and their blocks are ``kind.blocks(counts)``, the kept cells in that order, document by document
    (as :meth:`accord.result.Measure.by_document_label` makes them)."""

    documents: list[Any]
    labels: list[Any]
    kind: Kind
    counts: np.ndarray
    keep: np.ndarray

    def plain(self) -> dict[Any, Any]:
        blocks = iter(self.kind.blocks(self.counts))
        return {doc: {self.labels[k]: next(blocks) for k in np.flatnonzero(self.keep[d]).tolist()}
                for d, doc in enumerate(self.documents)}

    def text(self, level: int, pad: str) -> str:
        """The text ``json_text`` writes at nesting ``level``."""
        if not self.documents:
            return "{}"
        blocks = block_texts(self.kind, self.counts) if len(self.counts) else []
        if blocks is None or len(blocks) != len(self.counts):
            return _indented(self.plain(), level, pad)
        inner, cell = "\n" + pad * (level + 1), "\n" + pad * (level + 2)
        heads = np.array([f"{cell}{key}: " for key in _keys(self.labels)] or [""], dtype=object)
        label_of = np.nonzero(self.keep)[1]
        cells: list[str] = list(map(str.__add__, heads[label_of].tolist(), blocks))
        sizes = np.count_nonzero(self.keep, axis=1).tolist()
        parts = []
        at = 0
        for key, n in zip(_keys(self.documents), sizes):
            if n:
                parts.append(f"{inner}{key}: {{" + ",".join(cells[at:at + n]) + inner + "}")
                at += n
            else:
                parts.append(f"{inner}{key}: {{}}")
        return "{" + ",".join(parts) + "\n" + pad * level + "}"


def _keys(names: Sequence[Any]) -> list[str]:
    """Each name as ``json_text`` writes it as an object's key."""
    encode = json.encoder.encode_basestring       # (ensure_ascii=False, as json_text)
    return [encode(n) if type(n) is str else object_key(n) for n in names]


def _indented(table: dict[Any, Any], level: int, pad: str) -> str:
    """``json_text`` of ``table`` at nesting ``level`` (a JSON text has no line break inside a string)."""
    return json_text(table, len(pad)).replace("\n", "\n" + pad * level)


class TableMarkers:
    """Marker strings standing for per-document tables in a result's dict, each with what it is written from."""

    def __init__(self) -> None:
        self.prefix = "accord-table-" + os.urandom(8).hex() + "-"     # (secrets would import hmac)
        self.tables: list[_DocumentTable | _LabelTable] = []

    def _marker(self, table: _DocumentTable | _LabelTable) -> str:
        self.tables.append(table)
        return f"{self.prefix}{len(self.tables) - 1}"

    def add(self, documents: Sequence[Any], kind: Kind | None = None, counts: np.ndarray | None = None) -> str:
        """A marker for the table ``{document: block}`` of ``documents``: the blocks ``kind.blocks(counts)``, or an
        empty block per document without a kind."""
        return self._marker(_DocumentTable(list(documents), kind, counts))

    def add_labels(self, documents: Sequence[Any], labels: Sequence[Any], kind: Kind, counts: np.ndarray,
                   keep: np.ndarray) -> str:
        """A marker for the table ``{document: {label: block}}``: document ``d`` shows label ``k`` where
        ``keep[d, k]``; ``counts`` holds the counts of the kept cells, document by document."""
        return self._marker(_LabelTable(list(documents), list(labels), kind, np.asarray(counts), np.asarray(keep)))

    def table(self, k: int) -> dict[Any, Any]:
        """Table ``k`` as the dict it stands for."""
        return self.tables[k].plain()

    def resolved(self, value: Any) -> Any:
        """``value`` with every marker in its objects and arrays replaced by its table."""
        if isinstance(value, str) and value.startswith(self.prefix):
            return self.table(int(value[len(self.prefix):]))
        if isinstance(value, dict):
            return {key: self.resolved(item) for key, item in value.items()}
        if isinstance(value, (list, tuple)):
            return [self.resolved(item) for item in value]
        return value


def json_text_tables(obj: Any, markers: TableMarkers, indent: int = 2) -> str:
    """``json_text`` of ``obj`` with each marker string of ``markers`` in it replaced by its table, written at the
    marker's depth as ``json_text`` writes that table there (where a marker shares its line with another value,
    ``json_text`` of ``obj`` with the tables themselves).

    Raises
    ------
    MarkerLost
        A marker is not in the text (in the order the tables were added).
    """
    if indent <= 0:     # (no indentation to tell a table's depth by)
        return json_text(markers.resolved(obj), indent)
    text = json_text(obj, indent)
    pad = " " * indent
    parts: list[str] = []
    at = 0
    for k, table in enumerate(markers.tables):
        quoted = json.dumps(f"{markers.prefix}{k}")
        where = text.find(quoted, at)
        if where < 0:
            raise MarkerLost(f"the marker of table {k} is not in the text")
        line_start = text.rfind("\n", 0, where) + 1
        placed = _PLACE.fullmatch(text, line_start, where)
        end = where + len(quoted)
        if placed is None or not (end == len(text) or text.startswith(("\n", ",\n"), end)):
            return json_text(markers.resolved(obj), indent)    # on one line with other values
        parts += [text[at:where], table.text(len(placed.group(1)) // len(pad), pad)]
        at = end
    parts.append(text[at:])
    return "".join(parts)


_PLACE = re.compile(r'( *)(?:"(?:[^"\\]|\\.)*": )?')
"""The start of a line up to a value written alone on it: indentation, then a key or not."""


def block_texts(kind: Kind, counts: np.ndarray) -> list[str] | None:
    """The JSON text of each block ``kind.blocks(counts)`` gives (as ``json_text`` writes a flat object), made
    column by column as :meth:`Kind.blocks` makes the blocks, in the order of the keys of the kind's own blocks
    (:data:`_KEYS_ONLY`); None for a kind that makes its blocks otherwise."""
    own = type(kind).blocks is Kind.blocks
    if not own and type(kind) not in _KEYS_ONLY:
        return None
    v = np.asarray(counts)
    if v.ndim != 2 or not len(v):
        return None
    columns: dict[str, list[str] | None] = {}
    for name, arr in kind.derived(v).items():
        columns[name] = _texts(arr.astype(np.int64) if name in kind.integer else np.asarray(arr))
    for k, name in enumerate(kind.fields):
        if name not in columns:
            arr = v[:, k]
            columns[name] = _texts(arr.astype(np.int64) if name in kind.integer else arr.astype(np.float64))
    for name, arr in kind.rates(v).items():
        columns[name] = _texts(np.asarray(arr))       # (NaN, written null either way)
    if not own:
        order = list(kind.blocks(v[:1])[0])
        if not set(order) <= set(columns):
            return None
        columns = {name: columns[name] for name in order}
    if any(c is None or len(c) != len(v) for c in columns.values()):
        return None
    template = "{" + ", ".join(json.encoder.encode_basestring(name).replace("%", "%%") + ": %s"
                               for name in columns) + "}"
    return [template % row for row in zip(*columns.values())]


_KEYS_ONLY = (ClueKind, GateKind)
"""Kinds whose own blocks only reorder or leave out keys of :meth:`Kind.blocks`' (the same for every row), so that
their tables are written from the columns too (``tests/fuzz/test_json_columns.py`` checks the text)."""


def _texts(arr: np.ndarray) -> list[str] | None:
    """The JSON text of each value of ``arr.tolist()`` (a number not finite as ``null``), each distinct value's
    made once; None for an array not of numbers."""
    kind = arr.dtype.kind
    if kind == "f":
        bits = arr.astype(np.float64).view(np.int64)      # distinct by bits: -0.0 is not 0.0
        distinct, inverse = np.unique(bits, return_inverse=True)
        values = distinct.view(np.float64)
        texts = _reprs(values.tolist())[1:-1].split(",")      # float.__repr__ of each, by the C encoder
        if not np.isfinite(values).all():
            texts = [t if ok else "null" for t, ok in zip(texts, np.isfinite(values).tolist())]
    elif kind in "iu":
        distinct, inverse = np.unique(arr, return_inverse=True)
        texts = list(map(int.__repr__, distinct.tolist()))
    elif kind == "b":
        return ["true" if x else "false" for x in arr.tolist()]
    else:
        return None
    out: list[str] = np.array(texts, dtype=object)[inverse.reshape(-1)].tolist()
    return out
