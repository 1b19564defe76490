"""Relations of many annotators aggregated on top of their grouped spans.

A relation's item is its document and the span groups of its arguments, role by role (``arg1`` in group 3,
``arg2`` in group 5): two annotators' relations are the same item when their arguments fall in the same groups
under the same roles. An annotator's answer is the relation's label there (its first relation of the item), or
"no relation". The items are aggregated by the same method as the spans; a decided relation enters the gold when
every argument's group did, pointing to the gold spans. A relation whose argument is not a grouped span (a relation
on a relation, an argument of a type left out) is left out, counted in a warning; a decided relation whose argument
did not enter the gold is counted as dropped (:attr:`Relations.without_arguments`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..model import Annotation, Attributes
from ._aggregate import Aggregate, aggregate

__all__ = ["Relations", "RelationKey", "relation_items", "aggregate_relations", "span_of"]

RelationKey = tuple[str, tuple[tuple[str, int], ...]]
"""A relation's item: its document and its (role, span group) pairs, sorted."""


@dataclass
class Relations:
    """The relations' items, their aggregation and the gold relations by document."""

    keys: list[RelationKey]
    answers: list[list[str | None]]
    result: Aggregate
    gold: dict[str, list[Annotation]]
    without_arguments: int

    def to_dict(self) -> dict[str, object]:
        return {"items": len(self.keys), **self.result.counts(),
                "kept": sum(len(v) for v in self.gold.values()), "without_arguments": self.without_arguments,
                "disagreements": sum(len(set(row)) > 1 for row in self.answers),
                "annotators": [{"annotator": a, "reliability": self.result.reliability[a]}
                               for a in self.result.annotators]}


def span_of(doc_id: str, j: int, a: Annotation) -> tuple[object, ...]:
    """The key of annotator ``j``'s span ``a`` of a document in :func:`relation_items`' ``where`` (a relation's
    argument is found by its label and extent, whether or not it is the very object of the document's
    annotations)."""
    return (doc_id, j, a.label, a.start, a.end, a.fragments)


def relation_items(relations: dict[str, list[list[Annotation]]], where: dict[tuple[object, ...], int]
                   ) -> tuple[list[RelationKey], list[list[str | None]], int]:
    """The items (see the module docstring), each annotator's answers (``None``: no relation there), and the number
    of relations left out (an argument that is not a grouped span).

    ``relations``: per document, one list of spanless annotations per annotator; ``where``: the group of each
    grouped span, by :func:`span_of`.
    """
    answers: dict[RelationKey, list[str | None]] = {}
    left_out = 0
    for doc_id, per in relations.items():
        for j, rels in enumerate(per):
            for r in rels:
                args = [(role, v) for role, v in r.attributes.items() if isinstance(v, Annotation)]
                groups = [(role, where.get(span_of(doc_id, j, v))) for role, v in args]
                if not args or any(g is None for _, g in groups):
                    left_out += 1
                    continue
                key: RelationKey = (doc_id, tuple(sorted((role, int(g)) for role, g in groups if g is not None)))
                row = answers.setdefault(key, [None] * len(per))
                if row[j] is None:
                    row[j] = r.label
    keys = list(answers)
    return keys, [answers[k] for k in keys], left_out


def aggregate_relations(keys: list[RelationKey], answers: list[list[str | None]],
                        gold_spans: Sequence[Annotation | None], names: Sequence[str], *, method: str,
                        min_votes: int | None, none: str, **options: object) -> Relations:
    """Aggregate the relation items (see the module docstring); ``gold_spans``: the gold annotation of each span
    group (``None`` where the group did not enter the gold); ``none``: the answer "no relation"."""
    labels = sorted({a for row in answers for a in row if a is not None}) + [none]
    index = {lab: k for k, lab in enumerate(labels)}
    codes = np.array([[index[none if a is None else a] for a in row] for row in answers],
                     dtype=np.int64).reshape(len(answers), len(names))
    result = aggregate(codes, labels, names, method=method, min_votes=min_votes, **options)
    gold: dict[str, list[Annotation]] = {}
    missing = 0
    for (doc_id, args), label, status in zip(keys, result.labels, result.status):
        if label == none or status != "decided":
            continue
        targets = {role: gold_spans[g] for role, g in args}
        if any(t is None for t in targets.values()):
            missing += 1
            continue
        gold.setdefault(doc_id, []).append(Annotation(str(label), attributes=Attributes(targets)))
    return Relations(keys, answers, result, gold, missing)
