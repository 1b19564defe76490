"""The registry of formats: names, readers, writers and sniffing."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .._support.safe_paths import id_from_file_name
from ..errors import FormatError, OptionError, quoted
from ..model import Corpus, Document

__all__ = ["Format", "register", "get", "names", "sniff", "by_extension", "read", "write", "file_head",
           "format_table", "input_files", "input_options", "option_hint", "BUILTIN_FORMATS"]


@dataclass(frozen=True)
class Format:
    """A registered format.

    ``read(path, **options) -> Corpus`` reads one file (or, for ``directory_unit`` formats
    such as brat, one document made of several files); ``write(corpus, path, **options)``
    writes it back. ``extensions`` and ``sniff`` let accord guess the format.
    """

    name: str
    read: Callable[..., Corpus]
    write: Callable[..., None]
    extensions: tuple[str, ...]
    sniff: Callable[[Path], bool] | None = None
    description: str = ""
    discontinuous: bool = False
    """Whether the format holds discontinuous spans (:attr:`~accord.model.Annotation.fragments`); writing one to
    a format that does not is an error, not a silent merge."""
    check: Callable[[Corpus, Path, dict[str, Any]], None] | None = None
    """A check of the whole corpus read (every file of a folder), given the path and the reader's options: it
    raises a :class:`~accord.errors.FormatError` for a corpus that would score as if it were empty."""


_FORMATS: dict[str, Format] = {}

_DEFAULT_OPTION_NAMES = (("format", "--format"), ("set", "--gold-set / --pred-set"))
_OPTION_NAMES: ContextVar[tuple[tuple[str, str], ...]] = ContextVar("accord_input_options",
                                                                    default=_DEFAULT_OPTION_NAMES)
"""The options that name an input's format and annotation set in the running command (:func:`input_options`)."""


@contextmanager
def input_options(**names: str) -> Iterator[None]:
    """Within the block, messages name the input options as the running command spells them: ``format`` (``accord
    convert``: ``--from``) and ``set`` (``accord convert``: ``--set``)."""
    token = _OPTION_NAMES.set(tuple({**dict(_OPTION_NAMES.get()), **names}.items()))
    try:
        yield
    finally:
        _OPTION_NAMES.reset(token)


def option_hint(what: str) -> str:
    """The option of the running command that gives an input's ``format`` or annotation ``set``."""
    return dict(_OPTION_NAMES.get())[what]

BUILTIN_FORMATS: dict[str, tuple[str, tuple[str, ...]]] = {
    "brat": ("text.brat", (".ann",)),
    "conll": ("tokens.conll", (".conll", ".conll03", ".bio", ".iob", ".iob2", ".bioes", ".tsv", ".txt", ".col")),
    "gate": ("text.gate", (".xml",)),
    "jsonl": ("text.jsonl", (".jsonl",)),
    "mat-json": ("text.matjson", (".json",)),
    "vrt": ("tokens.vrt", (".vrt",)),
    "spans": ("tokens.spans_table", ()),
    "spacy": ("tokens.spacy_docbin", (".spacy",)),
    "conllu": ("tokens.conllu", (".conllu",)),
    "label-studio": ("text.label_studio", (".json",)),
    "doccano": ("text.doccano", (".jsonl",)),
    "prodigy": ("text.prodigy", (".jsonl",)),
    "records": ("records.generated", (".jsonl", ".json", ".tsv")),
    "xmi": ("text.xmi", (".xmi",)),
    "webanno-tsv": ("text.webanno_tsv", (".tsv",)),
    "xml-inline": ("text.xml_inline", (".xml",)),
    "fake-xml-inline": ("text.xml_inline", ()),
}
"""accord's own formats: name -> (module of ``accord.formats``, extensions). A module registers its format when it
is imported, on first use (:func:`_load`), so that ``accord --help`` imports no reader; the tests check that this
table says what the modules register."""

_loaded = False


def _load() -> None:
    """Import every built-in format module (once), in the order that sniffing tries them."""
    global _loaded
    if not _loaded:
        from importlib import import_module

        for module in dict.fromkeys(m for m, _ in BUILTIN_FORMATS.values()):
            import_module(f"{__package__}.{module}")
        _loaded = True


def _ordered() -> list[Format]:
    """The registered formats, the built-in ones first in the table's order (sniffing tries them in this order,
    whichever module happened to be imported first)."""
    _load()
    first = [_FORMATS[name] for name in BUILTIN_FORMATS if name in _FORMATS]
    return first + [f for name, f in _FORMATS.items() if name not in BUILTIN_FORMATS]


def format_table() -> list[tuple[str, tuple[str, ...]]]:
    """``(name, extensions)`` of every format, without importing a reader."""
    table = {name: exts for name, (_, exts) in BUILTIN_FORMATS.items()}
    table.update({f.name: f.extensions for f in _FORMATS.values()})
    return list(table.items())


_BOMS = ((b"\xef\xbb\xbf", "utf-8-sig"), (b"\xff\xfe\x00\x00", "utf-32"), (b"\x00\x00\xfe\xff", "utf-32"),
         (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16"))
"""Byte-order marks and the codec that reads a text beginning with one (UTF-32's before UTF-16's: FF FE starts
both)."""


def file_head(path: str | os.PathLike, size: int = 4096) -> str | None:
    """The first ``size`` characters of a file for sniffing (undecodable bytes replaced), or ``None``
    when it cannot be read. The text is decoded as the readers will decode it (``--encoding``, UTF-8 by default),
    a byte-order mark choosing the codec and dropped, so that a BOM never hides the first character."""
    from .._support.io import current_encoding

    try:
        with open(path, "rb") as fh:
            start = fh.read(4)
        encoding = next((name for bom, name in _BOMS if start.startswith(bom)), current_encoding())
        if encoding == "utf-8":
            encoding = "utf-8-sig"
        with open(path, encoding=encoding, errors="replace") as fh:
            head = fh.read(size)
    except (OSError, LookupError, ValueError):
        return None
    return head.removeprefix("\ufeff")


def register(fmt: Format) -> Format:
    """Add a format to the registry (a later registration of the same name replaces it)."""
    _FORMATS[fmt.name] = fmt
    return fmt


def names() -> list[str]:
    """The format names (built-in and registered)."""
    return sorted(set(BUILTIN_FORMATS) | set(_FORMATS))


def get(name: str) -> Format:
    """The format called ``name`` (a built-in one is loaded on first use)."""
    if name not in _FORMATS and name in BUILTIN_FORMATS:
        from importlib import import_module

        import_module(f"{__package__}.{BUILTIN_FORMATS[name][0]}")
    if name not in _FORMATS:
        _load()
    try:
        return _FORMATS[name]
    except KeyError:
        raise OptionError(f"unknown format {name!r}; known formats: {', '.join(names())}") from None


_DIRECTORY_MARKS = {"brat": ".ann", "xmi": ".xmi"}
"""A directory holding files of this extension is in this format, whatever else it holds."""


def sniff(path: str | os.PathLike) -> Format:
    """Guess the format of a file or directory from its extensions and first bytes."""
    p = Path(path)
    claimed = [name for name, ext in format_table() if p.suffix.lower() in ext]
    if len(claimed) == 1 and p.is_file():
        # one format claims the extension: only its reader is loaded, and it gives the precise error if the
        # content is wrong
        return get(claimed[0])
    formats = _ordered()
    if p.is_dir():
        exts = {f.suffix.lower() for f in p.iterdir() if f.is_file()}
        for fmt in formats:   # brat's .ann beside .txt, XMI beside its TypeSystem.xml
            if fmt.name in _DIRECTORY_MARKS and _DIRECTORY_MARKS[fmt.name] in exts:
                return fmt
        candidates = [fmt for fmt in formats if exts & set(fmt.extensions)]
        if len(candidates) > 1:     # formats sharing an extension: each file's format as a file alone is sniffed
            return _sniff_folder(p, candidates)
        if len(candidates) == 1:
            return candidates[0]
        raise FormatError(
            "cannot tell the format of this directory from its file extensions "
            f"({', '.join(sorted(exts)) or 'no files'}); give it with {option_hint('format')}", path=p)
    if not p.exists():
        raise FormatError("no such file or directory", path=p)
    ext = p.suffix.lower()
    matches = [fmt for fmt in formats if ext in fmt.extensions]
    if len(matches) == 1:
        return matches[0]
    confirmed = [fmt for fmt in matches if fmt.sniff is None or fmt.sniff(p)]
    if len(confirmed) == 1:
        return confirmed[0]
    sniffed = [fmt for fmt in formats if fmt.sniff is not None and fmt.sniff(p)]
    if len(sniffed) == 1:
        return sniffed[0]
    from .._support.io import compressed_kind

    compressed = compressed_kind(p)
    if compressed is not None:
        raise FormatError(f"a {compressed[0]}-compressed file: decompress it first ({compressed[1]})", path=p)
    head = file_head(p, 512) or ""
    if head.lstrip().startswith("<View") or "<View>" in head[:200]:
        raise FormatError("a Label Studio labelling configuration (<View>), not annotations: give the export of the "
                          "project (JSON)", path=p)
    raise FormatError(
        f"cannot tell the format of this file (extension {ext or 'none'!r}); give it with {option_hint('format')} "
        f"({', '.join(names())})", path=p)


SNIFFED_FILES = 20
"""The files of a folder whose formats are sniffed when several formats claim its extensions."""


def _sniff_folder(p: Path, candidates: list[Format]) -> Format:
    """The format of a folder whose extensions several formats claim (``.jsonl``: accord's JSON lines and doccano;
    ``.json``; ``.xml``): that of its first files, each sniffed as a file given alone is; files of different
    formats are an error naming two of them."""
    claimed = {ext for fmt in candidates for ext in fmt.extensions}
    files = sorted(f for f in p.iterdir() if f.is_file() and f.suffix.lower() in claimed)[:SNIFFED_FILES]
    found: dict[str, Path] = {}
    for f in files:
        try:
            found.setdefault(sniff(f).name, f)
        except FormatError:
            continue
    if len(found) == 1:
        return get(next(iter(found)))
    if found:
        shown = ", ".join(f"{f.name} ({name})" for name, f in list(found.items())[:3])
        raise FormatError(f"the files of this directory are of several formats ({shown}); give one with "
                          f"{option_hint('format')}", path=p)
    raise FormatError(f"cannot tell the format of this directory: none of its {', '.join(sorted(claimed))} files "
                      f"is recognised; give it with {option_hint('format')}", path=p)


def by_extension(path: str | os.PathLike, option: str = "--out-format") -> str:
    """The format to write a file in, from its extension: the one format that uses it, or, where several share it,
    the first of them in :data:`BUILTIN_FORMATS` (``.json``: MAT JSON before Label Studio; ``.jsonl``: accord's
    JSON lines before doccano's)."""
    formats = _ordered()
    ext = Path(path).suffix.lower()
    matches = [fmt.name for fmt in formats if ext in fmt.extensions]
    if not matches:
        raise OptionError(f"cannot tell the output format from the extension {ext or 'none'!r} of {path} "
                          f"(no format uses it); give it with {option}")
    return matches[0]


def input_files(path: str | os.PathLike) -> list[Path] | None:
    """The files a path names when it is not one file or folder: ``@list.txt`` (one path per line, relative to the
    list's folder; blank lines and ``#`` comments skipped) or a glob pattern (``data/*.conll``, ``**`` recursive).
    None for a plain path.

    Raises
    ------
    FormatError
        A list that cannot be read or names a missing file, or a pattern that matches no file.
    """
    import glob

    text = os.fspath(path)
    if text.startswith("@") and not _exists(text):
        from .._support.io import read_text

        listing = Path(text[1:])
        try:
            lines = read_text(listing).splitlines()
        except FormatError as exc:
            error = FormatError(f"cannot read the file list {exc}")
            error.path = listing
            raise error from None
        files = []
        for n, line in enumerate(lines, start=1):
            entry = line.strip()
            if not entry or entry.startswith("#"):
                continue
            f = Path(entry) if Path(entry).is_absolute() else listing.parent / entry
            if not _is_file(f):
                raise FormatError(f"{quoted(entry)} is not a file", path=listing, line=n)
            files.append(f)
        if not files:
            raise FormatError("the file list names no file", path=listing)
        return files
    if not _exists(text) and any(c in text for c in "*?["):
        files = sorted(Path(f) for f in glob.glob(text, recursive=True) if Path(f).is_file())
        if not files:
            raise FormatError("the pattern matches no file", path=text)
        return files
    return None


def _is_file(path: Path) -> bool:
    """Whether the path names a file (a name the system refuses, too long or holding a NUL, names none)."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def _exists(path: str) -> bool:
    try:
        return Path(path).exists()
    except (OSError, ValueError):
        return False


def read(path: str | os.PathLike, format: str | None = None, **options: Any) -> Corpus:
    """Read a file, a directory of files, a list of files (``@list.txt``) or a glob pattern into a
    :class:`~accord.model.Corpus`.

    Several files are read one by one (a brat directory: document by document); document ids are then
    the file names without extension, so that gold and prediction pair by name.
    """
    files = input_files(path)
    if files is not None:
        fmt = get(format) if format else sniff(files[0])
        return _read_files(files, fmt, options, os.fspath(path))
    p = Path(path)
    fmt = get(format) if format else sniff(p)
    corpus = _read(p, fmt, options)
    if fmt.check is not None:
        fmt.check(corpus, p, options)
    return corpus


def _read(p: Path, fmt: Format, options: dict[str, Any]) -> Corpus:
    if p.is_dir():
        reader = getattr(fmt.read, "read_directory", None)
        if reader is not None:
            return reader(p, **options)
        files = folder_files(p, fmt)
        if not files:
            raise FormatError(f"no {fmt.name} files ({', '.join(fmt.extensions)}) in this directory", path=p)
        return _read_files(files, fmt, options, str(p))
    if not p.exists():
        raise FormatError("no such file or directory", path=p)
    corpus = fmt.read(p, **options)
    if len(corpus) == 1 and not corpus.files:
        corpus.files = {next(iter(corpus)): p.name}
    return corpus


def folder_files(folder: Path, fmt: Format) -> list[Path]:
    """The files of a folder read one by one in ``fmt`` (those of its extensions), in the order they are read;
    a format read by folders (brat) lists its own (``read.directory_files``); a format of no extension of its own
    reads every file but hidden ones."""
    listing = getattr(fmt.read, "directory_files", None)
    if listing is not None:
        return listing(folder)
    if not fmt.extensions:   # a format of no extension of its own (fake-xml-inline, spans): every visible file
        return sorted(f for f in folder.iterdir() if f.is_file() and not f.name.startswith("."))
    return sorted(f for f in folder.iterdir() if f.is_file() and f.suffix.lower() in fmt.extensions)


def name_from_two_files(doc_id: str, first: object, second: object, name: str) -> FormatError:
    """The error of a document name given by two of the files read together."""
    return FormatError(f"document {doc_id!r} comes from two files ({first} and {second}); documents pair by file "
                       "name, so the names must differ", path=name)


def _read_files(files: list[Path], fmt: Format, options: dict[str, Any], name: str) -> Corpus:
    """Several files as one corpus: a document per file (``stem``), or ``stem:id`` for a file of several."""
    from .._support.progress import track

    docs: list[Document] = []
    names: dict[str, str] = {}
    origin: dict[str, Path] = {}
    for f in track(files, f"reading {Path(name).name or name}"):
        sub = fmt.read(f, **options)
        for doc in sub.documents:
            stem = id_from_file_name(f.stem)   # the id a name accord wrote holds (%2F is '/')
            doc_id = stem if len(sub) == 1 else f"{stem}:{doc.id}"
            if doc_id in origin:
                raise name_from_two_files(doc_id, origin[doc_id], f, name)
            origin[doc_id] = f
            docs.append(doc._replace(id=doc_id))
            names[doc_id] = f.name
    return Corpus(docs, name=name, files=names)


def write(corpus: Corpus, path: str | os.PathLike, format: str, **options: Any) -> None:
    """Write a corpus in the named format.

    Raises
    ------
    FormatError
        A discontinuous span and a format that cannot hold one (the message names the document and the span).
    """
    fmt = get(format)
    if not fmt.discontinuous:
        for doc in (corpus.values() if isinstance(corpus, Corpus) else ()):
            a = next((a for a in doc.annotations if a.fragments is not None), None)
            if a is not None and a.fragments is not None:
                pieces = ";".join(f"{x} {y}" for x, y in a.fragments)
                raise FormatError(f"document {doc.id!r}: {a.label} [{pieces}] is a discontinuous span, "
                                  f"which {fmt.name} "
                                  "cannot hold (brat and jsonl can); read brat with --discontinuous merge to write the "
                                  "covering extent instead", path=Path(path))
    if fmt.name in _STAGE_THEMSELVES:
        fmt.write(corpus, Path(path), **options)
        return
    from .._support.safe_paths import staged_file

    with staged_file(path) as staged:    # written whole or not at all; '-' is standard output
        fmt.write(corpus, staged, **options)


_STAGE_THEMSELVES = ("brat", "mat-json", "xml-inline", "fake-xml-inline", "xmi", "gate")
"""Writers of folders (named by document ids), built beside their target by :mod:`accord._support.safe_paths`."""
