"""Which kind of Python object an input is, and the corpus it makes."""

from __future__ import annotations

import os
from typing import Any

from ..errors import FormatError, OptionError
from ..model import Corpus, Document

__all__ = ["as_corpus", "label_names_of", "object_kind"]

_OPTIONS = {
    "tags": {"label_names", "scheme", "repair", "suffix"},
    "spacy": {"spans_key"},
    "datasets": {"label_names", "scheme", "repair", "suffix", "tokens_column", "tags_column", "document_column"},
    "pandas": {"label_names", "scheme", "repair", "suffix"},
}


def _module(obj: Any) -> str:
    return type(obj).__module__.split(".", 1)[0]


def object_kind(obj: Any) -> str | None:
    """``tags``, ``spacy``, ``datasets`` or ``pandas`` for an object :func:`as_corpus` reads, else ``None``.

    Decided on the object's type and module, without importing spaCy, datasets or pandas.
    """
    if isinstance(obj, (str, bytes, os.PathLike, Corpus, Document)):
        return None
    module = _module(obj)
    if module == "spacy":
        return "spacy"
    if module == "datasets" and type(obj).__name__ in ("Dataset", "IterableDataset"):
        return "datasets"
    if module == "pandas" and type(obj).__name__ == "DataFrame":
        return "pandas"
    if isinstance(obj, (list, tuple)):
        first = next((x for x in obj if not _empty_sequence(x)), None)
        if first is None:
            return "tags" if obj else None
        if _module(first) == "spacy":
            return "spacy"
        if _is_sequence(first):
            return "tags"
    return None


def _is_sequence(x: Any) -> bool:
    return isinstance(x, (list, tuple)) or type(x).__name__ == "ndarray"


def _empty_sequence(x: Any) -> bool:
    return _is_sequence(x) and len(x) == 0


def label_names_of(obj: Any, *, tags_column: str | None = None) -> list[str] | None:
    """The tag names an object declares (a Hugging Face ``ClassLabel``), for integer tags of the other side."""
    if object_kind(obj) == "datasets":
        from ._datasets import class_label_names

        return class_label_names(obj, tags_column)
    return None


def as_corpus(obj: Any, *, side: str = "gold", name: str | None = None, **options: Any) -> Corpus:
    """A corpus made of a Python object (see :mod:`accord.objects`).

    Parameters
    ----------
    obj : object
        Lists of tag lists, spaCy ``Doc``/``Example``/``DocBin`` (or a list of them), a Hugging Face
        ``Dataset``, or a pandas ``DataFrame``.
    side : {"gold", "pred"}
        Which side the object is: a spaCy ``Example`` gives its ``reference`` as gold and its
        ``predicted`` as prediction.
    name : str, optional
        How messages name the input (default: the side and the kind of object).
    **options
        ``label_names`` (integer tags: the name of each tag number), ``scheme``, ``repair``, ``suffix``
        (tag decoding, as for column files), ``spans_key`` (spaCy: read ``doc.spans[key]`` instead of
        ``doc.ents``), ``tokens_column``, ``tags_column``, ``document_column`` (Hugging Face datasets).
        An option that does not apply to the object is an :class:`~accord.errors.OptionError`.

    Raises
    ------
    OptionError
        For an object of no kind accord reads, or an option that does not apply to it.
    FormatError
        For content that cannot be read (a tag outside the scheme, an integer tag without its name...),
        naming the sentence and position.
    """
    if side not in ("gold", "pred"):
        raise OptionError(f"side must be 'gold' or 'pred'; got {side!r}")
    kind = object_kind(obj)
    if kind is None and isinstance(obj, (list, tuple)) and not obj:
        raise FormatError("an empty list: nothing to score (give a list of tag lists, spaCy Docs or Examples)",
                          path=name or side)
    if kind is None:
        raise OptionError(f"expected a path, a Corpus, lists of tag lists, spaCy Docs or Examples, a Hugging Face "
                          f"Dataset or a pandas DataFrame; got {type(obj).__name__}")
    extra = sorted(k for k, v in options.items() if k not in _OPTIONS[kind] and v is not None)
    if extra:
        raise OptionError(f"{', '.join(extra)} {'does' if len(extra) == 1 else 'do'} not apply to {_KIND_NAMES[kind]} "
                          f"(options that apply: {', '.join(sorted(_OPTIONS[kind]))})")
    options = {k: v for k, v in options.items() if v is not None}
    name = name or f"{side} ({_KIND_NAMES[kind]})"
    if kind == "tags":
        from ._tags import tags_corpus

        return tags_corpus(obj, name=name, **options)
    if kind == "spacy":
        from ._spacy import spacy_corpus

        return spacy_corpus(obj, side=side, name=name, **options)
    if kind == "datasets":
        from ._datasets import dataset_corpus

        return dataset_corpus(obj, name=name, **options)
    from ._frames import frame_corpus

    return frame_corpus(obj, name=name, **options)


_KIND_NAMES = {"tags": "lists of tags", "spacy": "spaCy objects", "datasets": "a Hugging Face dataset",
               "pandas": "a pandas DataFrame"}
