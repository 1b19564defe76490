"""Coreference clusters from CoNLL-2012 files and from JSON lines.

Both readers return ``{document id: [entity, ...]}`` where an entity is a list of
inclusive ``(start, end)`` token spans, the input of
:func:`accord.structured.coref_scores`.

**CoNLL-2012** (the shared task's ``*_conll`` files): a document runs from
``#begin document NAME`` to ``#end document``; its id is ``NAME`` as written (for OntoNotes
``(path); part 000``). Each non-blank line is a token; the last column holds the chains:
``-`` or ``_`` for none, else ``|``-separated parts ``(N`` (a mention of entity N starts),
``N)`` (it ends) and ``(N)`` (a one-token mention). Tokens are numbered from 0 within the
document, across sentences. Nested mentions of one entity close innermost first.

**JSON lines**: one document per line, ``{"id": "doc1", "clusters": [[[0, 1], [5, 5]], ...]}``
(``doc_key`` is accepted for ``id``, as the SpanBERT/AllenNLP tools write it).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from .._io import read_text
from ..errors import FormatError
from .jsonl import json_lines

__all__ = ["read_coref", "read_coref_conll", "read_coref_jsonl", "write_coref_conll", "write_coref_jsonl"]

Clusters = list[list[tuple[int, int]]]

_PART = re.compile(r"^(\()?(\d+)(\))?$")


def _text(path: Path) -> str:
    return read_text(path)


def read_coref_conll(path: str | Path) -> dict[str, Clusters]:
    """Read the coreference chains of a CoNLL-2012 file."""
    p = Path(path)
    docs: dict[str, Clusters] = {}
    doc: str | None = None
    entities: dict[str, list[tuple[int, int]]] = {}
    open_: dict[str, list[tuple[int, int]]] = {}   # entity -> stack of (start token, line)
    token = 0
    for lineno, line in enumerate(_text(p).splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("#begin document"):
            if doc is not None:
                raise FormatError(f"'#begin document' inside document {doc!r} (no '#end document' before it)",
                                  path=p, line=lineno)
            doc = stripped[len("#begin document"):].strip()
            if doc in docs:
                raise FormatError(f"document {doc!r} appears twice", path=p, line=lineno)
            entities, open_, token = {}, {}, 0
            continue
        if stripped.startswith("#end document"):
            if doc is None:
                raise FormatError("'#end document' without '#begin document'", path=p, line=lineno)
            unclosed = [(e, ln) for e, st in open_.items() for _, ln in st]
            if unclosed:
                e, ln = unclosed[0]
                raise FormatError(f"document {doc!r}: the mention of entity {e} opened on line {ln} never closes",
                                  path=p, line=lineno)
            docs[doc] = [sorted(ms) for _, ms in sorted(entities.items(), key=lambda kv: int(kv[0]))]
            doc = None
            continue
        if not stripped or stripped.startswith("#"):
            continue
        if doc is None:
            raise FormatError("a token line outside '#begin document' ... '#end document'", path=p, line=lineno)
        chain = stripped.split()[-1]
        if chain not in ("-", "_"):
            for part in chain.split("|"):
                m = _PART.match(part)
                if not m or not (m.group(1) or m.group(3)):
                    raise FormatError(f"bad coreference part {part!r} in {chain!r}; expected (N, N) or (N)",
                                      path=p, line=lineno)
                ent = str(int(m.group(2)))
                if m.group(1) and m.group(3):
                    entities.setdefault(ent, []).append((token, token))
                elif m.group(1):
                    open_.setdefault(ent, []).append((token, lineno))
                else:
                    stack = open_.get(ent)
                    if not stack:
                        raise FormatError(f"entity {ent} closes here but no mention of it is open",
                                          path=p, line=lineno)
                    start, _ = stack.pop()
                    if not stack:
                        del open_[ent]
                    entities.setdefault(ent, []).append((start, token))
        token += 1
    if doc is not None:
        raise FormatError(f"document {doc!r} has no '#end document'", path=p)
    return docs


def read_coref_jsonl(path: str | Path) -> dict[str, Clusters]:
    """Read coreference clusters from JSON lines (see the module documentation)."""
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


def read_coref(path: str | Path, format: str | None = None) -> dict[str, Clusters]:
    """Read clusters; ``format`` is ``conll2012`` or ``jsonl`` (default: ``.jsonl``/``.json`` -> jsonl)."""
    p = Path(path)
    fmt = format or ("jsonl" if p.suffix.lower() in (".jsonl", ".json") else "conll2012")
    if fmt == "jsonl":
        return read_coref_jsonl(p)
    if fmt == "conll2012":
        return read_coref_conll(p)
    raise FormatError(f"unknown coreference format {fmt!r}; expected conll2012 or jsonl", path=p)


def write_coref_conll(docs: dict[str, Clusters], path: str | Path, *, tokens: dict[str, list[str]] | None = None) -> None:
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
    Path(path).write_text("\n".join(out) + "\n", encoding="utf-8")


def write_coref_jsonl(docs: dict[str, Clusters], path: str | Path) -> None:
    """Write clusters as JSON lines, one document per line."""
    lines = [json.dumps({"id": d, "clusters": [[list(m) for m in c] for c in cl]}) for d, cl in docs.items()]
    Path(path).write_text("\n".join(lines) + ("\n" if lines else ""), encoding="utf-8")
