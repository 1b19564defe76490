"""Lists of tag lists (seqeval's ``y_true``/``y_pred``) as a corpus of one document."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat
from typing import Any

import numpy as np

from ..errors import FormatError, OptionError
from ..model import EMPTY_ATTRIBUTES, Annotation, Attributes, Corpus, Document, tagging
from ._labels import check_label_names

__all__ = ["tags_corpus", "SentenceWhere", "split_documents"]

IGNORED_INDEX = -100
"""The label Hugging Face's token-classification recipes give to positions the loss ignores."""


class SentenceWhere:
    """Names a position of flattened sentences in messages: ``<name>, sentence s, position k`` (1-based)."""

    def __init__(self, name: str, offsets: np.ndarray, first_sentence: np.ndarray | None = None):
        self.path = name
        self.offsets = offsets
        self.first_sentence = first_sentence

    def position(self, i: int) -> str:
        s = int(np.searchsorted(self.offsets, i, side="right")) - 1
        return f"sentence {s + 1}, position {i - int(self.offsets[s]) + 1}"

    def place(self, i: int) -> str:
        return f"{self.path}, {self.position(i)}"

    def at(self, i: int) -> dict[str, Any]:
        return {"path": self.place(i), "line": None}


def _flatten(sentences: Sequence[Any], name: str) -> tuple[list[Any], np.ndarray]:
    for s, sentence in enumerate(sentences):
        if isinstance(sentence, str) or not (isinstance(sentence, (list, tuple)) or hasattr(sentence, "tolist")):
            raise FormatError(f"sentence {s + 1} is a {type(sentence).__name__}, not a list of tags "
                              "(give a list of tag lists, one per sentence)", path=name)
    rows = [s.tolist() if hasattr(s, "tolist") else s for s in sentences]
    lengths = np.fromiter(map(len, rows), dtype=np.int64, count=len(rows))
    offsets = np.zeros(len(rows) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    return [t for row in rows for t in row], offsets


def _is_int(t: Any) -> bool:
    return isinstance(t, (int, np.integer)) and not isinstance(t, bool)


def named_tags(flat: list[Any], offsets: np.ndarray, name: str, label_names: Any = None) -> list[str]:
    """Every tag as its string: strings kept, integer tags named through ``label_names``."""
    where = SentenceWhere(name, offsets)
    kinds = {type(t) for t in flat}
    if kinds <= {str}:
        return flat
    strings = isinstance(flat[0], str)
    bad = next((i for i, t in enumerate(flat) if not (isinstance(t, str) if strings else _is_int(t))), None)
    if bad is not None:
        raise FormatError(f"tag {flat[bad]!r} ({type(flat[bad]).__name__}): tags are all strings, or all integers "
                          "with label_names", path=where.place(bad))
    if label_names is None:
        raise OptionError(f"{name}: the tags are integers; give label_names=[...] (the name of each tag number, "
                          "e.g. a ClassLabel's names)")
    names = check_label_names(label_names, name)
    codes = np.asarray(flat, dtype=np.int64)
    outside = (codes < 0) | (codes >= len(names))
    if outside.any():
        i = int(np.argmax(outside))
        hint = (" (Hugging Face's ignored position: drop the positions whose gold label is -100, in both the gold and "
                "the predicted lists, before scoring)" if codes[i] == IGNORED_INDEX else "")
        raise FormatError(f"tag number {int(codes[i])} has no name among the {len(names)} label_names{hint}",
                          path=where.place(i))
    table = np.asarray(names, dtype=object)
    return table[codes].tolist()


def decode_sentences(tags: list[str], offsets: np.ndarray, *, name: str, scheme: str = "IOB2",
                     repair: str = "conlleval", suffix: bool = False) -> tuple[list[Annotation], list[str]]:
    """Spans of flat tags over sentences, as :func:`accord.model.tagging.decode_column` reads a column file's."""
    first = np.zeros(len(tags), dtype=bool)
    starts = offsets[:-1][offsets[:-1] < offsets[1:]]
    first[starts] = True
    chunks, types = tagging.decode_column(tags, first, scheme=scheme, repair=repair, suffix=suffix,
                                          where=SentenceWhere(name, offsets))
    anns = list(map(tuple.__new__, repeat(Annotation),
                    zip(map(types.__getitem__, chunks.type_id.tolist()), chunks.start.tolist(),
                        chunks.end.tolist(), repeat(EMPTY_ATTRIBUTES), repeat(None), repeat(None))))
    return anns, types


def tags_corpus(sentences: Sequence[Sequence[Any]], *, name: str, label_names: Any = None, scheme: str = "IOB2",
                repair: str = "conlleval", suffix: bool = False,
                tokens: Sequence[Sequence[str]] | None = None, document_id: str = "1") -> Corpus:
    """One document whose sentences are the tag lists (tags as strings, or integers with ``label_names``).

    Spans are token offsets over the concatenated sentences and never cross a sentence, as in
    seqeval and in a column file. Without ``tokens`` the document holds no token strings; pairing
    then checks that both sides have the same sentence lengths.
    """
    flat, offsets = _flatten(sentences, name)
    tags = named_tags(flat, offsets, name, label_names)
    anns, _ = decode_sentences(tags, offsets, name=name, scheme=scheme, repair=repair, suffix=suffix)
    bounds = offsets.tolist()
    extents = tuple(zip(bounds[:-1], bounds[1:]))
    words = None
    if tokens is not None:
        words = tuple(w for row in tokens for w in row)
        if len(words) != len(tags):
            raise FormatError(f"{len(words)} tokens but {len(tags)} tags", path=name)
    meta = Attributes(source=name)
    return Corpus([Document(document_id, tuple(anns), None, words, extents, meta)], name=name)


def _shifted(anns: Sequence[Annotation], by: int) -> tuple[Annotation, ...]:
    """The annotations moved ``by`` offsets to the left (all spanned: decoded from tags)."""
    out = []
    for a in anns:
        assert a.start is not None and a.end is not None  # decoded from tags
        out.append(a._replace(start=a.start - by, end=a.end - by))
    return tuple(out)


def split_documents(anns: Sequence[Annotation], sentence_offsets: Sequence[int], doc_bounds: Sequence[int],
                    ids: Sequence[str], words: Sequence[str] | None, *, name: str, column: str | None) -> Corpus:
    """Documents of consecutive token ranges ``doc_bounds[d]:doc_bounds[d + 1]``, named ``ids[d]``, each with its
    annotations (offsets made relative to the document), tokens and sentences (cut at ``sentence_offsets``,
    which include every document boundary). An id that comes back after another is an error naming ``column``."""
    if len(set(ids)) != len(ids):
        seen: set[str] = set()
        # set.add returns None: the first id seen before (a deliberate idiom)
        again = next(i for i in ids if i in seen or seen.add(i))  # type: ignore[func-returns-value]
        raise FormatError(f"the rows of document {again!r} (column {column!r}) are not consecutive", path=name)
    starts = np.fromiter((a.start for a in anns), dtype=np.int64, count=len(anns))
    cuts_all = np.asarray(sentence_offsets, dtype=np.int64)
    docs = []
    for d, doc_id in enumerate(ids):
        lo, hi = int(doc_bounds[d]), int(doc_bounds[d + 1])
        a_lo, a_hi = np.searchsorted(starts, [lo, hi]).tolist()
        doc_anns = tuple(anns[a_lo:a_hi]) if lo == 0 else _shifted(anns[a_lo:a_hi], lo)
        cuts = (cuts_all[(cuts_all >= lo) & (cuts_all <= hi)] - lo).tolist()
        docs.append(Document(doc_id, doc_anns, None, None if words is None else tuple(words[lo:hi]),
                             tuple(zip(cuts[:-1], cuts[1:])), Attributes(source=name)))
    return Corpus(docs, name=name)
