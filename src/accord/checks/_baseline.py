"""A baseline of ``accord check``: a result JSON of ``accord score`` read back into a :class:`~accord.result.Result`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .._support.io import read_text
from ..errors import FormatError
from ..result import ALL, CountTable, Measure, PairsKind, Result

__all__ = ["is_result_json", "load_result"]

MAX_BASELINE_BYTES = 1 << 30
"""The largest result JSON read as a baseline (1 GiB): a larger file is refused before it is read."""


def is_result_json(path: str | Path) -> bool:
    """Whether ``path`` is a file whose first non-blank character is ``{`` (a result JSON, not predictions)."""
    p = Path(path)
    if not p.is_file():
        return False
    with p.open("rb") as fh:
        head = fh.read(256).lstrip(b"\xef\xbb\xbf \t\r\n")
    return head.startswith(b"{")


def _count(value: Any, where: str, path: Path) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise FormatError(f"{where}: expected a count (a whole number >= 0), found {value!r}", path=path)
    return value


def _cells(block: Any, fields: tuple[str, ...], where: str, path: Path) -> list[int]:
    if not isinstance(block, dict):
        raise FormatError(f"{where}: expected an object of counts", path=path)
    missing = [f for f in fields if f not in block]
    if missing:
        raise FormatError(f"{where}: no {missing[0]!r} count (a result of the pairs mode has "
                          f"{', '.join(fields)})", path=path)
    counts = [_count(block[f], f"{where} {f}", path) for f in fields]
    match, gold_clash, pred_clash, missing_, spurious = counts
    for name, total in (("gold", match + gold_clash + missing_), ("pred", match + pred_clash + spurious)):
        if name in block and block[name] != total:
            raise FormatError(f"{where}: {name} is {block[name]!r}, but its parts add up to {total}", path=path)
    return counts


def load_result(path: str | Path) -> Result:
    """Read a result JSON written by ``accord score -o FILE.json`` (the pairs mode) back into a result whose
    per-document counts a paired test can resample.

    Raises
    ------
    FormatError
        The file is not JSON, not a result of ``accord score`` in the pairs mode, or has no per-document counts
        (``by_document`` and ``by_document_label``), or its counts do not add up.
    """
    p = Path(path)
    size = p.stat().st_size
    if size > MAX_BASELINE_BYTES:
        raise FormatError(f"a baseline result of {size:,} bytes is larger than the {MAX_BASELINE_BYTES:,} read",
                          path=p)
    try:
        obj = json.loads(read_text(p))
    except json.JSONDecodeError as exc:
        raise FormatError(f"not JSON: {exc.msg}", path=p, line=exc.lineno) from None
    if not isinstance(obj, dict) or obj.get("command") != "score" or obj.get("kind") != "pairs" \
            or "measures" in obj:
        raise FormatError("not a result of accord score in the pairs mode (command 'score', kind 'pairs'): give "
                          "the JSON of accord score -o base.json, or the baseline's predictions", path=p)
    by_document, by_label = obj.get("by_document"), obj.get("by_document_label")
    if not isinstance(by_document, dict) or not isinstance(by_label, dict):
        raise FormatError("no per-document counts (by_document, by_document_label): the paired test resamples "
                          "documents", path=p)
    given = obj.get("options")
    options: dict[str, Any] = given if isinstance(given, dict) else {}
    try:
        kind = PairsKind(beta=float(options.get("beta", 1.0)), zero_division=str(options.get("zero_division",
                                                                                               "zero")))
    except (TypeError, ValueError) as exc:
        raise FormatError(f"options: {exc}", path=p) from None
    fields = kind.fields
    cells: list[tuple[str, tuple[str, ...], list[int]]] = []
    for doc, block in by_document.items():
        cells.append((str(doc), ALL, _cells(block, fields, f"by_document {doc!r}", p)))
    for doc, labels in by_label.items():
        if str(doc) not in by_document:
            raise FormatError(f"by_document_label: document {doc!r} is not in by_document", path=p)
        if not isinstance(labels, dict):
            raise FormatError(f"by_document_label {doc!r}: expected an object of labels", path=p)
        for label, block in labels.items():
            cells.append((str(doc), ("label", str(label)),
                          _cells(block, fields, f"by_document_label {doc!r} {label!r}", p)))
    table = CountTable.build(fields, cells, documents=[str(d) for d in by_document])
    given = obj.get("inputs")
    inputs: dict[str, Any] = given if isinstance(given, dict) else {}
    result = Result("score", str(obj.get("mode", "pairs")), {kind.name: Measure(kind, table)}, nested=False,
                    options=options, inputs=inputs)
    result.from_json = True     # type: ignore[attr-defined]  # options it does not record are unknown, not absent
    return result
