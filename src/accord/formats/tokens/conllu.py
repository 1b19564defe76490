"""CoNLL-U and CoNLL-U Plus files (Universal Dependencies and treebanks with named entities), read through ``conllu``.

Entities are BIO-family tags of the words (multiword-token ranges ``1-2`` and empty nodes ``1.1`` are not
words), taken from

* a column of a CoNLL-U Plus file (``# global.columns = ID FORM ... NER``) chosen by name, or
* a key of the MISC column (``NER=B-PER``, NorNE's ``name=B-PER``); a word without the key is outside (``O``).

``column`` (the command line's ``--columns``) names the column or the MISC key; by default the first of
:data:`TAG_COLUMNS` that the file has as a column, else the first of them found as a MISC key. A key that no
word holds is an error naming the keys the file has.

Documents start at ``# newdoc`` (id: ``# newdoc id = ...``, else their number); a file without it is one
document ``1``. Spans are word offsets within the document; the comments of each sentence (``sent_id``,
``text``...) are kept in the document's metadata as ``sentences``.

Lines are split at line feeds, blank (white-space) lines end sentences and ``#`` lines are comments. A word line
(multiword ranges and empty nodes included) must have exactly 10 tab-separated columns, or exactly as many as the
``# global.columns`` first line of a CoNLL-U Plus file declares: another count is an error naming the file, the
line and the count expected (columns are split at tabs only; a FORM may hold spaces). The ``conllu`` library
(``pip install 'accord[conllu]'``) parses the comments and the values of the columns; a malformed value is an
error naming the file and line.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, cast

from ..._support.io import read_text
from ...errors import FormatError, OptionError
from ...model import Attributes, Corpus, Document
from .._registry import Format, register
from ..text._span_relations import check_spans_only

__all__ = ["read_conllu", "write_conllu", "TAG_COLUMNS"]

TAG_COLUMNS = ("NER", "NE", "name", "NER_TAG", "ner")
"""Where entity tags are looked for when no column is named: CoNLL-U Plus columns, then MISC keys."""

_STANDARD = ("ID", "FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL", "DEPS", "MISC")
_GLOBAL_COLUMNS = re.compile(r"^#\s*global\.columns\s*=\s*(.+)$")


def _conllu() -> Any:
    try:
        import conllu
    except ImportError:  # pragma: no cover - depends on the environment
        raise OptionError("reading CoNLL-U files needs the conllu library: pip install 'accord[conllu]'") from None
    return conllu


def _lines(text: str) -> list[str]:
    """The lines of the text, split at line feeds only (a carriage return before one dropped): CoNLL-U separates
    lines so, and a FORM may hold other characters that :meth:`str.splitlines` would break at."""
    return [line.removesuffix("\r") for line in text.split("\n")]


def _blocks(lines: list[str]) -> list[tuple[int, list[str]]]:
    """The sentences as ``(first line number, lines)``, split at blank lines (lines of white space only)."""
    out: list[tuple[int, list[str]]] = []
    start, block = 0, list[str]()
    for number, line in enumerate(lines, 1):
        if line.strip():
            if not block:
                start = number
            block.append(line)
        elif block:
            out.append((start, block))
            block = []
    if block:
        out.append((start, block))
    return out


def _fields(lines: list[str]) -> tuple[list[str], bool]:
    """The column names (those a CoNLL-U Plus ``# global.columns`` first line declares, else the ten of CoNLL-U)
    and whether they were declared."""
    m = _GLOBAL_COLUMNS.match(lines[0].lstrip("\ufeff").strip()) if lines else None
    return (m.group(1).split(), True) if m else (list(_STANDARD), False)


def _sentence(conllu: Any, block: list[str], first: int, fields: list[str], declared: bool, p: Path) -> Any:
    """One sentence as a ``conllu`` TokenList: comments through ``conllu``'s comment parser, each word line split at
    its tabs, which must give exactly one value per column, and its values through ``conllu``'s field parsers."""
    from conllu.parser import DEFAULT_FIELD_PARSERS, parse_comment_line

    tokens, metadata = [], conllu.models.Metadata()
    for k, raw in enumerate(block):
        try:
            if raw.strip().startswith("#"):
                for key, value in parse_comment_line(raw):
                    metadata[key] = value
                continue
            values = raw.strip(" \f\v").split("\t")
            if len(values) != len(fields):
                why = "as its '# global.columns' line declares" if declared else "as CoNLL-U requires"
                raise FormatError(f"expected {len(fields)} tab-separated columns ({why}), found {len(values)}",
                                  path=p, line=first + k)
            token = conllu.models.Token()
            for i, field in enumerate(fields):
                parse = DEFAULT_FIELD_PARSERS.get(field)
                token[field] = parse(values, i) if parse is not None else values[i]
            tokens.append(token)
        except FormatError:
            raise
        except Exception as exc:  # conllu raises its own ParseException, and IndexError on some values
            raise FormatError(f"not CoNLL-U: {exc}", path=p, line=first + k) from None
    return conllu.models.TokenList(tokens, metadata, default_fields=fields)


def read_conllu(path: str | Path, *, column: str | int | None = None, columns: Any = None, scheme: str = "IOB2",
                repair: str = "conlleval", suffix: bool = False, encoding: str | None = None,
                text: str | None = None, **_ignored: Any) -> Corpus:
    """Read the entity tags of a CoNLL-U (Plus) file (see the module docstring)."""
    import numpy as np

    from ...model import EMPTY_ATTRIBUTES, Annotation, tagging

    conllu = _conllu()
    p = Path(path)
    if column is None and columns:
        column = columns if isinstance(columns, (str, int)) else (columns[0] if len(columns) == 1 else None)
        if column is None:
            raise OptionError(f"{p}: choose one tag column, not {len(columns)}")
    if text is None:
        text = read_text(p, encoding)
    text_lines = _lines(text)
    names, declared = _fields(text_lines)
    field_names = [n.lower() if n in _STANDARD else n for n in names]
    sentences, word_lines = [], []
    for line, block in _blocks(text_lines):
        sentences.append((line, _sentence(conllu, block, line, field_names, declared, p)))
        word_lines += [line + k for k, text_line in enumerate(block) if text_line.split("\t", 1)[0].isdigit()]
    if not sentences:
        raise FormatError("no sentence in this file", path=p)
    words = [[tok for tok in s if isinstance(tok["id"], int)] for _, s in sentences]
    source = _tag_source(p, column, names, words)
    tags = [_tag(tok, source) for ws in words for tok in ws]
    offsets = np.cumsum([0] + [len(ws) for ws in words])
    first = np.zeros(len(tags), dtype=bool)
    first[offsets[:-1][offsets[:-1] < offsets[1:]]] = True
    lines = np.asarray(word_lines, dtype=np.int64) if len(word_lines) == len(tags) else None
    chunks, types = tagging.decode_column(tags, first, scheme=scheme, repair=repair, suffix=suffix, path=p,
                                          lines=lines)
    anns = [tuple.__new__(Annotation, (types[t], a, b, EMPTY_ATTRIBUTES, None, None))
            for t, a, b in zip(chunks.type_id.tolist(), chunks.start.tolist(), chunks.end.tolist())]
    bounds = offsets.tolist()
    first_lines = [word_lines[bounds[k]] if lines is not None and bounds[k] < bounds[k + 1] else line
                   for k, (line, _) in enumerate(sentences)]
    return _documents(p, sentences, words, anns, bounds, first_lines)


def _tag_source(p: Path, column: str | int | None, names: list[str], words: list[list[Any]]) -> tuple[str, str]:
    """``("column", name)`` or ``("misc", key)``: where the tags are."""
    extra = [n for n in names if n not in _STANDARD]
    keys: dict[str, None] = {}
    for ws in words:
        for tok in ws:
            misc = tok.get("misc")
            if isinstance(misc, dict):
                keys.update(dict.fromkeys(misc))
    if column is not None:
        name = str(column)
        if name in extra:
            return ("column", name)
        if name in keys:
            return ("misc", name)
        raise OptionError(f"{p}: no column or MISC key {name!r} (extra columns: {', '.join(extra) or 'none'}; "
                          f"MISC keys: {', '.join(keys) or 'none'})")
    for candidate in TAG_COLUMNS:
        if candidate in extra:
            return ("column", candidate)
    for candidate in TAG_COLUMNS:
        if candidate in keys:
            return ("misc", candidate)
    raise OptionError(f"{p}: where are the entity tags? no column or MISC key {', '.join(TAG_COLUMNS)} (extra "
                      f"columns: {', '.join(extra) or 'none'}; MISC keys: {', '.join(keys) or 'none'}); name it with "
                      "--columns")


def _tag(tok: Any, source: tuple[str, str]) -> str:
    kind, name = source
    if kind == "column":
        value = tok.get(name)
        return "O" if value in (None, "_") else str(value)
    misc = tok.get("misc")
    value = misc.get(name) if isinstance(misc, dict) else None
    return "O" if value is None else str(value)


def _documents(p: Path, sentences: list[tuple[int, Any]], words: list[list[Any]], anns: list[Any],
               offsets: list[int], first_lines: list[int]) -> Corpus:
    docs: list[Document] = []
    starts = [k for k, (_, s) in enumerate(sentences) if k == 0 or any(key.startswith("newdoc")
                                                                       for key in s.metadata)]
    bounds = starts + [len(sentences)]
    a = 0
    seen: set[str] = set()
    for d, (lo, hi) in enumerate(zip(bounds, bounds[1:])):
        meta = sentences[lo][1].metadata
        doc_id = meta.get("newdoc id") or str(d + 1)
        if doc_id in seen:
            raise FormatError(f"document {doc_id!r} appears twice", path=p, line=sentences[lo][0])
        seen.add(doc_id)
        base, stop = offsets[lo], offsets[hi]
        doc_anns = []
        while a < len(anns) and anns[a].start < stop:
            doc_anns.append(anns[a]._replace(start=anns[a].start - base, end=anns[a].end - base))
            a += 1
        tokens = tuple(tok["form"] for ws in words[lo:hi] for tok in ws)
        extents = tuple((offsets[k] - base, offsets[k + 1] - base) for k in range(lo, hi))
        sentence_meta = tuple(dict(s.metadata) for _, s in sentences[lo:hi])
        docs.append(Document(doc_id, tuple(doc_anns), None, tokens, extents,
                             Attributes(source=str(p), sentences=sentence_meta,
                                        lines=tuple(first_lines[lo:hi]))))
    return Corpus(docs, name=str(p))


def write_conllu(corpus: Corpus, path: str | Path, *, scheme: str = "IOB2", misc_key: str = "NER",
                 **_ignored: Any) -> None:
    """Write the documents as CoNLL-U: FORM from the tokens, the tags as ``misc_key`` in MISC, other columns ``_``.

    Documents need tokens (spans are token offsets); overlapping spans cannot be tags and are an error.
    """
    from ...model import tagging

    out: list[str] = []
    for doc in corpus.documents:
        if doc.tokens is None:
            raise FormatError(f"document {doc.id!r} has no tokens; CoNLL-U holds words", path=path)
        check_spans_only(doc, path, "CoNLL-U (tags)")
        spans = cast("list[tuple[str, int, int]]", [(a.label, a.start, a.end) for a in doc.annotations])  # spanned
        try:
            tags = tagging.encode(spans, len(doc.tokens), scheme)
        except OptionError as exc:
            raise FormatError(f"document {doc.id!r}: {exc}", path=path) from None
        out.append(f"# newdoc id = {doc.id}")
        extents = doc.sentences or ((0, len(doc.tokens)),)
        for k, (lo, hi) in enumerate(extents):
            out.append(f"# sent_id = {doc.id}-{k + 1}")
            for i in range(lo, hi):
                form = str(doc.tokens[i]).replace("\t", " ").replace("\n", " ") or "_"
                out.append(f"{i - lo + 1}\t{form}\t_\t_\t_\t_\t_\t_\t_\t{misc_key}={tags[i]}")
            out.append("")
    Path(path).write_text("\n".join(out) + ("\n" if out else ""), encoding="utf-8")


register(Format(
    name="conllu",
    read=read_conllu,
    write=write_conllu,
    extensions=(".conllu",),
    description="CoNLL-U / CoNLL-U Plus: entity tags from a named column or a MISC key (through conllu)",
))
