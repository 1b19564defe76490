"""The other forms of generated records (:mod:`accord.formats.records.generated`): JSON arrays, CSV/TSV, Python
tuples and pandas DataFrames.

Files, told apart by their content:

* JSON lines, one document a line (the form :mod:`~accord.formats.records.generated` describes);
* a JSON array of such documents, or an object ``{"documents": [...]}``; an error names the line its document
  begins on;
* CSV or TSV (a tab in the header line makes it TSV), one row per entity, with a header naming the columns: ``id``,
  ``text`` and ``label`` (an entity), optionally ``head`` and ``tail`` (a row with either filled is a relation: its
  ``head``, ``tail`` and ``label``, its ``text`` empty); every other column is an attribute of the entity, an empty
  cell none. A row with only its ``id`` is a document without predictions. Events need JSON. An error names the line
  the row begins on, its row number and its column.

In Python (:func:`python_records`): a list of dicts (each a document), a list of ``(id, text, label)`` tuples (one per
entity), or a pandas DataFrame with the CSV's columns.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ...errors import FormatError, quoted
from ...model import Annotation, Attributes, Corpus, Document, make_annotation
from .generated_model import HEAD, KIND, RECORDS, TAIL, TEXT, looks_like_record, records_corpus, records_document

__all__ = ["python_records", "read_records_file", "rows_corpus", "sniff_records"]

_COLUMNS = ("id", "text", "label", "head", "tail")
"""The columns of a CSV/TSV file or DataFrame of records that are not attributes."""

_DOCUMENTS = re.compile(r'\{\s*"documents"\s*:\s*\[')


def read_records_file(path: str | Path, encoding: str | None = None) -> Corpus:
    """A corpus of records from a file in any of the forms of the module docstring."""
    from ..._support.io import read_text
    from ..text.jsonl import corpus_of_lines

    p = Path(path)
    text = read_text(p, encoding)
    body = text.lstrip()
    if body.startswith("["):
        return _corpus([records_document(v, path=p, line=n) for n, v in _array(text, len(text) - len(body), p)], p)
    if body.startswith("{"):
        first = body.split("\n", 1)[0]
        try:
            whole_line = isinstance(json.loads(first), dict)
        except (ValueError, RecursionError):
            whole_line = False
        if whole_line or not _DOCUMENTS.match(body):
            return corpus_of_lines(p, records_document, encoding)
        return _corpus([records_document(v, path=p, line=n) for n, v in _documents(text, len(text) - len(body), p)],
                       p)
    return _csv(text, p)


def _corpus(docs: list[Document], path: object) -> Corpus:
    try:
        return Corpus(docs, name=None if path is None else str(path))
    except ValueError as exc:
        raise FormatError(str(exc), path=path) from None


def _decoder() -> json.JSONDecoder:
    from .._json import _refuse_constant

    return json.JSONDecoder(parse_constant=_refuse_constant)


def _check_depth(text: str, path: object) -> None:
    from .._json import MAX_DEPTH, _nesting_depth

    depth = _nesting_depth(text)
    if depth > MAX_DEPTH:
        raise FormatError(f"JSON nested {depth} levels deep; accord reads at most {MAX_DEPTH}", path=path)


def _skip(text: str, at: int) -> int:
    while at < len(text) and text[at] in " \t\r\n":
        at += 1
    return at


def _line(text: str, at: int) -> int:
    return text.count("\n", 0, at) + 1


def _value(decoder: json.JSONDecoder, text: str, at: int, path: object) -> tuple[Any, int]:
    try:
        return decoder.raw_decode(text, at)
    except json.JSONDecodeError as exc:
        raise FormatError(f"not valid JSON ({exc.msg} at column {exc.colno})", path=path, line=exc.lineno) from None
    except ValueError as exc:       # NaN, Infinity
        raise FormatError(f"not valid JSON ({exc})", path=path, line=_line(text, at)) from None


def _items(text: str, at: int, path: object) -> tuple[list[tuple[int, Any]], int]:
    """The values of the JSON array whose ``[`` is at ``at``, each with the line it begins on, and where the array
    ends."""
    decoder = _decoder()
    out: list[tuple[int, Any]] = []
    at = _skip(text, at + 1)
    if at < len(text) and text[at] == "]":
        return out, at + 1
    line, counted = 1, 0
    while True:
        at = _skip(text, at)
        line += text.count("\n", counted, at)
        counted = at
        value, at = _value(decoder, text, at, path)
        out.append((line, value))
        at = _skip(text, at)
        if at < len(text) and text[at] == "]":
            return out, at + 1
        if at >= len(text) or text[at] != ",":
            raise FormatError("not valid JSON (expected ',' or ']' after a document of the array)", path=path,
                              line=_line(text, min(at, len(text))))
        at += 1


def _end(text: str, at: int, path: object) -> None:
    at = _skip(text, at)
    if at < len(text):
        raise FormatError("not valid JSON (extra data after the documents)", path=path, line=_line(text, at))


def _array(text: str, at: int, path: object) -> list[tuple[int, Any]]:
    _check_depth(text, path)
    values, end = _items(text, at, path)
    _end(text, end, path)
    return values


def _documents(text: str, at: int, path: object) -> list[tuple[int, Any]]:
    """The documents of ``{"documents": [...]}`` (the object's only field)."""
    _check_depth(text, path)
    m = _DOCUMENTS.match(text, at)
    assert m is not None    # (read_records_file checked it)
    values, end = _items(text, m.end() - 1, path)
    end = _skip(text, end)
    if end >= len(text) or text[end] != "}":
        raise FormatError('expected {"documents": [...]} with no other field', path=path,
                          line=_line(text, min(end, len(text))))
    _end(text, end + 1, path)
    return values


def _cell(value: Any) -> Any:
    """A cell's value, ``None`` for an empty one (an empty string, pandas' NaN or None)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, str) and not value.strip():
        return None
    return value


def rows_corpus(columns: list[str], rows: Iterable[tuple[int | None, list[Any]]], path: object, what: str = "row",
                line_numbers: bool = True) -> Corpus:
    """A corpus of records from rows of cells under ``columns`` (the CSV/TSV layout of the module docstring);
    ``rows`` gives each row's line (or ``None``) and cells. An error names the line, the row and the column."""
    names = [str(c).strip() for c in columns]
    if "id" not in names or "label" not in names or not ("text" in names or ("head" in names and "tail" in names)):
        raise FormatError(f"the header names the columns {', '.join(map(quoted, names))}; generated records need "
                          "id, text and label (and head and tail for relations)", path=path, line=1 if line_numbers
                          else None)
    seen: set[str] = set()
    for name in names:
        if not name or name in seen or (name not in _COLUMNS and name.startswith("_")):
            raise FormatError(f"column {quoted(name)}: columns are named once, not empty, not beginning with _",
                              path=path, line=1 if line_numbers else None)
        seen.add(name)
    docs: dict[str, list[Annotation]] = {}
    for k, (line, cells) in enumerate(rows, 1):
        where = f"{what} {k}"
        if len(cells) != len(names):
            raise FormatError(f"{where}: {len(cells)} cells under {len(names)} columns", path=path, line=line)
        row = {n: _cell(v) for n, v in zip(names, cells)}

        def need(name: str, row: dict[str, Any] = row, where: str = where, line: int | None = line) -> str:
            value = row.get(name)
            if not isinstance(value, str):
                raise FormatError(f"{where}, column {quoted(name)}: expected a non-empty string; got "
                                  f"{quoted(value if value is not None else '')}", path=path, line=line)
            return value

        doc_id = row["id"]
        if isinstance(doc_id, (int, float)) and not isinstance(doc_id, bool) and float(doc_id).is_integer():
            doc_id = str(int(doc_id))
        if not isinstance(doc_id, str):
            raise FormatError(f"{where}, column 'id': expected the document id; got {quoted(doc_id or '')}",
                              path=path, line=line)
        anns = docs.setdefault(doc_id, [])
        attrs = {n: v for n, v in row.items() if n not in _COLUMNS and v is not None}
        for n, v in attrs.items():
            if not isinstance(v, (str, int, float, bool)):
                raise FormatError(f"{where}, column {quoted(n)}: an attribute is a string, number or boolean; got "
                                  f"{quoted(v)}", path=path, line=line)
        if row.get("head") is not None or row.get("tail") is not None:
            if row.get("text") is not None or attrs:
                extra = "text" if row.get("text") is not None else next(iter(attrs))
                raise FormatError(f"{where}, column {quoted(extra)}: a relation row (head and tail) leaves the "
                                  "entity's columns empty", path=path, line=line)
            anns.append(make_annotation(need("label"), None, None,
                                        {HEAD: need("head"), TAIL: need("tail"), KIND: "relation"}))
        elif row.get("text") is not None or row.get("label") is not None or attrs:
            anns.append(make_annotation(need("label"), None, None, {**attrs, TEXT: need("text"), KIND: "entity"}))
    return _corpus([Document(d, tuple(a), None, None, None, Attributes({RECORDS: True})) for d, a in docs.items()],
                   path)


def _csv(text: str, path: Path) -> Corpus:
    first = text.split("\n", 1)[0]
    delimiter = "\t" if "\t" in first else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    try:
        header = next(reader, None)
    except csv.Error as exc:
        raise FormatError(f"not valid {'TSV' if delimiter == chr(9) else 'CSV'} ({exc})", path=path, line=1) from None
    if header is None:
        raise FormatError("an empty file; generated records need a header (id, text, label) and rows", path=path)

    def rows() -> Iterable[tuple[int | None, list[Any]]]:
        previous = reader.line_num
        while True:
            try:
                cells = next(reader)
            except StopIteration:
                return
            except csv.Error as exc:
                raise FormatError(f"not valid {'TSV' if delimiter == chr(9) else 'CSV'} ({exc})", path=path,
                                  line=previous + 1) from None
            start, previous = previous + 1, reader.line_num
            if not any(c.strip() for c in cells):      # a blank line
                continue
            yield start, cells

    return rows_corpus(header, rows(), path)


def python_records(obj: Any) -> Corpus | None:
    """A corpus of records from Python: a list of dicts (each with an ``id``), a list of ``(id, text, label)``
    tuples, or a pandas DataFrame with the columns ``id``, ``text`` and ``label`` (and ``head``, ``tail`` and
    attributes, as CSV); ``None`` for anything else (another kind of input)."""
    if type(obj).__module__.startswith("pandas") and type(obj).__name__ == "DataFrame":
        columns = [str(c) for c in obj.columns]
        if "id" not in columns:
            if "text" in columns and "label" in columns and "start" not in columns:    # strings without documents
                raise FormatError(f"the frame has the columns {', '.join(columns)}; generated records need id (the "
                                  "document of each row), text and label", path="<DataFrame>")
            return None
        return rows_corpus(columns, ((None, list(r)) for r in obj.itertuples(index=False, name=None)),
                           "<DataFrame>", "row", line_numbers=False)
    if not isinstance(obj, list) or not obj:
        return None
    if all(isinstance(x, dict) and "id" in x for x in obj):
        return records_corpus(obj, name="<list>")
    if all(isinstance(x, tuple) for x in obj):
        for k, x in enumerate(obj):
            if len(x) != 3:
                raise FormatError(f"item {k + 1}: expected a tuple (id, text, label); got {len(x)} values",
                                  path="<list>")
        return rows_corpus(["id", "text", "label"], ((None, list(x)) for x in obj), "<list>", "item",
                           line_numbers=False)
    return None


def sniff_records(p: Path) -> bool:
    """Whether a file holds generated records in one of the forms of the module docstring (its first 64 KiB)."""
    from .._registry import file_head

    head = file_head(p, 1 << 16)
    if head is None:
        return False
    body = head.lstrip()
    if body.startswith("{"):
        first = body.split("\n", 1)[0]
        try:
            return looks_like_record(json.loads(first))
        except (ValueError, RecursionError):     # not JSON, or nested past the parser's depth
            pass
        m = _DOCUMENTS.match(body)
        return m is not None and _first_item_looks(body, m.end() - 1)
    if body.startswith("["):
        return _first_item_looks(body, 0)
    first_line = head.split("\n", 1)[0].rstrip("\r")
    names = [c.strip().strip('"') for c in first_line.split("\t" if "\t" in first_line else ",")]
    return "id" in names and "label" in names and "text" in names and len(set(names)) == len(names)


def _first_item_looks(text: str, bracket: int) -> bool:
    at = _skip(text, bracket + 1)
    try:
        value, _ = json.JSONDecoder().raw_decode(text, at)
    except (ValueError, RecursionError):
        return False
    return looks_like_record(value)
