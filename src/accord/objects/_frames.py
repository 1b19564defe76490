"""pandas DataFrames as a corpus: a row per span, or a row per token with its tag."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import FormatError, OptionError
from ..model import Attributes, Corpus, Document, make_annotation
from ._tags import decode_sentences, named_tags, split_documents

__all__ = ["frame_corpus", "SPAN_COLUMNS", "TAG_COLUMNS", "DOCUMENT_COLUMNS", "SENTENCE_COLUMNS", "TOKEN_COLUMNS"]

SPAN_COLUMNS = ("start", "end", "label")
"""A frame with these columns is a frame of spans (half-open offsets); its other columns are attributes."""
TAG_COLUMNS = ("tag", "tags", "ner_tag", "ner")
"""Otherwise the first of these is the tag column of a frame of tokens, a row per token in order."""
DOCUMENT_COLUMNS = ("document", "doc", "doc_id", "document_id")
SENTENCE_COLUMNS = ("sentence", "sentence_id", "sent_id", "sent")
TOKEN_COLUMNS = ("token", "word", "form")


def _first(columns: Sequence[str], names: Sequence[str]) -> str | None:
    return next((c for c in names if c in columns), None)


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value)) or type(value).__name__ == "NAType"


def _runs(values: list[Any]) -> list[int]:
    """Where runs of equal consecutive values start, and the length at the end."""
    return [0] + [k for k in range(1, len(values)) if values[k] != values[k - 1]] + [len(values)]


def frame_corpus(frame: Any, *, name: str, label_names: Any = None, scheme: str | None = None,
                 repair: str | None = None, suffix: bool | None = None) -> Corpus:
    """A corpus of a frame of spans (``start``, ``end``, ``label``) or of token tags (``tag``).

    A ``document`` column (or ``doc``, ``doc_id``, ``document_id``) names each row's document; without
    it every row is in document ``"1"``. Span frames: the other columns are attributes (missing values
    left out). Tag frames: rows are tokens in order; a ``sentence`` column separates sentences, a
    ``token`` (or ``word``, ``form``) column gives the token strings.
    """
    if len(frame) == 0:
        raise FormatError("an empty frame: no rows to score", path=name)
    columns = [str(c) for c in frame.columns]
    if len(set(columns)) != len(columns):
        raise FormatError(f"columns named twice: {sorted({c for c in columns if columns.count(c) > 1})}", path=name)
    if all(c in columns for c in SPAN_COLUMNS):
        given = [k for k, v in (("label_names", label_names), ("scheme", scheme), ("repair", repair),
                                ("suffix", suffix)) if v is not None]
        if given:
            raise OptionError(f"{name}: {', '.join(given)} {'applies' if len(given) == 1 else 'apply'} to tags; this "
                              "frame holds spans (start, end, label)")
        return _span_frame(frame, columns, name)
    tag = _first(columns, TAG_COLUMNS)
    if tag is None:
        raise FormatError(f"expected the columns {', '.join(SPAN_COLUMNS)} (a row per span) or a tag column "
                          f"({' or '.join(TAG_COLUMNS)}, a row per token); the frame has {', '.join(columns)}",
                          path=name)
    return _tag_frame(frame, columns, tag, name, label_names=label_names, scheme=scheme or "IOB2",
                      repair=repair or "conlleval", suffix=bool(suffix))


def _span_frame(frame: Any, columns: list[str], name: str) -> Corpus:
    doc_col = _first(columns, DOCUMENT_COLUMNS)
    attr_cols = [c for c in columns if c not in SPAN_COLUMNS and c != doc_col]
    by_doc: dict[str, list[Any]] = {}
    records = frame.to_dict("records") if len(frame) else []
    for k, row in enumerate(records):
        where = f"{name}, row {k + 1}"
        start, end, label = row["start"], row["end"], row["label"]
        for what, value in (("start", start), ("end", end)):
            if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
                if isinstance(value, float) and value.is_integer():
                    continue
                raise FormatError(f"{what} {value!r} is not an integer offset", path=where)
        start, end = int(start), int(end)
        if not 0 <= start <= end:
            raise FormatError(f"span [{start}, {end}) is not a span (0 <= start <= end)", path=where)
        if _missing(label) or not isinstance(label, str) or not label:
            raise FormatError(f"label {label!r} is not a name", path=where)
        attrs = {c: (v.item() if isinstance(v, np.generic) else v) for c in attr_cols
                 if not _missing(v := row[c])}
        doc = "1" if doc_col is None else row[doc_col]
        if _missing(doc):
            raise FormatError(f"no document in column {doc_col!r}", path=where)
        by_doc.setdefault(str(doc), []).append(make_annotation(label, start, end, attrs))
    docs = [Document(d, tuple(anns), metadata=Attributes(source=name)) for d, anns in by_doc.items()]
    return Corpus(docs, name=name)


def _tag_frame(frame: Any, columns: list[str], tag: str, name: str, **decoding: Any) -> Corpus:
    n = len(frame)
    doc_col = _first(columns, DOCUMENT_COLUMNS)
    sent_col = _first(columns, SENTENCE_COLUMNS)
    tok_col = _first(columns, TOKEN_COLUMNS)
    docs_of_rows = [str(v) for v in frame[doc_col].tolist()] if doc_col else ["1"] * n
    keys = list(zip(docs_of_rows, frame[sent_col].tolist())) if sent_col else docs_of_rows
    sent_bounds = _runs(keys)
    offsets = np.asarray(sent_bounds, dtype=np.int64)
    raw = frame[tag].tolist()
    missing = next((k for k, v in enumerate(raw) if _missing(v)), None)
    if missing is not None:
        raise FormatError(f"row {missing + 1} has no tag", path=name)
    label_names = decoding.pop("label_names")
    tags = named_tags(raw, offsets, f"{name}, column {tag!r}", label_names) if n else []
    anns, _ = decode_sentences(tags, offsets, name=name, **decoding)
    words = [str(w) for w in frame[tok_col].tolist()] if tok_col else None
    doc_bounds = _runs(docs_of_rows)
    ids = [docs_of_rows[k] for k in doc_bounds[:-1]]
    return split_documents(anns, sent_bounds, doc_bounds, ids, words, name=name, column=doc_col)
