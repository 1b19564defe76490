"""Reading text files with errors that name the file."""

from __future__ import annotations

import os
from pathlib import Path

from .errors import FormatError

__all__ = ["read_utf8"]


def read_utf8(path: str | os.PathLike) -> str:
    """The file's text (UTF-8, a byte-order mark dropped); a :class:`FormatError` naming it otherwise."""
    p = Path(path)
    try:
        return p.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise FormatError(f"cannot read: {exc.strerror}", path=p) from None
    except UnicodeDecodeError as exc:
        raise FormatError(f"not UTF-8 text ({exc.reason} at byte {exc.start})", path=p) from None
