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
from typing import BinaryIO, cast

from ..errors import FormatError, OptionError

__all__ = ["read_text", "read_text_range", "read_bytes_range", "text_encoding", "current_encoding", "check_encoding",
           "HEAD_BYTES", "compressed_kind", "named_as", "shown_name"]

HEAD_BYTES = 1 << 16
"""Bytes of a text file checked before the whole file is read (see the module docstring)."""

_ENCODING: ContextVar[str] = ContextVar("accord_text_encoding", default="utf-8")
_SHOWN: ContextVar[dict[str, str] | None] = ContextVar("accord_shown_names", default=None)


@contextlib.contextmanager
def named_as(path: str, name: str) -> Iterator[None]:
    """Within the block, outputs (the JSON's ``sources``, captions) name the file ``path`` as ``name`` (standard
    input spooled to a temporary file is ``-``, as the user gave it)."""
    token = _SHOWN.set({**(_SHOWN.get() or {}), str(path): name})
    try:
        yield
    finally:
        _SHOWN.reset(token)


def shown_name(path: str) -> str:
    """``path`` as outputs name it (see :func:`named_as`)."""
    names = _SHOWN.get()
    return path if not names else names.get(path, path)


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


def read_text(path: str | os.PathLike[str], encoding: str | None = None) -> str:
    """The text of a file, decoded, with a leading byte-order mark dropped.

    Line endings are kept as they are in the file (no newline translation), so that
    character offsets into the text stay those of the file.

    Raises
    ------
    FormatError
        The file cannot be read, holds bytes that are not text in the encoding
        (the message gives the byte offset), or holds a NUL byte (a binary file).
    """
    p = Path(path)
    given = encoding or _ENCODING.get()
    name = check_encoding(given)
    try:
        with p.open("rb") as fh:
            head = fh.read(HEAD_BYTES)
            _check_head(head, name, given, p, 0, final=len(head) < HEAD_BYTES)
            if len(head) == HEAD_BYTES:
                head = _read_on(fh, head)
    except IsADirectoryError:
        raise FormatError("is a directory, expected a file", path=p) from None
    except OSError as exc:
        raise FormatError(f"cannot read: {exc.strerror or exc}", path=p) from None
    return _decode(head, name, given, p, 0)


def _read_on(fh: BinaryIO, head: bytes) -> bytes:
    """The whole content of a file whose first bytes ``head`` were read: read again from the start (one copy in
    memory), or, from a pipe, the rest joined to them."""
    try:
        fh.seek(0)
    except OSError:
        return head + fh.read()
    return fh.read()


def _nul_is_binary(name: str) -> bool:
    """Whether a NUL byte can only be binary in this encoding (its ASCII bytes are those of ASCII)."""
    try:
        return "a\n\0".encode(name) == b"a\n\0" and not name.startswith(("utf-16", "utf-32", "utf-7"))
    except (UnicodeError, LookupError):   # pragma: no cover - a codec that cannot encode ASCII
        return False


def _check_head(head: bytes, name: str, given: str, p: Path, start: int, final: bool) -> None:
    """Refuse a binary file from its first bytes: a NUL byte, or bytes that do not decode (checked
    incrementally: a character cut at the end of the head is not an error)."""
    try:
        codecs.getincrementaldecoder(name)().decode(head, final)
    except UnicodeDecodeError as exc:
        _refuse(head, name, given, p, start, exc)
    _refuse(head, name, given, p, start, None)


_COMPRESSED = ((b"\x1f\x8b", "gzip", "gunzip -k FILE"), (b"BZh", "bzip2", "bunzip2 -k FILE"),
               (b"\xfd7zXZ\x00", "xz", "unxz -k FILE"), (b"\x28\xb5\x2f\xfd", "zstd", "unzstd FILE"),
               (b"PK\x03\x04", "zip", "unzip FILE"))
"""Compressed files by their first bytes: named as such, rather than as text in the wrong encoding."""


def compressed_kind(path: str | os.PathLike[str]) -> tuple[str, str] | None:
    """``(kind, how to decompress)`` of a compressed file, from its first bytes; ``None`` for any other."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(8)
    except OSError:
        return None
    return _compressed(head)


def _compressed(head: bytes) -> tuple[str, str] | None:
    return next(((kind, tool) for magic, kind, tool in _COMPRESSED if head.startswith(magic)), None)


def _refuse(data: bytes, name: str, given: str, p: Path, start: int, exc: UnicodeDecodeError | None) -> None:
    """The error of the first NUL byte of ``data`` or, before any, of the bytes that did not decode (``exc``)."""
    nul = data.find(b"\0", 0, len(data) if exc is None else exc.start) if _nul_is_binary(name) else -1
    compressed = _compressed(data) if (nul != -1 or exc is not None) and start == 0 else None
    if compressed is not None:
        raise FormatError(f"a {compressed[0]}-compressed file: decompress it first ({compressed[1]})", path=p)
    if nul != -1:
        raise FormatError(f"a NUL byte at byte {start + nul}: a binary file, not {given} text", path=p)
    if exc is not None:
        raise FormatError(f"not {given} text: {exc.reason} at byte {start + exc.start} "
                          "(choose the file's encoding with --encoding)", path=p) from None


def _decode(data: bytes, name: str, given: str, p: Path, start: int) -> str:
    """``data`` (bytes ``start``... of the file ``p``) decoded; a byte-order mark dropped at the start of the
    file; a NUL byte or bytes that do not decode named by their offset in the file."""
    try:
        text = data.decode("utf-8-sig" if name == "utf-8" and start == 0 else name)
    except UnicodeDecodeError as exc:
        _refuse(data, name, given, p, start, exc)
        raise   # pragma: no cover - _refuse raises
    _refuse(data, name, given, p, start, None)
    if start == 0 and text.startswith("\ufeff"):
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
                return cast(bytes, fh.read() if end is None else fh.read(end - start))   # fsspec is untyped
        with open(path, "rb") as fh:
            fh.seek(start)
            return fh.read() if end is None else fh.read(end - start)
    except IsADirectoryError:
        raise FormatError("is a directory, expected a file", path=path) from None
    except OSError as exc:
        raise FormatError(f"cannot read: {exc.strerror or exc}", path=path) from None


def read_text_range(path: str, start: int, end: int | None, encoding: str | None = None) -> str:
    """The text of bytes ``start`` to ``end`` of a file (a shard that begins and ends at line starts), decoded
    as :func:`read_text` decodes the whole file: a byte-order mark dropped at the start of the file, a NUL byte
    or a byte that does not decode named by its offset in the file."""
    given = encoding or _ENCODING.get()
    name = check_encoding(given)
    return _decode(read_bytes_range(path, start, end), name, given, Path(path), start)
