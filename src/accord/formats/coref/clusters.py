"""Coreference clusters from CoNLL-2012 files and from JSON lines.

Both readers return ``{document id: [entity, ...]}`` where an entity is a list of
inclusive ``(start, end)`` token spans, the input of
:func:`accord.structured.coref_scores`.

**CoNLL-2012** (the shared task's ``*_conll`` files): a document runs from
``#begin document NAME`` to ``#end document``; its id is ``NAME`` as written (for OntoNotes
``(path); part 000``). Each non-blank line is a token; the last column holds the chains:
``-`` or ``_`` for none, else parts ``(N`` (a mention of entity N starts), ``N)`` (it ends) and
``(N)`` (a one-token mention), separated by ``|`` or written together (``(1(3``) as the reference
scorer (v8.01) accepts them. Tokens are numbered from 0 within the document, across sentences.
Nested mentions of one entity close innermost first; within one token, as the reference scorer
reads it, one-token mentions come first, then openings, then closings, whatever the written order.
Entities are listed in the order the reference scorer numbers them, that of their first part (a
one-token mention or an opening) so read: when a span is written in two entities, the scorers keep it
in the first (see :mod:`accord.structured.coref`), and the entity numbers written play no part.

**JSON lines**: one document per line, ``{"id": "doc1", "clusters": [[[0, 1], [5, 5]], ...]}``
(``doc_key`` is accepted for ``id``, as the SpanBERT/AllenNLP tools write it).
"""

from __future__ import annotations

import importlib
import json
import os
import re
from pathlib import Path

import numpy as np

from ..._support.io import read_text
from ...errors import FormatError
from ._bulk import CorefLines, chains_in_bulk
from ._chains import CorefChains
from ._layout import coref_lines

__all__ = ["read_coref", "read_coref_chains", "read_coref_conll", "read_coref_jsonl", "write_coref_conll",
           "write_coref_jsonl"]

Clusters = list[list[tuple[int, int]]]

_PIECE = re.compile(r"\((\d+)\)|\((\d+)|(\d+)\)")


def _text(path: Path) -> str:
    return read_text(path)


def read_coref_conll(path: str | Path) -> dict[str, Clusters]:
    """Read the coreference chains of a CoNLL-2012 file.

    Lines are classified with arrays (:func:`._layout.coref_lines`) and the chains of a well-formed
    file parsed and matched with arrays too (:mod:`._bulk`); a file it does not find well formed
    is read line by line, which names the first fault.
    """
    docs = read_coref_chains(path)
    return docs.to_dict() if isinstance(docs, CorefChains) else docs


def read_coref_chains(path: str | Path) -> CorefChains | dict[str, Clusters]:
    """:func:`read_coref_conll`'s chains as arrays (:class:`._chains.CorefChains`, a mapping of the same
    documents and entities) where the array reader reads the file, else the plain mapping."""
    p = Path(path)
    lines = _lines(_text(p))
    docs = chains_in_bulk(lines)
    return docs if docs is not None else _read_in_order(lines, p)


def _lines(text: str) -> CorefLines:
    return coref_lines(text)


def _read_in_order(lines: CorefLines, p: Path) -> dict[str, Clusters]:
    """The chains read one line after the other: the first fault of the file is the one named."""
    text, marks, mark_text, token_lines = lines.text, lines.marks, lines.mark_text, lines.token_lines
    chain_start, chain_end, mention = lines.chain_start, lines.chain_end, lines.mention
    # the marks (as -1 - their index) and the token lines with a mention (their index among them), in file order
    events = np.concatenate([-1 - np.arange(len(marks)), np.arange(len(mention))])
    events = events[np.argsort(np.concatenate([marks, token_lines[mention]]), kind="stable")]
    docs: dict[str, Clusters] = {}
    doc: str | None = None
    base = 0    # the document's first token: its index among all token lines
    entities: dict[str, list[tuple[int, int]]] = {}
    first: dict[str, None] = {}    # the entities in the order of their first part (that of the reference scorer)
    open_: dict[str, list[tuple[int, int]]] = {}   # entity -> stack of (start token, line)
    outside_from = 0    # token lines from here on are outside every document until the next '#begin document'
    for e in events.tolist():
        if e >= 0:
            if doc is not None:
                t = int(mention[e])
                _read_chain(text[int(chain_start[e]):int(chain_end[e])], t - base, int(token_lines[t]) + 1,
                            entities, open_, first, p)
            continue
        m = -1 - e
        lineno = int(marks[m]) + 1
        stripped = mark_text[m]
        index = lines.before_mark[m]     # token lines before this mark
        if doc is None:   # the first fault in the file is the one named
            _no_tokens_outside(token_lines, outside_from, index, p)
        if stripped.startswith("#begin document"):
            if doc is not None:
                raise FormatError(f"'#begin document' inside document {doc!r} (no '#end document' before it)",
                                  path=p, line=lineno)
            doc = stripped[len("#begin document"):].strip()
            if doc in docs:
                raise FormatError(f"document {doc!r} appears twice", path=p, line=lineno)
            entities, open_, first, base = {}, {}, {}, index
        elif stripped.startswith("#end document"):
            if doc is None:
                raise FormatError("'#end document' without '#begin document'", path=p, line=lineno)
            unclosed = [(ent, ln) for ent, st in open_.items() for _, ln in st]
            if unclosed:
                ent, ln = unclosed[0]
                raise FormatError(f"document {doc!r}: the mention of entity {ent} opened on line {ln} never closes",
                                  path=p, line=lineno)
            docs[doc] = [sorted(entities[ent]) for ent in first]
            doc = None
            outside_from = index
    if doc is not None:
        raise FormatError(f"document {doc!r} has no '#end document'", path=p)
    _no_tokens_outside(token_lines, outside_from, len(token_lines), p)
    return docs


def _no_tokens_outside(token_lines: np.ndarray, lo: int, hi: int, path: Path) -> None:
    """Refuse a token line between two documents (token lines ``lo`` to ``hi`` lie outside every document)."""
    if hi > lo:
        raise FormatError("a token line outside '#begin document' ... '#end document'", path=path,
                          line=int(token_lines[lo]) + 1)


def _chain_parts(chain: str) -> list[tuple[int, str]] | None:
    """The parts of a chain column as ``(kind, entity)`` (0 one-token mention, 1 opening, -1 closing): ``|``
    between parts, or none (``(1(3``, ``1)3)``: the reference scorer reads those too); None if malformed."""
    parts: list[tuple[int, str]] = []
    for piece in chain.split("|"):
        at = 0
        if not piece:
            return None
        while at < len(piece):
            m = _PIECE.match(piece, at)
            if m is None:
                return None
            single, opening, closing = m.groups()
            parts.append((0, single) if single is not None else (1, opening) if opening is not None else (-1, closing))
            at = m.end()
    return parts


def _read_chain(chain: str, token: int, lineno: int, entities: dict[str, list[tuple[int, int]]],
                open_: dict[str, list[tuple[int, int]]], first: dict[str, None], path: Path) -> None:
    """Record the mention parts of one token's chain column.

    As the reference scorer (v8.01) reads a token: its one-token mentions, then its openings, then its
    closings (each closing the entity's latest open mention), whatever their written order; an entity
    not seen before is added to ``first`` at its first one-token mention or opening.
    """
    parts = _chain_parts(chain)
    if parts is None:
        raise FormatError(f"bad coreference chain {chain!r}; expected parts (N, N) or (N), separated by '|' or "
                          "written together", path=path, line=lineno)
    for kind in (0, 1, -1):
        for k, number in parts:
            if k != kind:
                continue
            ent = str(int(number))
            if kind == 0:
                first.setdefault(ent)
                entities.setdefault(ent, []).append((token, token))
            elif kind == 1:
                first.setdefault(ent)
                open_.setdefault(ent, []).append((token, lineno))
            else:
                stack = open_.get(ent)
                if not stack:
                    raise FormatError(f"entity {ent} closes here but no mention of it is open", path=path,
                                      line=lineno)
                start, _ = stack.pop()
                if not stack:
                    del open_[ent]
                entities.setdefault(ent, []).append((start, token))


def read_coref_jsonl(path: str | Path) -> dict[str, Clusters]:
    """Read coreference clusters from JSON lines (see the module documentation)."""
    from ..text.jsonl import json_lines

    p = Path(path)
    docs: dict[str, Clusters] = {}
    for lineno, obj in json_lines(p):
        if not isinstance(obj, dict):
            raise FormatError("expected an object with 'id' and 'clusters'", path=p, line=lineno)
        doc = obj.get("id", obj.get("doc_key"))
        if not isinstance(doc, str):
            raise FormatError("expected a string 'id' (or 'doc_key')", path=p, line=lineno)
        if doc in docs:
            raise FormatError(f"document {doc!r} appears twice", path=p, line=lineno)
        clusters = obj.get("clusters")
        if not isinstance(clusters, list):
            raise FormatError(f"document {doc!r}: expected 'clusters', a list of lists of [start, end]",
                              path=p, line=lineno)
        out: Clusters = []
        for k, c in enumerate(clusters):
            ms = []
            for m in c if isinstance(c, list) else [None]:
                if not (isinstance(m, list) and len(m) == 2 and all(isinstance(v, int) for v in m) and m[0] <= m[1]):
                    raise FormatError(f"document {doc!r}, cluster {k}: expected [start, end] integer pairs with "
                                      f"start <= end, got {m!r}", path=p, line=lineno)
                ms.append((m[0], m[1]))
            out.append(ms)
        docs[doc] = out
    return docs


_COREF_READERS = {
    "conll2012": (".clusters", "read_coref_conll"),
    "jsonl": (".clusters", "read_coref_jsonl"),
    "corefud": (".corefud", "read_corefud"),
    "brat": (".from_spans", "read_coref_brat"),
    "gate": (".from_spans", "read_coref_gate"),
    "xmi": ("..text.xmi", "read_coref_xmi"),
    "webanno-tsv": ("..text.webanno_tsv", "read_coref_webanno_tsv"),
}
"""Each coreference format: the module (imported when that format is read) and its reader."""


def read_coref(path: str | os.PathLike, format: str | None = None, *,
               arrays: bool = False) -> dict[str, Clusters] | CorefChains:
    """Read clusters; ``format`` is ``conll2012``, ``jsonl``, ``corefud``, ``brat``, ``gate`` or ``xmi`` (default
    by extension:
    ``.jsonl`` and ``.json`` JSON lines, ``.conllu`` CorefUD, ``.ann`` or a folder holding ``.ann`` files brat,
    ``.xml`` GATE XML (:mod:`accord.formats.coref.from_spans`), ``.xmi`` DKPro Core's coreference chains
    (:func:`accord.formats.text.xmi.read_coref_xmi`), ``.tsv`` WebAnno TSV chain layers
    (:func:`accord.formats.text.webanno_tsv.read_coref_webanno_tsv`), others
    CorefUD when their content is (a ``# global.Entity`` comment or ``Entity=`` in MISC in their first lines),
    else CoNLL-2012). With ``arrays``, a CoNLL-2012 file's chains may come as :class:`._chains.CorefChains` (the
    same mapping, kept as arrays: :func:`read_coref_chains`)."""
    p = Path(path)
    suffix = p.suffix.lower()
    if p.is_dir():    # a folder of documents: by the files it holds
        held = {f.suffix.lower() for f in p.iterdir() if f.is_file()}
        for mark in (".ann", ".xmi", ".xml", ".tsv"):    # brat, XMI (beside its TypeSystem.xml), GATE, WebAnno
            if mark in held:
                suffix = mark
                break
    by_suffix = {".jsonl": "jsonl", ".json": "jsonl", ".conllu": "corefud", ".ann": "brat", ".xml": "gate",
                 ".xmi": "xmi", ".tsv": "webanno-tsv"}
    fmt = format or by_suffix.get(suffix) or _by_content(p)
    if fmt == "webanno-tsv" and format is None and not p.is_dir():
        from ..text.webanno_tsv import _sniff

        if not _sniff(p):      # a .tsv file that is not WebAnno TSV: CoNLL-2012 (or CorefUD) by its content
            fmt = _by_content(p)
    if fmt not in _COREF_READERS:
        raise FormatError(f"unknown coreference format {fmt!r}; expected {', '.join(_COREF_READERS)}", path=p)
    if arrays and fmt == "conll2012":
        return read_coref_chains(p)
    module, name = _COREF_READERS[fmt]
    return getattr(importlib.import_module(module, __package__), name)(p)


def _by_content(p: Path) -> str:
    """``corefud`` for a file whose first 64 KiB are CorefUD's (:func:`.corefud.looks_like_corefud`: a file of any
    name), else ``conll2012``."""
    from .._registry import file_head
    from .corefud import looks_like_corefud

    head = file_head(p, 1 << 16) if p.is_file() else None
    return "corefud" if head is not None and looks_like_corefud(head) else "conll2012"


def write_coref_conll(docs: dict[str, Clusters], path: str | Path, *,
                      tokens: dict[str, list[str]] | None = None) -> None:
    """Write clusters as a two-column CoNLL-2012-style file (token, chain); tokens default to ``_``."""
    out: list[str] = []
    for doc, clusters in docs.items():
        n = max((e for c in clusters for _, e in c), default=-1) + 1
        toks = (tokens or {}).get(doc) or ["_"] * n
        if len(toks) < n:
            raise FormatError(f"document {doc!r}: a mention ends at token {n - 1} but there are {len(toks)} tokens")
        opens: list[list[tuple[int, int]]] = [[] for _ in toks]   # (length, entity): longer opens first
        closes: list[list[tuple[int, int]]] = [[] for _ in toks]
        singles: list[list[int]] = [[] for _ in toks]
        for k, c in enumerate(clusters):
            for s_, e in c:
                if s_ == e:
                    singles[s_].append(k)
                else:
                    opens[s_].append((e - s_, k))
                    closes[e].append((e - s_, k))
        out.append(f"#begin document {doc}")
        for i, tok in enumerate(toks):
            parts = [f"({k}" for _, k in sorted(opens[i], reverse=True)] + [f"({k})" for k in singles[i]]
            parts += [f"{k})" for _, k in sorted(closes[i])]
            out.append(f"{tok}\t{'|'.join(parts) or '-'}")
        out.append("#end document")
    from ..._support.safe_paths import write_text

    write_text(path, "\n".join(out) + "\n")     # whole or not at all


def write_coref_jsonl(docs: dict[str, Clusters], path: str | Path) -> None:
    """Write clusters as JSON lines, one document per line."""
    lines = [json.dumps({"id": d, "clusters": [[list(m) for m in c] for c in cl]}) for d, cl in docs.items()]
    from ..._support.safe_paths import write_text

    write_text(path, "\n".join(lines) + ("\n" if lines else ""))     # whole or not at all
