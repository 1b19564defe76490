"""WebAnno TSV 3 (INCEpTION's and WebAnno's tab-separated export): span, chain and relation layers as annotations.

A file declares its layers in its header (``#T_SP=TYPE|feature|...`` span layers, ``#T_RL=TYPE|...|BT_BASE``
relation layers, ``#T_CH=TYPE|referenceType|referenceRelation`` chain layers; a link (slot) feature takes two
columns, ``ROLE_TYPE:FEATURE_LINKTYPE`` and the target type; a layer without features one placeholder column),
then its sentences: ``#Text=`` lines (the sentence's text, tabs and line breaks escaped; a sentence of several
lines has several ``#Text=`` lines), then one line per token, ``sentence-token``, ``begin-end`` (offsets in UTF-16
units, as Java counts them), the token, and one column per declared column. A column holds ``_`` (nothing here),
or ``|``-separated stacked entries, the n-th entry of every column of a layer describing the layer's n-th
annotation on that token; ``VALUE[N]`` marks the tokens of multi-token annotation ``N``, ``*`` an annotation whose
feature has no value. Link columns hold ``;``-separated roles and target token ids; a relation's ``BT_`` column
the id of its source token (``1-1[3_4]``: source annotation 3, target 4); a chain's ``referenceRelation`` column
``VALUE->CHAIN-ELEMENT``. Sub-token lines (``1-3.1``) carry annotations inside or beside a token (zero-width too).

``layer`` chooses the layers (comma-separated ``TYPE[:FEATURE]``, a type named by its last parts allowed;
default DKPro Core's ``NamedEntity``). Labels and attributes follow one rule with the XMI reader
(:mod:`accord.formats.text._uima`), so INCEpTION's TSV and XMI of a document read the same. INCEpTION writes only
the layers a document annotates: a layer absent from a file's header is a document without such annotations
(with a warning when the file declares other layers). A relation's ``Governor`` and ``Dependent``, a link's
targets and a chain's ``next`` are annotation-valued attributes when their layer is read too.

The text is rebuilt as INCEpTION rebuilds it: the sentences' text at their offsets, a line break after each,
spaces where the file holds nothing (a file without ``#Text=`` lines: its tokens at their offsets). Offsets
become code points of that text. Spaces filled in may not exceed :data:`MAX_FILLED` plus the file's size (an
offset far past the text is an error naming the line, before any memory is spent); every offset must fall in its
sentence's text. The document id is the file name without extension.
"""

from __future__ import annotations

import re
import warnings
from bisect import bisect_left, bisect_right
from collections import Counter
from itertools import pairwise
from pathlib import Path
from typing import Any

from ..._support.io import read_text
from ...errors import AccordWarning, FormatError
from ...model import Attributes, Corpus, Document
from .._refs import RawAnnotation, Ref, build_annotations
from .._registry import Format, file_head, register
from ._tsv_layers import Col as _Col
from ._tsv_layers import choose_layers as _choose
from ._tsv_layers import declared_layers as _layers
from ._uima import targets_attribute, warn_unread
from .webanno_tsv2 import is_tsv2_head, read_webanno_tsv2

__all__ = ["MAX_FILLED", "read_coref_webanno_tsv", "read_webanno_tsv"]

MAX_FILLED = 1 << 20
"""UTF-16 units of text a file may leave to be filled with spaces (between sentences), beyond its own size."""

NAMED_ENTITY = "de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity"
TOKEN = "de.tudarmstadt.ukp.dkpro.core.api.segmentation.type.Token"
DEPENDENCY = "de.tudarmstadt.ukp.dkpro.core.api.syntax.type.dependency.Dependency"
_FORMAT = re.compile(r"#FORMAT=WebAnno TSV 3(?:\.(\d{1,3}))?")
_TOKEN_ID = re.compile(r"(\d{1,9})-(\d{1,9})(?:\.(\d{1,9}))?")
_OFFSETS = re.compile(r"(\d{1,10})-(\d{1,10})")
_STACK = re.compile(r"(?<!\\)\|")
_SLOT = re.compile(r"(?<!\\);")
_CHAIN = re.compile(r"(.*)(?<!\\)->(\d{1,9})-(\d{1,9})", re.DOTALL)
_VALUE_ESCAPES = {"\\\\": "\\", "\\[": "[", "\\]": "]", "\\|": "|", "\\_": "_", "\\->": "->", "\\;": ";",
                  "\\t": "\t", "\\n": "\n", "\\*": "*"}
_VALUE_ESCAPE = re.compile(r"\\(?:\\|\[|\]|\||_|->|;|t|n|\*)")
_TEXT_ESCAPES = {"\\t": "\t", "\\n": "\n", "\\f": "\f", "\\r": "\r", "\\b": "\b", "\\\\": "\\",
                 **{"\\" + chr(i): chr(i) for i in range(32) if not 7 < i < 14}}
_TEXT_ESCAPE = re.compile("|".join(re.escape(k) for k in sorted(_TEXT_ESCAPES, key=len, reverse=True)))
_JAVA_ESCAPE = re.compile(r"\\(u+[0-9a-fA-F]{4}|[0-7]{1,3}|.)", re.DOTALL)
_JAVA_SIMPLE = {"t": "\t", "n": "\n", "r": "\r", "f": "\f", "b": "\b"}
_INT_MAX = 2 ** 31 - 1
_GOVERNOR, _DEPENDENT = "Governor", "Dependent"
_NONE: dict = {}       # the shared empty dict of an annotation without values (never written to)


def _unescape_value(value: str) -> str:
    return _VALUE_ESCAPE.sub(lambda m: _VALUE_ESCAPES[m.group(0)], value) if "\\" in value else value


def _unescape_text(value: str, minor: int) -> str:
    if "\\" not in value:
        return value
    if minor >= 2:
        return _TEXT_ESCAPE.sub(lambda m: _TEXT_ESCAPES[m.group(0)], value)

    def java(m: re.Match) -> str:      # TSV 3.0 and 3.1: Java's string escapes
        s = m.group(1)
        if s[0] == "u":
            return chr(int(s[-4:], 16))
        if s[0] in "01234567":
            return chr(int(s, 8) & 0xFF)
        return _JAVA_SIMPLE.get(s, s)

    return _JAVA_ESCAPE.sub(java, value)


def _header(lines: list[str], p: Path) -> tuple[int, list[_Col], int]:
    """The format's minor version, the annotation columns, and the index of the first line after the header."""
    m = _FORMAT.match(lines[0].lstrip("\ufeff")) if lines else None
    if m is None:
        raise FormatError("not WebAnno TSV 3: the first line is not '#FORMAT=WebAnno TSV 3.x'", path=p, line=1)
    minor = int(m.group(1) or 3)
    cols: list[_Col] = []
    k = 1
    kinds = {"#T_SP=": "span", "#T_RL=": "relation", "#T_CH=": "chain"}
    while k < len(lines) and lines[k][:6] in kinds:
        kind = kinds[lines[k][:6]]
        fields = [f for f in lines[k][6:].split("|") if f]
        if not fields:
            raise FormatError("a layer declaration without a type name", path=p, line=k + 1)
        layer = fields[0]
        if not fields[1:]:
            cols.append(_Col(layer, kind, "placeholder"))
        for decl in fields[1:]:
            if kind == "span" and decl.startswith("ROLE_"):
                feature, _, link = decl[5:].partition(":")[2].partition("_")
                cols.append(_Col(layer, kind, "slot-role", feature, link))
            elif kind == "span" and cols and cols[-1].role == "slot-role" and cols[-1].layer == layer and "." in decl:
                cols.append(_Col(layer, kind, "slot-target", cols[-1].feature, decl))
            elif kind == "relation" and decl.startswith("BT_"):
                cols.append(_Col(layer, kind, "source", _GOVERNOR, decl[3:]))
            elif kind == "chain" and decl in ("referenceType", "referenceRelation"):
                cols.append(_Col(layer, kind, "chain-link" if decl == "referenceRelation" else "feature", decl))
            else:
                cols.append(_Col(layer, kind, "feature", decl))
        k += 1
    return minor, cols, k


class _Ann:
    """An annotation being read: UTF-16 offsets, feature values, link slots, references to resolve."""

    __slots__ = ("b", "chain", "e", "id", "k", "layer", "line", "refs", "slots", "values")

    def __init__(self, layer: str, b: int, e: int, line: int, k: int):
        self.layer, self.b, self.e, self.line, self.k = layer, b, e, line, k
        self.values: dict[str, str] = _NONE       # replaced by a dict of its own at the first value
        self.slots: dict[str, list[Any]] = _NONE  # feature -> [roles, targets]
        self.refs: tuple[Any, ...] | None = None    # a relation: (source unit id, source id, target unit, target id)
        self.chain: tuple[int, int] | None = None
        self.id: str | None = None


def _value(ann: _Ann, feature: str, value: str) -> None:
    """Set a feature's value (the first one read: a multi-token annotation repeats it on every token)."""
    if ann.values is _NONE:
        ann.values = {}
    ann.values.setdefault(feature, value)


def _slot(ann: _Ann, feature: str) -> list[Any]:
    """The ``[roles, targets]`` of a link feature."""
    if ann.slots is _NONE:
        ann.slots = {}
    return ann.slots.setdefault(feature, [[], []])


def _disambiguation(entry: str) -> tuple[str, str | None]:
    """An entry without its ``[N]`` suffix, and ``N`` (a string, or ``None``)."""
    if entry.endswith("]") and not entry.endswith("\\]"):
        at = entry.rfind("[")
        if at >= 0:
            return entry[:at], entry[at + 1:-1]
    return entry, None


class _Reader:
    """The state of one file being read (see the module docstring)."""

    def __init__(self, p: Path, lines: list[str], minor: int, cols: list[_Col], wanted: set[str]):
        self.p, self.lines, self.minor, self.cols = p, lines, minor, cols
        self.mine = [i for i, c in enumerate(cols) if c.layer in wanted]
        # chain links first: they create a chain's elements, which the chain's other columns then describe
        self.mine.sort(key=lambda i: cols[i].role != "chain-link")
        self.units: list[tuple[int, int]] = []           # UTF-16 (begin, end) of each token and sub-token
        self.unit_ids: dict[str, int] = {}
        self.declared = list(_layers(cols))
        self.unit_names: list[str] = []
        self.at_unit: dict[tuple[int, str], list[_Ann]] = {}
        self.by_number: dict[tuple[str, int], _Ann] = {}
        self.by_any_number: dict[int, _Ann] = {}     # INCEpTION numbers the annotations of all layers together
        self.by_element: dict[tuple[str, int, int], _Ann] = {}
        self.anns: list[_Ann] = []
        self.sentences: list[tuple[int, int, int]] = []     # sentence number, UTF-16 begin and end

    # -- the text and the units ---------------------------------------------------------------------------
    def read(self, first: int) -> str:
        p, lines = self.p, self.lines
        budget = MAX_FILLED + sum(len(x) for x in lines)   # spaces the file may leave to be filled in
        pieces: list[str] = []
        length = 0                 # UTF-16 units of the text so far
        pending: list[str] | None = None   # the #Text= lines of a sentence whose first token is not read yet
        sentence_begin = sentence_end = 0
        with_text = False
        sentence, wide = "", None
        token: tuple[int, int] | None = None
        ncols = len(self.cols)
        for lineno in range(first + 1, len(lines) + 1):
            line = lines[lineno - 1]
            line = line.removesuffix("\r")
            if not line:
                continue
            if line.startswith("#"):
                if line.startswith("#Text="):
                    if pending is None:
                        pending = []
                    pending.append(_unescape_text(line[6:], self.minor))
                continue
            cells = line.split("\t")
            if len(cells) == ncols + 4 and cells[-1] == "":
                cells.pop()
            if len(cells) != ncols + 3:
                raise FormatError(f"expected {ncols + 3} tab-separated columns (token id, offsets, token and "
                                  f"{ncols} from the header), found {len(cells)}", path=p, line=lineno)
            m, o = _TOKEN_ID.fullmatch(cells[0]), _OFFSETS.fullmatch(cells[1])
            if m is None or o is None:
                raise FormatError(f"expected a token id like 1-3 and offsets like 0-5, found {cells[0][:40]!r} and "
                                  f"{cells[1][:40]!r}", path=p, line=lineno)
            b, e = int(o.group(1)), int(o.group(2))
            if e > _INT_MAX:
                raise FormatError(f"offset {e} is past {_INT_MAX}, the largest the format holds (Java's int)",
                                  path=p, line=lineno)
            if e < b:
                raise FormatError(f"offsets {cells[1]} end before they begin", path=p, line=lineno)
            if m.group(3) is None:                      # a token
                sid = int(m.group(1))
                if pending is not None:                 # the first token of a sentence with #Text= lines
                    sentence = "\n".join(pending) + "\n"
                    pending, with_text = None, True
                    if length > b and pieces and pieces[-1].endswith("\n") and length - 1 == b:
                        pieces[-1] = pieces[-1][:-1]    # no room for the previous sentence's line break
                        length -= 1
                    if length > b:
                        raise FormatError(f"the sentence of token {cells[0]} begins at {b}, inside the text "
                                          f"before it (which ends at {length})", path=p, line=lineno)
                    budget = self._fill(pieces, b, length, budget, lineno)
                    pieces.append(sentence)
                    sentence_begin, length = b, b + _utf16_len(sentence)
                    wide = None if _utf16_len(sentence) == len(sentence) else sentence.encode("utf-16-le")
                    sentence_end = length - 1
                elif not self.sentences or self.sentences[-1][0] != sid:
                    with_text = False                   # a sentence without #Text=: its tokens at their offsets
                if not with_text:
                    if b < length:
                        raise FormatError(f"token {cells[0]} begins at {b}, before the end of the text before "
                                          f"it ({length})", path=p, line=lineno)
                    budget = self._fill(pieces, b, length, budget, lineno)
                    word = _unescape_value(cells[2])
                    pieces.append(word)
                    length = b + _utf16_len(word)
                    sentence_begin, sentence_end = min(sentence_begin, b), length
                    if not self.sentences or self.sentences[-1][0] != sid:
                        sentence_begin = b
                    if length != e:
                        raise FormatError(f"token {cells[0]}: offsets {cells[1]} do not fit its text "
                                          f"{cells[2][:40]!r}", path=p, line=lineno)
                elif not (sentence_begin <= b and e <= sentence_end):
                    raise FormatError(f"token {cells[0]}: offsets {cells[1]} fall outside its sentence's text "
                                      f"({sentence_begin}-{sentence_end})", path=p, line=lineno)
                else:       # the token must be the sentence's text at its offsets
                    word = cells[2]
                    if wide is None:
                        there = sentence[b - sentence_begin:e - sentence_begin]
                    else:
                        there = wide[2 * (b - sentence_begin):2 * (e - sentence_begin)].decode("utf-16-le", "replace")
                    if there != word and there != _unescape_value(word):
                        raise FormatError(f"token {word[:40]!r} at {b}-{e}, where its sentence's text (#Text=) holds "
                                          f"{there[:40]!r}", path=p, line=lineno)
                token = (b, e)
                if self.sentences and self.sentences[-1][0] == sid:
                    self.sentences[-1] = (sid, self.sentences[-1][1], e)
                else:
                    self.sentences.append((sid, b, e))
            else:                                       # a sub-token, inside or beside its token
                if token is None or f"{m.group(1)}-{m.group(2)}" not in self.unit_ids:
                    raise FormatError(f"sub-token {cells[0]} before its token", path=p, line=lineno)
                if b < sentence_begin or e > (sentence_end if with_text else length):
                    raise FormatError(f"sub-token {cells[0]}: offsets {cells[1]} fall outside its sentence's text",
                                      path=p, line=lineno)
            self.unit_ids[cells[0]] = len(self.units)
            self.unit_names.append(cells[0])
            self.units.append((b, e))
            self._annotations(len(self.units) - 1, cells, lineno)
        if pending is not None:     # #Text= lines without tokens: the text is kept
            sentence = "\n".join(pending) + "\n"
            pieces.append(sentence)
        text = "".join(pieces)
        return text.removesuffix("\n")   # the line break INCEpTION adds after the last sentence

    def _fill(self, pieces: list[str], begin: int, length: int, budget: int, lineno: int) -> int:
        gap = begin - length
        if gap > budget:
            raise FormatError(f"offset {begin} lies {gap} units past the text before it, more than this file can "
                              f"leave unwritten ({budget} units): a corrupt offset?", path=self.p, line=lineno)
        if gap:
            pieces.append(" " * gap)
        return budget - gap

    # -- the annotations of one unit ------------------------------------------------------------------------
    def _get(self, unit: int, layer: str, index: int, number: str | None, lineno: int) -> _Ann:
        here = self.at_unit.setdefault((unit, layer), [])
        if index < len(here):
            return here[index]
        ann: _Ann | None = None
        key = None
        if number is not None:
            if not number.isdigit() or len(number) > 9:
                raise FormatError(f"expected an annotation number in [...], found {number[:20]!r}",
                                  path=self.p, line=lineno)
            key = (layer, int(number))
            ann = self.by_number.get(key)
        b, e = self.units[unit]
        if ann is None:
            ann = _Ann(layer, b, e, lineno, len(self.anns))
            self.anns.append(ann)
        else:
            ann.e = max(ann.e, e)
        if key is not None:
            self.by_number[key] = ann
            self.by_any_number.setdefault(key[1], ann)
        here.append(ann)
        return ann

    def _annotations(self, unit: int, cells: list[str], lineno: int) -> None:
        for i in self.mine:
            cell = cells[3 + i]
            if cell == "_":
                continue
            col = self.cols[i]
            for index, entry in enumerate(_STACK.split(cell)):
                if col.role == "slot-target":
                    _slot(self._get(unit, col.layer, index, None, lineno), col.feature)[1] = (
                        self._slot_targets(entry, lineno))
                    continue
                if col.role == "chain-link":
                    self._chain_link(unit, col, index, entry, lineno)
                    continue
                value, number = _disambiguation(entry)
                if col.kind == "relation":
                    ann = self._get(unit, col.layer, index, None, lineno)
                    if col.role == "source":
                        self._relation(ann, unit, value, number, lineno)
                        continue
                elif col.kind == "chain":
                    here = self.at_unit.get((unit, col.layer), [])
                    if index >= len(here):
                        raise FormatError(f"a chain value {entry[:40]!r} without its element (in the "
                                          f"referenceRelation column)", path=self.p, line=lineno)
                    ann = here[index]
                else:
                    ann = self._get(unit, col.layer, index, number, lineno)
                if col.role == "feature":
                    if value != "*":
                        _value(ann, col.feature, _unescape_value(value))
                elif col.role == "slot-role":
                    roles = [] if value == "_" else [None if r == "*" else _unescape_value(r)
                                                     for r in _SLOT.split(value)]
                    _slot(ann, col.feature)[0] = roles

    def _slot_targets(self, entry: str, lineno: int) -> list[Any]:
        if entry in ("_", "*"):
            return []
        out: list[Any] = []
        for target in _SLOT.split(entry):
            if target in ("_", "*"):
                out.append(None)
                continue
            unit, number = _disambiguation(target)
            out.append((unit, number, lineno))
        return out

    def _relation(self, ann: _Ann, unit: int, source: str, numbers: str | None, lineno: int) -> None:
        src = tgt = None
        if numbers is not None:
            a, sep, b = numbers.partition("_")
            if not (sep and a.isdigit() and b.isdigit() and len(a) < 10 and len(b) < 10):
                raise FormatError(f"expected the source and target numbers of a relation like [3_4], found "
                                  f"[{numbers[:20]}]", path=self.p, line=lineno)
            src, tgt = int(a), int(b)
        ann.refs = (source, src, unit, tgt, lineno)

    def _chain_link(self, unit: int, col: _Col, index: int, entry: str, lineno: int) -> None:
        m = _CHAIN.fullmatch(entry)
        if m is None:
            raise FormatError(f"expected a chain link like 'VALUE->1-2', found {entry[:40]!r}", path=self.p,
                              line=lineno)
        here = self.at_unit.setdefault((unit, col.layer), [])
        key = (col.layer, int(m.group(2)), int(m.group(3)))
        b, e = self.units[unit]
        ann = self.by_element.get(key)
        if ann is None:
            ann = self.by_element[key] = _Ann(col.layer, b, e, lineno, len(self.anns))
            ann.chain = key[1:]
            self.anns.append(ann)
        else:
            ann.e = max(ann.e, e)
        here.append(ann)
        if m.group(1) != "*":
            _value(ann, col.feature, _unescape_value(m.group(1)))

    # -- references -----------------------------------------------------------------------------------------
    def resolve(self, layer: str, unit_id: str, number: int | None, lineno: int) -> _Ann:
        """The annotation of ``layer`` a reference names (by its number, else the first on its unit)."""
        declared = layer in self.declared      # else a supertype (uima.tcas.Annotation): any layer
        if number:
            ann = self.by_number.get((layer, number)) if declared else self.by_any_number.get(number)
        else:
            unit = self.unit_ids.get(unit_id)
            if unit is None:
                raise FormatError(f"a reference to token {unit_id[:40]!r}, which the file does not have",
                                  path=self.p, line=lineno)
            here = self.at_unit.get((unit, layer)) if declared else next(
                (self.at_unit[(unit, t)] for t in self.declared if self.at_unit.get((unit, t))), None)
            ann = here[0] if here else None
        if ann is None:
            raise FormatError(f"a reference to {unit_id[:40]}{f'[{number}]' if number else ''}: no "
                              f"{layer.rsplit('.', 1)[-1]} annotation there", path=self.p, line=lineno)
        if ann.id is None:
            ann.id = f"a{ann.k + 1}"
        return ann


def _utf16_len(s: str) -> int:
    return len(s) + sum(1 for c in s if c > "\uffff") if not s.isascii() else len(s)


def _code_points(text: str) -> Any:
    """A function from UTF-16 offsets of ``text`` to code-point offsets (``None`` inside a surrogate pair)."""
    if text.isascii() or max(text) <= "\uffff":
        return lambda u: u
    ends: list[int] = []     # the UTF-16 end of each astral character
    extra = 0
    for k, c in enumerate(text):
        if c > "\uffff":
            extra += 1
            ends.append(k + extra + 1)

    def cp(u: int) -> int | None:
        n = bisect_right(ends, u)
        k = bisect_left(ends, u + 1)
        if k < len(ends) and ends[k] - 1 == u:      # between the two halves of a pair
            return None
        return u - n
    return cp


def _parse(path: str | Path, layer: str | None, encoding: str | None,
           lines: list[str] | None = None) -> tuple[Path, _Reader, str, list]:
    p = Path(path)
    if lines is None:
        lines = read_text(p, encoding).split("\n")
    minor, cols, first = _header(lines, p)
    chosen = _choose(layer, cols, p)
    wanted = {t for t, _ in chosen}
    declared = _layers(cols)
    for c in cols:       # what the layers read point to: slot targets, relation endpoints (any layer: a supertype)
        if c.layer in wanted and c.role in ("slot-target", "source"):
            wanted.update([c.target] if c.target in declared or c.target == TOKEN else declared)
    reader = _Reader(p, lines, minor, cols, wanted)
    text = reader.read(first)
    return p, reader, text, chosen


def read_webanno_tsv(path: str | Path, *, layer: str | None = None, encoding: str | None = None,
                     **_ignored: Any) -> Corpus:
    """Read the chosen layers of a WebAnno TSV 3 file (see the module docstring), or of a TSV 2 file
    (:mod:`accord.formats.text.webanno_tsv2`)."""
    lines = read_text(Path(path), encoding).split("\n")
    if lines and is_tsv2_head(lines[0]):
        return read_webanno_tsv2(path, lines, layer=layer)
    p, reader, text, chosen = _parse(path, layer, encoding, lines)
    read = {t for t, _ in chosen}
    labels = dict(chosen)
    cp = _code_points(text)
    unread: Counter = Counter()
    on_tokens = 0
    cols = reader.cols
    base = {c.layer: c.target for c in cols if c.role == "source"}
    # references first: they name the annotations that need ids
    refs: dict[int, dict[str, Any]] = {}
    for k, a in enumerate(reader.anns):
        if a.layer not in read:
            continue
        attrs: dict[str, Any] = {}
        if a.refs is not None:
            source, src, unit, tgt, lineno = a.refs
            target_layer = TOKEN if a.layer == DEPENDENCY else base[a.layer]
            if target_layer == TOKEN:      # relations between tokens (DKPro Core's dependencies): not a layer here
                if source not in reader.unit_ids:
                    raise FormatError(f"a relation from token {source[:40]!r}, which the file does not have",
                                      path=p, line=lineno)
                a.b, a.e = reader.units[unit]
                on_tokens += 1
                refs[k] = attrs
                continue
            gov = reader.resolve(target_layer, source, src, lineno)
            dep = reader.resolve(target_layer, reader.unit_names[unit], tgt, lineno)
            a.b, a.e = dep.b, dep.e
            if target_layer in read:
                assert gov.id is not None and dep.id is not None  # resolve() gives what it returns an id
                attrs[_GOVERNOR], attrs[_DEPENDENT] = Ref(gov.id), Ref(dep.id)
            else:
                unread[(a.layer, _GOVERNOR, target_layer)] += 1
                unread[(a.layer, _DEPENDENT, target_layer)] += 1
        for feature, (roles, targets) in a.slots.items():
            if not roles:       # no slot: as XMI, where the feature is unset or an empty array
                continue
            attrs[feature] = tuple("" if r is None else r for r in roles)
            target_layer = next(c.target for c in cols if c.layer == a.layer and c.role == "slot-target"
                                and c.feature == feature)
            found = []
            for t in targets:
                if t is None:
                    continue
                if t[1] is not None and not (t[1].isdigit() and len(t[1]) < 10):
                    raise FormatError(f"expected a link target like 1-2 or 1-2[3], found {t[0][:40]}[{t[1][:20]}]",
                                      path=p, line=t[2])
                ann = reader.resolve(target_layer, t[0], int(t[1]) if t[1] else None, t[2])
                found.append(ann)
            if found and all(x.layer in read for x in found):
                # resolve() gave each an id (the field is None only before)
                attrs[targets_attribute(feature)] = tuple(Ref(x.id) for x in found)   # type: ignore[arg-type]
            for x in found:
                if x.layer not in read:
                    unread[(a.layer, feature, x.layer)] += 1
        refs[k] = attrs
    chains: dict[tuple[str, int], list[_Ann]] = {}
    for a in reader.anns:
        if a.chain is not None and a.layer in read:
            chains.setdefault((a.layer, a.chain[0]), []).append(a)
    for elements in chains.values():
        elements.sort(key=lambda x: x.chain[1])      # type: ignore[index]  # chains hold chained elements only
        for x, following in pairwise(elements):
            if following.id is None:
                following.id = f"a{following.k + 1}"
            refs[x.k]["next"] = Ref(following.id)
    raw = []
    for k, a in enumerate(reader.anns):
        if a.layer not in read:
            continue
        feature = labels[a.layer]
        label = a.values.get(feature) if feature else None
        label = label if label else a.layer.rsplit(".", 1)[-1]
        attrs = {f: v for f, v in a.values.items() if f != feature and v != ""}
        attrs.update(refs.get(k, {}))
        begin, end = cp(a.b), cp(a.e)
        if begin is None or end is None or end > len(text):
            raise FormatError(f"offsets {a.b}-{a.e} do not fall on characters of the text", path=p, line=a.line)
        raw.append(RawAnnotation(label, begin, end, attrs, a.id, a.line))
    raw.sort(key=lambda r: (r.start, r.end, r.label))
    warn_unread(p, unread, [t for t, _ in chosen])
    if on_tokens:
        warnings.warn(AccordWarning(f"{p}: the endpoints of {on_tokens} relation(s) between tokens left out (WebAnno "
                                    "TSV has no Token layer to read; INCEpTION's XMI export has: --layer ...,Token)"),
                      stacklevel=2)
    anns = build_annotations(raw, path=p, doc_id=p.stem)
    sentences = []
    for _, b, e in reader.sentences:
        sb, se = cp(b), cp(e)
        if sb is not None and se is not None:
            sentences.append((sb, se))
    return Corpus([Document(p.stem, anns, text, None, tuple(sentences) or None, Attributes(source=str(p)))],
                  name=str(p))


def read_coref_webanno_tsv(path: str | Path) -> dict[str, list[list[tuple[int, int]]]]:
    """Coreference chains of WebAnno TSV files (one file or a folder of ``.tsv``): the elements of each chain
    layer (``#T_CH=``, DKPro Core's ``CoreferenceLink``), as inclusive character offsets, by document (the file
    name without extension), as :func:`accord.formats.coref.clusters.read_coref` returns them (which reads a ``.tsv``
    file that is not WebAnno TSV as CoNLL-2012)."""
    p = Path(path)
    files = sorted(f for f in p.glob("*.tsv") if _sniff(f)) if p.is_dir() else [p]
    if not files:
        raise FormatError("no WebAnno TSV (.tsv) file in this folder", path=p)
    if not p.is_dir() and not _sniff(p):
        raise FormatError("not a WebAnno TSV file (its first line is not '#FORMAT=WebAnno TSV 3...')", path=p)
    out = {}
    for f in files:
        lines = read_text(f).split("\n")
        _, cols, _ = _header(lines, f)
        chain_layers = [t for t, kind in _layers(cols).items() if kind == "chain"]
        if not chain_layers:
            shown = ", ".join(t.rsplit(".", 1)[-1] for t in _layers(cols)) or "none"
            raise FormatError(f"WebAnno TSV without a chain layer (#T_CH=; its layers: {shown}): accord coref reads "
                              "the chains of WebAnno TSV (CoreferenceLink); score span layers with accord score "
                              "--layer", path=f)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", AccordWarning)      # the links' next: read, not warned about
            corpus = read_webanno_tsv(f, layer=",".join(chain_layers))
        (doc,) = corpus.documents
        chains: dict[int, list[tuple[int, int]]] = {}
        pointed = {id(a.get("next")) for a in doc.annotations if a.get("next") is not None}
        for a in doc.annotations:
            if id(a) in pointed:
                continue
            mentions: list[tuple[int, int]] = []
            link, seen = a, set()
            while link is not None and id(link) not in seen and link.start is not None and link.end is not None:
                seen.add(id(link))
                mentions.append((link.start, link.end - 1))
                link = link.get("next")
            chains[len(chains)] = sorted(set(mentions))
        out[f.stem] = sorted(chains.values(), key=min)
    return out


def _write_unsupported(corpus: Corpus, path: str | Path, **_ignored: Any) -> None:
    raise FormatError("accord reads WebAnno TSV but does not write it; write UIMA XMI (--to xmi), which INCEpTION "
                      "imports too", path=path)


def _sniff(p: Path) -> bool:
    head = file_head(p, 64)
    return head is not None and (head.lstrip("\ufeff").startswith("#FORMAT=WebAnno TSV 3") or is_tsv2_head(head))


register(Format("webanno-tsv", read_webanno_tsv, _write_unsupported, (".tsv",), _sniff,
                "WebAnno TSV 3 (INCEpTION, WebAnno): span, chain and relation layers with their features; "
                "WebAnno TSV 2"))
