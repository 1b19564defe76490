"""Renderers: a result drawn from its measures, kinds, options and tables (terminal tables, JSON, CSV, details
files, HTML pages); none imports a mode. The names load on first use (PEP 562): a command imports the renderer it
draws with, not the others."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .details import write_details
    from .pairs_table import render_table
    from .serialize import to_csv, to_json

__all__ = ["render_table", "to_json", "to_csv", "write_details"]

_LAZY = {"write_details": ".details", "render_table": ".pairs_table", "to_csv": ".serialize", "to_json": ".serialize"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(import_module(_LAZY[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
