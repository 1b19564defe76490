"""Details files: one row per item of a result and why it counted as it did, as CSV or JSON lines."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..errors import OptionError

__all__ = ["write_details", "write_rows"]


def write_details(result: Any, path: str | Path) -> None:
    """Write the details table of ``result`` (:meth:`accord.result.Result.details`) as CSV, or as JSON lines when
    the file name ends in ``.jsonl``."""
    table = result.details()
    if table is None:
        raise OptionError(f"{result.command} ({result.mode}) lists no details")
    write_rows(table.records(), path, table.columns)


def write_rows(rows: Iterable[Mapping[str, Any]], path: str | Path, columns: Sequence[str]) -> None:
    """Write rows as CSV with ``columns``, or as JSON lines when the file name ends in ``.jsonl``.

    In CSV a missing value is empty, a list or object is written as JSON text, and a text that a spreadsheet would
    run as a formula starts with ``'`` (:mod:`accord._support.csv_cells`). ``-`` is standard output.
    """
    from .._support.csv_cells import SpreadsheetDictWriter
    from .._support.safe_paths import atomic_write

    p = Path(path)
    if p.suffix.lower() == ".jsonl":
        with atomic_write(path) as fh:      # whole or not at all; '-' is standard output
            for r in rows:
                fh.write(json.dumps(r, ensure_ascii=False) + "\n")
        return
    with atomic_write(path, newline="") as fh:
        w = SpreadsheetDictWriter(fh, fieldnames=list(columns))    # a label never reads as a formula
        w.writeheader()
        for r in rows:
            w.writerow({k: "" if v is None else json.dumps(v, ensure_ascii=False)
                        if isinstance(v, (list, tuple, dict)) else v for k, v in r.items()})
