"""The JSON and CSV of a result (the JSON text itself: :mod:`accord.result._json_text`)."""

from __future__ import annotations

from typing import Any

from ..result._json_text import json_text

__all__ = ["to_json", "to_csv", "json_text"]


def to_json(result: Any, indent: int | None = 2) -> str:
    """A result as JSON text (:meth:`accord.result.Result.to_json`)."""
    return result.to_json(indent=indent)


def to_csv(result: Any) -> str:
    """A result as CSV text (:meth:`accord.result.Result.to_csv`)."""
    return result.to_csv()
