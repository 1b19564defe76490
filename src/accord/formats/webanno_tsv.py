"""WebAnno TSV 3 (INCEpTION's and WebAnno's tab-separated export): span layers read as annotations.

A file declares its layers in its header (``#T_SP=TYPE|feature|...`` span layers, ``#T_RL=TYPE|...|BT_BASE``
relation layers, ``#T_CH=TYPE|...`` chain layers), then gives sentences (``#Text=...``) of token lines:
``sentence-token``, ``begin-end`` (offsets in UTF-16 units, as Java counts them), the token, then one column per
feature of each layer in header order (a relation layer has one more column, the source token). A column holds
``_`` (nothing), or ``|``-separated values: ``VALUE[N]`` for the tokens of a multi-token annotation ``N``,
``VALUE`` for a one-token annotation, ``*`` for an annotation whose feature is empty; ``\\``, ``|``, ``[``, ``]``,
``_``, ``*`` and tabs in values are escaped with a backslash. Sub-token lines (``1-3.1``) carry spans inside a token.

``layer`` chooses the span layer and its label feature (``TYPE[:FEATURE]``, a type by its last part allowed;
default: DKPro Core's ``NamedEntity``, label ``value``, else the file's only span layer); the layer's other features
become attributes. Offsets become code points of a text rebuilt from the tokens at their offsets (the export does
not keep the whitespace between tokens); the document id is the file name without extension.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from .._io import read_text
from ..errors import FormatError, OptionError
from ..model import Attributes, Corpus, Document
from ._refs import RawAnnotation, build_annotations
from ._registry import Format, file_head, register

__all__ = ["read_webanno_tsv"]

_ESCAPED = re.compile(r"\\(.)")
_ENTRY = re.compile(r"^(.*?)(?:\[(\d+)(?:_\d+)?\])?$", re.S)
_TOKEN_ID = re.compile(r"^(\d+)-(\d+)(?:\.(\d+))?$")
_OFFSETS = re.compile(r"^(\d+)-(\d+)$")


def _split_values(cell: str) -> list[str]:
    """The ``|``-separated values of a cell (escaped bars kept), each unescaped later."""
    out, cur, k = [], [], 0
    while k < len(cell):
        c = cell[k]
        if c == "\\" and k + 1 < len(cell):
            cur.append(cell[k:k + 2])
            k += 2
            continue
        if c == "|":
            out.append("".join(cur))
            cur = []
        else:
            cur.append(c)
        k += 1
    out.append("".join(cur))
    return out


def _unescape(value: str) -> str:
    return _ESCAPED.sub(lambda m: {"t": "\t", "n": "\n", "r": "\r"}.get(m.group(1), m.group(1)), value)


def _header(lines: list[str], p: Path) -> tuple[list[tuple[str, str, list[str]]], int]:
    """``(kind, type, features)`` of each declared layer, and the index of the first line after the header."""
    if not lines or not lines[0].lstrip("\ufeff").startswith("#FORMAT=WebAnno TSV 3"):
        raise FormatError("not WebAnno TSV 3: the first line is not '#FORMAT=WebAnno TSV 3.x'", path=p, line=1)
    layers = []
    k = 1
    while k < len(lines) and lines[k].startswith(("#T_SP=", "#T_RL=", "#T_CH=")):
        kind, _, rest = lines[k][1:].partition("=")
        parts = rest.split("|")
        layers.append((kind, parts[0], parts[1:]))
        k += 1
    return layers, k


def _columns(layers: list[tuple[str, str, list[str]]]) -> list[tuple[str, str]]:
    """``(type, feature)`` of each annotation column, in order (a relation layer's source column included)."""
    out = []
    for kind, type_name, features in layers:
        out.extend((type_name, f) for f in features if not f.startswith("BT_"))
        if kind == "T_RL":
            out.append((type_name, "BT_source"))
    return out


def _choose(layers: list[tuple[str, str, list[str]]], spec: str | None, p: Path) -> tuple[str, str | None]:
    spans = [(t, [f for f in fs]) for kind, t, fs in layers if kind == "T_SP"]
    if not spans:
        raise FormatError("no span layer (#T_SP=) in the header", path=p)
    if spec:
        type_name, _, feature = spec.partition(":")
        matches = [(t, fs) for t, fs in spans if t == type_name or t.endswith("." + type_name)]
        if len(matches) != 1:
            raise OptionError(f"{p}: {'no' if not matches else 'more than one'} span layer {type_name!r}; the file "
                              f"has {', '.join(t for t, _ in spans)}")
        t, fs = matches[0]
        if feature and feature not in fs:
            raise OptionError(f"{p}: layer {t!r} has no feature {feature!r} (features: {', '.join(fs) or 'none'})")
        return t, feature or ("value" if "value" in fs else (fs[0] if fs else None))
    named = [(t, fs) for t, fs in spans if t.endswith(".NamedEntity")]
    if named or len(spans) == 1:
        t, fs = (named or spans)[0]
        return t, "value" if "value" in fs else (fs[0] if fs else None)
    raise OptionError(f"{p}: choose the span layer with --layer (the file has {', '.join(t for t, _ in spans)})")


def read_webanno_tsv(path: str | Path, *, layer: str | None = None, encoding: str | None = None,
                     **_ignored: Any) -> Corpus:
    """Read the chosen span layer of a WebAnno TSV 3 file (see the module docstring)."""
    p = Path(path)
    lines = read_text(p, encoding).split("\n")
    layers, k = _header(lines, p)
    columns = _columns(layers)
    type_name, label_feature = _choose(layers, layer, p)
    mine = [i for i, (t, _) in enumerate(columns) if t == type_name]
    short = type_name.rsplit(".", 1)[-1]
    pieces: list[str] = []           # the rebuilt text
    at16 = 0                         # UTF-16 units of the text so far
    at_cp = 0                        # its code points
    token_starts: dict[str, tuple[int, int, str]] = {}   # token id -> (cp begin, utf16 begin, token text)
    sentence_bounds: dict[int, list[int]] = {}
    groups: dict[str, dict[str, Any]] = {}
    singles: list[dict[str, Any]] = []
    for lineno in range(k + 1, len(lines) + 1):
        line = lines[lineno - 1]
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if cells and cells[-1] == "":
            cells = cells[:-1]
        if len(cells) != 3 + len(columns):
            raise FormatError(f"expected {3 + len(columns)} tab-separated columns (token id, offsets, token and "
                              f"{len(columns)} from the header), found {len(cells)}", path=p, line=lineno)
        tid, offsets, token = cells[0], cells[1], _unescape(cells[2])
        m, o = _TOKEN_ID.match(tid), _OFFSETS.match(offsets)
        if m is None or o is None:
            raise FormatError(f"expected a token id like 1-3 and offsets like 0-5, found {tid!r} and {offsets!r}",
                              path=p, line=lineno)
        b16, e16 = int(o.group(1)), int(o.group(2))
        if m.group(3) is None:      # a token: placed at its offset in the rebuilt text
            if b16 < at16:
                raise FormatError(f"token {tid} begins at {b16}, before the end of the previous token ({at16})",
                                  path=p, line=lineno)
            pieces.append(" " * (b16 - at16))
            cp_begin = at_cp + b16 - at16
            pieces.append(token)
            at_cp = cp_begin + len(token)
            at16 = b16 + len(token.encode("utf-16-le")) // 2
            if at16 != e16:
                raise FormatError(f"token {tid}: offsets {offsets} do not fit its text {token!r}", path=p, line=lineno)
            token_starts[tid] = (cp_begin, b16, token)
            begin, end = cp_begin, cp_begin + len(token)
            sentence = int(m.group(1))
            bounds = sentence_bounds.setdefault(sentence, [begin, end])
            bounds[0], bounds[1] = min(bounds[0], begin), max(bounds[1], end)
        else:                       # a sub-token: offsets inside its token
            parent = token_starts.get(f"{m.group(1)}-{m.group(2)}")
            if parent is None:
                raise FormatError(f"sub-token {tid} before its token", path=p, line=lineno)
            begin, end = (_cp(parent, b16, p, lineno), _cp(parent, e16, p, lineno))
        cells_of_layer = {columns[i][1]: cells[3 + i] for i in mine}
        label_cell = cells_of_layer.get(label_feature) if label_feature else None
        reference = label_cell if label_cell is not None else next(iter(cells_of_layer.values()), "_")
        if reference == "_":
            continue
        entries = _split_values(reference)
        others = {f: _split_values(c) for f, c in cells_of_layer.items() if f != label_feature and c != "_"}
        for n, entry in enumerate(entries):
            em = _ENTRY.match(entry)
            value, ident = em.group(1), em.group(2)
            label = _unescape(value) if value not in ("*", "") else short
            attrs = {}
            for f, values in others.items():
                match = next((v for v in values if _ENTRY.match(v).group(2) == ident), None) if ident else (
                    values[n] if n < len(values) else None)
                if match is not None:
                    raw_value = _ENTRY.match(match).group(1)
                    if raw_value not in ("*", "_", ""):
                        attrs[f] = _unescape(raw_value)
            if ident is None:
                singles.append({"label": label, "begin": begin, "end": end, "attrs": attrs, "line": lineno})
            else:
                g = groups.setdefault(ident, {"label": label, "begin": begin, "end": end, "attrs": attrs,
                                              "line": lineno})
                g["begin"], g["end"] = min(g["begin"], begin), max(g["end"], end)
    text = "".join(pieces)
    raw = [RawAnnotation(a["label"], a["begin"], a["end"], a["attrs"], None, a["line"])
           for a in sorted([*groups.values(), *singles], key=lambda a: (a["begin"], a["end"], a["label"]))]
    anns = build_annotations(raw, path=p, doc_id=p.stem)
    sentences = tuple(tuple(b) for _, b in sorted(sentence_bounds.items()))
    return Corpus([Document(p.stem, anns, text, None, sentences or None, Attributes(source=str(p)))], name=str(p))


def _cp(parent: tuple[int, int, str], offset16: int, p: Path, lineno: int) -> int:
    """A UTF-16 offset inside a token as a code-point offset of the rebuilt text."""
    cp_begin, b16, token = parent
    units = 0
    for k, c in enumerate(token):
        if units >= offset16 - b16:
            return cp_begin + k
        units += 2 if ord(c) > 0xFFFF else 1
    if units == offset16 - b16:
        return cp_begin + len(token)
    raise FormatError(f"a sub-token offset {offset16} lies outside its token {token!r}", path=p, line=lineno)


def _write_unsupported(corpus: Corpus, path: str | Path, **_ignored: Any) -> None:
    raise FormatError("accord reads WebAnno TSV but does not write it; write UIMA XMI (--to xmi), which INCEpTION "
                      "imports too", path=path)


def _sniff(p: Path) -> bool:
    head = file_head(p, 64)
    return head is not None and head.lstrip("\ufeff").startswith("#FORMAT=WebAnno TSV 3")


register(Format("webanno-tsv", read_webanno_tsv, _write_unsupported, (".tsv",), _sniff,
                "WebAnno TSV 3 (INCEpTION, WebAnno): a span layer with its features"))
