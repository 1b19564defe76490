"""Where annotators disagree: the disputed stretches of text, for the agreement page's disagreement browser.

A *stretch* is a run of overlapping spans of one document, taken across all annotators (two spans that share a
character, directly or through a chain of others, are in one stretch; spans that only touch are not). Each
annotator's *reading* of a stretch is the set of its spans there, each ``(start, end, label)``; the stretch is
*disputed* when the readings of the annotators holding the document are not all the same (one annotator marking
nothing there is a reading too). The *odd* annotators of a disputed stretch are those whose reading is not the one
a strict majority of the annotators gave (with no strict majority, every annotator): the browser's annotator filter
shows the stretches where the chosen annotator is odd.

A span's label is its annotation label, or with a feature ``label feature=value`` (``label feature=''`` when the
annotation lacks it), as the agreement counts categories. The view is bounded: the first ``limit`` disputed
stretches in document order are kept with their text (the stretch and up to :data:`CONTEXT` characters either side,
a long stretch cut in its middle to :data:`LONGEST` characters); the others are only counted, by label and by odd
annotator, so the page can say how many more there are.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

__all__ = ["CONTEXT", "LONGEST", "SHOWN", "disputes_from_corpora", "disputes_from_ratings", "disputes_from_units",
           "disputes_view"]

SHOWN = 500
"""Disputed stretches listed on the page by default (the others are counted)."""
CONTEXT = 40
"""Characters (or tokens) of text shown either side of a stretch."""
LONGEST = 300
"""A stretch's text or a span's text longer than this is shown as its beginning and end around an ellipsis."""
SPANS = 20
"""Spans of one annotator listed in one stretch (one long span over many others makes a stretch of them all); the
others are counted (``hidden``)."""

Span = tuple[int, int, str]


def _cut(text: str, longest: int = LONGEST) -> str:
    if len(text) <= longest:
        return text
    half = longest // 2
    return text[:half] + " … " + text[-half:]


def _stretches(spans: Sequence[tuple[int, int, str, int]]) -> Iterable[list[tuple[int, int, str, int]]]:
    """The runs of overlapping spans (``(start, end, label, annotator)``, any order)."""
    run: list[tuple[int, int, str, int]] = []
    first = end = 0
    for span in sorted(spans, key=lambda s: (s[0], s[1])):
        s, e = span[0], span[1]
        joins = run and (s < end or (s == first == end == e))   # overlap, or the same empty point
        if run and not joins:
            yield run
            run = []
        if not run:
            first, end = s, e
        run.append(span)
        end = max(end, e)
    if run:
        yield run


def _odd(readings: Sequence[frozenset[Span]]) -> list[int]:
    """The annotators whose reading is not the strict majority's (all of them when no reading has one)."""
    counts = Counter(readings)
    reading, n = counts.most_common(1)[0]
    if 2 * n <= len(readings):
        return list(range(len(readings)))
    return [k for k, r in enumerate(readings) if r != reading]


def disputes_view(annotators: Sequence[str], documents: Iterable[tuple[str, Any, Mapping[int, Sequence[Span]]]],
                  limit: int = SHOWN, unit: str = "stretches") -> dict[str, Any]:
    """The disputed stretches of ``documents``: ``(document id, surface, {annotator index: spans})`` with
    ``surface(start, end)`` the text of a span (or None when the documents have no text); an annotator missing from
    a document's mapping does not hold it and takes no part there.

    Returns the browser's data: ``annotators``, ``labels`` (every label of a disputed stretch, sorted),
    ``stretches`` (the first ``limit``: ``document``, ``start``, ``end``, ``before``, ``text``, ``after``,
    ``labels`` (indices), ``odd`` (annotator indices), ``readings``: per annotator None (no such document) or its
    first :data:`SPANS` spans ``[start, end, label index, text]``, and ``hidden``: per annotator the spans not
    listed), ``disputed`` and ``agreed`` (counts of stretches), ``more`` (the
    disputed stretches not listed), ``by_label`` and ``by_annotator`` (disputed stretches with the label; with the
    annotator odd, over all of them), ``spans_by_annotator`` (spans counted), ``limit`` and ``unit`` (``stretches``,
    or ``items`` for a ratings table: each item a document of one span per rater)."""
    if limit < 0:
        from ..errors import OptionError

        raise OptionError(f"the disagreement browser lists 0 or more stretches, got {limit}")
    labels: dict[str, int] = {}
    kept: list[dict[str, Any]] = []
    disputed = agreed = 0
    by_label: Counter[str] = Counter()
    by_annotator: Counter[int] = Counter()
    spans_of: Counter[int] = Counter()
    for doc_id, surface, by_annotator_spans in documents:
        holders = sorted(by_annotator_spans)
        everything = [(s, e, label, k) for k in holders for s, e, label in by_annotator_spans[k]]
        for k in holders:
            spans_of[k] += len(by_annotator_spans[k])
        for run in _stretches(everything):
            readings = {k: frozenset((s, e, label) for s, e, label, who in run if who == k) for k in holders}
            if len(set(readings.values())) == 1:
                agreed += 1
                continue
            disputed += 1
            odd = [holders[i] for i in _odd([readings[k] for k in holders])]
            run_labels = sorted({label for _, _, label, _ in run})
            by_label.update(run_labels)
            by_annotator.update(odd)
            if len(kept) >= limit:
                continue
            for label in run_labels:
                labels.setdefault(label, len(labels))
            start, stop = min(s for s, *_ in run), max(e for _, e, *_ in run)
            text = (lambda a, b: "") if surface is None else surface
            kept.append({"document": doc_id, "start": start, "end": stop,
                         "before": _cut(text(max(0, start - CONTEXT), start), CONTEXT * 2),
                         "text": _cut(text(start, stop)), "after": _cut(text(stop, stop + CONTEXT), CONTEXT * 2),
                         "labels": run_labels, "odd": odd,
                         "readings": [None if k not in readings else
                                      [[s, e, label, _cut(text(s, e))] for s, e, label in sorted(readings[k])[:SPANS]]
                                      for k in range(len(annotators))],
                         "hidden": [max(0, len(readings.get(k, ())) - SPANS) for k in range(len(annotators))]})
    names = sorted(labels)
    index = {label: i for i, label in enumerate(names)}
    for row in kept:
        row["labels"] = [index[label] for label in row["labels"]]
        for reading in row["readings"]:
            for span in reading or ():
                span[2] = index[span[2]]
    return {"annotators": list(annotators), "labels": names, "stretches": kept, "disputed": disputed,
            "agreed": agreed, "more": disputed - len(kept), "limit": limit,
            "by_label": dict(sorted(by_label.items())),
            "by_annotator": {annotators[k]: by_annotator[k] for k in range(len(annotators))},
            "spans_by_annotator": {annotators[k]: spans_of[k] for k in range(len(annotators))}, "unit": unit}


def _label(annotation: Any, feature: str | Mapping[str, str] | None) -> str:
    from ..diff._features import _as_string

    name = feature.get(annotation.label) if isinstance(feature, Mapping) else feature
    if name is None:
        return str(annotation.label)
    value = annotation.attributes.get(name)
    return f"{annotation.label} {name}=" + ("''" if value is None or value == "" else _as_string(value))


def disputes_from_corpora(corpora: Sequence[Any], names: Sequence[str], *, types: Sequence[str] | None = None,
                          feature: str | Mapping[str, str] | None = None, limit: int = SHOWN) -> dict[str, Any]:
    """:func:`disputes_view` of annotation sets (one :class:`~accord.model.Corpus` per annotator): the spans of
    ``types`` (every label when None), labelled with ``feature``'s value when given; a document counts where at
    least two annotators hold it, in the first holder's order of documents."""
    wanted = None if types is None else frozenset(types)

    def documents() -> Iterable[tuple[str, Any, dict[int, list[Span]]]]:
        order = list(dict.fromkeys(d for c in corpora for d in c))
        for doc_id in order:
            holders = [k for k, c in enumerate(corpora) if doc_id in c]
            if len(holders) < 2:
                continue
            spans: dict[int, list[Span]] = {}
            for k in holders:
                anns = corpora[k][doc_id].annotations
                spans[k] = [(int(s), int(e), _label(a, feature)) for a in anns
                            if a.start is not None and (wanted is None or a.label in wanted) for s, e in a.pieces]
            doc = corpora[holders[0]][doc_id]
            size = len(doc.text) if doc.text is not None else len(doc.tokens) if doc.tokens is not None else None
            surface = None if size is None else (lambda a, b, d=doc, n=size: d.surface(max(0, a), min(b, n)))
            yield doc_id, surface, spans
    return disputes_view(names, documents(), limit)


def disputes_from_units(units: Any, limit: int = SHOWN) -> dict[str, Any]:
    """:func:`disputes_view` of a table of units (:class:`~accord.agreement._continua.Continua`), without text."""
    import numpy as np

    def documents() -> Iterable[tuple[str, Any, dict[int, list[Span]]]]:
        for d, doc_id in enumerate(units.documents):
            here = np.flatnonzero(units.document == d)
            spans: dict[int, list[Span]] = {k: [] for k in range(len(units.annotators))}
            for i in here:
                spans[int(units.annotator[i])].append((_whole(units.start[i]), _whole(units.end[i]),
                                                       str(units.categories[units.category[i]])))
            yield doc_id, None, spans
    return disputes_view(list(units.annotators), documents(), limit)


def _whole(x: Any) -> Any:
    return int(x) if float(x).is_integer() else float(x)


def disputes_from_ratings(ratings: Any, ids: Sequence[str] | None = None, limit: int = SHOWN) -> dict[str, Any]:
    """:func:`disputes_view` of a ratings table (:class:`~accord.agreement._ratings.Ratings`): each item two or more
    raters rated is one stretch, each rating one span (``[0, 1)``, the category as its label; a rater who did not
    rate the item has no reading there); it is disputed when the ratings differ. ``ids`` names the items (their
    number from 1 when None). Only the disputed items are walked in Python; the agreed ones are counted by numpy."""
    import numpy as np

    from ._ratings import MISSING

    codes = np.asarray(ratings.codes)
    present = codes != MISSING
    rated = present.sum(axis=1) >= 2
    big = np.iinfo(np.int64).max
    low = np.where(present, codes, big).min(axis=1, initial=big)
    high = np.where(present, codes, -1).max(axis=1, initial=-1)
    disputed = np.flatnonzero(rated & (low != high))
    names = [str(r) for r in ratings.raters]
    categories = [str(c) for c in ratings.categories]

    def documents() -> Iterable[tuple[str, Any, dict[int, list[Span]]]]:
        for i in disputed:
            row = codes[i]
            yield (ids[int(i)] if ids is not None else f"item {i + 1}", None,
                   {k: [(0, 1, categories[int(c)])] for k, c in enumerate(row) if c != MISSING})
    view = disputes_view(names, documents(), limit, unit="items")
    view["agreed"] += int(rated.sum()) - len(disputed)
    view["spans_by_annotator"] = {n: int(present[:, k].sum()) for k, n in enumerate(names)}
    return view
