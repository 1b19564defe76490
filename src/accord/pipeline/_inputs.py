"""One input of a command that is not :func:`accord.score` (coreference, GATE's modes, agreement...): a path read, a
corpus as it is, or a Python object accord reads; how the input is named in a result's ``inputs`` and in messages;
the inputs of a comparison made to meet (:mod:`._sides`)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..errors import OptionError

if TYPE_CHECKING:
    from typing_extensions import TypeIs

__all__ = ["inputs_block", "is_path", "load_side", "meet_sides", "shown_source"]


def is_path(obj: object) -> TypeIs[str | os.PathLike[Any]]:
    """Whether an input is a path (a string or a path object), not a Python object to read."""
    return isinstance(obj, (str, os.PathLike))


def load_side(obj: Any, format: str | None, annotation_set: str | None, side: str = "gold",
              discontinuous: str = "fragments") -> Any:
    """A corpus of one input: a path read in ``format`` (from ``annotation_set`` of GATE XML), a corpus as it is,
    or a Python object accord reads (:mod:`accord.objects`)."""
    from ..formats import read
    from ..model import Corpus

    if isinstance(obj, Corpus):
        return obj
    if is_path(obj):
        return read(obj, format=format, annotation_set=annotation_set, discontinuous=discontinuous)
    if annotation_set is not None:
        raise OptionError(f"an annotation set names a set of GATE XML files; the {side} side is a "
                          f"{type(obj).__name__}")
    from ._read import read_corpus

    return read_corpus(obj, format, {}, side)


def meet_sides(corpora: Sequence[Any], sources: Sequence[Any],
               sides: Sequence[str] = ("key", "response")) -> list[Any]:
    """The corpora of a comparison ready to pair: single files paired as given, offsets in one unit
    (:func:`accord.pipeline._sides.meet`)."""
    from ._sides import meet

    return meet(corpora, sources, sides)


def inputs_block(**sides: tuple[Any, int]) -> dict[str, Any]:
    """A result's ``inputs``: each side's source (its path as shown, or ``<TypeName>`` of an object) and its number
    of documents."""
    from .._support.io import shown_name

    return {side: {"sources": [shown_name(str(src)) if is_path(src) else f"<{type(src).__name__}>"], "documents": n}
            for side, (src, n) in sides.items()}


def shown_source(source: Any) -> str:
    """An input as messages name it: its path as shown, or "the mapping given"."""
    from .._support.io import shown_name

    return shown_name(str(source)) if is_path(source) else "the mapping given"
