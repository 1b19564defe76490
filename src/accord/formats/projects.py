"""Annotation projects: the exports of annotation tools that hold several annotators' work, as one corpus per
annotator.

A *layout* is a way a tool lays out a project: a function that recognises it (``detect(path) -> bool``) and one that
finds its annotators (``read(path, **options)`` → ``{annotator: Corpus or a function giving the Corpus}``: a
function lets the layout read only the annotators chosen). :func:`register` adds a layout; :func:`find_annotators`
tries them in order of registration and returns ``None`` for a path no layout recognises, so that a caller reads it
as before.

INCEpTION's and WebAnno's project export is registered here (``inception``): a folder holding ``annotation/`` and
``curation/`` (the unzipped export's root), or one of these two folders itself, or the export's zip file itself
(``inception-zip``: the members read are copied to a temporary folder under names of accord's, their uncompressed
size checked against :data:`MAX_ZIP_BYTES` before any is read), where
``annotation/<document>/<user>.tsv|.xmi`` is each user's annotation of a document (the user an annotator, the
document named by its folder), ``curation/<document>/CURATION_USER.tsv|.xmi`` the curated document (the annotator
``curation``) and ``annotation/<document>/INITIAL_CAS.*`` the document before annotation (the annotator
``INITIAL_CAS``). ``curation`` and ``INITIAL_CAS`` are read only when chosen (``annotators=``, ``--annotators``);
otherwise a warning names them. The files are WebAnno TSV 3 or UIMA CAS XMI (the type system: the one given, else a
``TypeSystem.xml`` beside the file, else one at the export's root); other files are left out with a warning. Document
ids come from folder names: data, never used to build an output path unchecked (writers go through
:mod:`accord._support.safe_paths`).

Annotators are compared on the documents they share: a document that one chosen annotator lacks (INCEpTION writes
no file for a document a user never opened) is left out for all of them, with a warning naming it; none shared is
an error.
"""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from ..errors import AccordWarning, FormatError, OptionError, quoted
from ..model import Corpus
from ._project_registry import MAX_ENTRIES, Found, Layout, layouts, register

__all__ = ["Layout", "register", "layouts", "detect", "find_annotators", "choose_annotators", "CURATION",
           "INITIAL_CAS", "MAX_ENTRIES", "MAX_ZIP_BYTES"]

CURATION = "curation"
"""The annotator name of INCEpTION's curated documents (``CURATION_USER``)."""
INITIAL_CAS = "INITIAL_CAS"
"""The annotator name of INCEpTION's documents before annotation."""
def detect(path: str | os.PathLike[str]) -> Layout | None:
    """The layout of ``path`` (the first that recognises it), or ``None``."""
    try:
        p = Path(path)
        if not p.exists():
            return None
    except (OSError, ValueError):        # a name the system refuses (too long, a NUL): not a project
        return None
    for layout in layouts():
        try:
            if layout.detect(p):
                return layout
        except (OSError, ValueError):
            continue
    return None


def find_annotators(path: str | os.PathLike[str], annotators: Sequence[str] | None = None,
                    **options: Any) -> dict[str, Corpus] | None:
    """The annotators of a project export: ``{annotator: Corpus}`` on the documents they share, or ``None`` when
    no layout recognises ``path``.

    Parameters
    ----------
    path : path
        A project export (a folder, or a file of a layout that holds several annotators).
    annotators : sequence of str, optional
        The annotators to read, in this order (an unknown name is an :class:`~accord.errors.OptionError` listing
        those found); by default every annotator but the layout's optional ones.
    **options
        Passed to the readers (``layer``, ``typesystem``, ``encoding``...).

    Returns
    -------
    dict or None
    """
    layout = detect(path)
    if layout is None:
        return None
    found = layout.read(Path(path), **options)
    return choose_annotators(found, annotators, str(path), layout.optional)


def choose_annotators(found: Found, annotators: Sequence[str] | None, where: str,
                      optional: Sequence[str] = ()) -> dict[str, Corpus]:
    """The chosen annotators of ``found`` read, on the documents they all have (see :func:`find_annotators`)."""
    names = list(found)
    if not names:
        raise FormatError("no annotator's files in this project", path=where)
    if annotators is None:
        chosen = [n for n in names if n not in optional]
        left = [n for n in names if n in optional]
        if not chosen:
            raise OptionError(f"{where}: no annotator's own work in this project, only {', '.join(left)}; choose "
                              "with --annotators (annotators=)")
        if left:
            warnings.warn(AccordWarning(f"{where}: {', '.join(left)} left out (not an annotator's own work); "
                                        f"choose {'it' if len(left) == 1 else 'them'} with --annotators "
                                        f"(annotators=): {', '.join(names)}"), stacklevel=3)
    else:
        chosen = list(annotators)
        unknown = [n for n in chosen if n not in found]
        if unknown:
            raise OptionError(f"{where}: no annotator {', '.join(quoted(n) for n in unknown)} in this project; "
                              f"it has {', '.join(quoted(n) for n in names)}")
        twice = sorted({n for n in chosen if chosen.count(n) > 1})
        if twice:
            raise OptionError(f"annotator {', '.join(quoted(n) for n in twice)} chosen twice")
    corpora: dict[str, Corpus] = {}
    for n in chosen:
        value = found[n]
        corpora[n] = value if isinstance(value, Corpus) else value()
    return shared_documents(corpora, where)


def shared_documents(corpora: dict[str, Corpus], where: str) -> dict[str, Corpus]:
    """The corpora on the documents every one of them has (the others left out with a warning)."""
    if not corpora:
        return corpora
    first = next(iter(corpora.values()))
    shared = [d for d in first if all(d in c for c in corpora.values())]
    every: dict[str, None] = {}
    for c in corpora.values():
        every.update(dict.fromkeys(c))
    missing = [d for d in every if d not in set(shared)]
    if not shared:
        raise FormatError(f"the annotators {', '.join(corpora)} share no document", path=where)
    if missing:
        lacking = {d: [n for n, c in corpora.items() if d not in c] for d in missing}
        shown = "; ".join(f"{quoted(d)} (not by {', '.join(lacking[d])})" for d in missing[:5])
        more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
        warnings.warn(AccordWarning(f"{where}: {len(missing)} document(s) not annotated by every annotator chosen "
                                    f"left out: {shown}{more}"), stacklevel=3)
        keep = set(shared)
        corpora = {n: Corpus([c[d] for d in c if d in keep], name=c.name,
                             files={d: f for d, f in (c.files or {}).items() if d in keep})
                   for n, c in corpora.items()}
    return corpora


# -- INCEpTION / WebAnno project exports -----------------------------------------------------------------------------

_ANNOTATION, _CURATION = "annotation", "curation"
_CURATION_USER = "CURATION_USER"
_EXTENSIONS = {".tsv": "webanno-tsv", ".xmi": "xmi"}
_TYPESYSTEMS = ("TypeSystem.xml", "typesystem.xml")


def _is_dir(p: Path) -> bool:
    try:
        return p.is_dir()
    except (OSError, ValueError):
        return False


def _is_file(p: Path) -> bool:
    try:
        return p.is_file()
    except (OSError, ValueError):
        return False


def _listing(folder: Path, budget: list[int]) -> list[Path]:
    """The visible entries of ``folder``, sorted; more than :data:`MAX_ENTRIES` in the project is an error."""
    out = []
    try:
        with os.scandir(folder) as it:
            for entry in it:
                if entry.name.startswith("."):
                    continue
                budget[0] -= 1
                if budget[0] < 0:
                    raise FormatError(f"more than {MAX_ENTRIES:,} entries in this project: refused before "
                                      "reading (score a part of it)", path=folder)
                out.append(folder / entry.name)
    except OSError as exc:
        raise FormatError(f"cannot list: {exc.strerror or exc}", path=folder) from None
    return sorted(out, key=lambda x: x.name)


def _roots(p: Path) -> dict[str, Path]:
    """The ``annotation`` and ``curation`` folders of an export (its root, or one of them given itself)."""
    if p.name in (_ANNOTATION, _CURATION) and _is_dir(p) and _holds_documents(p):
        return {p.name: p}
    return {name: p / name for name in (_ANNOTATION, _CURATION) if _is_dir(p / name) and _holds_documents(p / name)}


def _holds_documents(folder: Path) -> bool:
    """Whether some subfolder of ``folder`` (among its first entries) holds a ``.tsv`` or ``.xmi`` file."""
    try:
        with os.scandir(folder) as it:
            for k, entry in enumerate(it):
                if k > 1000:
                    return False
                if entry.is_dir() and not entry.name.startswith("."):
                    with os.scandir(entry.path) as inner:
                        if any(Path(e.name).suffix.lower() in _EXTENSIONS and e.is_file() for e in inner):
                            return True
    except OSError:
        return False
    return False


def _detect_inception(p: Path) -> bool:
    return _is_dir(p) and bool(_roots(p))


def _read_inception(p: Path, **options: Any) -> dict[str, Callable[[], Corpus]]:
    """``{annotator: reader}`` of an INCEpTION/WebAnno export folder (see the module docstring)."""
    root_ts = next((f for base in (p, p.parent) for f in (base / n for n in _TYPESYSTEMS) if _is_file(f)), None)
    budget = [MAX_ENTRIES]

    def entries() -> Iterator[tuple[str, str, str, Path | None, str]]:
        for kind, root in _roots(p).items():
            for doc_dir in _listing(root, budget):
                if not _is_dir(doc_dir):
                    yield kind, "", doc_dir.name, None, _shown(doc_dir, p)
                    continue
                for f in _listing(doc_dir, budget):
                    yield kind, doc_dir.name, f.name, f if _is_file(f) else None, _shown(f, p)

    files = _assign(entries(), p)
    return {user: _reader(p, user, files[user], root_ts, options) for user in files}


def _assign(entries: Iterable[tuple[str, str, str, Any, str]], p: Path) -> dict[str, dict[str, tuple[str, Any]]]:
    """``{annotator: {document: (file name, handle)}}`` from an export's entries ``(kind, document, file name,
    handle, shown)`` (a handle ``None``: not a file), in the order annotators are listed (the curation and the
    initial documents last); the other entries left out with one warning."""
    files: dict[str, dict[str, tuple[str, Any]]] = {}
    skipped: list[str] = []
    for kind, doc, name, handle, shown in entries:
        suffix = Path(name).suffix.lower()
        if name in _TYPESYSTEMS:
            continue
        if suffix not in _EXTENSIONS or handle is None or not doc:
            skipped.append(shown)
            continue
        user = name[: -len(suffix)]
        if kind == _CURATION:
            if user != _CURATION_USER:
                skipped.append(shown)
                continue
            user = CURATION
        elif user == CURATION:
            raise FormatError(f"a user named {CURATION!r} (document {quoted(doc)}): the name accord gives the "
                              "curated documents; rename the file to compare it", path=p)
        per = files.setdefault(user, {})
        if doc in per:
            raise FormatError(f"annotator {quoted(user)} has two files for document {quoted(doc)} "
                              f"({per[doc][0]} and {name}); keep one", path=p)
        per[doc] = (name, handle)
    if skipped:
        shown_ = ", ".join(quoted(s) for s in skipped[:5]) + (f" and {len(skipped) - 5} more" if len(skipped) > 5
                                                              else "")
        what = "entry that is not" if len(skipped) == 1 else "entries that are not"
        warnings.warn(AccordWarning(f"{p}: {len(skipped)} {what} an annotator's WebAnno TSV or XMI file left out: "
                                    f"{shown_}"), stacklevel=4)
    return {u: files[u] for u in sorted(files, key=lambda u: (u in (CURATION, INITIAL_CAS), u))}


def _shown(f: Path, p: Path) -> str:
    """``f`` as a path inside the project ``p``."""
    try:
        return f.relative_to(p).as_posix()
    except ValueError:
        return f.name


def _reader(p: Path, user: str, docs: dict[str, tuple[str, Any]], root_ts: Path | None,
            options: dict[str, Any]) -> Callable[[], Corpus]:
    def read() -> Corpus:
        out = []
        names = {}
        for doc, (name, f) in docs.items():
            out.append(_read_one(f, doc, f, root_ts, options))
            names[doc] = f"{doc}/{name}"
        return Corpus(out, name=f"{p}:{user}", files=names)
    return read


def _read_one(f: Path, doc: str, shown: object, typesystem: Path | None, options: dict[str, Any]) -> Any:
    """The one document of file ``f``, named ``doc`` (``typesystem``: the export's, for an XMI file without one
    beside it)."""
    from ._registry import get

    fmt = get(_EXTENSIONS[f.suffix.lower()])
    opts = dict(options)
    if fmt.name == "xmi" and not opts.get("typesystem") and typesystem is not None and not any(
            _is_file(f.parent / n) for n in _TYPESYSTEMS):
        opts["typesystem"] = typesystem
    corpus = fmt.read(f, **opts)
    if len(corpus) != 1:
        raise FormatError(f"expected one document, found {len(corpus)}", path=shown)
    (d,) = corpus.documents
    return d._replace(id=doc)


# -- the same, zipped (the export file INCEpTION gives) --------------------------------------------------------------

_ZIP_ROW = re.compile(r"(?:[^/]+/)?(annotation|curation)/([^/]+)/([^/]+)")
MAX_ZIP_BYTES = 1 << 30
"""Bytes the members of a zipped export read may hold once uncompressed; more is refused before any is read."""


def _zip_rows(p: Path) -> list[tuple[str, str, str, Any, str]] | None:
    """The export's entries of a zip file ``(kind, document, file name, member, shown)``; ``None``: not a zip
    file holding an export."""
    import zipfile

    try:
        if not (_is_file(p) and p.suffix.lower() == ".zip" and zipfile.is_zipfile(p)):
            return None
        with zipfile.ZipFile(p) as z:
            infos = z.infolist()
    except (OSError, zipfile.BadZipFile, ValueError, EOFError):
        return None
    if len(infos) > MAX_ENTRIES:
        raise FormatError(f"more than {MAX_ENTRIES:,} entries in this zip file: refused before reading", path=p)
    rows = []
    for info in infos:
        m = _ZIP_ROW.fullmatch(info.filename)
        if m is None or info.is_dir():
            continue
        rows.append((m.group(1), m.group(2), m.group(3), info, info.filename))
    return rows if any(Path(r[2]).suffix.lower() in _EXTENSIONS for r in rows) else None


def _detect_inception_zip(p: Path) -> bool:
    return _zip_rows(p) is not None


def _read_inception_zip(p: Path, **options: Any) -> dict[str, Callable[[], Corpus]]:
    """``{annotator: reader}`` of a zipped INCEpTION/WebAnno export: each member read is copied to a temporary
    folder under a name of accord's (never the member's), read, and removed."""
    rows = _zip_rows(p) or []
    files = _assign(rows, p)
    size = sum(info.file_size for per in files.values() for _, info in per.values())
    if size > MAX_ZIP_BYTES:
        raise FormatError(f"the annotators' files hold {size:,} bytes uncompressed, more than {MAX_ZIP_BYTES:,}: "
                          "refused before reading (unzip the export and give a part of it)", path=p)
    with _zip(p) as z:
        ts_members = [i for i in z.infolist() if i.filename.rsplit("/", 1)[-1] in _TYPESYSTEMS
                      and i.file_size < MAX_ZIP_BYTES]
    return {user: _zip_reader(p, user, files[user], ts_members, options) for user in files}


def _zip(p: Path) -> Any:
    import zipfile

    try:
        return zipfile.ZipFile(p)
    except (OSError, zipfile.BadZipFile) as exc:
        raise FormatError(f"cannot read the zip file: {exc}", path=p) from None


def _zip_reader(p: Path, user: str, docs: dict[str, tuple[str, Any]], ts_members: list[Any],
                options: dict[str, Any]) -> Callable[[], Corpus]:
    def read() -> Corpus:
        import shutil
        import tempfile
        import zipfile

        out, names = [], {}
        with tempfile.TemporaryDirectory(prefix="accord-export-") as tmp, _zip(p) as z:
            def extract(info: Any, target: Path) -> Path:
                try:
                    with z.open(info) as src, target.open("wb") as dst:
                        shutil.copyfileobj(src, dst)
                except (OSError, RuntimeError, zipfile.BadZipFile, EOFError) as exc:
                    raise FormatError(f"cannot read {quoted(info.filename)} from the zip file: {exc}",
                                      path=p) from None
                return target

            for k, (doc, (name, info)) in enumerate(docs.items()):
                folder = Path(tmp) / str(k)
                folder.mkdir()
                beside = [t for t in ts_members if t.filename.rsplit("/", 1)[0] == info.filename.rsplit("/", 1)[0]]
                if beside:
                    extract(beside[0], folder / "TypeSystem.xml")
                root = next((t for t in ts_members if t.filename.count("/") <= 1), None)
                ts = extract(root, Path(tmp) / "TypeSystem.xml") if root is not None and not beside else None
                f = extract(info, folder / ("document" + Path(name).suffix.lower()))
                try:
                    d = _read_one(f, doc, f"{p}:{info.filename}", ts, options)
                except FormatError as exc:      # named as in the zip file, not as the temporary copy
                    raise FormatError(str(exc).replace(str(f), f"{p}:{info.filename}"), path=None) from None
                out.append(d._replace(metadata={**d.metadata, "source": f"{p}:{info.filename}"}))
                names[doc] = f"{doc}/{name}"
        return Corpus(out, name=f"{p}:{user}", files=names)
    return read


register("inception", _detect_inception, _read_inception,
         "INCEpTION / WebAnno project export: annotation/<document>/<user>.tsv|.xmi, curation/<document>/"
         "CURATION_USER.tsv|.xmi", optional=(CURATION, INITIAL_CAS))
register("inception-zip", _detect_inception_zip, _read_inception_zip,
         "INCEpTION / WebAnno project export, zipped", optional=(CURATION, INITIAL_CAS))

from . import _tool_projects  # noqa: E402,F401  (the layouts of Label Studio, Prodigy, doccano and brat)
