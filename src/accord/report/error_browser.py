"""The error browser's data embedded in a page: compact JSON safe inside a ``<script>`` element, gzip-compressed in
base64 above a size. The data itself (every CLUEval error row of one or more systems, compact and columnar) is
made by :func:`accord.clueval._browser.error_browser_data`, whose docstring gives its layout."""

from __future__ import annotations

import json
from typing import Any

__all__ = ["embedded_data", "embedded_json", "COMPRESS_OVER"]

COMPRESS_OVER = 1_000_000
"""Embedded data longer than this (characters of JSON) is stored gzip-compressed in base64 (about a third of the
size); the page inflates it with the browser's ``DecompressionStream``."""


def embedded_data(data: Any, compress_over: int = COMPRESS_OVER) -> tuple[str, str]:
    """``(encoding, text)`` of ``data`` for a ``<script type="application/json">`` element: ``("json", JSON)``, or
    ``("gzip+base64", ...)`` when the JSON is longer than ``compress_over`` (deterministic: no time stamp in the
    gzip header, so the same data gives the same page)."""
    import base64
    import gzip

    text = embedded_json(data)
    if len(text) <= compress_over:
        return "json", text
    return "gzip+base64", base64.b64encode(gzip.compress(text.encode("utf-8"), compresslevel=6, mtime=0)).decode()


def embedded_json(data: Any) -> str:
    """``data`` as compact JSON safe inside ``<script type="application/json">`` (no ``<`` at all)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.replace("<", "\\u003c")   # "<" only occurs inside strings, where the escape is the same text
