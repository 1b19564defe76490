"""Building annotations whose attributes point to other annotations by id."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import FormatError
from ..model import Annotation, Corpus, Document, is_aggregate, make_annotation

__all__ = ["Ref", "RawAnnotation", "build_annotations", "ref_id", "writer_ids", "attribute_type", "label_groups",
           "signal_targets"]


@dataclass(frozen=True)
class Ref:
    """A reference to the annotation with this id, resolved after the whole document is read."""

    id: str


@dataclass
class RawAnnotation:
    label: str
    start: int | None
    end: int | None
    attributes: dict[str, Any]
    id: str | None
    line: int | None = None
    fragments: tuple[tuple[int, int], ...] | None = None


def _target_rows(raw: Sequence[RawAnnotation], by_id: dict[str, int], path: object, doc_id: str) -> list[list[int]]:
    """For each raw annotation, the rows its references point to (an unknown id is an error)."""
    out: list[list[int]] = []
    for r in raw:
        rows: list[int] = []
        for name, value in r.attributes.items():
            kind = type(value)
            if kind is Ref:
                refs = [value]
            elif kind in _AGGREGATES:
                refs = [v for v in value if type(v) is Ref]
            else:
                continue
            for ref in refs:
                t = by_id.get(ref.id)
                if t is None:
                    raise FormatError(f"document {doc_id!r}: attribute {name!r} of {r.id or r.label!r} points to "
                                      f"unknown annotation id {ref.id!r}", path=path, line=r.line)
                rows.append(t)
        out.append(rows)
    return out


_AGGREGATES = (list, tuple, set, frozenset)


def build_annotations(raw: Sequence[RawAnnotation], *, path: object, doc_id: str) -> tuple[Annotation, ...]:
    """Resolve references and build immutable annotations, targets before the annotations
    pointing to them. An unknown id or a cycle is a :class:`FormatError`."""
    by_id: dict[str, int] = {}
    for k, r in enumerate(raw):
        if r.id is not None:
            if r.id in by_id:
                raise FormatError(f"document {doc_id!r}: annotation id {r.id!r} is used twice", path=path, line=r.line)
            by_id[r.id] = k
    targets = _target_rows(raw, by_id, path, doc_id)
    built: list[Annotation | None] = [None] * len(raw)
    state = [0] * len(raw)  # 0 new, 1 waiting for its targets, 2 done

    def resolve(value: Any) -> Any:
        if isinstance(value, Ref):
            return built[by_id[value.id]]
        if isinstance(value, (list, tuple)):
            return tuple(resolve(v) for v in value)
        if isinstance(value, (set, frozenset)):
            return frozenset(resolve(v) for v in value)
        return value

    def make(k: int) -> None:
        r = raw[k]
        try:
            built[k] = make_annotation(r.label, r.start, r.end, {n: resolve(v) for n, v in r.attributes.items()}
                                       if targets[k] else r.attributes, r.id, r.fragments)
        except FormatError:
            raise
        except ValueError as exc:
            raise FormatError(f"document {doc_id!r}: {exc}", path=path, line=r.line) from None
        state[k] = 2

    # annotations that point nowhere first, then the others depth-first over their references with an explicit
    # stack: chains of any length, no recursion
    pointing = []
    for k, rows in enumerate(targets):
        if rows:
            pointing.append(k)
        else:
            make(k)
    for root in pointing:
        if state[root] == 2:
            continue
        stack = [root]
        while stack:
            k = stack[-1]
            if state[k] == 0:
                state[k] = 1
                for t in targets[k]:
                    if state[t] == 1:
                        cyc = raw[t]
                        raise FormatError(f"document {doc_id!r}: annotation {cyc.id!r} is part of a reference "
                                          "cycle; annotations cannot point to themselves, directly or not",
                                          path=path, line=cyc.line)
                    if state[t] == 0:
                        stack.append(t)
                continue
            stack.pop()
            if state[k] != 2:
                make(k)
    return tuple(built)  # type: ignore[arg-type]  # every slot was built above (make() fills each)


def ref_id(ann: Annotation, ids: dict[int, str]) -> str:
    """The id to write for a referenced annotation (its own, or one allocated in ``ids``)."""
    key = id(ann)
    if key not in ids:
        ids[key] = ann.id if ann.id is not None else f"a{len(ids) + 1}"
    return ids[key]


def writer_ids(annotations: Sequence[Annotation], *, keep_own: bool = False) -> dict[int, str]:
    """Ids for a writer: every annotation that another one points to gets one (its own if it
    has one), and with ``keep_own`` so does every annotation that already has an id."""
    referenced = {id(t) for a in annotations for t in a.referenced()}
    ids: dict[int, str] = {}
    for a in annotations:
        if id(a) in referenced or (keep_own and a.id is not None):
            ref_id(a, ids)
    return ids


def attribute_type(values: list[Any]) -> tuple[str, str | None]:
    """MAT's declaration of an attribute from its values: type (``annotation``, ``boolean``, ``int``, ``float``,
    else ``string``; ints with floats are ``float``) and aggregation (``set``, ``list`` or None)."""
    agg = None
    flat = []
    for v in values:
        if isinstance(v, frozenset):
            agg, items = "set", list(v)
        elif is_aggregate(v):
            agg, items = "list", list(v)
        else:
            items = [v]
        flat.extend(items)
    kinds = {"annotation" if isinstance(x, Annotation) else "boolean" if isinstance(x, bool) else
             "int" if isinstance(x, int) else "float" if isinstance(x, float) else "string" for x in flat}
    if kinds == {"int", "float"}:
        kinds = {"float"}
    return (kinds.pop() if len(kinds) == 1 else "string"), agg


def label_groups(doc: Document, target: Path) -> dict[str, list[Annotation]]:
    """A document's annotations by label, in order (MAT's annotation sets); a label with spanned and spanless
    annotations is an error."""
    by_label: dict[str, list[Annotation]] = {}
    for a in doc.annotations:
        by_label.setdefault(a.label, []).append(a)
    for label, anns in by_label.items():
        spanned = anns[0].start is not None
        if any((a.start is not None) != spanned for a in anns):
            raise FormatError(f"document {doc.id!r}: label {label!r} mixes spanned and spanless annotations",
                              path=target)
    return by_label


def signal_targets(corpus: Corpus, path: str | Path, extension: str,
                   what: str) -> Iterator[tuple[Document, Path, Path]]:
    """Each document with text, the file it goes to (named in messages) and the file to write it to: ``path`` for
    a one-document corpus, else ``path/<name><extension>``, the name made from the id by
    :func:`accord._support.safe_paths.file_name`. A document without text is an error (``what`` needs it).

    The files are written whole or not at all: the caller writes each document to the third path, a temporary
    file beside ``path`` (or a file in a temporary folder beside it), and the output is renamed into place when
    the caller asks for the next document after the last (:mod:`accord._support.safe_paths`).
    """
    import os
    import tempfile
    from contextlib import suppress

    from .._support.safe_paths import atomic_directory, check_not_input, file_names, folder_of, inside, is_stdout

    p = Path(path)
    docs = corpus.documents
    for doc in docs:
        if doc.text is None:
            raise FormatError(f"document {doc.id!r} has no text; {what} needs the signal",
                              path=p if len(docs) == 1 else p / f"{doc.id}{extension}")
    if len(docs) == 1 and not is_stdout(p) and not p.is_dir():   # one document to a file (to a folder: in it)
        check_not_input(p)
        real = Path(os.path.realpath(p))
        folder_of(p, real)
        fd, tmp = tempfile.mkstemp(prefix=f".{real.name[:60]}.", suffix=".accord-tmp", dir=real.parent)
        os.close(fd)
        try:
            yield docs[0], p, Path(tmp)
            mask = os.umask(0)
            os.umask(mask)
            os.chmod(tmp, 0o666 & ~mask)
            os.replace(tmp, real)
        finally:
            with suppress(OSError):
                os.unlink(tmp)
        return
    if len(docs) == 1 and is_stdout(p):
        raise FormatError(f"{what}: a document cannot be written to standard output; give a file name", path=p)
    names = file_names([doc.id for doc in docs], extension)
    with atomic_directory(p) as folder:
        for doc in docs:
            yield doc, p / names[doc.id], inside(folder, names[doc.id])
