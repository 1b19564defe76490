"""Reading text files with errors that name the file, in the encoding the user chose.

Every text reader of accord goes through :func:`read_text`. The encoding is the reader's
``encoding`` argument when one is given, else the one set for the running command with
:func:`text_encoding` (``--encoding`` on the command line), else UTF-8. A byte-order mark
at the start of the file is always accepted and dropped. Bytes that do not decode are a
:class:`~accord.errors.FormatError` naming the file and the byte offset.
"""

from __future__ import annotations

import codecs
import contextlib
import os
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path

from .errors import FormatError, OptionError

__all__ = ["read_text", "read_text_range", "read_bytes_range", "text_encoding", "current_encoding", "check_encoding"]

_ENCODING: ContextVar[str] = ContextVar("accord_text_encoding", default="utf-8")


def check_encoding(encoding: str) -> str:
    """The codec's canonical name; an :class:`OptionError` for an encoding Python does not know."""
    try:
        return codecs.lookup(encoding).name
    except (LookupError, TypeError, ValueError):
        raise OptionError(f"--encoding: unknown text encoding {encoding!r} (for example utf-8, utf-16, latin-1, "
                          "cp1252)") from None


@contextlib.contextmanager
def text_encoding(encoding: str | None) -> Iterator[None]:
    """Within the block, text readers without an explicit encoding decode with ``encoding``."""
    if encoding is None:
        yield
        return
    token = _ENCODING.set(check_encoding(encoding))
    try:
        yield
    finally:
        _ENCODING.reset(token)


def current_encoding() -> str:
    """The encoding text readers use when none is given."""
    return _ENCODING.get()


def read_text(path: str | os.PathLike, encoding: str | None = None) -> str:
    """The text of a file, decoded, with a leading byte-order mark dropped.

    Line endings are kept as they are in the file (no newline translation), so that
    character offsets into the text stay those of the file.

    Raises
    ------
    FormatError
        The file cannot be read, or holds bytes that are not text in the encoding
        (the message gives the byte offset).
    """
    p = Path(path)
    name = check_encoding(encoding or _ENCODING.get())
    try:
        data = p.read_bytes()
    except IsADirectoryError:
        raise FormatError("is a directory, expected a file", path=p) from None
    except OSError as exc:
        raise FormatError(f"cannot read: {exc.strerror or exc}", path=p) from None
    if name == "utf-8":
        name = "utf-8-sig"
    try:
        text = data.decode(name)
    except UnicodeDecodeError as exc:
        raise FormatError(f"not {encoding or _ENCODING.get()} text: {exc.reason} at byte {exc.start} "
                          "(choose the file's encoding with --encoding)", path=p) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return text



def read_bytes_range(path: str, start: int, end: int | None) -> bytes:
    """Bytes ``start`` to ``end`` (``None``: the end of the file) of a local file or of an fsspec URL
    (``s3://bucket/key``, when the filesystem's package is installed)."""
    try:
        if "://" in path:
            try:
                import fsspec
            except ImportError:
                raise FormatError("reading a URL needs fsspec (and its filesystem's package, such as s3fs)",
                                  path=path) from None
            with fsspec.open(path, "rb") as fh:
                fh.seek(start)
                return fh.read() if end is None else fh.read(end - start)
        with open(path, "rb") as fh:
            fh.seek(start)
            return fh.read() if end is None else fh.read(end - start)
    except IsADirectoryError:
        raise FormatError("is a directory, expected a file", path=path) from None
    except OSError as exc:
        raise FormatError(f"cannot read: {exc.strerror or exc}", path=path) from None


def read_text_range(path: str, start: int, end: int | None, encoding: str | None = None) -> str:
    """The text of bytes ``start`` to ``end`` of a file (a shard that begins and ends at line starts), decoded
    as :func:`read_text` decodes the whole file: a byte-order mark dropped at the start of the file, a byte that
    does not decode named by its offset in the file."""
    name = check_encoding(encoding or _ENCODING.get())
    data = read_bytes_range(path, start, end)
    if name == "utf-8" and start == 0:
        name = "utf-8-sig"
    try:
        text = data.decode(name)
    except UnicodeDecodeError as exc:
        raise FormatError(f"not {encoding or _ENCODING.get()} text: {exc.reason} at byte {start + exc.start} "
                          "(choose the file's encoding with --encoding)", path=Path(path)) from None
    if start == 0 and text.startswith("\ufeff"):
        text = text[1:]
    return text
