"""Coreference chains from annotation files: brat's equivalences and coreference relations (``accord coref``).

A chain is a set of mentions linked, directly or through others, by

* an equivalence (brat's ``*\\tCoreference T1 T2 T3``: every member is in one chain), or
* a relation whose type is one of ``relations`` (default :data:`COREF_RELATIONS`): its two arguments are in
  one chain (links are followed transitively).

GATE XML documents give chains through the ``matches`` feature that GATE's orthographic matcher and
coreference modules write: the ids of the annotations an annotation co-refers with (``[12, 15, 20]``).

Mentions are the spans of the linked annotations: inclusive ``(start, end - 1)`` character offsets, so that the
clusters are those :func:`accord.structured.coref_scores` takes. Text-bound annotations linked by nothing are not
mentions (as in the CoNLL-2012 data, which marks only mentions in chains). A relation of a coreference type
whose arguments are not spans, or an equivalence holding a spanless annotation, is an error naming it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...errors import FormatError
from ...model import Annotation, Corpus, is_aggregate

__all__ = ["read_coref_brat", "read_coref_gate", "clusters_from_corpus", "clusters_from_matches", "COREF_RELATIONS"]

COREF_RELATIONS = ("Coreference", "Coref", "coreference", "coref", "Equiv", "Identity")
"""Relation types read as coreference links when none are named."""

Clusters = list[list[tuple[int, int]]]


def _members(a: Annotation) -> list[Any]:
    """The annotations an equivalence or a relation links."""
    out = []
    for value in a.attributes.values():
        if isinstance(value, Annotation):
            out.append(value)
        elif is_aggregate(value):
            out.extend(v for v in value if isinstance(v, Annotation))
    return out


class _Chains:
    """Mentions linked transitively (union-find), each kept with its inclusive span."""

    def __init__(self) -> None:
        self.parent: dict[Any, Any] = {}
        self.spans: dict[Any, tuple[int, int]] = {}

    def add(self, key: Any, mention: Annotation) -> None:
        self.parent.setdefault(key, key)
        assert mention.start is not None and mention.end is not None  # mentions are spanned
        self.spans[key] = (mention.start, mention.end - 1)

    def find(self, key: Any) -> Any:
        parent = self.parent
        while parent[key] != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    def link(self, a: Any, b: Any) -> None:
        self.parent[self.find(b)] = self.find(a)

    def clusters(self) -> Clusters:
        chains: dict[Any, list[tuple[int, int]]] = {}
        for key in self.parent:
            chains.setdefault(self.find(key), []).append(self.spans[key])
        return [sorted(set(c)) for c in sorted(chains.values(), key=min)]


def clusters_from_corpus(corpus: Corpus, relations: tuple[str, ...] = COREF_RELATIONS) -> dict[str, Clusters]:
    """``{document: [entity, ...]}`` from the equivalences and coreference relations of each document."""
    out: dict[str, Clusters] = {}
    for doc in corpus.documents:
        chains = _Chains()
        for a in doc.annotations:
            linking = a.start is None and ("members" in a.attributes or a.label in relations)
            if not linking:
                continue
            members = _members(a)
            for m in members:
                if m.start is None:
                    raise FormatError(f"document {doc.id!r}: {a.label} {a.id or ''} links {m.label} "
                                      f"{m.id or ''}, which has no span; a coreference mention is a span", path=None)
                chains.add(id(m), m)
            for m in members[1:]:
                chains.link(id(members[0]), id(m))
        out[doc.id] = chains.clusters()
    return out


def read_coref_brat(path: str | Path, relations: tuple[str, ...] = COREF_RELATIONS) -> dict[str, Clusters]:
    """The chains of a brat document or folder of documents (see the module docstring)."""
    from .._registry import read

    corpus = read(Path(path), format="brat")
    return clusters_from_corpus(corpus, relations)


def clusters_from_matches(corpus: Corpus) -> dict[str, Clusters]:
    """``{document: [entity, ...]}`` from GATE's ``matches`` features (annotation ids, linked transitively)."""
    import re

    out: dict[str, Clusters] = {}
    for doc in corpus.documents:
        by_id = {str(a.id): a for a in doc.annotations if a.id is not None}
        chains = _Chains()
        for a in doc.annotations:
            value = a.get("matches")
            if value is None:
                continue
            ids = [str(v) for v in value] if is_aggregate(value) else re.findall(r"-?\d+", str(value))
            for ident in [str(a.id)] + ids:
                target = by_id.get(ident)
                if target is None:
                    raise FormatError(f"document {doc.id!r}: annotation {a.id} matches {ident}, which is not an "
                                      "annotation of the set read", path=None)
                if target.start is None:
                    raise FormatError(f"document {doc.id!r}: annotation {ident} has no span; a coreference "
                                      "mention is a span", path=None)
                chains.add(ident, target)
            for ident in ids:
                chains.link(str(a.id), ident)
        out[doc.id] = chains.clusters()
    return out


def read_coref_gate(path: str | Path, annotation_set: str | None = None) -> dict[str, Clusters]:
    """The chains of a GATE XML document or folder of them, from the ``matches`` features of one set."""
    from .._registry import read

    return clusters_from_matches(read(Path(path), format="gate", annotation_set=annotation_set))
