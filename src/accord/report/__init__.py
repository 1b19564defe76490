"""Renderers: a result drawn from its measures, kinds, options and tables (terminal tables, JSON, CSV, details
files, HTML pages); none imports a mode."""

from .details import write_details
from .pairs_table import render_table
from .serialize import to_csv, to_json

__all__ = ["render_table", "to_json", "to_csv", "write_details"]
