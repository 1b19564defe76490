"""Coreference from CorefUD files: the ``Entity`` attribute of the MISC column of CoNLL-U.

A word's ``Entity`` value opens and closes mentions in bracket notation: ``(e5-person-1-...`` opens a mention
of entity ``e5`` (its id is the text before the first ``-``), ``e5)`` closes it, ``(e5-person)`` is a one-word
mention; several are written together in the order they apply (``e1)(e2-place``). Mentions of one entity
nest (a closing closes the entity's latest open mention). A discontinuous mention (``(e5[1/2]-...`` ...
``(e5[2/2]-...``) is read as the span from its first word to its last, and a warning counts them: accord's
coreference mentions are contiguous.

Words are the lines whose ID is an integer (not multiword ranges ``1-2``, not empty nodes ``1.1``); they are
numbered from 0 within the document, across sentences; documents start at ``# newdoc id = ...`` (a file
without it is one document, ``1``). Every line that is not blank or a ``#`` comment must have exactly 10
tab-separated columns (or exactly as many as a CoNLL-U Plus ``# global.columns`` first line declares, MISC among
them), as :mod:`accord.formats.tokens.conllu` requires. An ``Entity`` value on an empty node (a zero) is not read: a
warning counts them.

Clusters are returned as :func:`accord.formats.coref.clusters.read_coref` returns them: ``{document: [entity, ...]}``,
mentions sorted, entities in the order the CoNLL-2012 reader lists the same clusters, the reference scorer's: that
of their first bracket, a word's one-word mentions before its openings, each in written order. The order decides
where a span written in two entities stays (the scorers keep it in the first), so that a key and a response score
the same whether they are written as CorefUD or as CoNLL-2012.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path

from ..._support.io import read_text
from ...errors import AccordWarning, FormatError

__all__ = ["looks_like_corefud", "read_corefud"]

_NEWDOC = re.compile(r"^#\s*newdoc(?:\s+id\s*=\s*(.*))?$")
_GLOBAL_COLUMNS = re.compile(r"^#\s*global\.columns\s*=\s*(.+)$")
_PART = re.compile(r"^(.*)\[(\d+)/(\d+)\]$")

Clusters = list[list[tuple[int, int]]]


def looks_like_corefud(head: str) -> bool:
    """Whether the first characters of a file are CorefUD's: a ``# global.Entity`` comment, or a line of 10 or more
    tab-separated columns whose tenth (MISC) holds an ``Entity`` attribute. A CoNLL-2012 file has neither."""
    if "Entity" not in head:        # both need the word (a CoNLL-2012 file's 64 KiB: no line to look at)
        return False
    for line in head.split("\n"):
        stripped = line.strip()
        if stripped.startswith("#"):
            if re.match(r"#\s*global\.Entity\s*=", stripped):
                return True
            continue
        cols = line.split("\t")
        if len(cols) >= 10 and _entity_value(cols[9]) is not None:
            return True
    return False


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


def _columns(first_line: str, p: Path) -> tuple[int, int, str]:
    """The number of columns, the index of MISC and why that number (CoNLL-U, or a CoNLL-U Plus header)."""
    m = _GLOBAL_COLUMNS.match(first_line.strip())
    if m is None:
        return 10, 9, "as CoNLL-U requires"
    names = m.group(1).split()
    if "MISC" not in names:
        raise FormatError(f"the '# global.columns' line declares no MISC column, where CorefUD's Entity is "
                          f"(columns: {' '.join(names)})", path=p, line=1)
    return len(names), names.index("MISC"), "as its '# global.columns' line declares"


def read_corefud(path: str | Path) -> dict[str, Clusters]:
    """The coreference clusters of a CorefUD file (see the module docstring)."""
    p = Path(path)
    docs: dict[str, Clusters] = {}
    order: dict[str, dict[str, None]] = {}    # the entities of each document in the reference scorer's order
    mentions: dict[str, dict[str, list[tuple[int, int]]]] = {}
    doc: str | None = None
    token = 0
    open_: dict[str, list[tuple[int, int]]] = {}
    pending: dict[str, list[int]] = {}   # entity -> [start, end] of the discontinuous mention being read
    merged = zeros = 0

    def finish(lineno: int) -> None:
        if doc is None:
            return
        if open_:
            eid, stack = next(iter(open_.items()))
            hint = " (an Entity on an empty node, such as 5.1, is not read)" if zeros else ""
            raise FormatError(f"document {doc!r}: the mention of entity {eid} opened on line {stack[-1][1]} never "
                              f"closes{hint}", path=p, line=lineno)
        if pending:
            raise FormatError(f"document {doc!r}: a discontinuous mention of entity {next(iter(pending))} lacks its "
                              "last part", path=p, line=lineno)
        docs[doc] = [sorted(mentions[doc][e]) for e in order[doc]]

    def start_document(name: str, lineno: int) -> None:
        nonlocal doc, token
        if name in docs or name in mentions:
            raise FormatError(f"document {name!r} appears twice", path=p, line=lineno)
        doc, token = name, 0
        mentions[name], order[name] = {}, {}
        open_.clear()
        pending.clear()

    lines = [line.removesuffix("\r") for line in read_text(p).split("\n")]
    width, misc_at, why = _columns(lines[0], p)
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
        cols = raw.strip(" \f\v").split("\t")
        if len(cols) != width:
            raise FormatError(f"expected {width} tab-separated columns ({why}), found {len(cols)}", path=p,
                              line=lineno)
        if not cols[0].isdigit():    # multiword ranges and empty nodes are not words
            zeros += "." in cols[0] and _entity_value(cols[misc_at]) is not None
            continue
        if doc is None:
            start_document("1", lineno)
        assert doc is not None
        value = _entity_value(cols[misc_at])
        if value:
            parts = _parts(value, f"document {doc!r}", p, lineno)
            # the reference scorer's numbering: a word's one-word mentions, then its openings, in written order
            for kind in ("single", "open"):
                for k, eid in parts:
                    if k == kind:
                        part = _PART.match(eid)
                        order[doc].setdefault(part.group(1) if part else eid)
            for kind, eid in parts:
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
                        hint = " (an Entity on an empty node, such as 5.1, is not read)" if zeros else ""
                        raise FormatError(f"document {doc!r}: entity {eid} closes here but no mention of it is open"
                                          f"{hint}", path=p, line=lineno)
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
                    continue
                mentions[doc].setdefault(base, []).append((start, token))
        token += 1
    finish(len(lines))
    if doc is None:
        raise FormatError("no word in this file", path=p)
    if merged:
        warnings.warn(AccordWarning(f"{p}: {merged} discontinuous mention(s) read as the span from their first word "
                                    "to their last"), stacklevel=2)
    if zeros:
        warnings.warn(AccordWarning(f"{p}: the Entity of {zeros} empty node(s) (zeros, IDs such as 5.1) not read: "
                                    "accord's coreference mentions are spans of words"), stacklevel=2)
    return docs
