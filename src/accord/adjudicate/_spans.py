"""Gold spans from many annotators: their spans grouped across annotators, one label chosen per group.

Grouping (per document, over the spanned annotations of the chosen types):

* ``measure="strict"`` (default): a group is one extent (start, end and fragments): the annotators' spans on it;
* ``measure="lenient"``: the annotators are paired two by two by the Annotation Diff (GATE's greedy pairing or the
  optimal one, ``pairing``) with the labels left out, a coextensive or overlapping pair linking two spans; a group
  is a set of spans linked directly or through others.

Each group is an item whose answers are each annotator's label there (its first span of the group, in document
order), or :data:`NONE` when it marked nothing there: the annotator's "no span here" is an answer like a label, so
that a span one annotator of three marked is voted down 2 to 1 by majority, and Dawid-Skene and MACE learn how
often each annotator misses or invents spans. The items go to :func:`accord.adjudicate._aggregate.aggregate`
(every group of every document together, so that an annotator's reliability is estimated on the whole corpus).

A group enters the gold when its chosen label is not :data:`NONE` and its status is ``decided``; its span is the
extent most voters of that label gave (ties: the earliest annotator's). The gold annotations carry the label and
the span only (features are not aggregated). Documents of classes (text classification,
:mod:`accord.formats._document_labels`) make one item each, an annotator's answer the set of its classes (``a|b``),
the chosen set written back as one annotation over the text per class. A group on which not every annotator gave
the same answer (or the same extent) is a *disagreement*: the adjudication queue lists them. Relations between
the spans are aggregated on the groups of their arguments (:mod:`accord.adjudicate._relations`).
"""

from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..errors import AccordWarning, OptionError, RatingsError
from ..formats._document_labels import is_document_labelled
from ..model import Annotation, Corpus, Document
from ._aggregate import Aggregate, aggregate
from ._relations import Relations, aggregate_relations, relation_items, span_of

__all__ = ["NONE", "MEASURES", "SpanGroup", "SpanAggregate", "group_spans", "aggregate_spans", "annotation_order"]

NONE = "(none)"
"""The answer of an annotator that marked nothing in a group."""

MEASURES = ("strict", "lenient")

Extent = tuple[int, int, tuple[tuple[int, int], ...] | None]


@dataclass
class SpanGroup:
    """The spans of one group, per annotator (in document order); ``start`` and ``end`` cover them all."""

    document: str
    start: int
    end: int
    members: list[list[Annotation]]
    classes: bool = False
    """A document's classes (:mod:`accord.formats._document_labels`): an answer is all the annotator's classes."""

    def answers(self) -> list[str]:
        """Each annotator's answer: the label of its first span (a document's classes: all of them, sorted, joined
        by ``|``), or :data:`NONE`."""
        if self.classes:
            return ["|".join(sorted({a.label for a in m})) if m else NONE for m in self.members]
        return [m[0].label if m else NONE for m in self.members]


@dataclass
class SpanAggregate:
    """The gold corpus, the groups with the aggregation of their answers, and the options used."""

    corpus: Corpus
    groups: list[SpanGroup]
    result: Aggregate
    gold: list[Annotation | None]
    options: dict[str, object] = field(default_factory=dict)
    relations: Relations | None = None

    def disagreements(self) -> list[int]:
        """Indices of the groups on which the annotators' answers (or, under ``lenient``, their extents) differ."""
        return [g for g, group in enumerate(self.groups)
                if len({(m[0].label, _extent(m[0])) if m else None for m in group.members}) > 1]

    def to_dict(self) -> dict[str, object]:
        kept = sum(a is not None for a in self.gold)
        return {**self.result.to_dict(), "groups": len(self.groups), "kept": kept,
                "disagreements": len(self.disagreements()), "options": self.options,
                **({"relations": self.relations.to_dict()} if self.relations is not None else {})}


def _extent(a: Annotation) -> Extent:
    assert a.start is not None and a.end is not None
    return (a.start, a.end, a.fragments)


def _find(parent: list[int], x: int) -> int:
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


def group_spans(doc_id: str, annotations: Sequence[Sequence[Annotation]], *, measure: str = "strict",
                pairing: str = "gate") -> list[SpanGroup]:
    """The groups of one document (see the module docstring), in order of their first span.

    ``annotations``: one list of spanned annotations per annotator.
    """
    if measure not in MEASURES:
        raise OptionError(f"--measure must be one of {', '.join(MEASURES)} for aggregation; got {measure!r}")
    flat = [(j, a) for j, anns in enumerate(annotations) for a in anns]
    parent = list(range(len(flat)))
    if measure == "strict":
        first: dict[Extent, int] = {}
        for n, (_, a) in enumerate(flat):
            parent[n] = first.setdefault(_extent(a), n)
    else:
        from ..diff import annotation_diff

        offsets = np.cumsum([0] + [len(a) for a in annotations])
        plain = [[Annotation("span", a.start, a.end, id=str(offsets[j] + k), fragments=a.fragments)
                  for k, a in enumerate(anns)] for j, anns in enumerate(annotations)]
        for x in range(len(plain)):
            for y in range(x + 1, len(plain)):
                if not plain[x] or not plain[y]:
                    continue
                for row in annotation_diff(plain[x], plain[y], pairing=pairing)["span"].rows:
                    if row.key is not None and row.response is not None:
                        assert row.key.id is not None and row.response.id is not None
                        u, v = _find(parent, int(row.key.id)), _find(parent, int(row.response.id))
                        parent[max(u, v)] = min(u, v)
    members: dict[int, list[list[Annotation]]] = {}
    for n, (j, a) in enumerate(flat):
        members.setdefault(_find(parent, n), [[] for _ in annotations])[j].append(a)
    out = []
    for per in members.values():
        spans = [a for m in per for a in m]
        for m in per:
            m.sort(key=lambda a: (a.start, a.end))
        out.append(SpanGroup(doc_id, min(a.start for a in spans if a.start is not None),
                             max(a.end for a in spans if a.end is not None), per))
    out.sort(key=lambda g: (g.start, g.end))
    return out


def _documents(corpora: Sequence[Corpus], names: Sequence[str]) -> list[str]:
    docs = list(corpora[0])
    for c, name in zip(corpora[1:], names[1:]):
        missing = [d for d in docs if d not in c] or [d for d in c if d not in corpora[0]]
        if missing:
            d = missing[0]
            lacking = name if d not in c else names[0]
            raise RatingsError(f"document {d!r} is not in {lacking}; every annotator needs the same documents")
    return docs


def aggregate_spans(corpora: Sequence[Corpus], names: Sequence[str], *, method: str = "majority",
                    min_votes: int | None = None, measure: str = "strict", pairing: str = "gate",
                    types: Sequence[str] | None = None, **options: object) -> SpanAggregate:
    """Group the annotators' spans and aggregate each group's labels (see the module docstring).

    Parameters
    ----------
    corpora : sequence of Corpus
        One per annotator, with the same documents.
    names : sequence of str
        The annotators' names.
    types : sequence of str, optional
        The labels aggregated (default every label); relations and other spanless annotations are left out, with
        a warning naming their types.
    **options
        Passed to :func:`~accord.adjudicate._aggregate.aggregate`.
    """
    from ..pipeline._offset_units import unify_units

    if len(corpora) != len(names):
        raise RatingsError(f"{len(names)} names for {len(corpora)} annotators")
    if len(corpora) < 2:
        raise RatingsError(f"aggregation needs at least two annotators, got {len(corpora)}")
    corpora = unify_units(corpora, names, [f"annotator {k + 1}" for k in range(len(corpora))])
    docs = _documents(corpora, names)
    wanted = None if types is None else frozenset(types)
    found: set[str] = set()
    groups: list[SpanGroup] = []
    relations: dict[str, list[list[Annotation]]] = {}
    classes = all(is_document_labelled(c) for c in corpora)
    for doc_id in docs:
        per: list[list[Annotation]] = []
        rels: list[list[Annotation]] = []
        for c in corpora:
            anns, spanless = [], []
            for a in c[doc_id].annotations:
                if wanted is not None and a.label not in wanted:
                    continue
                if a.start is None:
                    spanless.append(a)
                    continue
                found.add(a.label)
                anns.append(a)
            per.append(anns)
            rels.append(spanless)
        relations[doc_id] = rels
        if classes:     # one item per document: the set of its classes
            if any(per):
                text = corpora[0][doc_id].text or ""
                groups.append(SpanGroup(doc_id, 0, len(text), per, classes=True))
            continue
        groups.extend(group_spans(doc_id, per, measure=measure, pairing=pairing))
    where = {span_of(group.document, j, a): g for g, group in enumerate(groups) for j, m in enumerate(group.members)
             for a in m}
    rel_keys, rel_answers, left_out = relation_items(relations, where)
    if left_out:
        warnings.warn(AccordWarning(f"{left_out} relation(s) or other spanless annotation(s) left out: an argument "
                                    "is not a span of the types aggregated"), stacklevel=2)
    if wanted is not None and not wanted & found:
        raise OptionError(f"no annotator has a span of the types {', '.join(sorted(wanted))}")
    if not groups:
        raise RatingsError(f"no annotator marked a span{' of the types ' + ', '.join(sorted(wanted)) if wanted else ''}"
                           f" in the {len(docs)} document(s): nothing to aggregate")
    labels = sorted({a for g in groups for a in g.answers()} - {NONE}) + [NONE]
    index = {lab: k for k, lab in enumerate(labels)}
    codes = np.array([[index[a] for a in g.answers()] for g in groups], dtype=np.int64).reshape(len(groups),
                                                                                                len(corpora))
    result = aggregate(codes, labels, names, method=method, min_votes=min_votes, **options)
    gold: list[Annotation | None] = []
    kept: dict[str, list[Annotation]] = {d: [] for d in docs}
    for group, label, status in zip(groups, result.labels, result.status):
        if label == NONE or status != "decided":
            gold.append(None)
            continue
        if group.classes:    # the chosen set of classes, one annotation over the text each
            anns = [Annotation(c, group.start, group.end) for c in str(label).split("|")]
            gold.append(anns[0])
            kept[group.document].extend(anns)
            continue
        voters = [(j, m[0]) for j, m in enumerate(group.members) if m and m[0].label == label]
        tally = Counter(_extent(a) for _, a in voters)
        best = max(tally.values())
        extent = next(_extent(a) for _, a in voters if tally[_extent(a)] == best)
        ann = Annotation(str(label), extent[0], extent[1], fragments=extent[2])
        gold.append(ann)
        kept[group.document].append(ann)
    rel = None
    if rel_keys:
        rel = aggregate_relations(rel_keys, rel_answers, gold, names, method=method, min_votes=min_votes, none=NONE,
                                  **options)
        for doc_id, anns in rel.gold.items():
            kept[doc_id].extend(anns)
        if rel.without_arguments:
            warnings.warn(AccordWarning(f"{rel.without_arguments} relation(s) chosen by {method} left out of the "
                                        "gold: an argument's span is not in it"), stacklevel=2)
    out = []
    for doc_id in docs:
        base: Document = corpora[0][doc_id]
        out.append(base._replace(annotations=tuple(sorted(kept[doc_id], key=annotation_order))))
    return SpanAggregate(Corpus(out), groups, result, gold,
                         {"measure": measure, "pairing": pairing, "types": None if types is None else list(types)},
                         rel)


def annotation_order(a: Annotation) -> tuple[bool, int, int, str]:
    """Spans by position, then relations (spanless), each by label."""
    return (a.start is None, a.start or 0, a.end or 0, a.label)
