"""Building annotations whose attributes point to other annotations by id."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import FormatError
from ..model import Annotation, make_annotation

__all__ = ["Ref", "RawAnnotation", "build_annotations", "ref_id", "writer_ids"]


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
    return tuple(built)  # type: ignore[arg-type]


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
