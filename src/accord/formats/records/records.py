"""Structured records from JSON lines: relations, dependencies, events, role-filler entities, n-ary relations,
templates.

One document per line, ``{"id": "doc1", KIND: [record, ...]}`` (``doc_id`` or ``doc_key``
is accepted for ``id``); a line may hold several kinds, and a document without a kind has
none of it. A *mention* is ``[start, end]`` or ``{"start": s, "end": e}``: both sides must
use the same convention (inclusive or half-open); only SciREX's overlap test needs to know
which (half-open by default). The kinds and their records:

``relations``
    ``{"type": "Works_For", "subj": MENTION, "obj": MENTION}``
``dependencies``
    ``{"gov": 3, "dep": 1, "rel": "nsubj"}`` (token indices)
``events``
    ``{"trigger": {"mention": MENTION, "type": "Attack"},
    "arguments": [{"mention": MENTION, "role": "Victim"}, ...]}`` (``trig``/``args`` also accepted)
``entities``
    role-filler entities: ``{"role": "PerpInd", "mentions": [MENTION or "string", ...]}``
``nary_relations``
    SciREX relations: ``{"args": [{"role": "Method", "mentions": [MENTION, ...]}, ...]}``
``templates``
    ``{"type": "bombing", "fillers": [{"slot": "PerpOrg", "value": "FMLN"},
    {"slot": "Target", "value": ["the bridge", "it"]}]}``: a list value is a string-fill
    slot's entity (its mention strings), a string a set-fill slot's value.

Records come back with mentions as :class:`Mention` (a named tuple ``(left, right)``, which
:data:`accord.structured.mention` compares) and entities' mentions as tuples, so they are
hashable and read by field name.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from ...errors import FormatError
from ..text.jsonl import json_lines

__all__ = ["Mention", "RECORD_KINDS", "Records", "read_records"]


class Mention(NamedTuple):
    """A span ``(left, right)``, in the convention of the file it came from."""

    left: int
    right: int


class _Bad(Exception):
    """A malformed record; the reader adds the file, line and document."""


def _mention(m: Any, what: str) -> Mention:
    if isinstance(m, dict):
        m = [m.get("start"), m.get("end")]
    if isinstance(m, list) and len(m) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in m) \
            and m[0] <= m[1]:
        return Mention(m[0], m[1])
    raise _Bad(f"{what}: expected a mention [start, end] (integers, start <= end) or "
               f"{{'start': s, 'end': e}}, got {m!r}")


def _get(rec: Any, what: str, *names: str) -> Any:
    if not isinstance(rec, dict):
        raise _Bad(f"{what}: expected an object, got {rec!r}")
    for name in names:
        if name in rec:
            return rec[name]
    raise _Bad(f"{what}: missing {names[0]!r}")


def _list(x: Any, what: str) -> list[Any]:
    if not isinstance(x, list):
        raise _Bad(f"{what}: expected a list, got {x!r}")
    return x


def _label(x: Any, what: str) -> Any:
    if isinstance(x, (dict, list)):
        raise _Bad(f"{what}: expected a string or number, got {x!r}")
    return x


def _relation(r: Any, what: str) -> dict[str, Any]:
    return {"type": _label(_get(r, what, "type"), what), "subj": _mention(_get(r, what, "subj"), f"{what} subj"),
            "obj": _mention(_get(r, what, "obj"), f"{what} obj")}


def _dependency(r: Any, what: str) -> dict[str, Any]:
    out = {k: _label(_get(r, what, k), what) for k in ("gov", "dep")}
    out["rel"] = _label(r.get("rel"), what)
    return out


def _event(r: Any, what: str) -> dict[str, Any]:
    trig = _get(r, what, "trigger", "trig")
    args = _list(_get(r, what, "arguments", "args"), f"{what} arguments")
    return {"trig": {"mention": _mention(_get(trig, f"{what} trigger", "mention"), f"{what} trigger"),
                     "type": _label(_get(trig, f"{what} trigger", "type"), what)},
            "args": [{"mention": _mention(_get(a, f"{what} argument {k}", "mention"), f"{what} argument {k}"),
                      "role": _label(_get(a, f"{what} argument {k}", "role"), what)} for k, a in enumerate(args)]}


def _entity_mentions(ms: Any, what: str) -> tuple[Any, ...]:
    return tuple(m if isinstance(m, str) else _mention(m, what) for m in _list(ms, what))


def _entity(r: Any, what: str) -> dict[str, Any]:
    return {"role": _label(_get(r, what, "role"), what),
            "entity": _entity_mentions(_get(r, what, "mentions", "entity"), f"{what} mentions")}


def _nary(r: Any, what: str) -> dict[str, Any]:
    args = _list(_get(r, what, "args", "arguments"), f"{what} args")
    return {"args": tuple({"role": _label(_get(a, f"{what} arg {k}", "role"), what),
                           "mentions": _entity_mentions(_get(a, f"{what} arg {k}", "mentions"),
                                                        f"{what} arg {k} mentions")}
                          for k, a in enumerate(args))}


def _template(r: Any, what: str) -> dict[str, Any]:
    fillers = []
    for k, f in enumerate(_list(_get(r, what, "fillers", "slots"), f"{what} fillers")):
        w = f"{what} filler {k}"
        v = _get(f, w, "value")
        if isinstance(v, list):
            if not all(isinstance(s, str) for s in v):
                raise _Bad(f"{w}: a list value is an entity's mention strings, got {v!r}")
            v = tuple(v)
        else:
            v = _label(v, w)
        fillers.append({"slot": _label(_get(f, w, "slot"), w), "value": v})
    return {"type": _label(_get(r, what, "type"), what), "fillers": fillers}


RECORD_KINDS: dict[str, Callable[[Any, str], dict[str, Any]]] = {
    "relations": _relation, "dependencies": _dependency, "events": _event, "entities": _entity,
    "nary_relations": _nary, "templates": _template,
}


class Records(dict):
    """``{doc id: [record, ...]}`` for one kind of record, with what the file held.

    ``kinds`` are the record kinds (keys of :data:`RECORD_KINDS`) found on any line, so a
    caller can tell a file without any record of the kind from one whose lists are empty.
    """

    kinds: frozenset[str] = frozenset()


def read_records(path: str | Path, kind: str) -> Records:
    """Read one kind of record for every document of a JSON-lines file: ``{doc id: [record, ...]}``."""
    if kind not in RECORD_KINDS:
        raise FormatError(f"unknown record kind {kind!r}; expected one of {', '.join(RECORD_KINDS)}", path=path)
    convert = RECORD_KINDS[kind]
    p = Path(path)
    docs = Records()
    kinds: set[str] = set()
    for lineno, obj in json_lines(p):
        if not isinstance(obj, dict):
            raise FormatError(f"expected an object with 'id' and {kind!r}", path=p, line=lineno)
        doc = obj.get("id", obj.get("doc_id", obj.get("doc_key")))
        if not isinstance(doc, str):
            raise FormatError("expected a string 'id' (or 'doc_id', 'doc_key')", path=p, line=lineno)
        if doc in docs:
            raise FormatError(f"document {doc!r} appears twice", path=p, line=lineno)
        kinds.update(k for k in obj if k in RECORD_KINDS)
        try:
            items = _list(obj.get(kind, []), kind)
            docs[doc] = [convert(r, f"{kind} {k}") for k, r in enumerate(items)]
        except _Bad as exc:
            raise FormatError(f"document {doc!r}, {exc}", path=p, line=lineno) from None
    docs.kinds = frozenset(kinds)
    return docs
