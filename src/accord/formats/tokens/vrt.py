"""VRT, the vertical text of the IMS Open Corpus Workbench (CWB).

One token per line, its *positional attributes* separated by tabs; XML *structural*
tags on lines of their own::

    <!-- #vrt positional-attributes: word id ner -->
    <text id="t1" domain="civil">
    <s id="s1">
    Anna	w1	B-PER
    Schmidt	w2	I-PER
    klagt	w3	O
    </s>
    </text>

How it is read:

- every ``<text>`` element is a document; its attributes become the document's metadata
  (the ``id`` attribute is its id, else ``1``, ``2``, ... in file order). A file without
  ``<text>`` elements is one document, ``1``;
- every ``<s>`` element is a sentence (BIO chunks never cross one); its attributes are
  kept in ``metadata["sentence_attributes"]``. A document without ``<s>`` is one sentence;
- any other element (``<p>``, ``<chapter>``...) is kept with its token extent and
  attributes in ``metadata["structures"]``; elements must nest properly;
- corpus positions count tokens only, from 0 over the whole file
  (``metadata["cpos"]`` is the corpus position of the document's first token);
- the positional attributes are named by the comment above (the Kielipankki convention)
  or by the ``positional_attributes`` option; a column is chosen by name or by its
  1-based number. ``word_column`` gives the token text (default the first column),
  ``token_id_column`` a column of token ids, kept in ``metadata["token_ids"]`` and
  compared between gold and prediction when both have them;
- each chosen BIO column gives one sequence of spans, decoded under the scheme and repair
  options of the CoNLL reader (:mod:`accord.model.tagging`).

The writer produces the same layout: a positional-attributes comment, ``<text>`` with the
document's metadata attributes, ``<s>`` per sentence, and one BIO column per layer.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr, unescape

import numpy as np

from ..._support.io import read_text
from ...errors import FormatError, OptionError, quoted
from ...model import EMPTY_ATTRIBUTES, Annotation, Attributes, Corpus, Document, tagging
from .._registry import Format, file_head, register

__all__ = ["read_vrt", "read_vrt_layers", "vrt_documents", "write_vrt", "parse_vrt", "rewrite_columns", "VrtFile",
           "INTERNAL_METADATA"]

_ENTITIES = {"&quot;": '"', "&apos;": "'"}
_TAG = re.compile(r"<(/?)([A-Za-z_][\w.\-]*)((?:\s+[^\s=/>]+\s*=\s*(?:\"[^\"]*\"|'[^']*'))*)\s*(/?)>\s*$")
_ATTR = re.compile(r"([^\s=/>]+)\s*=\s*(?:\"([^\"]*)\"|'([^']*)')")
_PATTRS = re.compile(r"#\s*vrt\s+positional-attributes\s*:\s*(.*?)\s*(?:-->|$)")

INTERNAL_METADATA = ("lines", "source", "cpos", "token_ids", "sentence_attributes", "structures",
                     "text_attributes")
"""Metadata keys the VRT reader sets besides the ``<text>`` element's attributes."""


@dataclass
class VrtFile:
    """The parsed content of a VRT file, before any column is decoded.

    ``rows[i]`` holds the fields of token ``i`` (corpus position ``i``), ``lines[i]`` its
    1-based line number. Extents are half-open corpus positions; sentences and other
    structures end with the index of the ``<text>`` element they are in (0 when the file
    has none, -1 for an element outside every ``<text>``, such as a ``<corpus>`` around them).
    """

    path: object
    names: list[str] | None
    rows: list[list[str]]
    lines: np.ndarray
    texts: list[tuple[dict[str, str], int, int, int]] = field(default_factory=list)
    sentences: list[tuple[dict[str, str], int, int, int]] = field(default_factory=list)
    structures: list[tuple[str, dict[str, str], int, int, int]] = field(default_factory=list)

    @property
    def ncols(self) -> int:
        """Number of positional attributes (fields per token line)."""
        return len(self.rows[0]) if self.rows else len(self.names or ())

    def column(self, spec: int | str) -> int:
        """The 0-based index of a column given by name or 1-based number (an int or digits; a negative
        number counts from the end, -1 being the last column)."""
        if isinstance(spec, str) and spec.strip().lstrip("-").isdigit():
            spec = int(spec)
        if isinstance(spec, int):
            width = self.ncols
            if not (1 <= spec <= width or -width <= spec <= -1):
                raise OptionError(f"{self.path}: column {spec} does not exist; the tokens have {width} columns "
                                  "(columns are numbered from 1, or from -1 at the end)")
            return spec - 1 if spec > 0 else width + spec
        if not self.names:
            raise OptionError(f"{self.path}: no positional-attribute names to find column {spec!r} by: add a "
                              "'<!-- #vrt positional-attributes: word ... -->' comment, give the names with "
                              "--positional-attributes, or choose columns by number")
        try:
            return self.names.index(spec)
        except ValueError:
            raise OptionError(f"{self.path}: no column named {spec!r}; the positional attributes are "
                              f"{', '.join(self.names)}") from None

    def values(self, k: int) -> list[str]:
        """All tokens' values of column ``k``."""
        return [row[k] for row in self.rows]


def _attributes(text: str, path: object, line: int) -> dict[str, str]:
    out: dict[str, str] = {}
    for m in _ATTR.finditer(text):
        name = m.group(1)
        if name in out:
            raise FormatError(f"attribute {name!r} appears twice in this tag", path=path, line=line)
        value = m.group(2) if m.group(2) is not None else m.group(3)
        out[name] = unescape(value, _ENTITIES) if "&" in value else value
    return out


def parse_vrt(text: str, *, path: object = None, positional_attributes: Sequence[str] | None = None) -> VrtFile:
    """Split a VRT text into tokens, their fields and the structural elements.

    Raises
    ------
    FormatError
        A malformed or badly nested tag, a token line with another number of fields than
        the first, or names that do not fit the columns; each names the file and line.
    """
    raw = text.split("\n")
    if raw and raw[-1] == "":
        raw.pop()
    names = list(positional_attributes) if positional_attributes else None
    rows: list[list[str]] = []
    lines: list[int] = []
    out = VrtFile(path, names, rows, np.zeros(0, dtype=np.int64))
    stack: list[tuple[str, dict[str, str], int, int]] = []  # name, attributes, start, line
    width = -1
    text_index = -1  # the last <text> element opened
    in_text = False
    for number, line in enumerate(raw, 1):
        if line.endswith("\r"):
            line = line[:-1]
        if not line.startswith("<"):
            if not line.strip():
                continue
            fields = line.split("\t")
            if len(fields) != width:
                if width >= 0:
                    raise FormatError(f"expected {width} tab-separated fields as on the token lines above, found "
                                      f"{len(fields)}: {quoted(line)}", path=path, line=number)
                width = len(fields)
            rows.append(fields)
            lines.append(number)
            continue
        if line.startswith("<!--"):
            m = _PATTRS.search(line)
            if m and names is None:
                names = m.group(1).split()
            continue
        if line.startswith("<?"):
            continue
        m = _TAG.match(line)
        if m is None:
            raise FormatError(f"expected a token line or one XML tag, found {quoted(line)}", path=path, line=number)
        closing, name, attrs, empty = m.group(1), m.group(2), m.group(3), m.group(4)
        here = len(rows)
        if closing:
            if attrs.strip() or empty:
                raise FormatError(f"a closing tag takes no attributes: {quoted(line)}", path=path, line=number)
            if not stack or stack[-1][0] != name:
                expected = f"</{stack[-1][0]}> (opened on line {stack[-1][3]})" if stack else "no closing tag"
                raise FormatError(f"</{name}> does not close the open element; expected {expected}",
                                  path=path, line=number)
            _, values, start, opened = stack.pop()
            # an element around texts (a <corpus>) or between them belongs to no document
            _close(out, name, values, start, here, opened, text_index if in_text or name == "text" else -1)
            if name == "text":
                in_text = False
            continue
        values = _attributes(attrs, path, number)
        if name == "text":
            if any(s[0] == "text" for s in stack):
                raise FormatError("<text> inside another <text>", path=path, line=number)
            text_index += 1
            in_text = not empty
        if empty:
            _close(out, name, values, here, here, number, text_index if in_text or name == "text" else -1)
        else:
            stack.append((name, values, here, number))
    if stack:
        name, _, _, opened = stack[-1]
        raise FormatError(f"<{name}> opened on line {opened} is never closed", path=path)
    if names is not None and rows and len(names) != width:
        raise FormatError(f"{len(names)} positional attributes are named ({' '.join(names)}) but the token lines "
                          f"have {width} fields", path=path, line=lines[0])
    out.names = names
    out.lines = np.asarray(lines, dtype=np.int64)
    _check_texts(out, path)
    return out


def _close(out: VrtFile, name: str, values: dict[str, str], start: int, end: int, line: int,
           text_index: int) -> None:
    if name == "text":
        out.texts.append((values, start, end, line))
    elif name == "s":
        out.sentences.append((values, start, end, text_index))
    else:
        out.structures.append((name, values, start, end, text_index))


def _check_texts(out: VrtFile, path: object) -> None:
    n = len(out.rows)
    if not out.texts:
        # no <text>: the whole file is one document, and every element belongs to it
        out.texts.append(({}, 0, n, 1))
        out.sentences = [(a, s, e, 0) for a, s, e, _ in out.sentences]
        out.structures = [(m, a, s, e, 0) for m, a, s, e, _ in out.structures]
        return
    covered = sum(end - start for _, start, end, _ in out.texts)
    if covered != n:
        inside = np.zeros(n, dtype=bool)
        for _, start, end, _ in out.texts:
            inside[start:end] = True
        i = int(np.flatnonzero(~inside)[0])
        raise FormatError("a token outside every <text> element (the file has <text> elements, so each token "
                          "must be inside one)", path=path, line=int(out.lines[i]))
    for (_, a, b, _), (_, c, d, _) in zip(out.sentences, out.sentences[1:]):
        if c < b:
            raise FormatError(f"<s> elements overlap or nest (corpus positions {a}-{b} and {c}-{d})", path=path)


def _sentence_first(vrt: VrtFile) -> np.ndarray:
    """True at the first token of each document and sentence, and after each sentence."""
    n = len(vrt.rows)
    first = np.zeros(n + 1, dtype=bool)
    first[[t[1] for t in vrt.texts]] = True
    first[[s[1] for s in vrt.sentences]] = True
    first[[s[2] for s in vrt.sentences]] = True
    return first[:n]


def read_vrt_layers(path: str | Path, columns: Sequence[int | str] | None = None, *,
                    positional_attributes: Sequence[str] | None = None, word_column: int | str = 1,
                    token_id_column: int | str | None = None, scheme: str = "IOB2", repair: str = "conlleval",
                    text: str | None = None, vrt: VrtFile | None = None, suffix: bool = False) -> dict[str, Corpus]:
    """Read a VRT file into one corpus per BIO column.

    Parameters
    ----------
    path : path
        The file (``text`` may give its content, or ``vrt`` its parsed form).
    columns : sequence of str or int
        BIO columns by name or 1-based number (negative: from the end); default the last column.
    positional_attributes : sequence of str, optional
        Names of the columns when the file has no positional-attributes comment.
    word_column, token_id_column : str or int
        The token text (default the first column) and, optionally, token ids.
    scheme, repair : str
        How the tags are decoded (see :mod:`accord.model.tagging`).
    suffix : bool
        The scheme's letter ends the tag (``PER-B``).

    Returns
    -------
    dict
        Column name (or its number as a string, when the columns have no names) to corpus.
    """
    p = Path(path)
    if vrt is None:
        vrt = parse_vrt(read_text(p) if text is None else text, path=p, positional_attributes=positional_attributes)
    if not columns:
        columns = [-1] if vrt.ncols else []
    word, words, token_ids = _words_and_ids(vrt, word_column, token_id_column)
    first = _sentence_first(vrt)
    out: dict[str, Corpus] = {}
    for spec in columns:
        k = vrt.column(spec)
        if k == word:
            raise OptionError(f"{p}: column {spec!r} is the word column, not a BIO column")
        name = vrt.names[k] if vrt.names else str(k + 1)
        chunks, labels = tagging.decode_column(vrt.values(k), first, scheme=scheme, repair=repair, path=vrt.path,
                                               lines=vrt.lines, suffix=suffix)
        out[name] = _documents(vrt, chunks, labels, words, token_ids, str(p))
    return out


def _words_and_ids(vrt: VrtFile, word_column: int | str, token_id_column: int | str | None
                   ) -> tuple[int, list[str], list[str] | None]:
    """The word column's index, the words (XML entities decoded) and the token ids, if asked for."""
    word = vrt.column(word_column)
    words = [unescape(w, _ENTITIES) if "&" in w else w for w in vrt.values(word)] if vrt.rows else []
    token_ids = vrt.values(vrt.column(token_id_column)) if token_id_column is not None else None
    return word, words, token_ids


def vrt_documents(path: str | Path, *, positional_attributes: Sequence[str] | None = None,
                  word_column: int | str = 1, token_id_column: int | str | None = None) -> Corpus:
    """The documents, tokens, sentences and metadata of a VRT file, without any spans."""
    p = Path(path)
    vrt = parse_vrt(read_text(p), path=p, positional_attributes=positional_attributes)
    _, words, token_ids = _words_and_ids(vrt, word_column, token_id_column)
    empty = np.zeros(0, dtype=np.int64)
    return _documents(vrt, tagging.Chunks(empty, empty, np.zeros(0, dtype=np.int32)), [], words, token_ids,
                      str(p))


def _documents(vrt: VrtFile, chunks: tagging.Chunks, labels: list[str], words: list[str],
               token_ids: list[str] | None, name: str) -> Corpus:
    doc_starts = np.asarray([t[1] for t in vrt.texts], dtype=np.int64)
    starts = chunks.start
    chunk_bounds = np.searchsorted(starts, np.append(doc_starts, len(vrt.rows) + 1)).tolist()
    ann_start, ann_end, ann_type = chunks.start.tolist(), chunks.end.tolist(), chunks.type_id.tolist()
    sentences_of: list[list[tuple[dict[str, str], int, int]]] = [[] for _ in vrt.texts]
    for attrs, a, b, t in vrt.sentences:
        if t >= 0:
            sentences_of[t].append((attrs, a, b))
    structures_of: list[list[tuple[str, Attributes, int, int]]] = [[] for _ in vrt.texts]
    for name_, attrs, a, b, t in vrt.structures:
        if t >= 0:
            structures_of[t].append((name_, Attributes(attrs), a - vrt.texts[t][1], b - vrt.texts[t][1]))
    docs = []
    for d, (attrs, base, stop, _) in enumerate(vrt.texts):
        lo, hi = chunk_bounds[d], chunk_bounds[d + 1]
        anns = tuple(Annotation(labels[ann_type[i]], ann_start[i] - base, ann_end[i] - base, EMPTY_ATTRIBUTES, None)
                     for i in range(lo, hi))
        doc_sent = _fill_gaps(sentences_of[d], base, stop)
        sentences = tuple((a - base, b - base) for _, a, b in doc_sent)
        sentence_attrs = tuple(a for a, _, _ in doc_sent)
        lines = tuple(int(vrt.lines[min(a + base, len(vrt.lines) - 1)]) if len(vrt.lines) else 0
                      for a, _ in sentences)
        structures = tuple(structures_of[d])
        meta: dict[str, Any] = dict(attrs)
        meta.update(lines=lines, source=name, cpos=base, text_attributes=tuple(attrs),
                    sentence_attributes=tuple(Attributes(a) for a in sentence_attrs), structures=structures)
        if token_ids is not None:
            meta["token_ids"] = tuple(token_ids[base:stop])
        doc_id = attrs.get("id", str(d + 1))
        docs.append(Document(doc_id, anns, None, tuple(words[base:stop]), sentences, Attributes(meta)))
    return Corpus(docs, name=name)


def _fill_gaps(sentences: list[tuple[dict[str, str], int, int]], base: int, stop: int
               ) -> list[tuple[dict[str, str], int, int]]:
    """The document's sentences, with tokens outside every ``<s>`` as sentences of their own."""
    out: list[tuple[dict[str, str], int, int]] = []
    at = base
    for attrs, a, b in sentences:
        if a > at:
            out.append(({}, at, a))
        out.append((attrs, a, b))
        at = max(at, b)
    if at < stop or not out:
        out.append(({}, at, stop))
    return out


def read_vrt(path: str | Path, *, columns: Sequence[int | str] | int | str | None = None,
             column: int | str | None = None, tag_column: int | None = None, **options: Any) -> Corpus:
    """Read one BIO column of a VRT file (see the module docstring and :func:`read_vrt_layers`).

    ``column`` (or a one-element ``columns``) names the column; without it the last column
    is read (``tag_column``, 0-based as for CoNLL files, also chooses one).
    """
    if column is not None:
        columns = [column]
    elif isinstance(columns, (str, int)):
        columns = [columns]
    elif not columns and tag_column is not None and tag_column != -1:
        columns = [tag_column + 1 if tag_column >= 0 else tag_column]
    if columns and len(columns) > 1:
        raise OptionError(f"{path}: choose one BIO column to score, not {len(columns)} "
                          f"({', '.join(map(str, columns))}); combine several with 'accord merge' first")
    options = {k: v for k, v in options.items() if k in _LAYER_OPTIONS}
    layers = read_vrt_layers(path, columns, **options)
    return next(iter(layers.values()))


_LAYER_OPTIONS = ("positional_attributes", "word_column", "token_id_column", "scheme", "repair", "text", "vrt",
                  "suffix")


def write_vrt(corpus: Corpus | Mapping[str, Corpus], path: str | Path, *, scheme: str = "IOB2",
              column: str = "ner", token_ids: bool | None = None, **_ignored: Any) -> None:
    """Write token documents as VRT: word, token ids (when known) and one BIO column per layer.

    Parameters
    ----------
    corpus : Corpus or mapping of name to Corpus
        One corpus (its column is named ``column``) or several layers over the same
        documents and tokens, each written as a column of that name.
    token_ids : bool, optional
        Write an ``id`` column: the documents' ``token_ids`` metadata when present, else
        ``<document>:<n>`` (default: only when the metadata has them).
    """
    layers = dict(corpus) if not isinstance(corpus, Corpus) else {column: corpus}
    if not layers:
        raise OptionError("nothing to write: no layers")
    first = next(iter(layers.values()))
    for name, layer in layers.items():
        if list(layer) != list(first):
            raise OptionError(f"layer {name!r} does not hold the same documents as the first layer")
    if token_ids is None:
        token_ids = all("token_ids" in (doc.metadata or {}) for doc in first.values()) and len(first) > 0
    names = ["word"] + (["id"] if token_ids else []) + list(layers)
    out = [f"<!-- #vrt positional-attributes: {' '.join(names)} -->"]
    for doc_id, doc in first.items():
        if doc.tokens is None:
            raise OptionError(f"document {doc_id!r} has no tokens; VRT needs tokenized documents")
        n = len(doc.tokens)
        columns = []
        for name, layer in layers.items():
            other = layer[doc_id]
            if other.tokens is not None and len(other.tokens) != n:
                raise OptionError(f"layer {name!r}, document {doc_id!r}: {len(other.tokens)} tokens, not {n}")
            spans = [(a.label, a.start, a.end) for a in other.annotations if a.start is not None and a.end is not None]
            columns.append(tagging.encode(spans, n, scheme))
        meta = doc.metadata or {}
        ids = meta.get("token_ids") if token_ids else None
        if token_ids and ids is None:
            ids = [f"{doc_id}:{i + 1}" for i in range(n)]
        attrs = {"id": doc_id}
        for key in meta.get("text_attributes", ()):
            if key != "id":
                attrs[key] = str(meta[key])
        out.append("<text " + " ".join(f"{k}={quoteattr(v)}" for k, v in attrs.items()) + ">")
        sentence_attrs = meta.get("sentence_attributes") or ()
        sentences = doc.sentences or ((0, n),)
        for j, (a, b) in enumerate(sentences):
            sattrs = sentence_attrs[j] if j < len(sentence_attrs) else {}
            out.append("<s" + "".join(f" {k}={quoteattr(str(v))}" for k, v in sattrs.items()) + ">")
            for i in range(a, b):
                row = [escape(doc.tokens[i])]
                if ids is not None:   # set exactly when token_ids
                    row.append(str(ids[i]))
                row.extend(col[i] for col in columns)
                out.append("\t".join(row))
            out.append("</s>")
        out.append("</text>")
    Path(path).write_text("\n".join(out) + "\n", encoding="utf-8")


def rewrite_columns(text: str, columns: Mapping[int, Sequence[str]], *, path: object = None) -> str:
    """The VRT text with the values of some columns replaced, every other line kept as it is.

    ``columns`` maps a 0-based column index to one value per token (in file order); the
    tag and comment lines, the other columns and the line layout are unchanged.
    """
    raw = text.split("\n")
    out = []
    i = 0
    for line in raw:
        body = line[:-1] if line.endswith("\r") else line
        if body.startswith("<") or not body.strip():
            out.append(line)
            continue
        fields = body.split("\t")
        for k, values in columns.items():
            if i >= len(values):
                raise FormatError("more tokens than values to write", path=path)
            fields[k] = values[i]
        out.append("\t".join(fields) + ("\r" if line.endswith("\r") else ""))
        i += 1
    for values in columns.values():
        if len(values) != i:
            raise FormatError(f"{len(values)} values for {i} tokens", path=path)
    return "\n".join(out)


def _sniff(path: Path) -> bool:
    head = file_head(path)
    if head is None:
        return False
    return "#vrt positional-attributes" in head or bool(re.search(r"^<(text|s)[\s>]", head, re.M))


register(Format(
    name="vrt",
    read=read_vrt,
    write=write_vrt,
    extensions=(".vrt",),
    sniff=_sniff,
    description="CWB vertical text: tab-separated positional attributes, <text> and <s> structures",
))
