"""accord's own reader of UIMA CAS XMI: one streaming pass over the file, nothing built that accord does not read.

dkpro-cassis builds a Python object for every feature structure of a file, converts every feature of every one and
maps every character of the text to its UTF-16 offset; accord reads a few layers. This module parses the file with
:func:`lxml.etree.iterparse` (no DTD, no entities, no network, lxml's size limits kept), checks on every element what
cassis checks (so a file cassis refuses is never read here), and returns a small stand-in of cassis's CAS
(:class:`XmiCas`) whose feature structures convert a feature only when it is read. UTF-16 offsets are mapped to code
points only when the text has a character outside the basic plane, and only for the view's annotations, as cassis
maps them. The type system (its inheritance, its features' ranges) is cassis's, parsed once per folder by the caller.

Whatever it does not handle the way cassis does (several views or sofas, arrays or lists written as elements of
their own, a value or a reference cassis would refuse, an attribute that is no feature, a duplicate id) raises
:class:`Unsupported`; the caller then reads the file through cassis, which gives the same result or the same error.
Types the type system lacks are left out as cassis leaves them out when lenient (:attr:`XmiCas.missing` names them).
A document type declaration is refused (:func:`doctype_refused`): an XMI file has none, and entities are not expanded.
"""

from __future__ import annotations

import re
import weakref
from itertools import accumulate
from pathlib import Path
from typing import Any, BinaryIO

__all__ = ["DOCTYPE_REFUSED", "Unsupported", "XmiCas", "doctype_refused", "parse_xmi", "type_cache"]

DOCTYPE_REFUSED = "a document type declaration (DTD, entities) in UIMA XMI: refused, never read (XMI has none)"

_XMI_NS = "{http://www.omg.org/XMI}"
_ROOT = _XMI_NS + "XMI"
_ID = _XMI_NS + "id"
_SOFA = "{http:///uima/cas.ecore}Sofa"
_VIEW = "{http:///uima/cas.ecore}View"
_SOFA_KEYS = frozenset({_ID, "sofaNum", "sofaID", "sofaString", "mimeType"})
_INITIAL_VIEW = "_InitialView"
_ANNOTATION = "uima.tcas.Annotation"
_COLLECTIONS = ("uima.cas.ArrayBase", "uima.cas.ListBase")
_PRIMITIVE_INT = frozenset({"uima.cas.Integer", "uima.cas.Short", "uima.cas.Long", "uima.cas.Byte"})
_PRIMITIVE_FLOAT = frozenset({"uima.cas.Float", "uima.cas.Double"})
_FS_ARRAY = "uima.cas.FSArray"
_FS_LIST = "uima.cas.FSList"
_PARSE_OPTIONS = {"resolve_entities": False, "no_network": True, "huge_tree": False, "load_dtd": False}
"""The parser's options: no DTD loaded, no entity expanded, nothing fetched, lxml's size limits kept. (A parser target,
which builds no tree, was tried: libxml2 then checks no namespace, which cassis's parse does, and hands ``&`` of an
attribute value as ``&#38;`` unless entities are resolved.)"""
_ELEMENT = re.compile(rb"<[^?!]")
_FREE_EVERY = 1024

# the kinds of feature, as cassis converts them
_STR, _INT, _FLOAT, _BOOL, _OTHER, _SOFA_REF, _PARRAY, _PLIST, _FSARRAY, _FSLIST, _REF = range(11)


class Unsupported(Exception):
    """The file holds something this reader does not map as cassis does: read it through cassis."""


def _booleans(value: str) -> list[bool]:
    out = []
    for e in value.split():
        if e not in ("true", "false"):
            raise Unsupported(e)
        out.append(e == "true")
    return out


def _strings(value: str) -> list[str]:
    if value.split():
        raise Unsupported("a string array written inline")   # cassis refuses one (ValueError)
    return []


_PRIMITIVE_ARRAYS = {
    "uima.cas.FloatArray": lambda v: [float(e) for e in v.split()] if v else [],
    "uima.cas.DoubleArray": lambda v: [float(e) for e in v.split()] if v else [],
    "uima.cas.IntegerArray": lambda v: [int(e) for e in v.split()] if v else [],
    "uima.cas.ShortArray": lambda v: [int(e) for e in v.split()] if v else [],
    "uima.cas.LongArray": lambda v: [int(e) for e in v.split()] if v else [],
    "uima.cas.BooleanArray": lambda v: _booleans(v) if v else [],
    "uima.cas.ByteArray": lambda v: list(bytearray.fromhex(v)) if v else [],
    "uima.cas.StringArray": _strings,
}
_PRIMITIVE_LISTS = {
    "uima.cas.IntegerList": lambda v: [int(e) for e in v.split()],
    "uima.cas.FloatList": lambda v: [float(e) for e in v.split()],
    "uima.cas.StringList": lambda v: v.split(),
}


class _Array:
    """An array feature's value as accord reads it: its ``elements``."""

    __slots__ = ("elements",)

    def __init__(self, elements: list[Any]):
        self.elements = elements


class _Opaque:
    """A value accord reads nothing from (a list, a sofa): no elements, no id, no span."""

    __slots__ = ()


_OPAQUE = _Opaque()


class _Plan:
    """What one type's elements hold: each feature's kind, and the checks of each set of attributes seen."""

    __slots__ = ("type", "name", "annotation", "collection", "features", "by_keys")

    def __init__(self, ts: Any, t: Any):
        self.type = t
        self.name = t.name
        self.annotation = ts.is_instance_of(t.name, _ANNOTATION)
        self.collection = any(ts.is_instance_of(t.name, c) for c in _COLLECTIONS)
        self.features: dict[str, tuple[int, Any]] = {}
        for f in t.all_features:
            r = f.rangeType
            rn = r.name
            single = not f.multipleReferencesAllowed
            if f.name == "sofa":
                spec: tuple[int, Any] = (_SOFA_REF, None)
            elif ts.is_primitive(r):
                spec = ((_STR, None) if rn == "uima.cas.String" else (_INT, None) if rn in _PRIMITIVE_INT else
                        (_FLOAT, None) if rn in _PRIMITIVE_FLOAT else (_BOOL, None) if rn == "uima.cas.Boolean"
                        else (_OTHER, None))
            elif rn in _PRIMITIVE_ARRAYS and single:
                spec = (_PARRAY, _PRIMITIVE_ARRAYS[rn])
            elif rn in _PRIMITIVE_LISTS and single:
                spec = (_PLIST, _PRIMITIVE_LISTS[rn])
            elif rn == _FS_ARRAY and single:
                spec = (_FSARRAY, None)
            elif rn == _FS_LIST and single:
                spec = (_FSLIST, None)
            else:
                spec = (_REF, None)
            self.features[f.name] = spec
        self.by_keys: dict[tuple[str, ...], list[tuple[str, int, Any]]] = {}

    def checks(self, keys: tuple[str, ...]) -> list[tuple[str, int, Any]]:
        """The values to check of an element holding the attributes ``keys`` (cassis's conversions)."""
        out = []
        for k in keys:
            if k == _ID or (self.annotation and k in ("begin", "end")):
                continue
            spec = self.features.get(k)
            if spec is None or k in ("self", "type"):
                raise Unsupported(f"attribute {k!r} of {self.name}")   # cassis: TypeError, or a renamed feature
            if spec[0] == _OTHER:
                raise Unsupported(f"feature {k!r} of {self.name}")
            if spec[0] != _STR:
                out.append((k, spec[0], spec[1]))
        if "sofa" in self.features and "sofa" not in keys:
            raise Unsupported(f"{self.name} without a sofa")          # cassis: KeyError
        self.by_keys[keys] = out
        return out


class _FS:
    """A feature structure: its type (cassis's), id, span (annotations) and features, converted when read."""

    __slots__ = ("type", "xmiID", "begin", "end", "_values", "_plan", "_cas")
    type: Any
    xmiID: int
    begin: int
    end: int
    _values: dict[str, Any]
    _plan: _Plan
    _cas: XmiCas

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        spec = self._plan.features.get(name)
        if spec is None:
            raise AttributeError(name)
        raw = self._values.get(name)
        if raw is None:
            return None
        kind = spec[0]
        if kind == _STR:
            return raw
        if kind == _INT:
            return int(raw)
        if kind == _FLOAT:
            return float(raw)
        if kind == _BOOL:
            return raw == "true"
        if kind == _PARRAY:
            return _Array(spec[1](raw))
        if kind == _FSARRAY:
            fs = self._cas.fs
            return _Array([fs(int(i)) for i in raw.split()])
        if kind == _REF:
            return self._cas.fs(int(raw))
        return _OPAQUE                                              # lists, the sofa


class XmiCas:
    """What accord reads of a CAS: the text, the type system and the view's feature structures by type."""

    def __init__(self, ts: Any, text: str | None, table: dict[int, tuple[_Plan, dict[str, Any]]],
                 index: dict[str, list[int]], missing: list[str]):
        self.typesystem = ts
        self.sofa_string = text
        self._table = table
        self._index = index
        self._built: dict[int, _FS] = {}
        self._weak = weakref.proxy(self)    # (what its feature structures hold: no reference cycle to collect)
        self.missing = missing
        """Type names of elements the type system lacks (left out), as cassis names them."""

    def fs(self, xid: int) -> _FS:
        """The feature structure of id ``xid`` (built once)."""
        built = self._built.get(xid)
        if built is None:
            plan, values = self._table[xid]
            built = self._built[xid] = _FS()
            built.type = plan.type
            built.xmiID = xid
            built._values = values
            built._plan = plan
            built._cas = self._weak
            if plan.annotation:
                built.begin = values["begin"]
                built.end = values["end"]
        return built

    def _of(self, name: str) -> list[_FS]:
        xids = self._index.get(name)
        if not xids:
            return []
        table = self._table
        if table[xids[0]][0].annotation:
            xids.sort(key=lambda x: (table[x][1]["begin"], table[x][1]["end"], x))
        else:
            xids.sort()
        fs = self.fs
        return [fs(x) for x in xids]

    def select(self, type_name: str) -> list[_FS]:
        """The view's feature structures of a type and its subtypes, in cassis's order."""
        t = self.typesystem.get_type(type_name)
        out: list[_FS] = []
        for name in {c.name for c in t.descendants}:    # (cassis's own expression: the same order of types)
            out.extend(self._of(name))
        return out

    def select_all_annotations(self) -> list[_FS]:
        """The view's annotations (of every type)."""
        return [self.fs(x) for xids in self._index.values() for x in xids if self._table[x][0].annotation]


def doctype_refused(head: bytes) -> bool:
    """Whether the start of a file declares a document type (before its first element)."""
    at = head.find(b"<!DOCTYPE")
    return at >= 0 and _ELEMENT.search(head, 0, at) is None


def type_cache(ts: Any) -> dict[Any, Any]:
    """What is worked out once per type system (its types' plans, by tag and by name; the reader's layers), kept
    while it is one of the last few used (a type system is parsed once per folder)."""
    cache = _PLANS.get(id(ts))
    if cache is None or cache[0] is not ts:
        if len(_PLANS) >= 8:
            _PLANS.pop(next(iter(_PLANS)))
        cache = _PLANS[id(ts)] = (ts, {})
    return cache[1]


_PLANS: dict[int, tuple[Any, dict[Any, Any]]] = {}


def _plan_of_tag(ts: Any, plans: dict[str, Any], tag: str) -> tuple[_Plan | None, str]:
    """The plan of an element's type and its type's name as cassis derives it from the tag; ``(None, tag)`` for
    the root, a sofa and a view; ``(None, name)`` for a type the type system lacks."""
    if tag in (_ROOT, _SOFA, _VIEW):
        plans[tag] = (None, tag)
        return plans[tag]
    name = tag[9:].replace("/", ".").replace("ecore}", "").strip()
    if name.startswith("uima.noNamespace."):
        name = name[17:]
    try:
        t = ts.get_type(name)
    except Exception:   # cassis: TypeNotFoundError
        plans[tag] = (None, name)
        return plans[tag]
    plan = plans.get("\0" + t.name)
    if plan is None:
        plan = plans["\0" + t.name] = _Plan(ts, t)
    plans[tag] = (plan, name)
    return plans[tag]


def parse_xmi(fh: BinaryIO, ts: Any, path: Path) -> XmiCas:
    """Read one XMI file (open, binary) with the type system ``ts``; :class:`Unsupported` (or any exception of the
    parser) means: read it through cassis instead."""
    from lxml import etree  # type: ignore[import-untyped]  # (dkpro-cassis's dependency)

    reader = _Reader(ts, path)
    context = etree.iterparse(fh, events=("end",), **_PARSE_OPTIONS)
    start = reader.start
    count = 0
    for _, el in context:
        if not count:
            _refuse_doctype(el, path)
        tag = el.tag
        if tag == _ROOT:
            if el.getparent() is None and el.getprevious() is not None:
                raise Unsupported("a comment or instruction before the root")   # cassis: TypeError
            continue
        if len(el):
            raise Unsupported("an element with elements inside")
        start(tag, dict(el.items()))
        count += 1
        if count % _FREE_EVERY == 0:          # the elements read so far are dropped from the tree (memory flat)
            parent = el.getparent()
            if parent is not None:
                del parent[:parent.index(el)]
    if not count:
        _refuse_doctype(context.root, path)
    return reader.cas()


def _refuse_doctype(el: Any, path: Path) -> None:
    """A document type declaration (a DTD, entities) is refused, never read (it precedes the first element)."""
    from ...errors import FormatError

    info = el.getroottree().docinfo if el is not None else None
    if info is not None and (info.doctype or info.internalDTD is not None or info.externalDTD is not None):
        raise FormatError(DOCTYPE_REFUSED, path=path)


class _Reader:
    """What each element of the file holds, checked as cassis checks it."""

    def __init__(self, ts: Any, path: Path):
        self.ts = ts
        self.path = path
        self.plans = type_cache(ts)
        self.table: dict[int, tuple[_Plan, dict[str, Any]]] = {}
        self.lenient: set[int] = set()
        self.missing: dict[str, None] = {}
        self.refs: list[int] = []
        self.sofas_named: set[str] = set()
        self.sofa: tuple[int, str | None] | None = None
        self.view: tuple[int, list[int]] | None = None

    def start(self, tag: str, a: dict[str, str]) -> None:
        """One element (not the root; none inside it)."""
        entry = self.plans.get(tag)
        if entry is None:
            entry = _plan_of_tag(self.ts, self.plans, tag)
        plan = entry[0]
        if plan is None:
            self._special(entry[1], a)
            return
        if plan.collection:
            raise Unsupported("an array or list written as an element of its own")
        keys = tuple(a)
        checks = plan.by_keys.get(keys)
        if checks is None:
            checks = plan.checks(keys)
        xid = int(a[_ID])
        table = self.table
        if xid in table:
            raise Unsupported("an id used twice")
        table[xid] = (plan, a)
        if plan.annotation:
            b = a.get("begin")
            e = a.get("end")
            a["begin"] = 0 if b is None else int(b)       # type: ignore[assignment]
            a["end"] = 0 if e is None else int(e)         # type: ignore[assignment]
        for k, kind, aux in checks:
            v = a[k]
            if kind == _SOFA_REF:
                self.sofas_named.add(v)
            elif kind == _INT:
                int(v)
            elif kind == _FLOAT:
                float(v)
            elif kind == _BOOL:
                if v != "true" and v != "false":
                    raise Unsupported("not a boolean")
            elif kind == _REF:
                self.refs.append(int(v))
            elif kind == _FSARRAY or kind == _FSLIST:
                self.refs.extend(int(i) for i in v.split())
            else:                               # primitive arrays and lists: converted as cassis converts them
                aux(v)

    def _special(self, what: str, a: dict[str, str]) -> None:
        """A sofa, a view, or an element of a type the type system lacks (left out, as cassis does)."""
        if what == _SOFA:
            if self.sofa is not None or not _SOFA_KEYS.issuperset(a) or a["sofaID"] != _INITIAL_VIEW:
                raise Unsupported("several sofas, or one cassis reads otherwise")
            int(a["sofaNum"])
            self.sofa = (int(a[_ID]), a.get("sofaString"))
        elif what == _VIEW:
            if self.view is not None:
                raise Unsupported("several views")
            self.view = (int(a["sofa"]), [int(m) for m in a.get("members", "").split()])
        else:
            self.missing[what] = None
            xid = a.get(_ID)
            if xid:
                self.lenient.add(int(xid))

    def cas(self) -> XmiCas:
        """The CAS read, once the file is parsed (what cassis checks after its parse, checked the same)."""
        sofa, view, table = self.sofa, self.view, self.table
        if sofa is None or view is None or view[0] != sofa[0] or \
                not {int(v) for v in self.sofas_named} <= {sofa[0]}:
            raise Unsupported("no sofa or no view, or annotations of another sofa")
        if any(r not in table for r in self.refs):
            raise Unsupported("a reference to no feature structure")    # cassis: KeyError
        members = view[1]
        if len(set(members)) != len(members):
            raise Unsupported("a member listed twice")
        text = sofa[1]
        positions = None
        if text is not None and not text.isascii() and max(text) > "\uffff":
            sizes = accumulate(2 if c > "\uffff" else 1 for c in text)
            positions = {u: i for i, u in enumerate([0, *sizes])}
        index: dict[str, list[int]] = {}
        lenient = self.lenient
        for m in members:
            if m in lenient:
                continue
            found = table.get(m)
            if found is None:
                raise Unsupported("a member that is no feature structure")  # cassis: KeyError
            plan, values = found
            if positions is not None and plan.annotation:
                values["begin"] = positions.get(values["begin"], values["begin"])
                values["end"] = positions.get(values["end"], values["end"])
            index.setdefault(plan.name, []).append(m)
        return XmiCas(self.ts, text, table, index, list(self.missing))
