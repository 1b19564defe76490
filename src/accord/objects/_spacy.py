"""spaCy ``Doc``, ``Example`` and ``DocBin`` objects as a corpus (spaCy imported only when one arrives)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..errors import FormatError, OptionError
from ..model import Attributes, Corpus, Document, make_annotation

__all__ = ["spacy_corpus", "holds_examples", "docs_corpus"]


def _is(obj: Any, name: str) -> bool:
    return type(obj).__name__ == name and type(obj).__module__.startswith("spacy")


def holds_examples(obj: Any) -> bool:
    """Whether ``obj`` is an ``Example`` or a non-empty list of them (both sides in one object)."""
    if _is(obj, "Example"):
        return True
    return isinstance(obj, (list, tuple)) and bool(obj) and all(_is(x, "Example") for x in obj)


def _docs(obj: Any, side: str, name: str) -> list[Any]:
    """The ``Doc`` objects of the input, in order (an Example's reference for gold, predicted for pred)."""
    if _is(obj, "DocBin"):
        from spacy.vocab import Vocab

        return list(obj.get_docs(Vocab()))
    items = [obj] if _is(obj, "Doc") or _is(obj, "Example") else list(obj)
    docs = []
    for k, item in enumerate(items):
        if _is(item, "Example"):
            docs.append(item.reference if side == "gold" else item.predicted)
        elif _is(item, "Doc"):
            docs.append(item)
        else:
            raise FormatError(f"item {k + 1} is a {type(item).__name__}; expected spaCy Docs or Examples", path=name)
    return docs


def spacy_corpus(obj: Any, *, side: str, name: str, spans_key: str | None = None) -> Corpus:
    """A document per ``Doc`` (ids ``"1"``, ``"2"``... in order, as spaCy pairs Examples by position).

    Annotations are ``doc.ents``, or ``doc.spans[spans_key]`` (overlapping spans allowed), with character
    offsets into ``doc.text``; an entity's ``kb_id_``, when set, is the attribute ``kb_id``. Sentences are
    kept when the Doc has sentence boundaries.
    """
    return docs_corpus(_docs(obj, side, name), name=name, spans_key=spans_key)


def docs_corpus(docs: Iterable[Any], *, name: str, spans_key: str | None = None) -> Corpus:
    """:func:`spacy_corpus` of ``Doc`` objects already in hand (also the ``.spacy`` file reader's)."""
    out = []
    holding = 0
    for k, doc in enumerate(docs):
        if spans_key is None:
            spans = list(doc.ents)
        elif spans_key in doc.spans:
            spans = list(doc.spans[spans_key])
            holding += 1
        else:
            spans = []
        anns = tuple(make_annotation(s.label_, s.start_char, s.end_char, {"kb_id": s.kb_id_} if s.kb_id_ else None)
                     for s in spans)
        sentences = None
        if doc.has_annotation("SENT_START"):
            sentences = tuple((s.start_char, s.end_char) for s in doc.sents)
        out.append(Document(str(k + 1), anns, doc.text, None, sentences, Attributes(source=name)))
    if spans_key is not None and out and not holding:
        raise OptionError(f"{name}: no Doc has a span group {spans_key!r} (doc.spans[{spans_key!r}])")
    return Corpus(out, name=name)
