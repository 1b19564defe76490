"""The JSON text of a result whose per-document tables are large, written a table at a time.

:func:`~accord.result._json_text.json_text` writes ``by_document`` (an object of one block of counts and rates per
document) one block at a time: a dict made per block by :meth:`Kind.blocks`, then a Python call and an encoder call
per block; for 2,000 documents and seven measures that was a fifth of ``accord coref``. Here a table is written
from its counts, column by column (:func:`block_texts`: each distinct number's text made once, as the JSON encoder
makes it), and put where a marker stands for it in the text ``json_text`` writes for the rest of the result
(:func:`json_text_tables`); the text is the same, byte for byte (``tests/result/test_json_tables.py``).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from ._json_text import json_text
from ._kinds import Kind

__all__ = ["TableMarkers", "block_texts", "json_text_tables"]

_reprs = json.JSONEncoder(allow_nan=True, separators=(",", ":")).encode
"""A list of floats as JSON writes it (each ``float.__repr__``, NaN and infinities as the names json gives them)."""


class TableMarkers:
    """Marker strings standing for per-document tables in a result's dict, each with what it is written from:
    the documents, and the kind and counts of their blocks (``kind.blocks(counts)``), or no kind for an empty
    block per document."""

    def __init__(self) -> None:
        self.prefix = "accord-table-" + os.urandom(8).hex() + "-"     # (secrets would import hmac)
        self.tables: list[tuple[list[str], Kind | None, np.ndarray | None]] = []

    def add(self, documents: Sequence[str], kind: Kind | None = None, counts: np.ndarray | None = None) -> str:
        """A marker for the table ``{document: block}`` of ``documents`` (see the class)."""
        self.tables.append((list(documents), kind, counts))
        return f"{self.prefix}{len(self.tables) - 1}"

    def table(self, k: int) -> dict[str, Any]:
        """Table ``k`` as the dict it stands for."""
        return _plain_table(*self.tables[k])

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
    ``json_text`` of ``obj`` with the tables themselves)."""
    text = json_text(obj, indent)
    pad = " " * indent
    parts: list[str] = []
    at = 0
    for k, table in enumerate(markers.tables):
        quoted = json.dumps(f"{markers.prefix}{k}")
        where = text.find(quoted, at)
        if where < 0:
            raise ValueError(f"the marker of table {k} is not in the text")
        line_start = text.rfind("\n", 0, where) + 1
        placed = _PLACE.fullmatch(text, line_start, where)
        end = where + len(quoted)
        if placed is None or not (end == len(text) or text.startswith(("\n", ",\n"), end)):
            return json_text(markers.resolved(obj), indent)    # on one line with other values
        parts += [text[at:where], _table_text(*table, len(placed.group(1)) // len(pad), pad)]
        at = end
    parts.append(text[at:])
    return "".join(parts)


_PLACE = re.compile(r'( *)(?:"(?:[^"\\]|\\.)*": )?')
"""The start of a line up to a value written alone on it: indentation, then a key or not."""


def _table_text(documents: list[str], kind: Kind | None, counts: np.ndarray | None, level: int, pad: str) -> str:
    """The text ``json_text`` writes at nesting ``level`` for ``{document: block}``."""
    if not documents:
        return "{}"
    blocks = ["{}"] * len(documents) if kind is None else block_texts(kind, np.asarray(counts))
    if blocks is None or len(blocks) != len(documents):     # a kind that makes its blocks otherwise
        return json_text(_plain_table(documents, kind, counts)).replace("\n", "\n" + pad * level)
    inner = "\n" + pad * (level + 1)
    keys = map(json.encoder.encode_basestring, documents)      # (ensure_ascii=False, as json_text)
    return "{" + ",".join(f"{inner}{key}: {block}" for key, block in zip(keys, blocks)) + "\n" + pad * level + "}"


def _plain_table(documents: list[str], kind: Kind | None, counts: np.ndarray | None) -> dict[str, Any]:
    """``{document: block}`` as :meth:`accord.result.Measure.by_document` makes it (empty blocks without a kind)."""
    from ._result import Block

    if kind is None:
        return {d: {} for d in documents}
    return {d: Block(b) for d, b in zip(documents, kind.blocks(np.asarray(counts)))}


def block_texts(kind: Kind, counts: np.ndarray) -> list[str] | None:
    """The JSON text of each block ``kind.blocks(counts)`` gives (as ``json_text`` writes a flat object), made
    column by column as :meth:`Kind.blocks` makes the blocks; None for a kind that makes its blocks otherwise."""
    if type(kind).blocks is not Kind.blocks:
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
    if any(c is None or len(c) != len(v) for c in columns.values()):
        return None
    template = "{" + ", ".join(json.encoder.encode_basestring(name).replace("%", "%%") + ": %s"
                               for name in columns) + "}"
    return [template % row for row in zip(*columns.values())]


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
