"""The part of a relation's target in the content keys of MAT's pairing (:func:`accord.match.engine._content_key`)."""

from __future__ import annotations

from ..model import Annotation

__all__ = ["target_text"]


def target_text(target: Annotation) -> str:
    """``repr(("@", label, start, end))`` of a relation's target (-1 for an offset it does not have), written
    without the tuple: the part every content key of a relation pointing to it holds (the engine's and the
    relations' batch's, which keep it under ``~id(target)``)."""
    start = -1 if target.start is None else target.start
    end = -1 if target.end is None else target.end
    return f"('@', {target.label!r}, {start!r}, {end!r})"
