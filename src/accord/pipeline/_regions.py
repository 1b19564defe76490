"""What of a MAT document is scored: annotation roles and processable regions.

MAT documents hold more than the annotations a task scores: token annotations (``lex``), zones (``zone``, whose
``region_type`` says which parts of the signal are annotated) and administrative ``SEGMENT`` annotations (their
``status`` says whether a part was annotated by a person: ``human gold``, ``reconciled``). MAT's scorer pairs only
the *content* annotations, and only those lying wholly inside a *processable region*:

* the roles come from the task's annotation set descriptors (``category``, else ``name``: ``content``,
  ``token``, ``zone``; :attr:`accord.model.schema.LabelSpec.category`); without a task, from MAT's options
  ``--content-annotations`` and ``--token-annotations``; ``lex``, ``zone`` and ``SEGMENT`` are recognised by
  default (MAT's root task declares them, and tasks inherit them);
* a side's regions are its ``zone`` annotations whose ``region_type`` is ``body`` when a task is given (the whole
  signal when the document has no zone; without a task zones are not regions, as in MAT), and with ``gold_only``
  (MAT's ``--gold_only`` / ``--ref_gold_only``) only the parts of them covered by SEGMENTs whose ``status`` is
  ``human gold`` or ``reconciled``;
* the regions of a document pair are those of the gold side intersected with those of the predicted side (what
  both sides annotated); an annotation is kept when its extent lies inside one of them, a spanless annotation by
  its implied span, or, without one, when the pair has any region (the document's maximal region);
* token annotations inside the regions are kept (they are the unit of the token scores: MAT's ``test toks``
  counts the hypothesis's), everything else of another role is dropped.

Zero-length zones therefore leave nothing to score with a task, and change nothing without one (MAT's edge-case
test). Touching or overlapping regions are merged, so that a span across two adjacent zones is kept.
"""

from __future__ import annotations

import warnings
from bisect import bisect_right
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import AccordWarning, OptionError
from ..model import Annotation, Corpus, Document

if TYPE_CHECKING:
    from ..model.schema import Task

__all__ = ["TOKEN_LABELS", "ZONE_LABELS", "SEGMENT_LABELS", "UNDECLARED", "GOLD_STATUSES", "Regions", "AnnotationRoles",
           "annotation_roles", "prepare_corpus", "restrict_pairs", "RegionWarning"]

TOKEN_LABELS = ("lex",)
"""Token annotations recognised without a declaration (MAT's ``lex``)."""
ZONE_LABELS = ("zone",)
"""Zone annotations recognised without a declaration."""
SEGMENT_LABELS = ("SEGMENT",)
"""Segment annotations recognised without a declaration."""
GOLD_STATUSES = ("human gold", "reconciled")
"""The ``status`` values of a SEGMENT that ``gold_only`` keeps (MAT's)."""
UNDECLARED = frozenset(TOKEN_LABELS + ZONE_LABELS + SEGMENT_LABELS)
"""The labels a task may leave undeclared (MAT's root task declares them; tasks inherit them)."""
BODY = "body"
"""The ``region_type`` of a zone that is processed."""

Regions = list[tuple[int, int]] | None
"""Sorted, disjoint ``[start, end)`` extents; None for the whole document."""


class RegionWarning(AccordWarning):
    """Annotations left out because they lie outside the processable regions, or documents without any."""


@dataclass(frozen=True)
class AnnotationRoles:
    """Which labels are content (scored), tokens, zones and segments.

    ``content`` None means every label that has no other role. ``zones_are_regions`` is true with a task.
    """

    content: frozenset[str] | None
    token: frozenset[str]
    zone: frozenset[str]
    segment: frozenset[str]
    zones_are_regions: bool = False
    other: frozenset[str] = frozenset()
    """Labels the task declares in descriptors of another category (not scored)."""

    def is_content(self, label: str) -> bool:
        if self.content is not None:
            return label in self.content
        return not (label in self.token or label in self.zone or label in self.segment or label in self.other)


def annotation_roles(task: Task | None, content_annotations: Sequence[str] | None = None,
                     token_annotations: Sequence[str] | None = None) -> AnnotationRoles:
    """The roles of labels: from the task's descriptors, or from MAT's options without a task.

    Raises
    ------
    OptionError
        ``content_annotations`` or ``token_annotations`` together with a task (the task declares them, as in
        MAT), or a label given both roles.
    """
    if task is not None:
        given = [n for n, v in (("--content-annotations", content_annotations),
                                ("--token-annotations", token_annotations)) if v]
        if given:
            raise OptionError(f"{' and '.join(given)} apply without --task; the task's annotation set descriptors "
                              "say which labels are content and which are tokens (category or name 'content', "
                              "'token')")
        token = task.labels_of("token") | {lbl for lbl in TOKEN_LABELS if lbl not in task.labels}
        zone = task.labels_of("zone") | {lbl for lbl in ZONE_LABELS if lbl not in task.labels}
        segment = task.labels_of("segment") | {lbl for lbl in SEGMENT_LABELS
                                              if lbl not in task.labels or task.labels[lbl].category != "content"}
        other = frozenset(lbl for lbl, spec in task.labels.items()
                          if spec.category not in ("content", "token", "zone", "segment"))
        # content: every label of no other role, so that validation still refuses a label the task lacks
        return AnnotationRoles(None, frozenset(token), frozenset(zone), frozenset(segment) - task.labels_of("content"),
                               True, other - segment)
    token = frozenset(token_annotations) if token_annotations else frozenset(TOKEN_LABELS)
    content = frozenset(content_annotations) if content_annotations else None
    if content is not None and content & token:
        raise OptionError(f"{', '.join(sorted(content & token))}: given to both --content-annotations and "
                          "--token-annotations")
    zone, segment = frozenset(ZONE_LABELS) - (content or frozenset()), frozenset(SEGMENT_LABELS) - (content or
                                                                                               frozenset())
    return AnnotationRoles(content, token, zone - token, segment - token)


def _merge(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(b, out[-1][1]))
        else:
            out.append((a, b))
    return out


def intersect(a: Regions, b: Regions) -> Regions:
    """The regions both ``a`` and ``b`` cover (None is the whole document)."""
    if a is None:
        return b
    if b is None:
        return a
    out, i, j = [], 0, 0
    while i < len(a) and j < len(b):
        lo, hi = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if lo < hi:
            out.append((lo, hi))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return out


def _status_is_gold(ann: Annotation) -> bool:
    return ann.attributes.get("status") in GOLD_STATUSES


def _side_regions(doc: Document, roles: AnnotationRoles, gold_only: bool, task: Task | None) -> Regions:
    zones: Regions = None
    if roles.zones_are_regions:
        found = [a for a in doc.annotations if a.label in roles.zone and a.start is not None]
        if found:
            zones = _merge((a.start, a.end) for a in found
                           if a.start is not None and a.end is not None   # (all of found: for the type checker)
                           and (task.value(a, "region_type") if task is not None else a.attributes.get(
                               "region_type")) in (BODY, None))
    if not gold_only:
        return zones
    segments = _merge((a.start, a.end) for a in doc.annotations
                      if a.label in roles.segment and a.start is not None and a.end is not None and _status_is_gold(a))
    return intersect(zones, segments)


def prepare_corpus(corpus: Corpus, roles: AnnotationRoles, scoring_label: Callable[[Annotation], str],
                   ignore: Collection[str] = (), gold_only: bool = False, task: Task | None = None
                   ) -> tuple[Corpus, dict[str, Regions]]:
    """The corpus with only its content and token annotations, the ignored labels (by ``scoring_label``) left
    out, and each document's processable regions.

    A document that holds no annotation of another role, no ignored label and no SEGMENT to read is kept as it is
    (no copy).
    """
    ignore = frozenset(ignore)
    dropped = roles.zone | roles.segment | roles.other
    regions: dict[str, Regions] = {}
    docs = []
    for doc in corpus.values():
        labels = set(map(_LABEL, doc.annotations))
        if gold_only or (roles.zones_are_regions and labels & roles.zone):
            regions[doc.id] = _side_regions(doc, roles, gold_only, task)
        else:
            regions[doc.id] = None
        if not (labels & dropped) and not ignore and (roles.content is None or labels <= roles.content | roles.token):
            docs.append(doc)
            continue
        kept = [a for a in doc.annotations
                if a.label in roles.token or (roles.is_content(a.label) and scoring_label(a) not in ignore)]
        docs.append(doc if len(kept) == len(doc.annotations) else doc.replace_annotations(kept))
    return Corpus(docs, name=corpus.name, files=corpus.files), regions


def _LABEL(a: Annotation) -> str:   # noqa: N802 - the label getter
    return a.label


def _inside(regions: list[tuple[int, int]], starts: list[int]) -> Callable[[Annotation], bool]:
    from ..match.similarity import implied_span

    def keep(a: Annotation) -> bool:
        span = (a.start, a.end) if a.start is not None and a.end is not None else implied_span(a)
        if span is None:
            return bool(regions)
        k = bisect_right(starts, span[0]) - 1
        return k >= 0 and span[1] <= regions[k][1]
    return keep


def restrict_pairs(triples: Iterable[tuple[str, Document | None, Document | None]], gold_regions: dict[str, Regions],
                   pred_regions: dict[str, Regions], token_labels: Collection[str] = ()
                   ) -> Iterator[tuple[str, Document | None, Document | None]]:
    """Each document pair with only the annotations inside the regions both sides process.

    Warns (:class:`RegionWarning`) once, at the end, with the number of content annotations left out (tokens,
    ``token_labels``, are not counted) and the documents left without any region.
    """
    left_out = {"gold": 0, "predicted": 0}
    empty: list[str] = []
    for doc_id, g, p in triples:
        regions = intersect(gold_regions.get(doc_id) if g is not None else None,
                            pred_regions.get(doc_id) if p is not None else None)
        if regions is None:
            yield doc_id, g, p
            continue
        if not any(b > a for a, b in regions):
            empty.append(doc_id)
        keep = _inside(regions, [a for a, _ in regions])
        out = []
        for side, doc in (("gold", g), ("predicted", p)):
            if doc is not None:
                kept = [a for a in doc.annotations if keep(a)]
                if len(kept) != len(doc.annotations):
                    left_out[side] += sum(1 for a in doc.annotations if a.label not in token_labels) - sum(
                        1 for a in kept if a.label not in token_labels)
                doc = doc.replace_annotations(kept) if len(kept) != len(doc.annotations) else doc
            out.append(doc)
        yield doc_id, out[0], out[1]
    parts = []
    if left_out["gold"] or left_out["predicted"]:
        parts.append(f"{left_out['gold']} gold and {left_out['predicted']} predicted annotation(s) lie outside the "
                     "processable regions (zones with region_type 'body'; with --gold-only "
                     "or --ref-gold-only, SEGMENTs whose status is 'human gold' or 'reconciled') and are not scored")
    if empty:
        shown = ", ".join(map(repr, empty[:5])) + (f" and {len(empty) - 5} more" if len(empty) > 5 else "")
        parts.append(f"{len(empty)} document(s) have no processable region, so nothing in them is scored: {shown}")
    if parts:
        warnings.warn("; ".join(parts), RegionWarning, stacklevel=2)
