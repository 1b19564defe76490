"""MAT JSON documents (``mat-json``), version 2 (version 1 is read too).

A document is ``{"signal": TEXT, "metadata": {...}, "version": 2, "asets": [...]}``;
each annotation set has a ``type`` (the label), ``hasSpan`` (default true), ``hasID``
(default false), ``attrs`` (``{"name", "type", "aggregation"}`` objects; version 1: bare
names) and ``annots``, rows of ``[start, end]`` (if spanned), then the id (if ``hasID``),
then the attribute values in ``attrs`` order. Annotation-valued attributes hold the ids
of their targets. Set and list values are JSON arrays. The document id is the file name
without its extension (``.json``, or ``.txt.json`` as MAT names them).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from itertools import repeat
from pathlib import Path
from typing import Any, cast

from ..._support.io import read_text
from ..._support.safe_paths import id_from_file_name
from ...errors import FormatError, quoted
from ...model import EMPTY_ATTRIBUTES, Annotation, Attributes, Corpus, Document
from .._json import ANY, BOOLEAN, INTEGER, NUMBER, STRING, ListOf, Nullable, Object, OneOf, check, json_type, parse_json
from .._refs import (
    RawAnnotation,
    Ref,
    attribute_type,
    build_annotations,
    label_groups,
    ref_id,
    signal_targets,
    writer_ids,
)
from .._registry import Format, file_head, register

__all__ = ["read_mat_json", "write_mat_json"]


def _doc_id(p: Path) -> str:
    name = p.name
    for suffix in (".txt.json", ".json"):
        if name.endswith(suffix):
            return id_from_file_name(name[: -len(suffix)])
    return id_from_file_name(p.stem)


_ATTR_TYPES = ("string", "int", "float", "boolean", "annotation")
_ATTR_DECL = OneOf((STRING, Object({"name": STRING, "type": STRING, "aggregation": Nullable(STRING)},
                                   required=("name",))), name="an attribute name or {\"name\", \"type\"} object")
_ASET = Object({"type": STRING, "hasSpan": BOOLEAN, "hasID": BOOLEAN, "attrs": ListOf(_ATTR_DECL),
                "annots": ListOf(ListOf(ANY))}, required=("type",), name="an annotation set object")
_DOCUMENT = Object({"signal": STRING, "metadata": Object({}), "version": INTEGER, "asets": ListOf(_ASET)},
                   required=("signal",), name="a MAT JSON document (an object)")
_OUTLINE = Object({"signal": STRING, "metadata": Object({}), "version": INTEGER,
                   "asets": ListOf(Object({**_ASET.fields, "annots": ListOf(ANY)}, required=("type",),
                                          name=_ASET.name))},
                  required=("signal",), name=_DOCUMENT.name)
"""The document without its rows, which :func:`_rows_in_bulk` checks a column at a time."""


def _fits_outline(obj: Any) -> bool:
    """Whether ``obj`` has the shape :data:`_OUTLINE` asks for, tested by plain type checks (the walk of
    :func:`~accord.formats._json.check` is done only when this says no: it names the fault)."""
    if type(obj) is not dict or type(obj.get("signal")) is not str:
        return False
    if "metadata" in obj and type(obj["metadata"]) is not dict:
        return False
    if "version" in obj and type(obj["version"]) is not int:
        return False
    asets = obj.get("asets", [])
    if type(asets) is not list:
        return False
    for aset in asets:
        if type(aset) is not dict or type(aset.get("type")) is not str:
            return False
        if any(k in aset and type(aset[k]) is not bool for k in ("hasSpan", "hasID")):
            return False
        if "annots" in aset and type(aset["annots"]) is not list:
            return False
        attrs = aset.get("attrs", [])
        if type(attrs) is not list:
            return False
        for a in attrs:
            if type(a) is str:
                continue
            if (type(a) is not dict or type(a.get("name")) is not str
                    or "type" in a and type(a["type"]) is not str
                    or a.get("aggregation") is not None and type(a["aggregation"]) is not str):
                return False
    return True


_VALUE_SHAPES = {"string": STRING, "int": INTEGER, "float": NUMBER, "boolean": BOOLEAN,
                 "annotation": OneOf((STRING, INTEGER), name="an annotation id (string or integer)")}


def read_mat_json(path: str | Path, *, encoding: str | None = None, **_ignored: Any) -> Corpus:
    """Read one MAT JSON document.

    The document's shape is checked first (:data:`_DOCUMENT`), then every row against its
    set's declaration; the first violation is an error with its JSON path
    (``$.asets[2].annots[5][3]``).
    """
    p = Path(path)
    obj = parse_json(read_text(p, encoding), path=p)
    if not _fits_outline(obj):
        check(obj, _OUTLINE, path=p)    # (which names the first fault)
    version = obj.get("version", 1)
    if version not in (1, 2):
        raise FormatError(f"$.version: MAT JSON version {version!r} is not supported (1 or 2)", path=p)
    doc_id = _doc_id(p)
    signal = obj["signal"]
    annotations = _annotations_in_bulk(obj.get("asets", []), len(signal))
    if annotations is None:   # values to convert one by one, or a fault to find and name
        check(obj, _DOCUMENT, path=p)
        raw = _rows_one_by_one(obj.get("asets", []), signal, p)
        annotations = build_annotations(raw, path=p, doc_id=doc_id)
    return Corpus([Document(doc_id, annotations, signal, None, None, Attributes(obj.get("metadata") or {}))],
                  name=str(p))


_DECLARED = {"string": str, "int": int, "boolean": bool}
"""Attribute types whose JSON values are taken as they are: the Python type each value must have exactly."""


def _annotations_in_bulk(asets: list[dict], signal_length: int) -> tuple[Annotation, ...] | None:
    """The annotations of well-formed annotation sets of single string, integer, boolean or annotation values,
    checked and built a column at a time, the annotations that point to others after those they point to.

    None for anything else: set, list and float values (converted value by value), references to annotations
    that point to others themselves, and faults, which the row-by-row reader finds and names."""
    built: list[Annotation | None] = []
    by_id: dict[str, Annotation] = {}   # the annotations that point nowhere: those others may point to here
    all_ids: list[str] = []
    later: list[tuple[int, str, Sequence, Sequence, Sequence, list]] = []   # sets with annotation values: built last
    for aset in asets:
        label = aset["type"]
        has_span = aset.get("hasSpan", True)
        has_id = aset.get("hasID", False)
        attrs = []
        for a in aset.get("attrs", []):
            if isinstance(a, str):
                attrs.append((a, "string"))
                continue
            typ, agg = a.get("type", "string"), a.get("aggregation")
            if agg not in (None, "none") or typ not in _DECLARED and typ != "annotation":
                return None
            attrs.append((a["name"], typ))
        rows = aset.get("annots", [])
        n = len(rows)
        fixed = (2 if has_span else 0) + (1 if has_id else 0)
        widest = fixed + len(attrs)
        # the checks below are passes of C code over whole columns (a set of the types, min and max), one column
        # of the rows at a time (``zip(*rows)`` when the rows are of one length)
        if n and not _LIST.issuperset(map(type, rows)):
            return None
        lengths = set(map(len, rows))
        if lengths and (min(lengths) < fixed or max(lengths) > widest):
            return None
        column = _columns(rows, lengths, widest)
        if has_span:
            starts, ends = column[0], column[1]
            if n and not (_INT.issuperset(map(type, starts)) and _INT.issuperset(map(type, ends))
                          and min(starts) >= 0 and max(ends) <= signal_length and all(map(_LE, starts, ends))):
                return None
        else:
            starts = ends = [None] * n
        if has_id:
            ids = column[fixed - 1]
            types = set(map(type, ids))
            if not _ID_TYPES.issuperset(types):
                return None
            if int in types:
                ids = [x if type(x) is str else str(x) for x in ids]
        else:
            ids = [None] * n
        columns = []
        pointing = False
        for j, (name, typ) in enumerate(attrs, fixed):
            values = column[j]
            types = set(map(type, values))
            if typ == "annotation":
                if not _TARGET_ID_TYPES.issuperset(types):
                    return None
                if int in types:
                    values = [x if x is None or type(x) is str else str(x) for x in values]
                pointing = True
            elif not types <= {_NONE, _DECLARED[typ]}:
                return None
            columns.append((name, typ == "annotation", values))
        first = len(built)
        if pointing:
            later.append((first, label, starts, ends, ids, columns))
            built.extend([None] * n)
        else:
            built.extend(map(_NEW, repeat(Annotation), zip(repeat(label), starts, ends, _attributes(columns, n), ids,
                                                           repeat(None))))
            if has_id:
                by_id.update(zip(ids, cast("list[Annotation]", built[first:])))   # the ones built just above
        if has_id:
            all_ids.extend(ids)
    for first, label, starts, ends, ids, columns in later:
        resolved = []
        for name, is_target, values in columns:
            if is_target:
                targets = list(map(by_id.get, values))     # (None stays None: no id is None)
                if targets.count(None) != values.count(None):
                    return None   # an unknown id, or one of an annotation that points to others
                values = targets
            resolved.append((name, is_target, values))
        built[first:first + len(starts)] = map(_NEW, repeat(Annotation), zip(repeat(label), starts, ends,
                                                                             _attributes(resolved, len(starts)), ids,
                                                                             repeat(None)))
    if len(set(all_ids)) != len(all_ids):
        return None   # an id used twice
    return tuple(built)  # type: ignore[arg-type]  # the pointing ones were filled in above


def _columns(rows: list[list], lengths: set[int], widest: int) -> list[Sequence]:
    """The ``widest`` columns of the rows (None past the end of a shorter row): one ``zip`` when the rows are of
    one length."""
    if len(lengths) == 1:
        got: list[Sequence] = list(zip(*rows))
        return got + [[None] * len(rows)] * (widest - len(got))
    return [[row[j] if len(row) > j else None for row in rows] for j in range(widest)]


_LIST = frozenset([list])
_INT = frozenset([int])
_NONE = type(None)
_ID_TYPES = frozenset([str, int])
_TARGET_ID_TYPES = frozenset([str, int, _NONE])
_LE = int.__le__
_NEW = tuple.__new__
"""An :class:`~accord.model.Annotation` made from a row of its six fields without a call of Python code
(``Annotation._make`` less its check of the length)."""


def _attributes(columns: list[tuple[str, bool, Sequence]], n: int) -> list[Attributes]:
    """The attributes of ``n`` rows from columns of values (None: not set).

    Rows of equal scalar values share one (read-only) :class:`Attributes` (a column holds values of one Python
    type, so values equal under ``==`` are the same value); rows pointing to annotations get their own."""
    if not columns:
        return [EMPTY_ATTRIBUTES] * n
    names = [c[0] for c in columns]
    rows = list(zip(*(c[2] for c in columns)))

    def made(row: tuple) -> Attributes:
        if None not in row:
            return Attributes(zip(names, row))
        pairs = [(name, v) for name, v in zip(names, row) if v is not None]
        return Attributes(pairs) if pairs else EMPTY_ATTRIBUTES

    if any(is_target for _, is_target, _ in columns):
        if not any(c[2].count(None) for c in columns):   # every value set: each row's pairs in C
            return list(map(Attributes, map(zip, repeat(names), rows)))
        return list(map(made, rows))
    shared = {row: made(row) for row in set(rows)}
    return list(map(shared.__getitem__, rows))


def _rows_one_by_one(asets: list[dict], signal: str, p: Path) -> list[RawAnnotation]:
    """The annotations, each row and value checked in turn: the first fault is an error with its JSON path."""
    raw: list[RawAnnotation] = []
    for n, aset in enumerate(asets):
        label = aset["type"]
        has_span = aset.get("hasSpan", True)
        has_id = aset.get("hasID", False)
        attrs = []
        for m, a in enumerate(aset.get("attrs", [])):
            if isinstance(a, str):
                attrs.append((a, "string", None))
                continue
            typ, agg = a.get("type", "string"), a.get("aggregation")
            if typ not in _ATTR_TYPES:
                raise FormatError(f"$.asets[{n}].attrs[{m}].type: expected one of {', '.join(_ATTR_TYPES)}, "
                                  f"got {quoted(typ)}", path=p)
            if agg not in (None, "none", "set", "list"):
                raise FormatError(f"$.asets[{n}].attrs[{m}].aggregation: expected set, list or none, got {quoted(agg)}",
                                  path=p)
            attrs.append((a["name"], typ, None if agg == "none" else agg))
        fixed = (2 if has_span else 0) + (1 if has_id else 0)
        for k, row in enumerate(aset.get("annots", [])):
            where = f"$.asets[{n}].annots[{k}]"
            if not fixed <= len(row) <= fixed + len(attrs):
                raise FormatError(f"{where}: expected {fixed} to {fixed + len(attrs)} values (annotation set "
                                  f"{quoted(label)}); got {len(row)}", path=p)
            start = end = None
            if has_span:
                start, end = row[0], row[1]
                for m, offset in enumerate((start, end)):
                    if not INTEGER.accepts(offset):
                        raise FormatError(f"{where}[{m}]: expected an integer character offset, got "
                                          f"{json_type(offset)}", path=p)
                if not (INTEGER.accepts(start) and INTEGER.accepts(end) and 0 <= start <= end <= len(signal)):
                    raise FormatError(f"{where}: span [{quoted(start)}, {quoted(end)}) does not lie in the signal "
                                      f"({len(signal)} characters)", path=p)
            ann_id = None
            if has_id:
                ann_id = row[fixed - 1]
                if not _VALUE_SHAPES["annotation"].accepts(ann_id):
                    raise FormatError(f"{where}[{fixed - 1}]: expected an annotation id (string or integer), got "
                                      f"{json_type(ann_id)}", path=p)
                ann_id = str(ann_id)
            values: dict[str, Any] = {}
            for j, ((name, typ, agg), v) in enumerate(zip(attrs, row[fixed:]), fixed):
                if v is None:
                    continue
                values[name] = _value(v, typ, agg, f"{where}[{j}]", p)
            raw.append(RawAnnotation(label, start, end, values, ann_id))
    return raw


def _value(v: Any, typ: str, agg: str | None, where: str, p: Path) -> Any:
    shape = _VALUE_SHAPES[typ]

    def one(x: Any, at: str) -> Any:
        if not shape.accepts(x):
            raise FormatError(f"{at}: expected {shape.describe()} (a {typ} attribute), got {json_type(x)}", path=p)
        if typ == "annotation":
            return Ref(str(x))
        if typ == "float":
            return float(x)
        return x

    if agg in ("set", "list"):
        if not isinstance(v, list):
            raise FormatError(f"{where}: a {agg} value must be a JSON array; got {json_type(v)}", path=p)
        items = [one(x, f"{where}[{i}]") for i, x in enumerate(v)]
        return frozenset(items) if agg == "set" else tuple(items)
    return one(v, where)


def write_mat_json(corpus: Corpus, path: str | Path, **_ignored: Any) -> None:
    """Write each document as MAT JSON v2 (``path`` is a file for one document, else a directory)."""
    for doc, target, staged in signal_targets(corpus, path, ".json", "MAT JSON"):
        ids = writer_ids(doc.annotations, keep_own=True)
        asets = []
        for label, anns in label_groups(doc, target).items():
            names = list(dict.fromkeys(n for a in anns for n in a.attributes))
            decl = []
            for n in names:
                typ, agg = attribute_type([a.attributes[n] for a in anns if a.attributes.get(n) is not None])
                decl.append({"name": n, "type": typ, "aggregation": agg})
            has_span = anns[0].start is not None
            has_id = any(id(a) in ids for a in anns)
            rows = []
            for a in anns:
                row: list[Any] = [a.start, a.end] if has_span else []
                if has_id:
                    row.append(ref_id(a, ids))
                for n in names:
                    row.append(_out(a.attributes.get(n), ids))
                rows.append(row)
            asets.append({"type": label, "hasID": has_id, "hasSpan": has_span, "attrs": decl, "annots": rows})
        meta = {k: v for k, v in (doc.metadata or {}).items() if isinstance(v, (str, int, float, bool))}
        obj = {"signal": doc.text, "metadata": meta, "version": 2, "asets": asets}
        staged.write_text(json.dumps(obj, ensure_ascii=False), encoding="utf-8")


def _out(v: Any, ids: dict[int, str]) -> Any:
    if isinstance(v, Annotation):
        return ref_id(v, ids)
    if isinstance(v, frozenset):
        return sorted((_out(x, ids) for x in v), key=str)
    if isinstance(v, tuple):
        return [_out(x, ids) for x in v]
    return v


def _sniff(p: Path) -> bool:
    head = file_head(p, 2048)
    return head is not None and head.lstrip().startswith("{") and '"signal"' in head


register(Format("mat-json", read_mat_json, write_mat_json, (".json",), _sniff, "MAT JSON documents (v2)"))
