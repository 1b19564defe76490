"""The text around an error, in the document's own unit (shared by the error files and the error browser)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["context_pieces"]


def context_pieces(doc: Any, a: int, b: int) -> tuple[Sequence[str], bool]:
    """The pieces of a document's extent ``[a, b)``: its tokens (True), or its characters as one string for a
    document whose spans are character offsets (False)."""
    if doc.tokens is not None and doc.text is None:
        return doc.tokens[a:b], True
    return (doc.text or "")[a:b], False
