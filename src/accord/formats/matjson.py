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
from pathlib import Path
from typing import Any

from ..errors import FormatError
from ..model import Annotation, Attributes, Corpus, Document, is_aggregate
from ._refs import RawAnnotation, Ref, build_annotations, ref_id, writer_ids
from ._registry import Format, file_head, register

__all__ = ["read_mat_json", "write_mat_json"]


def _doc_id(p: Path) -> str:
    name = p.name
    for suffix in (".txt.json", ".json"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return p.stem


def read_mat_json(path: str | Path, *, encoding: str = "utf-8", **_ignored: Any) -> Corpus:
    """Read one MAT JSON document."""
    p = Path(path)
    try:
        obj = json.loads(p.read_text(encoding=encoding))
    except json.JSONDecodeError as exc:
        raise FormatError(f"not valid JSON ({exc.msg})", path=p, line=exc.lineno) from None
    if not isinstance(obj, dict) or "signal" not in obj:
        raise FormatError("not a MAT JSON document: expected an object with \"signal\" and \"asets\"", path=p)
    version = obj.get("version", 1)
    if not isinstance(version, int) or version > 2:
        raise FormatError(f"MAT JSON version {version!r} is not supported (1 or 2)", path=p)
    doc_id = _doc_id(p)
    signal = obj["signal"]
    raw: list[RawAnnotation] = []
    for aset in obj.get("asets", []):
        label = aset.get("type")
        if not isinstance(label, str):
            raise FormatError("an annotation set without a string \"type\"", path=p)
        has_span = aset.get("hasSpan", True)
        has_id = aset.get("hasID", False)
        attrs = []
        for a in aset.get("attrs", []):
            if isinstance(a, str):
                attrs.append((a, "string", None))
            elif isinstance(a, dict) and isinstance(a.get("name"), str):
                attrs.append((a["name"], a.get("type", "string"), a.get("aggregation")))
            else:
                raise FormatError(f"annotation set {label!r}: bad attribute declaration {a!r}", path=p)
        fixed = (2 if has_span else 0) + (1 if has_id else 0)
        for k, row in enumerate(aset.get("annots", [])):
            where = f"annotation set {label!r}, row {k}"
            if not isinstance(row, list) or not fixed <= len(row) <= fixed + len(attrs):
                raise FormatError(f"{where}: expected {fixed} to {fixed + len(attrs)} values; got {row!r}", path=p)
            start = end = None
            if has_span:
                start, end = row[0], row[1]
                if not (isinstance(start, int) and isinstance(end, int) and 0 <= start <= end <= len(signal)):
                    raise FormatError(f"{where}: span [{start}, {end}) does not lie in the signal "
                                      f"({len(signal)} characters)", path=p)
            ann_id = str(row[fixed - 1]) if has_id else None
            values: dict[str, Any] = {}
            for (name, typ, agg), v in zip(attrs, row[fixed:]):
                if v is None:
                    continue
                values[name] = _value(v, typ, agg, where, p)
            raw.append(RawAnnotation(label, start, end, values, ann_id))
    annotations = build_annotations(raw, path=p, doc_id=doc_id)
    return Corpus([Document(doc_id, annotations, signal, None, None, Attributes(obj.get("metadata") or {}))],
                  name=str(p))


def _value(v: Any, typ: str, agg: str | None, where: str, p: Path) -> Any:
    def one(x: Any) -> Any:
        if typ == "annotation":
            return Ref(str(x))
        if typ == "float" and isinstance(x, int) and not isinstance(x, bool):
            return float(x)
        return x

    if agg in ("set", "list"):
        if not isinstance(v, list):
            raise FormatError(f"{where}: a {agg} value must be a JSON array; got {v!r}", path=p)
        return frozenset(one(x) for x in v) if agg == "set" else tuple(one(x) for x in v)
    return one(v)


def _type_of(values: list[Any]) -> tuple[str, str | None]:
    agg = None
    flat = []
    for v in values:
        if isinstance(v, frozenset):
            agg, items = "set", list(v)
        elif is_aggregate(v):
            agg, items = "list", list(v)
        else:
            items = [v]
        flat.extend(items)
    kinds = {"annotation" if isinstance(x, Annotation) else "boolean" if isinstance(x, bool) else
             "int" if isinstance(x, int) else "float" if isinstance(x, float) else "string" for x in flat}
    if kinds == {"int", "float"}:
        kinds = {"float"}
    return (kinds.pop() if len(kinds) == 1 else "string"), agg


def write_mat_json(corpus: Corpus, path: str | Path, **_ignored: Any) -> None:
    """Write each document as MAT JSON v2 (``path`` is a file for one document, else a directory)."""
    p = Path(path)
    docs = corpus.documents
    if len(docs) != 1:
        p.mkdir(parents=True, exist_ok=True)
    for doc in docs:
        target = p if len(docs) == 1 else p / f"{doc.id}.json"
        if doc.text is None:
            raise FormatError(f"document {doc.id!r} has no text; MAT JSON needs the signal", path=target)
        ids = writer_ids(doc.annotations, keep_own=True)
        asets = []
        by_label: dict[str, list[Annotation]] = {}
        for a in doc.annotations:
            by_label.setdefault(a.label, []).append(a)
        for label, anns in by_label.items():
            names = list(dict.fromkeys(n for a in anns for n in a.attributes))
            decl = []
            for n in names:
                typ, agg = _type_of([a.attributes[n] for a in anns if a.attributes.get(n) is not None])
                decl.append({"name": n, "type": typ, "aggregation": agg})
            has_span = anns[0].start is not None
            if any((a.start is not None) != has_span for a in anns):
                raise FormatError(f"document {doc.id!r}: label {label!r} mixes spanned and spanless annotations",
                                  path=target)
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
        target.write_text(json.dumps(obj, ensure_ascii=False), encoding="utf-8")


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
