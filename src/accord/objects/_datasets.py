"""A Hugging Face ``Dataset`` of token classification (a sentence a row) as a corpus."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import FormatError, OptionError
from ..model import Corpus
from ._tags import decode_sentences, named_tags, split_documents

__all__ = ["dataset_corpus", "class_label_names", "TAG_COLUMNS"]

TAG_COLUMNS = ("ner_tags", "tags", "labels", "ner", "label")
"""The tag column when none is named: the first of these the dataset has (``ner_tags`` in CoNLL-2003, WikiANN...)."""


def _columns(ds: Any) -> list[str]:
    return list(ds.column_names or (ds.features or {}).keys())


def _tag_column(ds: Any, tags_column: str | None, name: str) -> str:
    columns = _columns(ds)
    if tags_column is not None:
        if tags_column not in columns:
            raise OptionError(f"{name}: no column {tags_column!r} (columns: {', '.join(columns)})")
        return tags_column
    found = next((c for c in TAG_COLUMNS if c in columns), None)
    if found is None:
        raise OptionError(f"{name}: which column holds the tags? none of {', '.join(TAG_COLUMNS)} is there "
                          f"(columns: {', '.join(columns)}); give tags_column=")
    return found


def class_label_names(ds: Any, tags_column: str | None = None) -> list[str] | None:
    """The names of the tag column's ``ClassLabel`` (inside its list feature), or ``None``."""
    try:
        column = _tag_column(ds, tags_column, "dataset")
    except OptionError:
        return None
    feature = (ds.features or {}).get(column)
    inner = getattr(feature, "feature", feature)
    names = getattr(inner, "names", None)
    return list(names) if names else None


def _list_column(ds: Any, column: str, name: str) -> tuple[list[Any], np.ndarray]:
    """A list-valued column: its values flattened and the row offsets (``len = rows + 1``)."""
    if type(ds).__name__ == "IterableDataset":
        rows = [row[column] for row in ds]
    else:
        import pyarrow as pa

        array = ds.with_format("arrow")[:].column(column).combine_chunks()
        if not pa.types.is_list(array.type) and not pa.types.is_large_list(array.type):
            raise FormatError(f"column {column!r} holds {array.type}, not a list per row (a sentence's tags)",
                              path=name)
        if array.null_count:
            row = int(np.flatnonzero(np.asarray(array.is_null()))[0])
            raise FormatError(f"row {row + 1}: column {column!r} is null", path=name)
        offsets = array.offsets.to_numpy().astype(np.int64)
        return array.flatten().to_pylist(), offsets - offsets[0]
    for k, row in enumerate(rows):
        if not isinstance(row, (list, tuple)):
            raise FormatError(f"row {k + 1}: column {column!r} holds a {type(row).__name__}, not a list", path=name)
    lengths = np.fromiter(map(len, rows), dtype=np.int64, count=len(rows))
    offsets = np.zeros(len(rows) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    return [v for row in rows for v in row], offsets


def dataset_corpus(ds: Any, *, name: str, tokens_column: str | None = None, tags_column: str | None = None,
                   document_column: str | None = None, label_names: Any = None, scheme: str = "IOB2",
                   repair: str = "conlleval", suffix: bool = False) -> Corpus:
    """Rows are sentences; integer tags are named by the column's ``ClassLabel`` (or ``label_names``).

    ``tokens_column`` (default ``tokens`` when present) gives the token strings, checked against the
    other side's; ``document_column`` groups consecutive rows with the same value into a document
    (default: one document, ``"1"``, of every row).
    """
    tag_col = _tag_column(ds, tags_column, name)
    columns = _columns(ds)
    flat, offsets = _list_column(ds, tag_col, name)
    if len(offsets) == 1:
        raise FormatError("an empty dataset: no rows to score", path=name)
    if label_names is None:
        label_names = class_label_names(ds, tag_col)
    tags = named_tags(flat, offsets, f"{name}, column {tag_col!r}", label_names) if flat else []
    words = None
    tok_col = tokens_column if tokens_column is not None else ("tokens" if "tokens" in columns else None)
    if tok_col is not None:
        if tok_col not in columns:
            raise OptionError(f"{name}: no column {tok_col!r} (columns: {', '.join(columns)})")
        words, word_offsets = _list_column(ds, tok_col, name)
        if not np.array_equal(word_offsets, offsets):
            row = int(np.argmax(np.diff(word_offsets) != np.diff(offsets)))
            raise FormatError(f"row {row + 1}: {int(word_offsets[row + 1] - word_offsets[row])} tokens but "
                              f"{int(offsets[row + 1] - offsets[row])} tags", path=name)
        words = [str(w) for w in words]
    anns, _ = decode_sentences(tags, offsets, name=name, scheme=scheme, repair=repair, suffix=suffix)
    nrows = len(offsets) - 1
    if document_column is None:
        ids, row_bounds = ["1"], [0, nrows]
    else:
        if document_column not in columns:
            raise OptionError(f"{name}: no column {document_column!r} (columns: {', '.join(columns)})")
        values = [str(v) for v in ds[document_column]] if nrows else []
        change = [0] + [k for k in range(1, nrows) if values[k] != values[k - 1]] + [nrows]
        ids = [values[k] for k in change[:-1]]
        row_bounds = change
    return split_documents(anns, offsets.tolist(), offsets[row_bounds].tolist(), ids, words, name=name,
                           column=document_column)
