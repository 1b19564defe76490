"""Converting a corpus for a format that counts in another unit (``accord convert``).

Column formats (CoNLL, CoNLL-U, VRT) hold tokens and their spans count tokens; text formats (brat, MAT JSON,
GATE XML, Label Studio, doccano, UIMA XMI) hold a text and their spans count characters. :func:`for_format` makes a
corpus fit the format it is written to:

* to tokens, from a text: the text's whitespace-separated words are the tokens (or, for a token side placed on a
  text by :mod:`accord.pipeline._offset_units`, its own tokens), each non-blank line a sentence (or the document's
  sentences when it has them); a span must begin and end on word boundaries;
* to a text, from tokens: the tokens joined by one space, sentences by a new line; spans are the characters
  of their tokens.

What the target cannot hold is an :class:`~accord.errors.FormatError` naming the document and annotation,
never a silent drop: spanless annotations (relations), attributes and overlapping spans for the column
formats (tags); an annotation a format's writer cannot carry is refused by that writer.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from typing import Any

from ..errors import FormatError
from ..model import TOKEN_OFFSETS, Attributes, Corpus, Document

__all__ = ["for_format", "on_gold", "repoint", "TOKEN_FORMATS", "TEXT_FORMATS"]

TOKEN_FORMATS = ("conll", "conllu", "vrt")
"""Formats whose spans count tokens (and hold them as tags: no relation, attribute or overlap)."""
TEXT_FORMATS = ("brat", "mat-json", "gate", "label-studio", "doccano", "xmi")
"""Formats whose spans count characters of a text."""

_WORD = re.compile(r"\S+")


def for_format(corpus: Corpus, format: str) -> Corpus:
    """``corpus`` in the unit ``format`` counts in (see the module docstring); other formats take it as it is."""
    if format in TOKEN_FORMATS:
        return Corpus([_as_tags(_to_tokens(d), format) for d in corpus.documents], name=corpus.name)
    if format in TEXT_FORMATS:
        return Corpus([_to_text(d) for d in corpus.documents], name=corpus.name)
    return corpus


def on_gold(aligned: Corpus, gold: Corpus) -> tuple[Corpus, int, list[str]]:
    """Aligned generated records (:func:`accord.pipeline._align.align_records`) on their gold documents' text (or
    tokens) and sentences, to be written with offsets (``accord convert PRED --gold GOLD``).

    A prediction that was not aligned stands past the end of its document: it is left out, with the events whose
    trigger it is and the arguments that point to it. Returns the corpus, the number of annotations left out and
    the ids of the predicted documents that have no gold document (left out too)."""
    docs, dropped, missing = [], 0, []
    for doc in aligned.documents:
        g = gold.get(doc.id)
        if g is None:
            missing.append(doc.id)
            continue
        length = len(g.text) if g.text is not None else len(g.tokens or ())
        mapping: dict[int, Any] = {id(a): None for a in doc.annotations
                                   if a.start is not None and a.end is not None and a.end > length}
        mapping.update({id(a): None for a in doc.annotations if a.start is None and id(a.get("trigger")) in mapping})
        dropped += len(mapping)
        kept = [a for a in repoint(list(doc.annotations), mapping) if a is not None]
        docs.append(Document(doc.id, tuple(kept), g.text, g.tokens, g.sentences))
    return Corpus(docs, name=aligned.name), dropped, missing


def _to_tokens(doc: Document) -> Document:
    if doc.text is None:
        if doc.tokens is None:
            raise FormatError(f"document {doc.id!r} has neither text nor tokens", path=None)
        return doc
    placed = (doc.metadata or {}).get(TOKEN_OFFSETS)
    if placed is not None:      # tokens placed on this text (accord.pipeline._offset_units): they are its words
        words = list(zip(placed[0].tolist(), placed[1].tolist()))
    else:
        words = [(m.start(), m.end()) for m in _WORD.finditer(doc.text)]
    starts = [a for a, _ in words]
    ends = [b for _, b in words]
    anns = []
    for a in doc.annotations:
        if a.start is None:
            anns.append(a)
            continue
        pieces = []
        for x, y in a.pieces:
            first = bisect_left(starts, x)
            last = bisect_left(ends, y)
            if first >= len(words) or starts[first] != x or last >= len(words) or ends[last] != y:
                raise FormatError(f"document {doc.id!r}: {a.label} [{x}, {y}) {doc.text[x:y]!r} does not begin and "
                                  "end on word boundaries (words are separated by whitespace)", path=None)
            pieces.append((first, last + 1))
        anns.append(a._replace(start=pieces[0][0], end=pieces[-1][1],
                               fragments=None if a.fragments is None else tuple(pieces)))
    extents = doc.sentences
    if extents:
        cuts = sorted({bisect_left(starts, s) for s, _ in extents} | {len(words)})
    else:
        line_starts = [m.start() for m in re.finditer(r"^", doc.text, flags=re.M)]
        cuts = sorted({bisect_left(starts, s) for s in line_starts} | {len(words)})
    cuts = [c for c in cuts if c <= len(words)]
    sentences = tuple((a, b) for a, b in zip([0] + cuts, cuts) if b > a) if words else ()
    tokens = tuple(doc.text[a:b] for a, b in words)
    return Document(doc.id, tuple(anns), None, tokens, sentences, _own_metadata(doc))


def _own_metadata(doc: Document) -> Any:
    """The metadata of a document, without the token extents of :mod:`accord.pipeline._offset_units` (no format holds
    them)."""
    meta = doc.metadata or {}
    if TOKEN_OFFSETS not in meta:
        return doc.metadata
    return Attributes({k: v for k, v in meta.items() if k != TOKEN_OFFSETS})


_TAG_UNSAFE = re.compile(r"\s")
"""What a tag cannot hold: the columns of CoNLL and VRT are whitespace-separated (``B-X O`` reads as the tag ``O``)."""
_MISC_UNSAFE = re.compile(r"[\s|=]")
"""What CoNLL-U's MISC ``NER=`` value cannot hold: ``|`` separates its attributes, ``=`` a name from its value."""


def _as_tags(doc: Document, format: str = "conll") -> Document:
    """Refuse what tags cannot say: spanless annotations, attributes, overlapping spans, labels that the columns
    would read back as something else."""
    spans: list[tuple[int, int, str]] = []
    unsafe = _MISC_UNSAFE if format == "conllu" else _TAG_UNSAFE
    for a in doc.annotations:
        bad = unsafe.search(a.label)
        if bad is not None:
            raise FormatError(f"document {doc.id!r}: the label {a.label!r} cannot be a {format} tag (it holds "
                              f"{bad.group()!r}, which the format reads as a separator); rename it or convert to a "
                              "text format", path=None)
        if a.start is None:
            raise FormatError(f"document {doc.id!r}: {a.label!r} has no span; tags hold spans only (convert to a "
                              "text format, or jsonl, to keep relations)", path=None)
        if a.fragments is not None:
            raise FormatError(f"document {doc.id!r}: {a.label} [{a.start}, {a.end}) is discontinuous; tags hold "
                              "contiguous spans only (read brat with --discontinuous merge for the covering extent)",
                              path=None)
        if a.attributes:
            raise FormatError(f"document {doc.id!r}: {a.label} [{a.start}, {a.end}) has attributes "
                              f"({', '.join(a.attributes)}); tags hold labels only", path=None)
        assert a.end is not None  # make_annotation: a start comes with an end
        spans.append((a.start, a.end, a.label))
    spans.sort()
    for (s1, e1, l1), (s2, e2, l2) in zip(spans, spans[1:]):
        if s2 < e1:
            raise FormatError(f"document {doc.id!r}: {l1} [{s1}, {e1}) and {l2} [{s2}, {e2}) overlap; tags cannot "
                              "hold overlapping spans", path=None)
    return doc


def _to_text(doc: Document) -> Document:
    if doc.text is not None:
        return doc if TOKEN_OFFSETS not in (doc.metadata or {}) else doc._replace(metadata=_own_metadata(doc))
    if doc.tokens is None:
        raise FormatError(f"document {doc.id!r} has neither text nor tokens", path=None)
    tokens = [str(t) for t in doc.tokens]
    breaks = {a for a, _ in (doc.sentences or ())}
    pieces, starts, ends, at = [], [], [], 0
    for k, token in enumerate(tokens):
        if k:
            sep = "\n" if k in breaks else " "
            pieces.append(sep)
            at += 1
        starts.append(at)
        pieces.append(token)
        at += len(token)
        ends.append(at)
    text = "".join(pieces)
    mapping = {}
    anns = []
    for a in doc.annotations:
        if a.start is None:
            anns.append(a)
            continue
        def chars(x: int, y: int) -> tuple[int, int]:
            start = starts[x] if x < len(starts) else len(text)
            return start, (ends[y - 1] if y > x else start)
        assert a.end is not None  # make_annotation: a start comes with an end
        start, end = chars(a.start, a.end)
        new = a._replace(start=start, end=end, fragments=None if a.fragments is None else
                         tuple(chars(x, y) for x, y in a.fragments))
        mapping[id(a)] = new
        anns.append(new)
    if any(a.start is None for a in anns):
        anns = repoint(anns, mapping)
    sentences = None
    if doc.sentences:
        sentences = tuple((starts[a] if a < len(starts) else len(text), ends[b - 1] if b > a else len(text))
                          for a, b in doc.sentences)
    return Document(doc.id, tuple(anns), text, None, sentences, doc.metadata)


def repoint(anns: list[Any], mapping: dict[int, Any]) -> list[Any]:
    """The spanless annotations of ``anns`` pointing to the annotations ``mapping`` replaces (by ``id``), and to the
    re-pointed spanless ones (an event that is another event's argument), at any depth; an annotation mapped to
    ``None`` is dropped from the attributes that point to it. (A cycle of spanless annotations keeps, where it
    closes, the annotation it began with.)"""
    from ..model import Annotation, make_annotation

    done: dict[int, Any] = dict(mapping)
    busy: set[int] = set()

    def swap(v: Any) -> Any:
        if isinstance(v, Annotation):
            return fix(v)
        if isinstance(v, frozenset):
            return frozenset(x for x in (swap(y) for y in v) if x is not None)
        if isinstance(v, tuple):
            return tuple(x for x in (swap(y) for y in v) if x is not None)
        return v

    def fix(a: Any) -> Any:
        if id(a) in done:
            return done[id(a)]
        if a.start is not None or id(a) in busy:
            return a
        busy.add(id(a))
        attrs = {k: swap(v) for k, v in a.attributes.items()}
        busy.discard(id(a))
        done[id(a)] = make_annotation(a.label, None, None, {k: v for k, v in attrs.items()
                                                             if v is not None and v != () and v != frozenset()}, a.id)
        return done[id(a)]

    return [fix(a) for a in anns]
