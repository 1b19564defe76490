"""Reports: the result of a comparison, and its renderings (table, JSON, CSV, details)."""

from ._report import Report
from .details import detail_rows, write_details
from .pairs_table import render_table
from .serialize import to_csv, to_json

__all__ = ["Report", "render_table", "to_json", "to_csv", "detail_rows", "write_details"]
