"""Consensus by votes: keep the annotations enough annotators agree on.

For one document, the annotators' annotations of a type are grouped by span. At a span,
each annotator casts one vote for the value of ``feature`` it gave there (its first
annotation at the span, in document order); without a feature, one vote for the span.
The value with most votes wins, ties going to the value of the earliest annotator in the
given order. The span enters the consensus when the winner has at least ``min_votes``
votes. With ``undecided=True`` a span every annotator marked enters even when its value
falls short: the annotation is kept without the feature, for an adjudicator to decide
(the classification setting, where the instances are given and only the label is in
question). Each consensus annotation records its supporters in the attribute
``annotators`` (their names joined by ``-``).

This is the rule of GATE's annotation merging (``AnnotationMerging.mergeAnnotation`` with
``minK``, ``../shared/notes/gate-evaluation.md`` section 3) without its side effects: GATE
also deletes the feature from the annotators' own annotations that fell short, which
changes the agreement figures computed afterwards.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..diff._features import _as_string
from ..errors import RatingsError
from ..model import Annotation, Attributes

__all__ = ["consensus"]


def consensus(annotations: Sequence[Sequence[Annotation]], *, type: str, feature: str | None = None,
              min_votes: int = 2, undecided: bool = False,
              names: Sequence[str] | None = None) -> list[Annotation]:
    """The consensus annotations of one document (see the module docstring), sorted by span.

    Parameters
    ----------
    annotations : sequence of sequences of Annotation
        One list per annotator.
    type : str
        The annotation type merged; other types are ignored.
    feature : str, optional
        The feature whose value the annotators vote on (compared as strings; an annotation
        without it votes for "no value").
    min_votes : int
        Votes a value needs, ``1 <= min_votes <= len(annotations)``.
    undecided : bool
        Keep, without the feature, the spans every annotator marked whose value fell short.
    names : sequence of str, optional
        Annotator names for the ``annotators`` attribute (default ``0``, ``1``, ...).
    """
    n = len(annotations)
    if n < 1:
        raise RatingsError("consensus needs at least one annotation set")
    if not 1 <= min_votes <= n:
        raise RatingsError(f"min_votes must be between 1 and the number of annotators ({n}), got {min_votes}")
    names = [str(i) for i in range(n)] if names is None else list(names)
    if len(names) != n:
        raise RatingsError(f"{len(names)} names for {n} annotation sets")
    # span -> value -> voters (annotator indices, in order); a representative annotation per value
    votes: dict[tuple[int, int], dict[object, list[int]]] = {}
    source: dict[tuple[tuple[int, int], object], Annotation] = {}
    for i, anns in enumerate(annotations):
        seen: set[tuple[int, int]] = set()
        for a in anns:
            if a.label != type or a.start is None:
                continue
            assert a.end is not None  # make_annotation: a start comes with an end
            span = (a.start, a.end)
            if span in seen:
                continue
            seen.add(span)
            value: object = (None if feature is None or feature not in a.attributes
                             else _as_string(a.attributes[feature]))
            votes.setdefault(span, {}).setdefault(value, []).append(i)
            source.setdefault((span, value), a)
    out: list[Annotation] = []
    for span in sorted(votes):
        by_value = votes[span]
        value, voters = max(by_value.items(), key=lambda kv: (len(kv[1]), -kv[1][0]))
        attrs: dict[str, object]
        if len(voters) >= min_votes:
            rep = source[(span, value)]
            attrs = {} if feature is None or feature not in rep.attributes else {feature: rep.attributes[feature]}
        elif undecided and sum(len(v) for v in by_value.values()) == n:
            voters = sorted(i for v in by_value.values() for i in v)
            attrs = {}
        else:
            continue
        attrs["annotators"] = "-".join(names[i] for i in voters)
        out.append(Annotation(type, span[0], span[1], Attributes(attrs)))
    return out
