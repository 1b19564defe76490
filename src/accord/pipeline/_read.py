"""The first stage: reading both sides of a comparison into corpora (files, columns of one file, annotation sets,
Python objects), each file once within :func:`reading_once`, with the repairs its reader warned about."""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypedDict

from ..errors import OptionError, RepairWarning
from ..formats import read, sniff
from ..model import Corpus, Document
from ._sides import meet

__all__ = ["source_name", "reading_once", "read_corpus", "read_sides", "read_with_repairs"]


def source_name(obj: Any, column: int | str | None = None) -> str:
    """How the JSON names an input: its path (with ``#column`` for a column of a file), ``<corpus>`` for a
    corpus given in Python, ``<list>``, ``<Dataset>``... for another Python object."""
    if isinstance(obj, Corpus):
        name = "<corpus>"
    elif isinstance(obj, (str, os.PathLike)):
        from .._support.io import shown_name

        name = shown_name(str(obj))
    else:
        name = f"<{type(obj).__name__}>"
    return name if column is None else f"{name}#{column}"


class _SharedReads(TypedDict):
    corpora: dict[tuple[str, str | None, str], tuple[Corpus, list[Warning | str]]]
    """Each corpus read, by path, format and options, with the messages of the warnings its reading gave."""
    shown: set[int]
    """The warnings passed on already (by identity), shown once."""
    only: str | None
    """The one file kept (its absolute path), or None: every file read."""


_SHARED_READS: ContextVar[_SharedReads | None] = ContextVar("accord_shared_reads", default=None)


@contextmanager
def reading_once(only: str | os.PathLike[str] | None = None) -> Iterator[None]:
    """Within the block a file read again with the same format and options is not read again (``compare`` and
    ``report`` score every system against one gold file): the corpus is shared, its warnings are shown once and its
    repairs are still reported in every result. ``only``: the one file kept (the gold file; the systems' files are
    read and let go, so that the memory does not grow with the systems)."""
    token = _SHARED_READS.set({"corpora": {}, "shown": set(),
                               "only": None if only is None else os.path.abspath(only)})
    try:
        yield
    finally:
        _SHARED_READS.reset(token)


def read_corpus(obj: Any, fmt: str | None, options: dict[str, Any], side: str = "gold") -> Corpus:
    """The corpus of one input: a path read in ``fmt``, a corpus or document as it is, or a Python object
    (tag lists, spaCy, Hugging Face, pandas) made into one by :func:`accord.objects.as_corpus`."""
    if isinstance(obj, Corpus):
        return obj
    if isinstance(obj, (str, os.PathLike)):
        shared = _SHARED_READS.get()
        if shared is None or shared.get("only") not in (None, os.path.abspath(obj)):
            return read(obj, format=fmt, **options)
        from .._support.io import current_encoding

        key = (os.path.abspath(obj), fmt, repr((current_encoding(), sorted(options.items(), key=lambda kv: kv[0]))))
        if key not in shared["corpora"]:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                corpus = read(obj, format=fmt, **options)
            shared["corpora"][key] = (corpus, [w.message for w in caught])
        corpus, messages = shared["corpora"][key]
        for message in messages:    # to the caller's recorder (_read_with_repairs), at each read
            warnings.warn(message, stacklevel=2)
        return corpus
    if isinstance(obj, Document):
        return Corpus([obj])
    from ..objects import as_corpus

    if fmt is not None:
        raise OptionError(f"format {fmt!r} names a file format; the {side} side is a {type(obj).__name__}")
    return as_corpus(obj, side=side, **options)


def read_sides(gold: Any, pred: Any, gold_format: str | None, pred_format: str | None,
               read_options: dict[str, Any], gold_column: int | str | None = None,
               pred_column: int | str | None = None, gold_set: str | None = None,
               pred_set: str | None = None,
               encodings: tuple[str | None, str | None] = (None, None)) -> tuple[Corpus, Corpus]:
    """Read the gold and the predicted corpus, each from its own file or from two columns of one file
    (or two annotation sets of GATE XML files: ``gold_set``, ``pred_set``); ``encodings`` are the text encodings of
    the gold and the predicted files (None: ``--encoding``'s, :func:`accord._support.io.current_encoding`)."""
    from .._support.io import text_encoding
    from ..objects import label_names_of, object_kind

    if pred is None and object_kind(gold) == "spacy":
        from ..objects._spacy import holds_examples

        if not holds_examples(gold):
            raise OptionError("give the predicted Docs too; only spaCy Examples hold both sides (reference and "
                              "predicted)")
        pred = gold
    if pred is None:
        if gold_column is None or pred_column is None:
            raise OptionError("give the predicted file, or --gold-column and --pred-column to read both sides "
                              "from columns of the gold file")
        pred = gold
        pred_format = pred_format or gold_format

    if object_kind(gold) is not None and "label_names" not in read_options:
        names = label_names_of(gold, tags_column=read_options.get("tags_column"))
        if names is not None and object_kind(pred) in ("tags", "datasets"):
            read_options = {**read_options, "label_names": names}  # integer predictions named by the gold ClassLabel
    sides = []
    for side, obj, fmt, column, aset, encoding in (("gold", gold, gold_format, gold_column, gold_set, encodings[0]),
                                                   ("pred", pred, pred_format, pred_column, pred_set, encodings[1])):
        options = read_options if aset is None else {**read_options, "annotation_set": aset}
        if column is not None:
            if isinstance(obj, (str, os.PathLike)):
                fmt = fmt or sniff(obj).name   # sniffed once, then read in that format
                if fmt not in _COLUMN_FORMATS:
                    raise OptionError(f"{obj}: --gold-column and --pred-column choose columns of column files "
                                      f"({', '.join(_COLUMN_FORMATS)}), not of {fmt} files")
            options = {**options, "column": column}
        with text_encoding(encoding):
            sides.append(read_corpus(obj, fmt, options, side))
    gold_c, pred_c = meet(sides, (gold, pred), ("gold", "predicted"))   # single files paired, one offset unit
    return gold_c, pred_c


_COLUMN_FORMATS = ("conll", "vrt")


def read_with_repairs(gold: Any, pred: Any, gold_format: str | None, pred_format: str | None,
                       read_options: dict[str, Any], gold_column: int | str | None, pred_column: int | str | None,
                       gold_set: str | None, pred_set: str | None,
                       encodings: tuple[str | None, str | None] = (None, None)
                       ) -> tuple[Corpus, Corpus, list[dict[str, Any]]]:
    """Both sides (:func:`read_sides`), and the repairs of invalid tag sequences their readers warned about (the
    warnings are passed on to the caller)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        gold_c, pred_c = read_sides(gold, pred, gold_format, pred_format, read_options, gold_column, pred_column,
                                    gold_set, pred_set, encodings)
    repairs = []
    shared = _SHARED_READS.get()
    shown = shared["shown"] if shared is not None else None
    for w in caught:
        if shown is None or id(w.message) not in shown:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
            if shown is not None:
                shown.add(id(w.message))
        if isinstance(w.message, RepairWarning):
            repairs.append(w.message.to_dict())
    return gold_c, pred_c, repairs
