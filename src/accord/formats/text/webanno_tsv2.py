"""WebAnno TSV 2 (WebAnno 2's tab-separated export), read as :mod:`accord.formats.text.webanno_tsv` reads TSV 3.

A file begins with its layers on ``#`` lines: ``# TYPE | feature | ... # TYPE | feature | AttachTo=BASE`` (layers
separated by ``#``, features by ``|``; ``AttachTo=`` makes a relation layer between annotations of ``BASE``). Each
sentence has ``#id=`` and ``#text=`` lines (the text may run over several lines), then one line per token:
``sentence-token``, the token, one column per declared feature and, after a relation layer's last feature, the
governor's token id. A column holds ``_`` or ``O`` (nothing), or ``|``-separated stacked entries, the n-th entry of
each column of a layer describing the layer's n-th annotation on the token: ``B-VALUE`` begins an annotation,
``I-VALUE`` continues the one begun at the same position on an earlier token, a plain ``VALUE`` is an annotation of
that token, ``B-_`` / ``I-_`` / ``O-_`` hold a position. A value equal to the layer's type name has no value. Blank
lines end sentences.

The file holds no offsets: the text is rebuilt as WebAnno rebuilt it, the tokens of a sentence joined by one space,
the sentences by a line break. A relation's ``Governor`` and ``Dependent`` are the first annotations of its base
layer on the governor's token and on its own token; it spans its dependent (as INCEpTION's relations do, so that TSV
2, TSV 3 and XMI agree); DKPro Core's ``Dependency`` relates tokens, which the file does not hold as a layer (left out
with a warning, as in TSV 3). Labels and attributes follow :mod:`accord.formats.text._uima`. The document id is the
file name without extension. Errors name the line.
"""

from __future__ import annotations

import re
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

from ...errors import AccordWarning, FormatError
from ...model import Attributes, Corpus, Document
from .._refs import RawAnnotation, Ref, build_annotations
from ._tsv_layers import TOKEN, Col, choose_layers
from ._uima import warn_unread

__all__ = ["is_tsv2_head", "read_webanno_tsv2"]

_HEADER = re.compile(r"\s*#\s*[A-Za-z_$][\w$.]*\s*\|")
_TOKEN_ID = re.compile(r"(\d{1,9})-(\d{1,9})")
DEPENDENCY = "de.tudarmstadt.ukp.dkpro.core.api.syntax.type.dependency.Dependency"


def is_tsv2_head(head: str) -> bool:
    """Whether a file's first characters are WebAnno TSV 2's layer declarations."""
    first = head.lstrip("\ufeff").split("\n", 1)[0]
    return bool(_HEADER.match(first)) and not first.startswith(("#FORMAT=", "#T_"))


class _Layer:
    __slots__ = ("attach", "features", "name")

    def __init__(self, name: str, features: list[str], attach: str | None):
        self.name, self.features, self.attach = name, features, attach


class _Ann:
    __slots__ = ("b", "e", "gov", "id", "k", "layer", "line", "token", "values")

    def __init__(self, layer: str, b: int, e: int, line: int, k: int, token: str):
        self.layer, self.b, self.e, self.line, self.k, self.token = layer, b, e, line, k, token
        self.values: dict[str, str] = {}
        self.gov: tuple[str, int] | None = None     # the governor's token id and the line naming it
        self.id: str | None = None


def _header(lines: list[str], p: Path) -> tuple[list[_Layer], int]:
    """The declared layers, and the index of the first line after the header."""
    layers: list[_Layer] = []
    k = 0
    while k < len(lines) and lines[k].strip().startswith("#") and not lines[k].strip().startswith(("#id=", "#text=")):
        for segment in lines[k].lstrip("\ufeff").split("#"):
            if not segment.strip():
                continue
            parts = [x.strip() for x in segment.split("|")]
            name, features, attach = parts[0], [], None
            if not name:
                raise FormatError("a layer declaration without a type name", path=p, line=k + 1)
            for f in parts[1:]:
                if f.startswith("AttachTo="):
                    attach = f[len("AttachTo="):]
                elif f:
                    features.append(f)
            layers.append(_Layer(name, features, attach))
        k += 1
    if not layers:
        raise FormatError("not WebAnno TSV 2: no layer declared ('# TYPE | feature' lines) before the sentences",
                          path=p, line=1)
    return layers, k


def _columns(layers: list[_Layer]) -> list[tuple[_Layer, str | None]]:
    """Each column after the token: ``(layer, feature)``, ``None`` for a relation's governor."""
    out: list[tuple[_Layer, str | None]] = []
    for layer in layers:
        out.extend((layer, f) for f in layer.features)
        if layer.attach is not None:
            out.append((layer, None))
    return out


def read_webanno_tsv2(path: str | Path, lines: list[str], *, layer: str | None = None) -> Corpus:
    """Read the chosen layers of a WebAnno TSV 2 file (``lines``: its text split at line breaks)."""

    p = Path(path)
    layers, first = _header(lines, p)
    cols: list[Col] = []
    for la in layers:
        kind = "relation" if la.attach is not None else "span"
        cols.extend(Col(la.name, kind, "feature", f) for f in la.features)
        if la.attach is not None:
            cols.append(Col(la.name, kind, "source", "Governor", la.attach))
        if not la.features and la.attach is None:
            cols.append(Col(la.name, kind, "placeholder"))
    chosen = choose_layers(layer, cols, p)
    read = {t for t, _ in chosen}
    columns = _columns(layers)
    by_name = {la.name: la for la in layers}
    pieces: list[str] = []
    length = 0
    sentences: list[tuple[int, int]] = []
    sentence_begin: int | None = None
    anns: list[_Ann] = []
    at_token: dict[tuple[str, str], list[_Ann]] = {}      # (layer, token id) -> annotations begun there
    open_: dict[str, dict[int, _Ann]] = {}                # layer -> stack position -> annotation begun before
    in_text = False
    for lineno in range(first + 1, len(lines) + 1):
        line = lines[lineno - 1].strip()
        if not line:
            if sentence_begin is not None:
                sentences.append((sentence_begin, length))
                sentence_begin = None
            in_text = False
            continue
        if line.startswith("#"):
            in_text = line.startswith("#text=")
            continue
        cells = line.split("\t")
        m = _TOKEN_ID.fullmatch(cells[0])
        if m is None:
            if in_text:          # a sentence's text running over several lines
                continue
            raise FormatError(f"expected a token line like '1-3<TAB>token...', found {cells[0][:40]!r}", path=p,
                              line=lineno)
        in_text = False
        if len(cells) != len(columns) + 2:
            raise FormatError(f"expected {len(columns) + 2} tab-separated columns (token id, token and "
                              f"{len(columns)} from the header), found {len(cells)}", path=p, line=lineno)
        if sentence_begin is None:
            if pieces:
                pieces.append("\n")
                length += 1
            sentence_begin = length
        elif pieces:
            pieces.append(" ")
            length += 1
        token = cells[1]
        b, e = length, length + len(token)
        pieces.append(token)
        length = e
        _annotations(p, cells, columns, cells[0], b, e, lineno, anns, at_token, open_)
    if sentence_begin is not None:
        sentences.append((sentence_begin, length))
    text = "".join(pieces)
    labels = dict(chosen)
    unread: Counter = Counter()
    on_tokens = 0
    attrs_of: dict[int, dict[str, Any]] = {}
    for a in anns:
        if a.layer not in read or a.gov is None:
            continue
        base = by_name[a.layer].attach
        assert base is not None        # a governor only on relation layers
        if a.layer == DEPENDENCY or base == TOKEN:
            on_tokens += 1
            continue
        gov_token, lineno = a.gov
        found = at_token.get((base, gov_token))
        dep = at_token.get((base, a.token))
        if not found or not dep:
            where = gov_token if not found else a.token
            raise FormatError(f"a relation of {a.layer.rsplit('.', 1)[-1]} from or to token {where[:40]!r}, where "
                              f"there is no {base.rsplit('.', 1)[-1]} annotation", path=p, line=lineno)
        gov, dep0 = found[0], dep[0]
        a.b, a.e = dep0.b, dep0.e
        if base in read:
            for x in (gov, dep0):
                if x.id is None:
                    x.id = f"a{x.k + 1}"
            attrs_of[a.k] = {"Governor": Ref(gov.id or ""), "Dependent": Ref(dep0.id or "")}
        else:
            unread[(a.layer, "Governor", base)] += 1
            unread[(a.layer, "Dependent", base)] += 1
    raw = []
    for a in anns:
        if a.layer not in read:
            continue
        feature = labels[a.layer]
        label = a.values.get(feature) if feature else None
        label = label if label else a.layer.rsplit(".", 1)[-1]
        attrs: dict[str, Any] = {f: v for f, v in a.values.items() if f != feature and v != ""}
        attrs.update(attrs_of.get(a.k, {}))
        raw.append(RawAnnotation(label, a.b, a.e, attrs, a.id, a.line))
    raw.sort(key=lambda r: (r.start, r.end, r.label))
    warn_unread(p, unread, [t for t, _ in chosen])
    if on_tokens:
        warnings.warn(AccordWarning(f"{p}: the endpoints of {on_tokens} relation(s) between tokens left out (WebAnno "
                                    "TSV has no Token layer to read)"), stacklevel=3)
    built = build_annotations(raw, path=p, doc_id=p.stem)
    return Corpus([Document(p.stem, built, text, None, tuple(sentences) or None, Attributes(source=str(p)))],
                  name=str(p))


def _annotations(p: Path, cells: list[str], columns: list[tuple[_Layer, str | None]], token_id: str, b: int,
                 e: int, lineno: int, anns: list[_Ann], at_token: dict[tuple[str, str], list[_Ann]],
                 open_: dict[str, dict[int, _Ann]]) -> None:
    """The annotations of one token line (see the module docstring)."""
    here: dict[tuple[str, int], _Ann] = {}      # (layer, position) -> annotation begun on this token
    created: dict[str, list[_Ann]] = {}          # layer -> annotations begun on this token, in order
    for k, (layer, feature) in enumerate(columns):
        cell = cells[2 + k]
        name = layer.name
        if feature is None:             # the governors of the relations begun on this token
            govs = [] if cell in ("_", "O") else cell.split("|")
            mine = created.get(name, [])
            if len(govs) != len(mine):
                raise FormatError(f"{len(govs)} governor(s) for {len(mine)} {name.rsplit('.', 1)[-1]} relation(s) "
                                  "on this token", path=p, line=lineno)
            for a, g in zip(mine, govs):
                if _TOKEN_ID.fullmatch(g) is None:
                    raise FormatError(f"expected a governor token id like 1-3, found {g[:40]!r}", path=p,
                                      line=lineno)
                a.gov = (g, lineno)
            continue
        opened = open_.setdefault(name, {})
        position = 1
        for entry in cell.split("|"):
            if entry in ("_", "O") or (entry.startswith("O-") and entry != "O-_"):
                opened.clear()
            elif entry in ("B-_", "I-_", "O-_"):
                pass
            elif entry.startswith("I-"):
                begun = opened.get(position)
                if begun is None:
                    raise FormatError(f"{entry[:40]!r} continues no annotation begun (B-) at position {position} on "
                                      "an earlier token", path=p, line=lineno)
                begun.e = e
            else:
                value = entry[2:] if entry.startswith("B-") else entry
                found = here.get((name, position))
                if found is None:
                    a = _Ann(name, b, e, lineno, len(anns), token_id)
                    anns.append(a)
                    here[(name, position)] = a
                    created.setdefault(name, []).append(a)
                    at_token.setdefault((name, token_id), []).append(a)
                else:
                    a = found
                if entry.startswith("B-"):
                    opened[position] = a
                if value != name:
                    a.values.setdefault(feature, value)
            position += 1
