"""brat standoff: a ``.txt`` file and a ``.ann`` file per document.

Read into the model:

* ``T`` text-bound annotations: spanned annotations (character offsets). A discontinuous
  span (``0 4;9 12``) is read as ``discontinuous`` says: ``"fragments"`` (the default) keeps
  its pieces (:attr:`~accord.model.Annotation.fragments`; exactness and overlap are computed
  on them), ``"merge"`` keeps only the covering extent and records the pieces in the
  attribute ``fragments`` (a list of ``"start-end"`` strings), ``"error"`` refuses it.
* ``A``/``M`` attributes: a binary attribute is ``True``; a valued one its string.
* ``N`` normalizations: the set attribute ``normalizations`` of ``"DB:ID"`` strings.
* ``R`` relations: spanless annotations whose argument roles are annotation attributes.
* ``E`` events: spanless annotations with the attribute ``trigger`` and one per role.
* ``*`` equivalences: spanless annotations with the set attribute ``members``.
* ``#`` notes are skipped.

The document id is the file name without extension. The text a ``T`` line quotes must be
the text at its offsets; a mismatch is an error naming the line.
"""

from __future__ import annotations

import os
import re
from itertools import repeat
from operator import le
from pathlib import Path
from typing import Any, cast

from ..._support.collector import collection_paused
from ..._support.io import check_encoding, current_encoding, read_text
from ..._support.safe_paths import id_from_file_name
from ...errors import FormatError, OptionError, quoted
from ...model import EMPTY_ATTRIBUTES, Annotation, Corpus, Document, covered_text, is_aggregate
from .._refs import RawAnnotation, Ref, build_annotations, ref_id
from .._registry import Format, register

__all__ = ["read_brat", "write_brat", "DISCONTINUOUS", "annotator_folders", "read_annotator_folders"]


DISCONTINUOUS = ("fragments", "merge", "error")
_new_tuple = tuple.__new__   # (an Annotation built without its generated __new__'s Python frame)


def read_brat(path: str | Path, *, discontinuous: str = "fragments", encoding: str | None = None,
              **_ignored: Any) -> Corpus:
    """Read one document from ``X.ann`` and ``X.txt`` (either path may be given)."""
    if discontinuous not in DISCONTINUOUS:
        raise OptionError(f"discontinuous must be one of {', '.join(DISCONTINUOUS)}; got {discontinuous!r}")
    p = Path(path)
    doc = _read_document(p, discontinuous, encoding, _is_utf8(encoding))
    return Corpus([doc], name=str(p.with_suffix(".ann")))


def _is_utf8(encoding: str | None) -> bool:
    """Whether files are read as UTF-8 (``encoding``, else the command's); an unknown encoding is refused by
    :func:`read_text` as before."""
    try:
        return check_encoding(encoding or current_encoding()) == "utf-8"
    except OptionError:
        return False


def _utf8_text(file: str) -> str | None:
    """What :func:`read_text` gives for a UTF-8 file that it reads without an error (decoded, a byte-order mark
    dropped), by one read; None for a file it refuses or might (it reads that one again and names the problem)."""
    try:
        with open(file, "rb") as fh:
            data = fh.read()
        if b"\0" in data:
            return None
        text = data.decode("utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return None
    return text[1:] if text[:1] == "\ufeff" else text


def _read_document(p: Path | str, discontinuous: str, encoding: str | None, utf8: bool) -> Document:
    """One document of ``X.ann`` and ``X.txt`` (``p`` either; a string: the path of an ``.ann`` file as
    :class:`Path` writes it); ``utf8``: the files are read as UTF-8, by :func:`_utf8_text` first."""
    name = os.fspath(p)
    cut = max(name.rfind("/"), name.rfind(os.sep)) + 1
    if name.endswith(".ann") and len(name) - cut > 4:   # (its name as ``with_suffix`` and ``stem`` see it)
        ann_name, txt_name, stem = name, name[:-4] + ".txt", name[cut:-4]
    else:
        p = Path(p)
        ann_name, txt_name, stem = os.fspath(p.with_suffix(".ann")), os.fspath(p.with_suffix(".txt")), p.stem
    try:   # (the files are checked for when they cannot be read: two stat calls fewer a document)
        text = _utf8_text(txt_name) if utf8 else None
        if text is None:
            text = read_text(Path(txt_name), encoding)
        ann_text = _utf8_text(ann_name) if utf8 else None
        if ann_text is None:
            ann_text = read_text(Path(ann_name), encoding)
    except FormatError:
        _check_pair(Path(ann_name), Path(txt_name))
        raise
    doc_id = id_from_file_name(stem)
    if ann_text[:1] == "T":
        found = _one_piece_lines(ann_text, text)
        if found is not None:
            return Document(doc_id, found, text)
    ann_path = Path(ann_name)
    raw: dict[str, RawAnnotation] = {}
    order: list[str] = []
    pending_attrs: list[tuple[int, str, str, Any]] = []
    pending_norms: list[tuple[int, str, str]] = []
    simple: list[Annotation] | None = []   # contiguous T lines without attributes: built without the references' pass
    simple_lines: list[int] = []
    size = len(text)
    for lineno, line in enumerate(ann_text.splitlines(), 1):
        if line[:1] == "T":
            # the common line, one piece: what the general branch below does for it, in fewer steps
            fields = line.split("\t")
            body = fields[1].split() if len(fields) > 1 else []
            if len(body) == 3 and ";" not in fields[1]:
                try:
                    start, end = int(body[1]), int(body[2])
                except ValueError:
                    start, end = 1, 0   # (refused by the general branch, with its message)
                if 0 <= start <= end <= size:
                    ident = fields[0]
                    if len(fields) > 2 and fields[2] != text[start:end]:
                        raise FormatError(f"{_named(ident)} quotes {quoted(fields[2])} but the text at {start}-{end} "
                                          f"is {quoted(text[start:end])}", path=ann_path, line=lineno)
                    if simple is not None:
                        simple.append(_new_tuple(Annotation, (body[0], start, end, EMPTY_ATTRIBUTES, ident, None)))
                        simple_lines.append(lineno)
                    else:
                        raw[ident] = RawAnnotation(body[0], start, end, {}, ident, lineno)
                        order.append(ident)
                    continue
        elif not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        ident = fields[0]
        body = fields[1].split() if len(fields) > 1 else []
        if not body:
            raise FormatError(f"expected ID<TAB>TYPE ...; got {quoted(line)}", path=ann_path, line=lineno)
        kind = ident[:1]
        if simple is not None:   # the document is not only such lines: those read so far join the general pass
            for ann, at in zip(simple, simple_lines):
                raw[ann.id] = RawAnnotation(ann.label, ann.start, ann.end, {}, ann.id, at)   # type: ignore[index]
                order.append(ann.id)   # type: ignore[arg-type]
            simple = None
        named = _named(ident)
        if kind == "T":
            label = body[0]
            try:
                numbers = [tuple(int(x) for x in f.split()) for f in " ".join(body[1:]).split(";")]
                if any(len(f) != 2 or f[0] > f[1] for f in numbers):
                    raise ValueError
                frags = cast("list[tuple[int, int]]", numbers)   # pairs: checked on the line above
            except ValueError:
                raise FormatError(f"bad offsets in {quoted(line)}; expected TYPE START END[;START END...]",
                                  path=ann_path, line=lineno) from None
            start, end = min(f[0] for f in frags), max(f[1] for f in frags)
            if end > len(text):
                raise FormatError(f"{named} ends at {end}, past the end of the text ({len(text)} characters)",
                                  path=ann_path, line=lineno)
            attrs: dict[str, Any] = {}
            pieces: tuple[tuple[int, int], ...] | None = None
            if len(frags) > 1:
                if discontinuous == "error":
                    raise FormatError(f"{named} has a discontinuous span ({' '.join(body[1:])[:200]}); "
                                      "--discontinuous fragments scores its pieces, merge their covering extent",
                                      path=ann_path, line=lineno)
                if discontinuous == "merge":
                    attrs["fragments"] = tuple(f"{a}-{b}" for a, b in frags)
                else:
                    pieces = tuple(frags)
            quote = fields[2] if len(fields) > 2 else None
            actual = " ".join(text[a:b] for a, b in frags)
            if quote is not None and quote != actual and quote != text[start:end]:
                raise FormatError(f"{named} quotes {quoted(quote)} but the text at {start}-{end} is {quoted(actual)}",
                                  path=ann_path, line=lineno)
            raw[ident] = RawAnnotation(label, start, end, attrs, ident, lineno, pieces)
        elif kind == "R":
            args = {}
            for a in body[1:]:
                role, _, target = a.partition(":")
                if not target:
                    raise FormatError(f"bad relation argument {quoted(a)}; expected ROLE:ID",
                                      path=ann_path, line=lineno)
                args[role] = Ref(target)
            raw[ident] = RawAnnotation(body[0], None, None, args, ident, lineno)
        elif kind == "E":
            label, _, trigger = body[0].partition(":")
            args = {"trigger": Ref(trigger)} if trigger else {}
            for a in body[1:]:
                role, _, target = a.partition(":")
                if not target:
                    raise FormatError(f"bad event argument {quoted(a)}; expected ROLE:ID", path=ann_path, line=lineno)
                if role in args:
                    raise FormatError(f"event {named} repeats role {quoted(role)}", path=ann_path, line=lineno)
                args[role] = Ref(target)
            raw[ident] = RawAnnotation(label, None, None, args, ident, lineno)
        elif kind == "*":
            eid = f"*{lineno}"
            raw[eid] = RawAnnotation(body[0], None, None, {"members": frozenset(Ref(t) for t in body[1:])}, eid, lineno)
        elif kind in ("A", "M"):
            if len(body) < 2:
                raise FormatError(f"bad attribute line {quoted(line)}; expected NAME TARGET [VALUE]", path=ann_path,
                                  line=lineno)
            pending_attrs.append((lineno, body[1], body[0], body[2] if len(body) > 2 else True))
        elif kind == "N":
            if len(body) < 3:
                raise FormatError(f"bad normalization line {quoted(line)}; expected TYPE TARGET DB:ID", path=ann_path,
                                  line=lineno)
            pending_norms.append((lineno, body[1], body[2]))
        else:
            raise FormatError(f"unknown annotation kind {quoted(ident)}; expected T, R, E, A, M, N, * or #",
                              path=ann_path, line=lineno)
        if kind in ("T", "R", "E", "*"):
            order.append(ident if kind != "*" else f"*{lineno}")
    for lineno, target, name, value in pending_attrs:
        if target not in raw:
            raise FormatError(f"attribute {quoted(name)} targets unknown id {quoted(target)}",
                              path=ann_path, line=lineno)
        raw[target].attributes[name] = value
    for lineno, target, ref in pending_norms:
        if target not in raw:
            raise FormatError(f"normalization targets unknown id {quoted(target)}", path=ann_path, line=lineno)
        norms = raw[target].attributes.get("normalizations", frozenset())
        raw[target].attributes["normalizations"] = norms | {ref}
    if simple is not None and len({a.id for a in simple}) == len(simple):
        annotations = tuple(simple)
    else:   # (an id used twice is named by build_annotations)
        if simple is not None:
            raw = {a.id: RawAnnotation(a.label, a.start, a.end, {}, a.id, at)   # type: ignore[misc]
                   for a, at in zip(simple, simple_lines)}
            order = [a.id for a in simple]   # type: ignore[misc]
        annotations = build_annotations([raw[i] for i in order], path=ann_path, doc_id=doc_id)
    return Document(doc_id, annotations, text)


_LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
"""What ``str.splitlines`` breaks a line at."""

_ONE_PIECE = re.compile(f"^(T[^\t{_LINE_BREAKS}]*)\t([^\\s;]+) ([0-9]+) ([0-9]+)\t([^\t{_LINE_BREAKS}]*)\n", re.M)
"""A one-piece ``T`` line as the line loop of :func:`_read_document` reads it without its general branch (an id
starting with ``T``, a type without ``;``, the offsets in ASCII digits, one space apart, a quote, no other tab), up to
its line feed; a line that does not match may still be read (by the loop)."""


def _one_piece_lines(ann_text: str, text: str) -> tuple[Annotation, ...] | None:
    """The annotations of a ``.ann`` text of only one-piece ``T`` lines (:data:`_ONE_PIECE`) whose offsets lie in
    the text, whose quotes are the text there and whose ids are distinct, read by passes of C code (what the line
    loop of :func:`_read_document` makes of them); None for any other text (the loop reads it, and names what is
    wrong)."""
    if ann_text[-1:] != "\n":
        ann_text += "\n"
    found = _ONE_PIECE.findall(ann_text)
    if len(found) != ann_text.count("\n"):   # (each match is one whole line: from a line's start to its line feed)
        return None
    ids, labels, firsts, lasts, quotes = zip(*found)
    starts, ends = list(map(int, firsts)), list(map(int, lasts))
    if max(ends) > len(text) or not all(map(le, starts, ends)) or len(set(ids)) != len(ids) \
            or tuple(map(text.__getitem__, map(slice, starts, ends))) != quotes:
        return None
    return tuple(map(_new_tuple, repeat(Annotation), zip(labels, starts, ends, repeat(EMPTY_ATTRIBUTES), ids,
                                                         repeat(None))))


def _named(ident: str) -> str:
    """An id as messages name it (not a line's worth of one)."""
    return ident if len(ident) <= 40 else quoted(ident)


def _check_pair(ann_path: Path, txt_path: Path) -> None:
    """Refuse a document whose ``.ann`` or ``.txt`` file is missing (the ``.ann`` file named first)."""
    if not ann_path.exists():
        raise FormatError("no .ann file beside this path", path=ann_path)
    if not txt_path.exists():
        raise FormatError("the .txt file with the document text is missing", path=txt_path)


def _read_directory(path: Path, **options: Any) -> Corpus:
    files = _file_names(path)
    if not files:
        raise FormatError("no .ann files in this directory", path=path)
    return _read_ann_files(files, str(path), **options)


def directory_files(path: Path) -> list[Path]:
    """The files of a brat folder, one per document, in the order the folder is read."""
    return sorted(path.glob("*.ann"))


def _file_names(path: Path) -> list[str] | list[Path]:
    """:func:`directory_files` as the strings of those paths, listed without a :class:`Path` a file (on POSIX: the
    names ending in ``.ann``, hidden ones too, as ``glob`` matches them, in the order of their names)."""
    if os.name != "posix":
        return directory_files(path)
    try:
        names = sorted(n for n in os.listdir(path) if n.endswith(".ann"))
    except OSError:     # (glob lists nothing there)
        return directory_files(path)
    folder = os.fspath(path)
    head = "" if folder == "." else folder if folder.endswith("/") else folder + "/"
    return [head + n for n in names]


@collection_paused   # (a folder is many small objects and no cycle: the collector would rescan them, 30 % of it)
def _read_ann_files(files: list[Path] | list[str], name: str, **options: Any) -> Corpus:
    """Some of a brat folder's documents (:mod:`accord.parallel` shares a folder out by files)."""
    discontinuous = options.get("discontinuous", "fragments")
    if discontinuous not in DISCONTINUOUS:
        raise OptionError(f"discontinuous must be one of {', '.join(DISCONTINUOUS)}; got {discontinuous!r}")
    encoding = options.get("encoding")
    utf8 = _is_utf8(encoding)
    return Corpus([_read_document(f, discontinuous, encoding, utf8) for f in files], name=name)


def annotator_folders(path: Path, limit: int) -> dict[str, list[Path]] | None:
    """A brat project of one folder per annotator (bratiaa's layout): ``{annotator: its .ann files}``, the
    annotators being the subfolders that hold ``.ann`` files (at any depth), or ``None`` when ``path`` is not
    that (fewer than two such subfolders, or ``.ann`` files of its own). More than ``limit`` entries are an error
    before any file is read."""
    entries: list[Path] = []
    try:
        for e in path.iterdir():
            if len(entries) >= limit:
                raise FormatError(f"more than {limit:,} entries in this project: refused before reading", path=path)
            if not e.name.startswith("."):
                entries.append(e)
    except OSError:
        return None
    if any(e.suffix.lower() == ".ann" for e in entries):
        return None
    entries.sort()
    seen = [len(entries)]
    found = {}
    for sub in entries:
        if not sub.is_dir():
            continue
        files = _walk(sub, seen, limit, path)
        if files:
            found[sub.name] = sorted(files)
    return found if len(found) >= 2 else None


def _walk(folder: Path, seen: list[int], limit: int, root: Path) -> list[Path]:
    """The ``.ann`` files under ``folder`` (hidden entries and links to folders skipped), counting entries."""
    out: list[Path] = []
    stack = [folder]
    while stack:
        here = stack.pop()
        try:
            children = list(here.iterdir())
        except OSError:
            continue
        for child in children:
            if child.name.startswith("."):
                continue
            seen[0] += 1
            if seen[0] > limit:
                raise FormatError(f"more than {limit:,} entries in this project: refused before reading",
                                  path=root)
            if child.is_dir() and not child.is_symlink():
                stack.append(child)
            elif child.suffix.lower() == ".ann" and child.is_file():
                out.append(child)
    return out


def read_annotator_folders(path: str | Path, limit: int, **options: Any) -> dict[str, Any]:
    """``{annotator: reader of its Corpus}`` of a brat project of one folder per annotator
    (:func:`annotator_folders`); a document's id is its ``.ann`` file's path inside the annotator's folder,
    without the extension (``doc``, ``part/doc``)."""
    p = Path(path)
    found = annotator_folders(p, limit)
    if found is None:
        raise FormatError("not a brat project of one folder per annotator (two or more subfolders of .ann files)",
                          path=p)

    def reader(name: str, files: list[Path]) -> Any:
        def read() -> Corpus:
            docs, names = [], {}
            base = p / name
            for f in files:
                doc_id = f.relative_to(base).with_suffix("").as_posix()
                docs.append(read_brat(f, **options).documents[0]._replace(id=doc_id))
                names[doc_id] = f.relative_to(p).as_posix()
            return Corpus(docs, name=f"{p}:{name}", files=names)
        return read
    return {name: reader(name, files) for name, files in found.items()}


# attributes of the reader function that the registry looks for (a function type has no such attributes)
read_brat.read_directory = _read_directory  # type: ignore[attr-defined]
read_brat.directory_files = directory_files  # type: ignore[attr-defined]
read_brat.read_some = _read_ann_files  # type: ignore[attr-defined]


def _kind(a: Annotation) -> str:
    """The brat line kind an annotation is written as: T, E (has a trigger), * (only a set of
    members, as read from an equivalence line) or R."""
    if a.start is not None:
        return "T"
    if "trigger" in a.attributes:
        return "E"
    members = a.attributes.get("members")
    if len(a.attributes) == 1 and isinstance(members, frozenset) and all(isinstance(m, Annotation) for m in members):
        return "*"
    return "R"


def write_brat(corpus: Corpus, path: str | Path, **_ignored: Any) -> None:
    """Write each document as ``ID.txt`` and ``ID.ann`` in the directory ``path``.

    The id becomes a file name by :func:`accord._support.safe_paths.file_name` (``%XX`` for what a name cannot hold,
    read back by :func:`accord._support.safe_paths.document_id`); the folder is built beside ``path`` and moved in when
    complete (:func:`accord._support.safe_paths.atomic_directory`).
    """
    from ..._support.safe_paths import atomic_directory, file_names

    names = file_names([doc.id for doc in corpus.values()])
    with atomic_directory(path) as out:
        for doc in corpus.values():
            _write_brat_document(doc, out, names[doc.id], Path(path))


def _write_brat_document(doc: Document, folder: Path, name: str, out: Path) -> None:
    """One document's ``.txt`` and ``.ann`` files in ``folder`` (``out``: the output, named in errors)."""
    from ..._support.safe_paths import inside

    if doc.text is None:
        raise FormatError(f"document {doc.id!r} has no text; brat needs it", path=out)
    ids: dict[int, str] = {}
    counters = {"T": 0, "R": 0, "E": 0, "A": 0, "N": 0}

    def new(kind: str) -> str:
        counters[kind] += 1
        return f"{kind}{counters[kind]}"

    for a in doc.annotations:
        if not a.label or any(c.isspace() for c in a.label):
            raise FormatError(f"document {doc.id!r}: the label {a.label!r} cannot be a brat type (types are single "
                              "words: an .ann line is 'T1<tab>TYPE START END'); rename it", path=out)
    kinds = [_kind(a) for a in doc.annotations]
    for a, kind in zip(doc.annotations, kinds):
        if kind != "*":
            ids[id(a)] = a.id if a.id and a.id[:1] == kind else new(kind)
    lines = []
    for a, kind in zip(doc.annotations, kinds):
        if kind == "*":
            members = sorted(ref_id(m, ids) for m in a.attributes["members"])
            lines.append(f"*\t{a.label} {' '.join(members)}")
            continue
        me = ref_id(a, ids)
        scalars = {}
        if kind == "T":
            offsets = ";".join(f"{s} {e}" for s, e in a.pieces)   # a discontinuous span: its pieces
            lines.append(f"{me}\t{a.label} {offsets}\t{covered_text(doc.text, a)}")
            scalars = {k: v for k, v in a.attributes.items() if k not in ("fragments", "normalizations")}
        else:
            args = []
            head = a.label
            for k, v in a.attributes.items():
                if isinstance(v, Annotation):
                    if k == "trigger":
                        head = f"{a.label}:{ref_id(v, ids)}"
                    else:
                        args.append(f"{k}:{ref_id(v, ids)}")
                else:
                    scalars[k] = v
            lines.append(f"{me}\t{head} {' '.join(args)}".rstrip())
        for k, v in scalars.items():
            if isinstance(v, Annotation) or is_aggregate(v):
                raise FormatError(f"document {doc.id!r}: brat cannot write attribute {k!r} = {quoted(v)}", path=out)
            lines.append(f"{new('A')}\t{k} {me}" + ("" if v is True else f" {v}"))
        for norm in sorted(a.attributes.get("normalizations", ())):
            lines.append(f"{new('N')}\tReference {me} {norm}")
    inside(folder, f"{name}.txt").write_text(doc.text, encoding="utf-8")
    inside(folder, f"{name}.ann").write_text("\n".join(lines) + ("\n" if lines else ""), encoding="utf-8")


register(Format("brat", read_brat, write_brat, (".ann",), None, "brat standoff (.ann + .txt)", discontinuous=True))
