"""Ratings from the outside world: CSV/TSV tables (wide or long) and annotation sets paired by span."""

from __future__ import annotations

import csv
import os
from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import Any

from .._support.io import read_text
from .._support.names import check_names
from ..errors import FormatError, OptionError, RatingsError
from ..model import Corpus, SpanKey, span_key
from ..pipeline._offset_units import unify_units
from ._ratings import Ratings, ratings_from_long, to_ratings

__all__ = ["NON_CAT", "ANNOTATED", "read_ratings_table", "ratings_from_corpora", "same_documents",
           "check_corpus_names", "is_project", "project_sides"]

NON_CAT = "Non-cat"
"""The category of an item an annotator did not annotate (GATE's name)."""
ANNOTATED = "Anns"
"""The category of an annotated item when no feature is compared (GATE's name)."""


def read_ratings_table(path: str | os.PathLike, *, items: str | None = None, raters: str | None = None,
                       labels: str | None = None, categories: Sequence[Hashable] | None = None) -> Ratings:
    """Read a CSV (or TSV, by the ``.tsv`` extension or a tab in the header) ratings table.

    Long form when ``raters`` and ``labels`` name columns (``items`` too): one row per
    (item, rater, label). Wide form otherwise: one row per item, one column per rater,
    ``items`` naming an id column to leave out (``""``: there is none, every column is a
    rater). An empty cell is a missing rating; every row has as many cells as the header. Without ``items``, a first
    column that looks
    like item ids (named ``id``, ``item``... or a distinct value on every one of five or more
    rows) is an error asking for ``--items``: counted as a rater it would change every value.
    """
    p = Path(path)
    text = read_text(p)
    first = text.split("\n", 1)[0]
    delimiter = "\t" if p.suffix.lower() == ".tsv" or "\t" in first else ","
    reader = csv.DictReader(text.splitlines(), delimiter=delimiter)
    header = reader.fieldnames or []
    if not header:
        raise FormatError("empty file: expected a header row", path=p)
    long = raters is not None or labels is not None
    wanted = [c for c in ((items, raters, labels) if long else (items,)) if c]
    for col in wanted:
        if col not in header:
            raise FormatError(f"no column {col!r}; the header has {', '.join(map(repr, header))}", path=p, line=1)
    rows = []
    for r in reader:
        if None in r:
            raise FormatError(f"{len(header) + len(r[None])} cells, but the header has {len(header)} columns",
                              path=p, line=reader.line_num)
        short = sum(v is None for v in r.values())
        if short:
            raise FormatError(f"{len(header) - short} cells, but the header has {len(header)} columns (write an empty "
                              "cell for a missing rating)", path=p, line=reader.line_num)
        rows.append({k: (None if v == "" else v) for k, v in r.items()})
    if long:
        if not (items and raters and labels):
            raise RatingsError("a long ratings table needs --items, --raters and --labels (the item, rater and "
                               "label columns)")
        return ratings_from_long(rows, item=items, rater=raters, label=labels, categories=categories,
                                 where=str(p))
    if items is None and header:
        _refuse_id_column(header, rows, p)
    cols = {c: [r.get(c) for r in rows] for c in header if c != items}
    if len(cols) < 2:
        raise FormatError("a wide ratings table needs a column per rater (two or more)", path=p, line=1)
    return to_ratings(cols, categories=categories, where=str(p))


_ID_NAMES = frozenset({"id", "ids", "item", "items", "item_id", "itemid", "unit", "units", "unit_id", "subject",
                       "subjects", "doc", "document", "doc_id", "sentence", "sentence_id", "sent_id", "instance",
                       "example", "example_id", "idx", "index", "#", "no", "n"})


def _refuse_id_column(header: Sequence[str], rows: list[dict[str, Any]], p: Path) -> None:
    first = header[0]
    values = [r.get(first) for r in rows]
    distinct = len(set(values))
    named = first.strip().lower() in _ID_NAMES
    unique = len(rows) >= 5 and None not in values and distinct == len(rows) and all(
        len({r.get(c) for r in rows}) < distinct for c in header[1:])
    if named or unique:
        why = "is named like item ids" if named else "has a different value on every row, like item ids"
        raise FormatError(f"the first column {first!r} {why}; pass --items {first} to leave it out (or --items '' "
                          "to count every column as a rater)", path=p, line=1)


def ratings_from_corpora(corpora: Sequence[Corpus], names: Sequence[str], *,
                         type: str | Sequence[str] | None = None,
                         feature: str | None = None) -> dict[str, Ratings]:
    """One ratings table per document from annotation sets, instances paired by exact span.

    The items of a document are the distinct spans annotated by any annotator (annotations
    of label ``type`` only, when given; several types may be given). An annotator's category
    for an item is the value of ``feature`` (``""`` when its annotation lacks the feature),
    or :data:`ANNOTATED` when one ``type`` is given, or the annotation's label; :data:`NON_CAT` when it did not annotate
    that span. Two annotations of one annotator on one span are an error: an item has one
    category per annotator. Every annotator must have the same documents; an annotator counting tokens is placed
    on the text of one counting characters (:func:`accord.pipeline._offset_units.unify_units`).

    The items are shared by all annotators, so in a pairwise table an item that neither of
    the two marked (a third annotator did) counts as agreement on ``Non-cat``; GATE's IAA
    plugin builds each pair's table from that pair's annotations only and never has such
    items.
    """
    corpora = unify_units(corpora, names, [f"annotator {k + 1}" for k in range(len(corpora))])
    docs = same_documents(corpora, names)
    types = None if type is None else ((type,) if isinstance(type, str) else tuple(type))
    check_corpus_names(corpora, types, feature)
    wanted = None if types is None else frozenset(types)
    out: dict[str, Ratings] = {}
    for doc_id in docs:
        per: list[dict[SpanKey, Any]] = []
        spans: dict[SpanKey, None] = {}
        for c, name in zip(corpora, names):
            cats: dict[SpanKey, Any] = {}
            for a in c[doc_id].annotations:
                if a.start is None or (wanted is not None and a.label not in wanted):
                    continue
                span = span_key(a)
                if span in cats:
                    raise RatingsError(f"document {doc_id!r}: {name} has two annotations on [{a.start}, {a.end}); "
                                       "agreement needs one category per annotator and item (pick one --type)")
                if feature is not None:
                    value = a.attributes.get(feature, "")
                    cats[span] = "" if value is None else str(value)
                else:
                    cats[span] = ANNOTATED if types is not None and len(types) == 1 else a.label
                spans[span] = None
            per.append(cats)
        order = sorted(spans)
        out[doc_id] = to_ratings({name: [cats.get(s, NON_CAT) for s in order] for cats, name in zip(per, names)})
    return out


def same_documents(corpora: Sequence[Corpus], names: Sequence[str]) -> list[str]:
    """The documents of two or more annotation sets, which must all hold the same ones (an error names the first
    document one set lacks)."""
    if len(corpora) < 2:
        raise RatingsError(f"agreement needs at least two annotation sets, got {len(corpora)}")
    docs = list(corpora[0])
    for c, name in zip(corpora[1:], names[1:]):
        extra = [d for d in c if d not in corpora[0]]
        lacking = [d for d in docs if d not in c]
        if extra or lacking:
            d = (extra or lacking)[0]
            raise RatingsError(f"document {d!r} is in {names[0] if lacking else name} but not in "
                               f"{name if lacking else names[0]}; every annotation set needs the same documents")
    return docs


def check_corpus_names(corpora: Sequence[Corpus], types: Sequence[str] | None, feature: str | None) -> None:
    """Refuse a ``--type`` no annotator used, or a ``--feature`` no annotation (of those types) carries."""
    found: set[str] = set()
    features: set[str] = set()
    for c in corpora:
        for d in c.values():
            for a in d.annotations:
                found.add(a.label)
                if feature is not None and (types is None or a.label in types):
                    features.update(a.attributes)
    if types is not None:
        check_names(types, found, "annotation type", "--type")
    if feature is not None:
        check_names([feature], features, "feature" + (" on annotations of --type" if types else ""), "--feature")


def is_project(inputs: Any) -> bool:
    """Whether ``inputs`` is one path (alone, or the only one of a sequence) that a project layout recognises
    (:mod:`accord.formats.projects`: an INCEpTION export folder...)."""
    from ..formats.projects import detect
    from ..pipeline._inputs import is_path

    if not is_path(inputs):
        if not isinstance(inputs, Sequence) or isinstance(inputs, (str, bytes)) or len(inputs) != 1:
            return False
        inputs = inputs[0]
        if not is_path(inputs):
            return False
    return detect(inputs) is not None


def project_sides(inputs: Any, annotators: Sequence[str] | None = None, **options: Any) -> list[Corpus] | None:
    """The annotators of one project export as sides: one corpus per annotator, named by the annotator, in the
    order of ``annotators`` (see :func:`accord.formats.projects.find_annotators`); ``None`` when ``inputs`` is not one
    project export (then ``annotators`` is an error: it chooses among a project's annotators).

    ``options`` go to the readers (``layer``, ``typesystem``, ``encoding``; ``None`` values left out). The
    commands that take annotators (``agree``, ``adjudicate``) call this first on their inputs."""
    from ..formats.projects import find_annotators
    from ..pipeline._inputs import is_path

    found = None
    if is_project(inputs):
        path = inputs if is_path(inputs) else inputs[0]
        found = find_annotators(path, annotators, **{k: v for k, v in options.items() if v is not None})
    if found is None:
        if annotators is not None:
            raise OptionError("--annotators (annotators=) chooses among the annotators of one project export (an "
                              "INCEpTION or WebAnno export folder...); the input is not one: give one INPUT per "
                              "annotator instead")
        return None
    return [Corpus(c.documents, name=name, files=c.files) for name, c in found.items()]
