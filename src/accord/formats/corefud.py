"""Coreference from CorefUD files: the ``Entity`` attribute of the MISC column of CoNLL-U.

A word's ``Entity`` value opens and closes mentions in bracket notation: ``(e5-person-1-...`` opens a mention
of entity ``e5`` (its id is the text before the first ``-``), ``e5)`` closes it, ``(e5-person)`` is a one-word
mention; several are written together in the order they apply (``e1)(e2-place``). Mentions of one entity
nest (a closing closes the entity's latest open mention). A discontinuous mention (``(e5[1/2]-...`` ...
``(e5[2/2]-...``) is read as the span from its first word to its last, and a warning counts them: accord's
coreference mentions are contiguous.

Words are the lines whose ID is an integer (not multiword ranges ``1-2``, not empty nodes ``1.1``); they are
numbered from 0 within the document, across sentences; documents start at ``# newdoc id = ...`` (a file
without it is one document, ``1``). Clusters are returned as :func:`accord.formats.coref.read_coref` returns
them: ``{document: [entity, ...]}``, entities in order of first appearance, mentions sorted.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path

from .._io import read_text
from ..errors import AccordWarning, FormatError

__all__ = ["read_corefud"]

_NEWDOC = re.compile(r"^#\s*newdoc(?:\s+id\s*=\s*(.*))?$")
_PART = re.compile(r"^(.*)\[(\d+)/(\d+)\]$")

Clusters = list[list[tuple[int, int]]]


def _entity_value(misc: str) -> str | None:
    for item in misc.split("|"):
        key, _, value = item.partition("=")
        if key == "Entity":
            return value
    return None


def _parts(value: str, where: str, p: Path, line: int) -> list[tuple[str, str]]:
    """``(kind, id)`` of each bracket of an ``Entity`` value, in written order: ``open``, ``close``, ``single``."""
    out = []
    at, n = 0, len(value)
    while at < n:
        if value[at] == "(":
            stop = at + 1
            while stop < n and value[stop] not in "()":
                stop += 1
            content = value[at + 1:stop]
            eid = content.split("-", 1)[0]
            if not eid:
                raise FormatError(f"{where}: an opening bracket without an entity id in Entity={value}", path=p,
                                  line=line)
            if stop < n and value[stop] == ")":
                out.append(("single", eid))
                at = stop + 1
            else:
                out.append(("open", eid))
                at = stop
        else:
            stop = value.find(")", at)
            if stop < 0 or "(" in value[at:stop] or stop == at:
                raise FormatError(f"{where}: cannot read Entity={value} (expected '(id...', 'id)' or '(id...)')",
                                  path=p, line=line)
            out.append(("close", value[at:stop]))
            at = stop + 1
    return out


def read_corefud(path: str | Path) -> dict[str, Clusters]:
    """The coreference clusters of a CorefUD file (see the module docstring)."""
    p = Path(path)
    docs: dict[str, Clusters] = {}
    order: dict[str, list[str]] = {}
    mentions: dict[str, dict[str, list[tuple[int, int]]]] = {}
    doc: str | None = None
    token = 0
    open_: dict[str, list[tuple[int, int]]] = {}
    pending: dict[str, list[int]] = {}   # entity -> [start, end] of the discontinuous mention being read
    merged = 0

    def finish(lineno: int) -> None:
        if doc is None:
            return
        if open_:
            eid, stack = next(iter(open_.items()))
            raise FormatError(f"document {doc!r}: the mention of entity {eid} opened on line {stack[-1][1]} never "
                              "closes", path=p, line=lineno)
        if pending:
            raise FormatError(f"document {doc!r}: a discontinuous mention of entity {next(iter(pending))} lacks its "
                              "last part", path=p, line=lineno)
        docs[doc] = [sorted(mentions[doc][e]) for e in order[doc]]

    def start_document(name: str, lineno: int) -> None:
        nonlocal doc, token
        if name in docs or name in mentions:
            raise FormatError(f"document {name!r} appears twice", path=p, line=lineno)
        doc, token = name, 0
        mentions[name], order[name] = {}, []
        open_.clear()
        pending.clear()

    lines = read_text(p).splitlines()
    for lineno, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line:
            continue
        m = _NEWDOC.match(line)
        if m:
            finish(lineno)
            start_document((m.group(1) or str(len(docs) + 1)).strip(), lineno)
            continue
        if line.startswith("#"):
            continue
        cols = raw.split("\t")
        if len(cols) != 10:
            raise FormatError(f"expected 10 tab-separated columns (CoNLL-U), found {len(cols)}", path=p, line=lineno)
        if not cols[0].isdigit():
            continue    # multiword ranges and empty nodes are not words
        if doc is None:
            start_document("1", lineno)
        assert doc is not None
        value = _entity_value(cols[9])
        if value:
            for kind, eid in _parts(value, f"document {doc!r}", p, lineno):
                part = _PART.match(eid)
                base = part.group(1) if part else eid
                if kind == "open":
                    open_.setdefault(eid, []).append((token, lineno))
                    continue
                if kind == "single":
                    start = token
                else:
                    stack = open_.get(eid)
                    if not stack:
                        raise FormatError(f"document {doc!r}: entity {eid} closes here but no mention of it is open",
                                          path=p, line=lineno)
                    start = stack.pop()[0]
                    if not stack:
                        del open_[eid]
                if part:    # a part of a discontinuous mention: its hull grows until its last part
                    number, total = int(part.group(2)), int(part.group(3))
                    span = pending.setdefault(base, [start, token])
                    span[0], span[1] = min(span[0], start), max(span[1], token)
                    if number < total:
                        continue
                    start, end = pending.pop(base)
                    merged += 1
                    mentions[doc].setdefault(base, []).append((start, end))
                    if base not in order[doc]:
                        order[doc].append(base)
                    continue
                mentions[doc].setdefault(base, []).append((start, token))
                if base not in order[doc]:
                    order[doc].append(base)
        token += 1
    finish(len(lines))
    if doc is None:
        raise FormatError("no word in this file", path=p)
    if merged:
        warnings.warn(AccordWarning(f"{p}: {merged} discontinuous mention(s) read as the span from their first word "
                                    "to their last"), stacklevel=2)
    return docs
