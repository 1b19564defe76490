"""DocRED's files (Yao et al., 2019; Re-DocRED, Tan et al., 2022) for ``accord structured --preset docred``.

A *key* (a development or training file) is a JSON array of documents::

    {"title": "...", "sents": [[token, ...], ...],
     "vertexSet": [[{"name": "...", "sent_id": 0, "pos": [0, 2], "type": "PER"}, ...], ...],
     "labels": [{"r": "P17", "h": 0, "t": 3, "evidence": [0, 2]}, ...]}

``vertexSet`` lists the entities, each a list of its mentions; a label's ``h`` and ``t`` index it. A *response* is
the ``result.json`` the official script reads: a JSON array of facts
``{"title": "...", "h_idx": 0, "t_idx": 3, "r": "P17", "evidence": [0, 2]}`` (``evidence`` optional). A malformed
item is a :class:`~accord.errors.FormatError` naming the file, the item and the field.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..._support.io import read_text
from ...errors import FormatError, quoted
from .._json import parse_json

__all__ = ["DocredDocument", "DocredFact", "read_docred_key", "read_docred_facts"]


@dataclass(frozen=True)
class DocredDocument:
    """A key document: its entities (each the ``(name, sent_id)`` of its mentions) and its labels
    ``(r, h, t, evidence)`` in file order (evidence as the list the file gives)."""

    title: str
    entities: tuple[tuple[tuple[str, int], ...], ...]
    labels: tuple[tuple[str, int, int, tuple[int, ...]], ...]


@dataclass(frozen=True)
class DocredFact:
    """A predicted fact of a ``result.json``, with its position in the file (from 0)."""

    index: int
    title: str
    h: int
    t: int
    r: str
    evidence: tuple[int, ...]


def _array(path: Path) -> list[Any]:
    value = parse_json(read_text(path), path=path)
    if not isinstance(value, list):
        raise FormatError("expected a JSON array (DocRED's format: a list of documents, or of facts for a "
                          "result.json)", path=path)
    return value


def _int(value: Any, path: Path, where: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    raise FormatError(f"{where}: expected an integer >= 0, got {quoted(value)}", path=path)


def _field(obj: Any, name: str, path: Path, where: str) -> Any:
    if not isinstance(obj, dict):
        raise FormatError(f"{where}: expected an object, got {quoted(obj)}", path=path)
    if name not in obj:
        raise FormatError(f"{where}: missing {name!r}", path=path)
    return obj[name]


def _text(obj: Any, name: str, path: Path, where: str, what: str = "a string") -> str:
    """The string field ``name`` of ``obj`` (an error naming the place and what was expected otherwise)."""
    value = _field(obj, name, path, where)
    if not isinstance(value, str):
        raise FormatError(f"{where}: {name!r} must be {what}, got {quoted(value)}", path=path)
    return value


def _evidence(value: Any, path: Path, where: str) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise FormatError(f"{where}: 'evidence' must be a list of sentence indices, got {quoted(value)}", path=path)
    return tuple(_int(v, path, f"{where} evidence") for v in value)


def read_docred_key(path: str | Path, *, labels: bool = True) -> list[DocredDocument]:
    """The documents of a DocRED key or training file, in file order.

    ``labels``: the documents must have ``labels`` (a key or training file; DocRED's test file has none)."""
    p = Path(path)
    docs = []
    for k, obj in enumerate(_array(p)):
        where = f"document {k}"
        title = _text(obj, "title", p, where)
        where = f"document {k} ({quoted(title)})"
        vertex_set = _field(obj, "vertexSet", p, where)
        if not isinstance(vertex_set, list):
            raise FormatError(f"{where}: 'vertexSet' must be a list of entities", path=p)
        entities = []
        for e, entity in enumerate(vertex_set):
            if not isinstance(entity, list):
                raise FormatError(f"{where} vertexSet[{e}]: expected a list of mentions", path=p)
            mentions = []
            for m, mention in enumerate(entity):
                w = f"{where} vertexSet[{e}][{m}]"
                name = _text(mention, "name", p, w)
                mentions.append((name, _int(_field(mention, "sent_id", p, w), p, f"{w} sent_id")))
            entities.append(tuple(mentions))
        if "labels" not in obj and not labels:
            docs.append(DocredDocument(title, tuple(entities), ()))
            continue
        raw = _field(obj, "labels", p, where)
        if not isinstance(raw, list):
            raise FormatError(f"{where}: 'labels' must be a list", path=p)
        out = []
        for i, label in enumerate(raw):
            w = f"{where} labels[{i}]"
            r = _text(label, "r", p, w, "a relation name (a string)")
            h, t = (_int(_field(label, n, p, w), p, f"{w} {n}") for n in ("h", "t"))
            for n, v in (("h", h), ("t", t)):
                if v >= len(entities):
                    raise FormatError(f"{w}: '{n}' is {v} but the document has {len(entities)} entities", path=p)
            out.append((r, h, t, _evidence(_field(label, "evidence", p, w), p, w)))
        docs.append(DocredDocument(title, tuple(entities), tuple(out)))
    return docs


def read_docred_facts(path: str | Path) -> list[DocredFact]:
    """The facts of a DocRED ``result.json``, in file order."""
    p = Path(path)
    facts = []
    for k, obj in enumerate(_array(p)):
        where = f"fact {k}"
        title = _text(obj, "title", p, where)
        r = _text(obj, "r", p, where, "a relation name (a string)")
        h, t = (_int(_field(obj, n, p, where), p, f"{where} {n}") for n in ("h_idx", "t_idx"))
        evidence = _evidence(obj["evidence"], p, where) if "evidence" in obj else ()
        facts.append(DocredFact(k, title, h, t, r, evidence))
    return facts
