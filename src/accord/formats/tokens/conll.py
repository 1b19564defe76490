"""CoNLL-style column files: one token per line, tag columns, blank-line sentences.

A line ``-DOCSTART-`` (first column) starts a new document; blank lines separate
sentences. Columns are separated by whitespace. Column 0 is the token; the tag column is
chosen with ``tag_column`` (0-based, negative counts from the end; default the last).
Tags are decoded into spans with :mod:`accord.model.tagging` under ``scheme`` and ``repair``.

Documents get the ids ``"1"``, ``"2"``, ... in file order, so the gold and the predicted
file of one corpus pair document by document. Spans are token offsets into the
document; ``Document.sentences`` holds the sentence extents and
``Document.metadata["lines"]`` the file line of each sentence's first token.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from itertools import repeat
from pathlib import Path
from typing import Any

import numpy as np

from ..._support.io import read_text
from ...errors import FormatError, OptionError, quoted
from ...model import EMPTY_ATTRIBUTES, Annotation, Attributes, Corpus, Document, tagging
from ...model._text_fields import TextFields, code_points
from .._registry import Format, file_head, register
from ._fields import Layout, PlainLayout, column_layout, first_plain_line
from ._tags import intern_fields

__all__ = ["read_conll", "write_conll", "parse_columns"]

DOCSTART = "-DOCSTART-"


class _Columns:
    """The raw content of a column file: tokens, one tag column, sentence and document starts."""

    __slots__ = ("tokens", "tags", "lines", "sentence_starts", "doc_starts", "path", "comments", "tag_codes", "ncols")

    def __init__(self, path: object):
        empty = np.zeros(0, dtype=np.int64)
        self.tokens: Sequence[str] = TextFields("", empty, empty)
        self.tags: Sequence[str] = TextFields("", empty, empty)
        self.tag_codes: tuple[list[str], np.ndarray] = ([], empty)
        """The distinct tags and the index of every tag among them (computed on the code points)."""
        self.lines: np.ndarray = empty
        self.sentence_starts: list[int] = []
        self.doc_starts: list[int] = []
        self.path = path
        self.comments: list[tuple[int, str]] = []   # (index of the next token, comment line)
        self.ncols: int | None = None                # fields of every token line (None without a token)


def parse_columns(text: str, *, tag_column: int = -1, path: object = None,
                  token_column: int = 0, line_offset: int = 0, facts: dict[str, Any] | None = None) -> _Columns:
    """Split a column file into tokens, tags and sentence and document boundaries.

    Works on whole arrays (:func:`._fields.column_layout`), not line by line with branches; tokens
    and tags stay offsets into ``text`` (:class:`~accord.model._text_fields.TextFields`). ``line_offset`` is the
    number of file lines before ``text`` (a shard of a file, :mod:`accord.parallel`): line numbers in
    errors and in ``lines`` are the file's. ``facts`` receives ``columns`` (see :func:`read_conll`) before
    any error about them, and ``undecided`` when ``#`` lines were read as comments for want of a plain line.
    """
    out = _Columns(path)
    early = first_plain_line(text, DOCSTART)
    if early is not None and early[1] < 2:   # the first token line's error, before the whole text is laid out
        if facts is not None:
            facts["columns"] = 1
        raise FormatError("expected a token and at least one tag column, found one column",
                          path=path, line=early[0] + 1 + line_offset)
    codes = code_points(text)
    f = column_layout(text, codes)
    nonblank = f.widths > 0
    docstart = np.zeros(f.nlines, dtype=bool)
    if DOCSTART in text:
        docstart[_lines_beginning_with(DOCSTART, f, codes, nonblank, text)] = True
    comment = np.zeros(f.nlines, dtype=bool)
    if "#" in text:
        candidates = np.flatnonzero(nonblank & ~docstart)
        hashed = candidates[codes[f.line_starts[candidates]] == ord("#")]
        if len(hashed):
            comment[_comment_lines(text, f, hashed, nonblank & ~docstart, docstart)] = True
            if facts is not None and len(hashed) == len(candidates):
                # every line is a '#' line: without a plain line to count the columns of, each is a comment here,
                # where the rest of the file might make one a token (a shard of a file, accord.parallel)
                facts["undecided"] = True
    token_lines = np.flatnonzero(nonblank & ~docstart & ~comment)
    if comment.any():
        out.comments = [(int(k), f.line_text(text, int(i))) for i, k in
                        zip(np.flatnonzero(comment), np.searchsorted(token_lines, np.flatnonzero(comment)))]
    if len(token_lines):
        first = int(token_lines[0])
        ncols = out.ncols = int(f.widths[first])
        if facts is not None:
            facts["columns"] = ncols
        if ncols < 2:
            raise FormatError("expected a token and at least one tag column, found one column",
                              path=path, line=first + 1 + line_offset)
        if not -ncols <= tag_column < ncols:
            raise FormatError(f"tag column {tag_column} does not exist: this line has {ncols} columns",
                              path=path, line=first + 1 + line_offset)
        bad = np.flatnonzero(f.widths[token_lines] != ncols)
        if len(bad):
            i = int(token_lines[bad[0]])
            raise FormatError(f"expected {ncols} columns as on the lines above, found {int(f.widths[i])}: "
                              f"{quoted(' '.join(f.line_fields(text, i)))}", path=path, line=i + 1 + line_offset)
        if isinstance(f, PlainLayout):
            token_field, tag_field = f.fields(token_lines, token_column % ncols, tag_column % ncols)
        else:
            token_field = f.field(token_lines, token_column % ncols)
            tag_field = f.field(token_lines, tag_column % ncols)
        out.tokens = TextFields(text, *token_field)
        out.tags = TextFields(text, *tag_field)
        del f, nonblank
        out.tag_codes = intern_fields(text, codes, out.tags.starts, out.tags.ends)
        last = token_lines[-1] + line_offset if len(token_lines) else 0
        out.lines = (token_lines + (1 + line_offset)).astype(np.int32 if last < 2**31 - 2 else np.int64)
        gap = np.empty(len(token_lines), dtype=bool)
        gap[0] = True
        gap[1:] = np.diff(token_lines) > 1
        out.sentence_starts = np.flatnonzero(gap).tolist()
    out.doc_starts = np.searchsorted(token_lines, np.flatnonzero(docstart)).tolist()
    if not out.doc_starts or out.doc_starts[0] != 0:
        out.doc_starts.insert(0, 0)
    return out


def _lines_beginning_with(word: str, f: Layout | PlainLayout, codes: np.ndarray, candidate: np.ndarray,
                          text: str | None = None) -> np.ndarray:
    """The candidate lines whose first field is ``word``.

    With ``text``, and ``word`` occurring in it less often than once in eight lines (``-DOCSTART-`` in a corpus of
    documents), its occurrences are found by a byte search and only they are looked at: the field starting there must
    end after ``word`` and be the first of a candidate line. Otherwise the first field of every candidate line is
    compared, a character at a time.
    """
    if text is not None and text.count(word) * 8 < len(candidate):
        return _lines_found(word, f, candidate, text)
    lines = np.flatnonzero(candidate)
    starts, ends = f.field(lines, 0)
    keep = ends - starts == len(word)
    for k, ch in enumerate(word):
        keep[keep] = codes[starts[keep] + k] == ord(ch)
    return lines[keep]


def _lines_found(word: str, f: Layout | PlainLayout, candidate: np.ndarray, text: str) -> np.ndarray:
    """:func:`_lines_beginning_with` by a search of ``text`` for ``word``."""
    found, at = [], text.find(word)
    while at != -1:
        found.append(at)
        at = text.find(word, at + 1)
    where = np.asarray(found, dtype=np.int64)
    line = np.searchsorted(f.line_starts, where, side="right") - 1   # (the first line starts at 0)
    keep = candidate[line]
    line, where = line[keep], where[keep]
    starts, ends = f.field(line, 0)
    return line[(starts == where) & (ends - where == len(word))]


_TAG_PREFIXES = frozenset("BIESLUM")


def _tag_like(tag: str) -> bool:
    """Whether a field reads as a BIO-family tag (``O``, ``B``, ``B-X``...)."""
    return tag == "O" or (len(tag) == 1 and tag in _TAG_PREFIXES) or (
        len(tag) > 2 and tag[1] == "-" and tag[0] in _TAG_PREFIXES)


def _comment_lines(text: str, f: Layout | PlainLayout, hashed_lines: np.ndarray, candidate: np.ndarray,
                   docstart: np.ndarray) -> np.ndarray:
    """Lines that are comments: they begin with ``#``, stand before the first token of a
    sentence (after a blank line, a ``-DOCSTART-`` line, another comment or the start of the
    file), and are not token lines (a different number of fields, or a last field that is no
    tag). So ``# sent_id = 3`` and MultiCoNER's ``# id … domain=en`` are comments, while a
    token ``#`` or ``#hashtag`` tagged ``O`` at the start of a sentence stays a token.
    ``hashed_lines`` are the candidate lines that begin with ``#``."""
    widths = f.widths
    hashed = hashed_lines.tolist()
    others = np.flatnonzero(candidate)
    plain = others[~np.isin(others, hashed_lines)]
    ncols = int(widths[plain[0]]) if len(plain) else None
    out = []
    taken: set[int] = set()
    for i in hashed:
        header = i == 0 or widths[i - 1] == 0 or docstart[i - 1] or (i - 1) in taken
        fields = f.line_fields(text, i)
        token_like = ncols is not None and len(fields) == ncols and _tag_like(fields[-1])
        if header and not token_like:
            out.append(i)
            taken.add(i)
    return np.asarray(out, dtype=np.int64)


def read_conll(path: str | Path, *, tag_column: int = -1, scheme: str = "IOB2",
               repair: str = "conlleval", encoding: str | None = None, text: str | None = None,
               column: int | str | None = None, columns: Any = None, suffix: bool = False,
               line_offset: int = 0, first_document: int = 1, facts: dict[str, Any] | None = None,
               **_ignored: Any) -> Corpus:
    """Read a CoNLL-style column file.

    Parameters
    ----------
    path : path
        The file (``text`` may give its content instead, ``path`` then names it).
    tag_column : int
        Index of the tag column (0 is the token); default the last column.
    scheme : str
        Tag scheme, see :mod:`accord.model.tagging`.
    repair : {"conlleval", "discard", "error"}
        How invalid tag sequences are read.
    suffix : bool
        The scheme's letter ends the tag (``PER-B``), as seqeval's ``suffix=True``.
    column : int or str, optional
        Overrides ``tag_column`` (same numbering): how ``--gold-column`` and
        ``--pred-column`` pick two tag columns of one file.
    columns : sequence of one int or str, optional
        The same, as the ``--columns`` option gives it (``column`` wins).
    line_offset, first_document : int
        For ``text`` that is a shard of the file (:mod:`accord.parallel`): the file lines before it, and
        the number of its first document (documents are numbered in file order).
    facts : dict, optional
        Receives ``columns``, the number of fields of the token lines (``None`` without a token): the shards of
        one file must agree on it, as the lines of one file must; and ``undecided`` (see :func:`parse_columns`).

    Returns
    -------
    Corpus
    """
    p = Path(path)
    if column is None and columns:
        if isinstance(columns, (str, int)):
            columns = [columns]
        if len(columns) != 1:
            raise OptionError(f"{p}: choose one tag column, not {len(columns)}")
        column = columns[0]
    if column is not None:
        try:
            tag_column = int(column)
        except ValueError:
            raise OptionError(f"{p}: columns of CoNLL files are chosen by number (0 is the token, -1 the last), "
                              f"not by name ({column!r})") from None
    if text is None:
        text = read_text(p, encoding)
    cols = parse_columns(text, tag_column=tag_column, path=p, line_offset=line_offset, facts=facts)
    return build_corpus(cols, scheme=scheme, repair=repair, name=str(p), suffix=suffix,
                        first_document=first_document)


def build_corpus(cols: _Columns, *, scheme: str, repair: str, name: str, suffix: bool = False,
                 first_document: int = 1) -> Corpus:
    """Decode the tags of parsed columns into documents with span annotations."""
    n = len(cols.tokens)
    sent_starts = np.asarray(cols.sentence_starts, dtype=np.int64)
    first = np.zeros(n, dtype=bool)
    first[sent_starts[sent_starts < n]] = True
    chunks, labels = tagging.decode_column(cols.tags, first, scheme=scheme, repair=repair, path=cols.path,
                                           lines=cols.lines, factorized=cols.tag_codes, suffix=suffix)

    doc_starts = np.asarray(cols.doc_starts, dtype=np.int64)
    doc_ends = np.append(doc_starts[1:], n)
    chunk_doc = np.searchsorted(doc_starts, chunks.start, side="right") - 1
    sent_doc = np.searchsorted(doc_starts, sent_starts, side="right") - 1
    # a chunk belongs to the last document that starts at or before it; empty documents
    # (two -DOCSTART- in a row) have equal starts, so searchsorted picks the later one
    # every document's annotations, sentences and line numbers made for the corpus at once, then sliced per
    # document: a corpus of many small documents pays no Python call per annotation or sentence
    chunk_base = doc_starts[chunk_doc] if len(chunk_doc) else np.zeros(0, dtype=np.int64)
    # tuple.__new__ called from map: the annotations are made without a Python call each
    all_anns = tuple(map(tuple.__new__, repeat(Annotation), zip(map(labels.__getitem__, chunks.type_id.tolist()),
                                                                 (chunks.start - chunk_base).tolist(),
                                                                 (chunks.end - chunk_base).tolist(),
                                                                 repeat(EMPTY_ATTRIBUTES), repeat(None), repeat(None))))
    chunk_bounds = np.searchsorted(chunk_doc, np.arange(len(doc_starts) + 1), side="left").tolist()
    sent_bounds = np.searchsorted(sent_doc, np.arange(len(doc_starts) + 1), side="left").tolist()
    sent_base = doc_starts[sent_doc] if len(sent_doc) else np.zeros(0, dtype=np.int64)
    sent_end = np.append(sent_starts[1:], n) if len(sent_starts) else sent_starts
    sent_end = np.minimum(sent_end, doc_ends[sent_doc]) if len(sent_doc) else sent_end   # a document's last ends it
    all_sentences = tuple(zip((sent_starts - sent_base).tolist(), (sent_end - sent_base).tolist()))
    first_lines = tuple(cols.lines[np.asarray(cols.sentence_starts, dtype=np.int64)].tolist())
    comment_at = [k for k, _ in cols.comments]    # in file order
    begins, stops = doc_starts.tolist(), doc_ends.tolist()
    tokens = cols.tokens.split(begins, stops) if isinstance(cols.tokens, TextFields) else \
        [cols.tokens[b:e] for b, e in zip(begins, stops)]
    docs = []
    for d, (base, stop) in enumerate(zip(begins, stops)):
        s_lo, s_hi = sent_bounds[d], sent_bounds[d + 1]
        meta = Attributes(lines=first_lines[s_lo:s_hi], source=name)
        if comment_at:   # the document's comments found by bisection (a scan per document was quadratic)
            last = d == len(doc_starts) - 1 and stop == n
            c_lo = bisect_left(comment_at, base)
            c_hi = bisect_right(comment_at, stop) if last else bisect_left(comment_at, stop)
            meta = Attributes(meta, comments=tuple((k - base, c) for k, c in cols.comments[c_lo:c_hi]))
        docs.append(Document(str(d + first_document), all_anns[chunk_bounds[d]:chunk_bounds[d + 1]], None,
                             tokens[d], all_sentences[s_lo:s_hi], meta))
    return Corpus(docs, name=name)


def write_conll(corpus: Corpus, path: str | Path, *, scheme: str = "IOB2", docstart: bool | None = None,
                **_ignored: Any) -> None:
    """Write a corpus of token-unit documents as a two-column file (token, tag)."""
    out: list[str] = []
    docstart = len(corpus) > 1 if docstart is None else docstart
    for doc in corpus.values():
        if doc.tokens is None:
            raise OptionError(f"document {doc.id!r} has no tokens; the conll writer needs tokenized documents")
        spans: list[tuple[str, int, int]] = []
        for a in doc.annotations:
            if a.start is None:
                continue
            assert a.end is not None  # make_annotation: a start comes with an end
            spans.append((a.label, a.start, a.end))
        tags = tagging.encode(spans, len(doc.tokens), scheme)
        if docstart:
            out.append(f"{DOCSTART} O")
            out.append("")
        sentences = doc.sentences or ((0, len(doc.tokens)),)
        for first, stop in sentences:
            for i in range(first, stop):
                out.append(f"{doc.tokens[i]} {tags[i]}")
            out.append("")
    Path(path).write_text("\n".join(out) + ("\n" if out else ""), encoding="utf-8")


def _sniff(path: Path) -> bool:
    head = file_head(path)
    if head is None or head.lstrip().startswith(("{", "[", "<")):
        return False
    rows = [line.split() for line in head.splitlines() if line.strip()][:20]
    return bool(rows) and all(len(r) >= 2 for r in rows) and len({len(r) for r in rows if r[0] != DOCSTART}) <= 1


register(Format(
    name="conll",
    read=read_conll,
    write=write_conll,
    extensions=(".conll", ".conll03", ".bio", ".iob", ".iob2", ".bioes", ".tsv", ".txt", ".col"),
    sniff=_sniff,
    description="token-per-line column files with BIO-family tags, -DOCSTART- documents",
))
