"""Renderers: a result drawn from its measures, kinds, options and tables (terminal tables, JSON, CSV, details
files, HTML pages); none imports a mode. The names load on first use (PEP 562): a command imports the renderer it
draws with, not the others."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._support.lazy import names_getattr

if TYPE_CHECKING:
    from .details import write_details
    from .pairs_table import render_table
    from .serialize import to_csv, to_json

__all__ = ["render_table", "to_json", "to_csv", "write_details"]

_LAZY = {"write_details": ".details", "render_table": ".pairs_table", "to_csv": ".serialize", "to_json": ".serialize"}


__getattr__ = names_getattr(__name__, _LAZY, globals())
