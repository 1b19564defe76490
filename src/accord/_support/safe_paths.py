"""Where accord writes: file names made from document ids, files and folders written whole, inputs never
overwritten, ``-`` as standard output.

Every writer goes through this module (see docs/security.md):

- :func:`file_name` turns a document id into one file name (never a path): characters that a file name cannot
  hold safely are written ``%XX`` (their UTF-8 bytes), so that :func:`document_id` reads the id back; an id too long
  for a file name is cut and ends with ``%~`` and a hash of the whole id (the only case the name does not give the
  id back). :func:`file_names` maps a corpus's ids and refuses two ids that would share one file.
- :func:`inside` checks that a file about to be written lies in its output folder, symbolic links resolved.
- :func:`atomic_write` writes a file beside its target and renames it into place when complete;
  :func:`atomic_directory` builds a folder beside its target and moves it in. An interruption (an error,
  ``Ctrl-C``) leaves the previous output, or none, never a half-written one.
- :func:`protected_inputs` names the inputs of a command: writing over one of them is an error.
"""

from __future__ import annotations

import os
import re
import stat
import sys
import unicodedata
import warnings
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO, Any

from ..errors import AccordError, AccordWarning, OutputError

# hashlib, shutil, signal, tempfile and threading are imported by the functions that use them: every command imports
# this module (its inputs protected), few write a file

__all__ = ["MAX_NAME_BYTES", "file_name", "document_id", "id_from_file_name", "file_names", "inside", "atomic_write",
           "write_text", "staged_file",
           "atomic_directory", "folder_of", "protected_inputs", "check_not_input", "is_stdout", "RenamedFileWarning"]

MAX_NAME_BYTES = 200
"""The longest name made from an id, in UTF-8 bytes, before its extension (file systems allow 255)."""

_RESERVED = {"CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$", *(f"COM{c}" for c in "0123456789¹²³"),
             *(f"LPT{c}" for c in "0123456789¹²³")}
"""Names Windows reserves for devices, with or without an extension, in any case."""

_UNSAFE = set('/\\:<>|?*"')
"""Characters escaped anywhere: the path separators and what Windows forbids in a name (``:`` opens an NTFS
stream); control and invisible formatting characters too (:func:`_needs_escape`)."""


class RenamedFileWarning(AccordWarning):
    """A document was written to a file whose name is not its id (the id could not be a file name as is)."""


_ESCAPE_LIKE = re.compile(r"[0-9A-F]{2}|~")
"""What follows a ``%`` that is written ``%25``: an escape, or the mark of a cut name (a lone ``%`` stays)."""


def _escape(ch: str) -> str:
    return "".join(f"%{b:02X}" for b in ch.encode("utf-8", "surrogatepass"))


def _needs_escape(ch: str) -> bool:
    return ch in _UNSAFE or unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp")


def file_name(doc_id: str, extension: str = "") -> str:
    """The file name of a document: its id, with what a file name cannot safely hold escaped, then ``extension``.

    Escaped (as ``%XX``, the character's UTF-8 bytes): the path separators ``/`` and ``\\``, what Windows forbids
    (``: < > | ? * "``), control characters, invisible formatting characters (bidirectional overrides, zero-width
    characters: a name must not show as another) and line separators, a ``%`` that would read as an escape; a leading
    ``.`` (no ``.``, ``..`` or hidden file); a trailing ``.`` or space (Windows drops them); the first letter of a name
    Windows reserves (``CON``, ``NUL``, ``COM1``, ... with or without an extension).
    A name longer than :data:`MAX_NAME_BYTES` bytes is cut and ends with ``%~`` and 16 hex digits of the id's
    SHA-256. :func:`document_id` reads an uncut name back.

    Raises
    ------
    OutputError
        An empty id (it names no file).
    """
    import hashlib

    if not isinstance(doc_id, str) or doc_id == "":
        raise OutputError(f"document id {doc_id!r} cannot name a file: give the document an id")
    chars = [_escape(c) if _needs_escape(c) or c == "%" and _ESCAPE_LIKE.match(doc_id, i + 1) else c
             for i, c in enumerate(doc_id)]
    if len(doc_id) > 1 and doc_id[1] == ":" and doc_id[0].isascii() and doc_id[0].isalpha():
        chars[1] = _escape(":")     # not a drive (C:name)
    if doc_id[0] == ".":
        chars[0] = _escape(".")
    if doc_id[-1] in ". " and len(doc_id) > 1:
        chars[-1] = _escape(doc_id[-1])
    stem = "".join(chars)
    if stem.split(".", 1)[0].rstrip(" ").upper() in _RESERVED:
        stem = _escape(stem[0]) + stem[1:]
    if len(stem.encode("utf-8", "surrogatepass")) > MAX_NAME_BYTES:
        digest = hashlib.sha256(doc_id.encode("utf-8", "surrogatepass")).hexdigest()[:16]
        room = MAX_NAME_BYTES - 2 - len(digest)
        cut, size = [], 0
        for piece in re.findall(r"%[0-9A-F]{2}|.", stem, flags=re.DOTALL):   # never inside an escape
            size += len(piece.encode("utf-8", "surrogatepass"))
            if size > room:
                break
            cut.append(piece)
        stem = "".join(cut) + "%~" + digest
    return stem + extension


def document_id(name: str, extension: str = "") -> str | None:
    """The id that :func:`file_name` wrote as ``name`` (``None`` for a name cut to length: its id is not in it)."""
    stem = name[: len(name) - len(extension)] if extension and name.endswith(extension) else name
    if "%~" in stem:
        return None
    raw = re.sub(r"(?:%[0-9A-F]{2})+", lambda m: bytes.fromhex(m.group(0).replace("%", "")).decode(
        "utf-8", "surrogatepass"), stem)
    return raw


def id_from_file_name(stem: str) -> str:
    """The document id a file named ``stem`` (its name without the extension) holds: the id :func:`file_name`
    wrote as this name (``%2E.%2Fevil`` is ``../evil``, ``%43ON`` is ``CON``), so that a corpus written to a folder
    reads back with its ids; any other name (one accord would not have written, a cut one) is its own id."""
    if "%" not in stem:
        return stem
    try:
        found = document_id(stem)
    except (ValueError, UnicodeDecodeError):
        return stem
    if found is None or not found:
        return stem
    try:
        return found if file_name(found) == stem else stem
    except OutputError:
        return stem


def _fold(name: str) -> str:
    """A name as a case-insensitive, normalising file system (Windows, macOS) sees it."""
    return unicodedata.normalize("NFC", name).casefold()


def file_names(ids: Iterable[str], extension: str = "", *, warn: bool = True) -> dict[str, str]:
    """The file name of every document id (:func:`file_name`), with a warning for each name that is not its id.

    Raises
    ------
    OutputError
        Two ids that give one file name (also where only case or Unicode normalisation differs: one file on
        Windows and macOS); the message names both.
    """
    out: dict[str, str] = {}
    seen: dict[str, str] = {}
    renamed: list[tuple[str, str]] = []
    for doc_id in ids:
        name = file_name(doc_id, extension)
        key = _fold(name)
        if key in seen and seen[key] != doc_id:
            raise OutputError(f"documents {seen[key]!r} and {doc_id!r} would be written to one file, {name!r} (ids "
                              "that differ only in case or Unicode normalisation share a file on Windows and macOS); "
                              "give them distinct ids")
        seen[key] = doc_id
        out[doc_id] = name
        if name != doc_id + extension:
            renamed.append((doc_id, name))
    if warn and renamed:    # one warning for all (thousands of path-like ids made thousands of lines)
        cut = [(i, n) for i, n in renamed if "%~" in n]
        shown = ", ".join(f"{_short(i)} as {_short(n)}" for i, n in (cut + renamed)[:3])
        more = f" and {len(renamed) - 3} more" if len(renamed) > 3 else ""
        note = (f"; {len(cut)} cut to length and hashed: their ids are not in their names, only here" if cut else
                "; reading the folder gives the ids back")
        warnings.warn(RenamedFileWarning(f"{len(renamed)} document(s) written under another name, their ids "
                                         f"holding what a file name cannot: {shown}{more}{note}"), stacklevel=2)
    return out


def _short(text: str, limit: int = 80) -> str:
    shown = repr(text)
    return shown if len(shown) <= limit else shown[: limit - 5] + "...'"


def inside(directory: str | os.PathLike[str], name: str) -> Path:
    """``directory / name``, checked to lie in ``directory`` once symbolic links are resolved.

    Raises
    ------
    OutputError
        ``name`` is a path, not a name, or resolves (through a symbolic link) outside ``directory``.
    """
    if not name or name in (".", "..") or "/" in name or "\\" in name or "\0" in name:
        raise OutputError(f"{name!r} is not a file name: files are written inside {directory}")
    folder = Path(os.path.realpath(directory))
    path = Path(directory) / name
    real = Path(os.path.realpath(path))
    if real.parent != folder:
        raise OutputError(f"{path} leads outside {directory} (to {real}); accord writes only inside its output folder")
    return path


# -- inputs a command reads -------------------------------------------------------------------------------------------
_protected: list[Path] = []


@contextmanager
def protected_inputs(paths: Iterable[str | os.PathLike[str]]) -> Iterator[None]:
    """While the block runs, writing over one of ``paths`` (or a file inside one of them, a folder) is an error."""
    added = [Path(os.path.realpath(p)) for p in paths if p and str(p) != "-" and os.path.exists(p)]
    _protected.extend(added)
    try:
        yield
    finally:
        for p in added:
            _protected.remove(p)


def check_not_input(path: str | os.PathLike[str]) -> None:
    """Refuse ``path`` as an output where it is (or would overwrite a file of) an input of the command."""
    real = Path(os.path.realpath(path))
    for p in _protected:
        if real == p or (p.is_dir() and real.is_relative_to(p) and real.is_file()):
            raise OutputError(f"{path} is an input of this command (or a file of an input folder): accord never "
                              "writes over its input; give another output")


def is_stdout(path: object) -> bool:
    """``-``: standard output."""
    return path is not None and str(path) == "-"


# -- atomic files and folders -----------------------------------------------------------------------------------------
def folder_of(path: str | os.PathLike[str], real: Path) -> Path:
    """The folder a file output ``path`` (resolved: ``real``) goes in; an :class:`OutputError` naming ``path`` as
    given when it does not exist (never the temporary file's name)."""
    if not real.parent.is_dir():
        raise OutputError(f"{path}: the folder {Path(path).parent} does not exist; create it first")
    return real.parent


def special_file(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` names an existing file that is neither a regular file nor a folder: a device (``/dev/null``,
    ``/dev/stdout``), a named pipe, a socket. Such an output is written to in place: renaming a temporary file onto it
    would replace the device or the pipe with a regular file."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def check_output_folder(path: str | os.PathLike[str]) -> None:
    """An output's folder exists (``-`` and devices aside): checked before a command does any work, so that a
    mistyped folder costs nothing and prints nothing but the one-line :class:`OutputError`."""
    if is_stdout(path) or special_file(path):
        return
    folder_of(path, Path(os.path.realpath(path)))


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _mode_for(real: Path) -> int:
    """The permissions of a file written to ``real``: those of the file it replaces (a private file stays private),
    else the default of a new file (the umask)."""
    try:
        return stat.S_IMODE(os.stat(real).st_mode)
    except OSError:
        return 0o666 & ~_umask()


@contextmanager
def _uninterrupted() -> Iterator[None]:
    """Hold ``Ctrl-C`` and ``SIGTERM`` back while renames complete (in the main thread; elsewhere nothing to hold)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    held = (signal.SIGINT, signal.SIGTERM)
    try:
        old = {sig: signal.signal(sig, lambda signum, frame: caught.append(signum)) for sig in held}
    except ValueError:   # pragma: no cover - not the main interpreter
        yield
        return
    try:
        yield
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
        if signal.SIGTERM in caught:
            os.kill(os.getpid(), signal.SIGTERM)   # the default action, now that the renames are done
        if caught:
            raise KeyboardInterrupt


@contextmanager
def atomic_write(path: str | os.PathLike[str], mode: str = "w", *, encoding: str | None = "utf-8",
                 newline: str | None = None) -> Iterator[IO[Any]]:
    """A file object whose content replaces ``path`` only when the block completes; ``-`` is standard output.

    The file is written to a temporary file in the same folder and renamed into place; an exception (or
    ``Ctrl-C``) in the block removes the temporary file and leaves ``path`` as it was.

    Raises
    ------
    OutputError
        ``path`` is an input of the command (:func:`protected_inputs`) or a folder.
    """
    import tempfile

    binary = "b" in mode
    if is_stdout(path):
        stream: Any = sys.stdout.buffer if binary else sys.stdout
        yield stream
        stream.flush()
        return
    check_not_input(path)
    if special_file(path):     # /dev/null, a named pipe: written to, never replaced
        with open(path, mode, encoding=None if binary else encoding, newline=None if binary else newline) as direct:
            yield direct
        return
    real = Path(os.path.realpath(path))
    if real.is_dir():
        raise OutputError(f"{path} is a folder; give a file name")
    fd, tmp = tempfile.mkstemp(prefix=f".{real.name[:60]}.", suffix=".accord-tmp", dir=folder_of(path, real))
    try:
        with os.fdopen(fd, mode, encoding=None if binary else encoding, newline=None if binary else newline) as fh:
            yield fh
        os.chmod(tmp, _mode_for(real))
        os.replace(tmp, real)
    except BaseException:
        with suppress(OSError):
            os.unlink(tmp)
        raise


@contextmanager
def staged_file(path: str | os.PathLike[str]) -> Iterator[Path]:
    """A temporary file beside ``path`` for a writer that takes a path, renamed to ``path`` when the block
    completes (``-``: copied to standard output); an error's message names ``path``, not the temporary file.

    The temporary name ends with ``path``'s name, so that writers choosing by the extension choose alike.
    """
    import shutil
    import tempfile

    stdout = is_stdout(path)
    special = not stdout and special_file(path)
    if stdout or special:     # written to a temporary file, then copied out (a device or a pipe is never replaced)
        if special:
            check_not_input(path)
        folder, name = tempfile.gettempdir(), "stdout" if stdout else Path(path).name
        real = None
    else:
        check_not_input(path)
        real = Path(os.path.realpath(path))
        if real.is_dir():
            raise OutputError(f"{path} is a folder; give a file name")
        folder, name = str(folder_of(path, real)), real.name
    fd, tmp = tempfile.mkstemp(prefix=".accord-", suffix="-" + name[-80:], dir=folder)
    os.close(fd)
    try:
        try:
            yield Path(tmp)
        except AccordError as exc:
            exc.args = tuple(a.replace(tmp, str(path)) if isinstance(a, str) else a for a in exc.args)
            # the errors that name a file have a path attribute (FormatError and others); getattr tests for it
            if getattr(exc, "path", None) is not None and str(exc.path) == tmp:   # type: ignore[attr-defined]
                exc.path = path   # type: ignore[attr-defined]
            raise
        if real is None and special:
            with open(tmp, "rb") as fh, open(path, "wb") as out:
                shutil.copyfileobj(fh, out)
        elif real is None:
            sys.stdout.flush()
            with open(tmp, "rb") as fh:
                shutil.copyfileobj(fh, sys.stdout.buffer)
            sys.stdout.buffer.flush()
        else:
            os.chmod(tmp, _mode_for(real))
            os.replace(tmp, real)
    finally:
        with suppress(OSError):
            os.unlink(tmp)


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` with :func:`atomic_write`."""
    with atomic_write(path) as fh:
        fh.write(text)


@contextmanager
def atomic_directory(path: str | os.PathLike[str]) -> Iterator[Path]:
    """A new, empty folder to build a folder output in; its files go to ``path`` only when the block completes.

    Where ``path`` does not exist, the built folder is renamed to it (one rename). Where it is a folder already, the
    folder itself is never moved, renamed or re-created (its permissions, owner, mount and the user's other files
    stay as they are): the output is built in a hidden folder inside it and each file is then renamed over its
    namesake (each replacement atomic), with ``Ctrl-C`` and ``SIGTERM`` held back until the last rename is done. An
    exception (or ``Ctrl-C``) in the block removes the built folder and leaves ``path`` as it was.

    Raises
    ------
    OutputError
        ``path`` is ``-`` or a file; an output file would replace a folder of the same name (never deleted), or a file
        of an input of the command.
    """
    import shutil
    import tempfile

    if is_stdout(path):
        raise OutputError("'-': this output is a folder of files, which standard output cannot hold; give a folder")
    target = Path(path)
    if target.exists() and not target.is_dir():
        raise OutputError(f"{path} is a file; this output is a folder")
    real = Path(os.path.realpath(target))
    existed = real.is_dir()
    if not existed and not real.parent.is_dir():
        raise OutputError(f"{path}: its parent folder {target.parent} does not exist")
    where = real if existed else real.parent
    try:
        tmp = Path(tempfile.mkdtemp(prefix=f".{real.name[:60]}." if not existed else ".accord-",
                                    suffix=".accord-tmp", dir=where))
    except OSError as exc:
        raise OutputError(f"{path}: cannot write there ({exc.strerror})") from None
    try:
        yield tmp
        entries = os.listdir(tmp)
        for entry in entries:
            check_not_input(real / entry)
            if existed and (real / entry).is_dir() and not (real / entry).is_symlink():
                raise OutputError(f"{target / entry} is a folder; accord would write the file {entry} there and never "
                                  "deletes a folder: move it or choose another output")
        with _uninterrupted():
            if existed:
                for entry in entries:
                    os.replace(tmp / entry, real / entry)
                tmp.rmdir()
            else:
                os.chmod(tmp, 0o777 & ~_umask())
                os.rename(tmp, real)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
