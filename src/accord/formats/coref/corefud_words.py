"""CorefUD mentions as sets of words with their heads: what the CorefUD scorer compares.

:mod:`accord.formats.coref.corefud` reads a mention as a span of words (a discontinuous mention as its hull, an
empty node's ``Entity`` left out), which is what the CoNLL-2012 metrics need. The CorefUD scorer (ufal/corefud-scorer)
compares mentions otherwise, and this module reads them as it does (through udapi's reading of ``Entity``):

* a mention is the **set of its nodes**: the words and the empty nodes (zeros, IDs such as ``5.1``) from the node
  that opens it to the node that closes it, and for a discontinuous mention (``e5[1/2]`` ... ``e5[2/2]``) the union
  of its parts;
* its **head** is the node that the ``head`` field of the opening bracket numbers (1 for the first node of the
  mention, in word order; the fields are those of ``# global.Entity``, ``eid-etype-head-other`` when the file has
  none), the mention's first node without it (for a discontinuous mention, the number is read from its last part);
* it is a **zero** when its head is an empty node; a zero's head's enhanced dependencies (DEPS) are kept, as
  ``(parent, relation)`` pairs, for the scorer's matching of zeros by their dependencies.

A node is numbered by ``(sentence, word, decimal)``: ``sentence`` counts from 1 in the file, ``word`` and ``decimal``
are the two parts of its ID (``5.1`` is word 5, decimal 1; a word has decimal 0), packed in one integer
(:func:`node_code`) so that the numbers of a file's nodes sort in its word order, and a key and a response whose
empty nodes are placed differently still number their common words alike.

Entities are listed in udapi's order (by their first mention in the file: the earlier first node, then the longer
mention; an entity id written in several documents is one entity there, ordered by its first document's mention),
and the mentions of an entity in the same order: the scorer keeps a mention written in two entities in the last
one of that order when it looks a mention up.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..._support.io import read_text
from ...errors import FormatError
from .corefud import _GLOBAL_COLUMNS, _NEWDOC, _entity_value

__all__ = ["Mention", "node_code", "read_corefud_mentions"]

_CHUNKS = re.compile(r"(\([^()]+\)?|[^()]+\))")
_PART = re.compile(r"^([^[]+)\[(\d+)/(\d+)\]")
_GLOBAL_ENTITY = re.compile(r"^#\s*global\.Entity\s*=\s*(\S+)")
_SENT = 1 << 32
_WORD = 1 << 10


def node_code(sentence: int, word: int, decimal: int = 0) -> int:
    """One integer for the node ``word.decimal`` of a sentence, in word order."""
    return sentence * _SENT + word * _WORD + decimal


@dataclass(frozen=True)
class Mention:
    """A CorefUD mention: its nodes (sorted codes), its head, whether it is a zero, its head's DEPS."""

    words: tuple[int, ...]
    head: int
    zero: bool = False
    deps: tuple[tuple[int, str], ...] = ()

    @property
    def sentence(self) -> int:
        return self.head // _SENT

    def order_key(self) -> tuple[int, int, int]:
        """udapi's order of mentions: the first node, the longer mention first, the last node."""
        return self.words[0], -len(self.words), self.words[-1]


class _Open:
    __slots__ = ("words", "head", "head_index")

    def __init__(self, node: int):
        self.words = [node]
        self.head = node
        self.head_index: int | None = None


def _node(ident: str, sentence: int, where: str, p: Path, line: int) -> int:
    word, _, decimal = ident.partition(".")
    if not word.isdigit() or (decimal and not decimal.isdigit()) or int(decimal or 0) >= _WORD \
            or int(word) * _WORD >= _SENT:
        raise FormatError(f"{where}: cannot read the node ID {ident!r} (expected 5 or 5.1)", path=p, line=line)
    return node_code(sentence, int(word), int(decimal or 0))


def read_corefud_mentions(path: str | Path) -> dict[str, list[list[Mention]]]:
    """``{document: [entity, ...]}``, each entity a list of :class:`Mention` (see the module docstring)."""
    p = Path(path)
    lines = [line.removesuffix("\r") for line in read_text(p).split("\n")]
    width, misc_at, deps_at = 10, 9, 8
    m = _GLOBAL_COLUMNS.match(lines[0].strip()) if lines else None
    if m is not None:
        names = m.group(1).split()
        if "MISC" not in names:
            raise FormatError("the '# global.columns' line declares no MISC column, where CorefUD's Entity is",
                              path=p, line=1)
        width, misc_at = len(names), names.index("MISC")
        deps_at = names.index("DEPS") if "DEPS" in names else -1
    fields = ["eid", "etype", "head", "other"]
    docs: dict[str, list[tuple[str, list[Mention]]]] = {}
    reader = _Document(p)
    sentence, in_sentence = 0, False
    doc: str | None = None
    for lineno, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line:
            in_sentence = False
            continue
        if line[0] == "#":
            nd = _NEWDOC.match(line)
            if nd:
                if doc is not None:
                    docs[doc] = reader.finish(doc, lineno)
                doc = (nd.group(1) or str(len(docs) + 1)).strip()
                if doc in docs:
                    raise FormatError(f"document {doc!r} appears twice", path=p, line=lineno)
                reader = _Document(p)
                continue
            ge = _GLOBAL_ENTITY.match(line)
            if ge:
                fields = ge.group(1).split("-")
            continue
        cols = raw.strip(" \f\v").split("\t")
        if len(cols) != width:
            raise FormatError(f"expected {width} tab-separated columns, found {len(cols)}", path=p, line=lineno)
        if "-" in cols[0]:
            continue    # a multiword token's range
        if not in_sentence:
            sentence += 1
            in_sentence = True
        if doc is None:
            doc = "1"
        ident = cols[0]
        if ident.isdigit():     # a word (the common case, read without a call)
            code = sentence * _SENT + int(ident) * _WORD
            if int(ident) * _WORD >= _SENT:
                code = _node(ident, sentence, f"document {doc!r}", p, lineno)
        else:
            code = _node(ident, sentence, f"document {doc!r}", p, lineno)
            if deps_at >= 0 and cols[deps_at] not in ("", "_"):
                reader.deps[code] = tuple(_deps(cols[deps_at], sentence, f"document {doc!r}", p, lineno))
        reader.at[code] = len(reader.nodes)
        reader.nodes.append(code)
        misc = cols[misc_at]
        value = _entity_value(misc) if "Entity=" in misc else None
        if value:
            reader.entity(value, code, fields, f"document {doc!r}", lineno)
    if doc is None:
        raise FormatError("no word in this file", path=p)
    docs[doc] = reader.finish(doc, len(lines))
    # udapi's order of entities: by their first mention in the file (an eid written in several documents is one
    # entity there, split by document afterwards; GRP ids are per document)
    first: dict[str, tuple[int, int, int]] = {}
    for entities in docs.values():
        for eid, mentions in entities:
            if "GRP" not in fields:
                first.setdefault(eid, mentions[0].order_key())
    return {d: [m for _, m in sorted(entities, key=lambda e: first.get(e[0]) or e[1][0].order_key())]
            for d, entities in docs.items()}


def _deps(value: str, sentence: int, where: str, p: Path, line: int) -> list[tuple[int, str]]:
    out = []
    for item in value.split("|"):
        parent, _, rel = item.partition(":")
        out.append((_node(parent, sentence, where, p, line), rel))
    return out


class _Document:
    """The mentions of one document as its lines are read (udapi's reading of ``Entity``)."""

    def __init__(self, p: Path):
        self.p = p
        self.nodes: list[int] = []
        self.at: dict[int, int] = {}      # a node's place in ``nodes``
        self.deps: dict[int, tuple[tuple[int, str], ...]] = {}
        self.entities: dict[str, list[_Open]] = {}
        self.unfinished: dict[str, list[_Open]] = {}
        self.parts: dict[str, list[_Open]] = {}

    def entity(self, value: str, node: int, fields: list[str], where: str, line: int) -> None:
        for chunk in (c for c in _CHUNKS.split(value) if c):
            opening, closing = chunk[0] == "(", chunk[-1] == ")"
            body = chunk.strip("()")
            if not opening and not closing:
                raise FormatError(f"{where}: cannot read {chunk!r} in Entity={value} (no bracket)", path=self.p,
                                  line=line)
            if opening:
                self._open(body, closing, node, fields, where, line)
            else:
                self._close(body, node, where, line)

    def _open(self, body: str, closing: bool, node: int, fields: list[str], where: str, line: int) -> None:
        eid, head_index = None, None
        for name, value in zip(fields, body.split("-")):
            if name in ("eid", "GRP"):    # GRP: the entity field of older files (UD GUM 2.8), per document
                eid = value
            elif name == "head" and value:
                if not value.isdigit():
                    raise FormatError(f"{where}: the head field of ({body} is not a number", path=self.p, line=line)
                head_index = int(value)
        if not eid:
            raise FormatError(f"{where}: an opening bracket without an entity id: ({body}", path=self.p, line=line)
        part = _PART.match(eid)
        number = total = 0
        if part:
            eid, number, total = part.group(1), int(part.group(2)), int(part.group(3))
        if part and number != 1:
            opened = [m for m in self.unfinished.get(eid, [])]
            mention = next((m for m in self.parts.get(eid, []) if m not in opened), None)
            if mention is None:
                raise FormatError(f"{where}: part {number}/{total} of a mention of {eid} without its first part",
                                  path=self.p, line=line)
            mention.words.append(node)
            if closing and number == total:
                self.parts[eid].remove(mention)
                self._set_head(mention, head_index, eid, where, line)
        else:
            mention = _Open(node)
            self.entities.setdefault(eid, []).append(mention)
            if part:
                self.parts.setdefault(eid, []).append(mention)
        if not closing:
            mention.head_index = head_index
            self.unfinished.setdefault(eid, []).append(mention)

    def _close(self, body: str, node: int, where: str, line: int) -> None:
        eid, number, total = body, 0, 0
        if eid not in self.unfinished:
            part = _PART.match(body)
            if part:
                eid, number, total = part.group(1), int(part.group(2)), int(part.group(3))
        stack = self.unfinished.get(eid)
        if not stack:
            raise FormatError(f"{where}: entity {body} closes here but no mention of it is open", path=self.p,
                              line=line)
        mention = stack.pop()
        mention.words.extend(self.nodes[self.at[mention.words[-1]] + 1:])
        if mention.head_index and (not number or number == total):
            self._set_head(mention, mention.head_index, eid, where, line)
        if number and number == total and mention in self.parts.get(eid, []):
            self.parts[eid].remove(mention)

    def _set_head(self, mention: _Open, index: int | None, eid: str, where: str, line: int) -> None:
        if not index:
            return
        words = sorted(mention.words)
        if index > len(words):
            raise FormatError(f"{where}: the head of a mention of {eid} is its word {index}, but it has "
                              f"{len(words)}", path=self.p, line=line)
        mention.head = words[index - 1]

    def finish(self, doc: str, line: int) -> list[tuple[str, list[Mention]]]:
        for eid, stack in self.unfinished.items():
            if stack:
                raise FormatError(f"document {doc!r}: a mention of entity {eid} never closes", path=self.p, line=line)
        for eid, stack in self.parts.items():
            if stack:
                raise FormatError(f"document {doc!r}: a discontinuous mention of entity {eid} lacks its last part",
                                  path=self.p, line=line)
        out = []
        for eid, opens in self.entities.items():
            mentions = []
            for o in opens:
                words = tuple(sorted(set(o.words)))
                zero = o.head % _WORD != 0
                mentions.append(Mention(words, o.head, zero, self.deps.get(o.head, ()) if zero else ()))
            mentions.sort(key=Mention.order_key)
            out.append((eid, mentions))
        return out
