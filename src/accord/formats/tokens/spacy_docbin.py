"""spaCy's binary training files (``.spacy``, a serialized ``DocBin``): read and written through spaCy.

Reading gives a document per ``Doc`` (ids ``1``, ``2``... in file order) with its ``doc.ents``, or
``doc.spans[spans_key]`` with the option ``spans_key`` (overlapping spans allowed), as character offsets
into the Doc's text (:func:`accord.objects._spacy.docs_corpus`). Writing needs a text or tokens per
document; each span must fall on token boundaries of spaCy's tokenizer (``spacy.blank(lang)``) and, for
``doc.ents``, spans must not overlap: what cannot be carried is an error, not a dropped span.

spaCy is an optional dependency (``pip install 'accord[spacy]'``), imported when such a file is read.

A DocBin is msgpack compressed with zlib. Before spaCy inflates it, the inflated size is measured by streaming
through the file: a file that inflates beyond :data:`MAX_INFLATED_BYTES` (a zip bomb: 4 MB of zeros inflate to
4 GB) is an error naming the limit, with no more than a chunk of it in memory.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...errors import FormatError, OptionError
from ...model import Corpus
from .._registry import Format, register
from ..text._span_relations import check_spans_only

__all__ = ["read_docbin", "write_docbin", "MAX_INFLATED_BYTES", "inflated_size"]

MAX_INFLATED_BYTES = 1 << 30
"""The largest inflated DocBin read (1 GiB: about 12 million tokens with spaCy's default attributes)."""

_CHUNK = 1 << 20


def _spacy() -> Any:
    try:
        import spacy
    except ImportError:  # pragma: no cover - depends on the environment
        raise OptionError("reading or writing .spacy files needs spaCy: pip install 'accord[spacy]'") from None
    return spacy


def read_docbin(path: str | Path, *, spans_key: str | None = None, **_ignored: Any) -> Corpus:
    """The documents of a ``.spacy`` file (see the module docstring)."""
    _spacy()
    from spacy.tokens import DocBin
    from spacy.vocab import Vocab

    from ...objects._spacy import docs_corpus

    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise FormatError(f"cannot read: {exc.strerror or exc}", path=p) from None
    size = inflated_size(data, MAX_INFLATED_BYTES, p)
    if size is None:
        raise FormatError(f"inflates to more than {MAX_INFLATED_BYTES:,} bytes (the limit of a .spacy file, "
                          f"accord.formats.tokens.spacy_docbin.MAX_INFLATED_BYTES); split it into smaller DocBins",
                          path=p)
    try:
        docs = list(DocBin().from_bytes(data).get_docs(Vocab()))
    except Exception as exc:  # msgpack, zlib and spaCy raise classes of their own on a damaged file
        raise FormatError(f"not a spaCy DocBin file ({type(exc).__name__}: {exc})", path=p) from None
    return docs_corpus(docs, name=str(p), spans_key=spans_key)


def inflated_size(data: bytes, limit: int, path: object = None) -> int | None:
    """The size of zlib-compressed ``data`` once inflated, or ``None`` past ``limit`` bytes: inflated a chunk at a
    time and thrown away, so that no more than a chunk is ever in memory. Data that is not zlib is a
    :class:`FormatError`."""
    import zlib

    inflater = zlib.decompressobj()
    size = 0
    pending = data
    try:
        while True:
            out = len(inflater.decompress(pending, _CHUNK))
            size += out
            if size > limit:
                return None
            pending = inflater.unconsumed_tail
            if inflater.eof or not out and not pending:
                break
    except zlib.error as exc:
        raise FormatError(f"not a spaCy DocBin file (its zlib data is damaged: {exc})", path=path) from None
    if not inflater.eof:
        raise FormatError("not a spaCy DocBin file (its zlib data is cut short)", path=path)
    return size


def write_docbin(corpus: Corpus, path: str | Path, *, spans_key: str | None = None, lang: str = "xx",
                 **_ignored: Any) -> None:
    """Write ``corpus`` as a ``.spacy`` file: spans as ``doc.ents`` (or ``doc.spans[spans_key]``)."""
    spacy = _spacy()
    from spacy.tokens import Doc, DocBin, Span

    nlp = spacy.blank(lang)
    out = DocBin(store_user_data=True)
    for doc in corpus.documents:
        if doc.text is not None:
            sdoc = nlp.make_doc(doc.text)
        elif doc.tokens is not None:
            sdoc = Doc(nlp.vocab, words=list(doc.tokens))
        else:
            raise FormatError(f"document {doc.id!r} has neither text nor tokens; a spaCy Doc needs one", path=path)
        check_spans_only(doc, path, "a .spacy file", kept=("kb_id",))
        spans = []
        for a in doc.annotations:
            kb_id = str(a.get("kb_id", ""))
            assert a.start is not None and a.end is not None  # check_spans_only refuses spanless annotations
            if doc.text is not None:
                span = sdoc.char_span(a.start, a.end, label=a.label, kb_id=kb_id, alignment_mode="strict")
                if span is None:
                    raise FormatError(f"document {doc.id!r}: {a.label} [{a.start}, {a.end}) "
                                      f"{doc.text[a.start:a.end]!r} does not fall on token boundaries of spaCy's "
                                      f"{lang!r} tokenizer", path=path)
            else:
                span = Span(sdoc, a.start, a.end, label=a.label, kb_id=kb_id)
            spans.append(span)
        if spans_key is not None:
            sdoc.spans[spans_key] = spans
        else:
            try:
                sdoc.ents = spans
            except ValueError as exc:
                raise FormatError(f"document {doc.id!r}: spans overlap, which doc.ents cannot hold ({exc}); "
                                  "write them to a span group with spans_key", path=path) from None
        out.add(sdoc)
    out.to_disk(path)


register(Format(
    name="spacy",
    read=read_docbin,
    write=write_docbin,
    extensions=(".spacy",),
    description="spaCy DocBin training files: doc.ents or a span group, character offsets",
))
