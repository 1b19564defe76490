"""A stage for generated output (the ``records`` format): each predicted string placed on the gold document's text.

The text is the gold document's (for a token file: its tokens joined by spaces and its sentences by new lines, as
``accord convert`` writes it). A string, its surrounding whitespace left out, is looked for in that text:

* ``exact``: its occurrences, where they begin and end on word boundaries (on token boundaries in a token file;
  anywhere in a text where it has none on word boundaries, as in a text without spaces). The predictions of one
  string go to distinct occurrences, chosen to agree best with the gold spans: an occurrence that is a gold span of
  the prediction's label first, then a gold span of another label; then, among occurrences that overlap no
  prediction placed already, one that overlaps a gold span of its label, then of another label, then any other;
  last, an occurrence overlapping a prediction placed already (a model's flat output does not overlap itself: the
  string "Contractors" goes to a free occurrence of its own rather than inside a placed "Arab Contractors"). Longer
  strings are placed first. Among equals, the first in the text (a one-to-one assignment, optimal for these
  weights). So a repeated mention is never scored against the wrong occurrence, and repeats go to successive
  occurrences.
* ``fuzzy``: as ``exact``, then a string with no occurrence left goes to the window of words (tokens) most similar to
  it, by rapidfuzz's ratio, if that is at least the threshold (``align_threshold``, 0.9 by default); rapidfuzz is
  the optional extra ``accord[fuzzy]``.

A string that is nowhere in the text (a hallucination), or is listed more often than the text holds it, is
*unaligned*: it stays a prediction, placed past the end of the document so that it pairs with nothing and counts as
spurious in every span mode (a document's unaligned predictions stand past its end in the order they are
listed). A relation is kept when both its strings are among the document's aligned entities
(the first one of each string), its ends then the attributes ``head`` and ``tail``; otherwise it is unaligned.

:func:`align_records` returns the predicted corpus with offsets, in the gold document's unit, and a summary (counts
and the unaligned and fuzzily aligned predictions: document, string, label, and the reason it is unaligned or where
it was placed, in the document's unit, with the text there and the similarity) that the result keeps in its options
under ``alignment``.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import defaultdict
from itertools import accumulate
from typing import Any

import numpy as np

from .._support.surface import spelled
from ..errors import OptionError, PairingError
from ..formats.records.generated import ARGUMENTS, HEAD, KIND, TAIL, TEXT, TRIGGER
from ..model import Annotation, Corpus, Document, make_annotation

__all__ = ["ALIGN_MODES", "align_records"]

ALIGN_MODES = ("exact", "fuzzy")
"""The ways a string is placed on the text."""

_LISTED = 50
"""The unaligned and fuzzily aligned predictions listed in the summary (all are counted)."""


def _is_word(c: str) -> bool:
    return c.isalnum() or c == "_"


class _Text:
    """A gold document's text, its unit and what the occurrences are checked against."""

    def __init__(self, doc: Document):
        self.token_starts: dict[int, int] | None = None
        self.token_ends: dict[int, int] | None = None
        if doc.text is not None:
            self.text = doc.text
            self.length = len(doc.text)
        elif doc.tokens is not None:
            from ..formats.convert import _to_text

            placed = _to_text(doc._replace(annotations=()))
            assert placed.text is not None
            self.text = placed.text
            self.token_starts, self.token_ends = {}, {}
            at = 0
            for k, token in enumerate(doc.tokens):
                if k:
                    at += 1
                self.token_starts[at] = k
                at += len(str(token))
                self.token_ends[at] = k + 1
            self.length = len(doc.tokens)
        else:
            raise PairingError(f"document {doc.id!r}: the gold side has neither text nor tokens to align the "
                               "predicted strings to")
        self.gold: dict[tuple[int, int], set[str]] = defaultdict(set)
        spans = []
        for a in doc.annotations:
            if a.start is not None and a.end is not None:
                self.gold[(a.start, a.end)].add(a.label)
                spans.append((a.start, a.end, a.label))
        spans.sort()
        self.spans = spans
        self.span_starts = [s for s, _, _ in spans]
        self.reach = list(accumulate((e for _, e, _ in spans), max))
        """The furthest end of the spans up to each one (the overlap test stops where nothing before reaches)."""

    def unit(self, a: int, b: int) -> tuple[int, int] | None:
        """Character offsets in the gold document's unit (``None``: not on token boundaries)."""
        if self.token_starts is None or self.token_ends is None:
            return a, b
        x, y = self.token_starts.get(a), self.token_ends.get(b)
        return None if x is None or y is None else (x, y)

    def occurrences(self, s: str) -> list[tuple[int, int]]:
        """The occurrences of ``s`` in the document's unit, in text order (see the module docstring)."""
        text, found, anywhere = self.text, [], []
        at = text.find(s)
        while at >= 0:
            end = at + len(s)
            span = self.unit(at, end)
            if span is not None:
                if self.token_starts is not None or (
                        (at == 0 or not (_is_word(s[0]) and _is_word(text[at - 1])))
                        and (end == len(text) or not (_is_word(s[-1]) and _is_word(text[end])))):
                    found.append(span)
                else:
                    anywhere.append(span)
            at = text.find(s, at + 1)
        return found or anywhere

    def weight(self, label: str, span: tuple[int, int]) -> int:
        """How well an occurrence agrees with the gold spans for a prediction of ``label`` (4 best, 0 none)."""
        labels = self.gold.get(span)
        if labels:
            return 4 if label in labels else 3
        a, b = span
        best = 0
        k = bisect_left(self.span_starts, b) - 1     # the spans that start before the occurrence ends
        while k >= 0 and self.reach[k] > a:
            s, e, lab = self.spans[k]
            if a < e:
                best = max(best, 2 if lab == label else 1)
                if best == 2:
                    break
            k -= 1
        return best


def _rank(text: _Text, label: str, span: tuple[int, int], taken: np.ndarray) -> int:
    """The preference of an occurrence for a prediction of ``label`` (6 best, 0 worst; the module docstring): a gold
    span 6 or 5, whatever was placed; otherwise 4 to 2 for an occurrence clear of the predictions placed already
    (``taken``: the units they cover), by its overlap with the gold spans, and 1 or 0 for one that is not."""
    w = text.weight(label, span)
    if w >= 3:
        return w + 2
    if not taken[span[0]:span[1]].any():
        return w + 2
    return 1 if w else 0


def _assign(labels: list[str], occs: list[tuple[int, int]], text: _Text,
            taken: np.ndarray) -> list[tuple[int, int] | None]:
    """An occurrence for each prediction of one string (``None``: none left), one-to-one, best ranks first and
    earlier occurrences among equals."""
    n = len(occs)
    if len(set(labels)) == 1:
        w = [_rank(text, labels[0], o, taken) for o in occs]
        chosen = sorted(sorted(range(n), key=lambda j: (-w[j], j))[:len(labels)])
        out: list[tuple[int, int] | None] = [occs[j] for j in chosen]
        return out + [None] * (len(labels) - len(out))
    from scipy.optimize import linear_sum_assignment

    # each better rank outweighs any number of worse ones (base: more than the predictions), then earlier
    # occurrences: the tie-break kept where the numbers stay exact in floating point
    base = len(labels) + 1
    big = n * n + 1 if base ** 6 * (n * n + 1) * len(labels) < 2 ** 52 else 0
    ranks = [[_rank(text, lab, o, taken) for o in occs] for lab in labels]
    cost = np.array([[-(base ** r if r else 0) * max(big, 1) + (j if big else 0) for j, r in enumerate(row)]
                     for row in ranks], dtype=float)
    rows, cols = linear_sum_assignment(cost)
    placed: list[tuple[int, int] | None] = [None] * len(labels)
    for r, c in zip(rows.tolist(), cols.tolist()):
        placed[r] = occs[c]
    return placed


def _fuzzy(s: str, text: _Text, used: set[tuple[int, int]],
           threshold: float) -> tuple[tuple[int, int], float, str] | None:
    """The window of words most similar to ``s`` (at least ``threshold``), not used already: its span, the
    similarity and the text there."""
    from rapidfuzz import fuzz

    words = [(m.start(), m.end()) for m in re.finditer(r"\S+", text.text)]
    n = max(1, len(s.split()))
    best: tuple[float, int, tuple[int, int], str] | None = None
    for size in (n, n - 1, n + 1):
        if size < 1:
            continue
        for k in range(len(words) - size + 1):
            a, b = words[k][0], words[k + size - 1][1]
            x, y = a, b         # and without the punctuation around it ("France." for "France")
            while x < y and not _is_word(text.text[x]):
                x += 1
            while y > x and not _is_word(text.text[y - 1]):
                y -= 1
            windows = ((a, b), (x, y)) if (x, y) != (a, b) and y > x else ((a, b),)
            for left, right in windows:
                span = text.unit(left, right)
                if span is None or span in used:
                    continue
                score = fuzz.ratio(s, text.text[left:right]) / 100.0
                if score >= threshold and (best is None or score > best[0]):
                    best = (score, left, span, text.text[left:right])
    return None if best is None else (best[2], best[0], best[3])


def align_records(gold: Corpus, pred: Corpus, how: str = "exact", threshold: float | None = None,
                  listed: int | None = _LISTED) -> tuple[Corpus, dict[str, Any]]:
    """The predicted records placed on the gold texts (see the module docstring) and a summary of the alignment:
    the counts, and the first ``listed`` unaligned and fuzzily aligned predictions (``None``: all).

    Raises
    ------
    OptionError
        An unknown way, a threshold outside [0, 1] or without ``fuzzy``, or ``fuzzy`` without rapidfuzz installed.
    PairingError
        A gold document with neither text nor tokens.
    """
    if how not in ALIGN_MODES:
        raise OptionError(f"{spelled('align')} must be one of {', '.join(ALIGN_MODES)} or none; got {how!r}")
    if threshold is not None and how != "fuzzy":
        raise OptionError("align_threshold (--align-threshold) applies with align='fuzzy' (--align fuzzy)")
    if threshold is None:
        threshold = 0.9
    if not 0.0 <= threshold <= 1.0:
        raise OptionError(f"align_threshold (--align-threshold) must be between 0 and 1; got {threshold}")
    if how == "fuzzy":
        try:
            import rapidfuzz  # noqa: F401
        except ImportError:
            raise OptionError("--align fuzzy needs rapidfuzz: pip install 'accord[fuzzy]'") from None
    events = any(a.get(KIND) == "event" for doc in pred.values() for a in doc.annotations)
    summary = _Summary(how, threshold, listed, events)
    docs = [_Aligner(doc_id, gold.get(doc_id), summary).document(doc) for doc_id, doc in pred.items()]
    return Corpus(docs, name=pred.name, files=pred.files), summary.as_dict()


class _Summary:
    """The counts and lists of an alignment."""

    def __init__(self, how: str, threshold: float, listed: int | None, events: bool):
        self.how, self.threshold, self.listed = how, threshold, listed
        self.counts = {"exact": 0, "fuzzy": 0, "unaligned": 0, "relations": 0, "unaligned_relations": 0}
        if events:
            self.counts.update({"events": 0, "unaligned_triggers": 0, "arguments": 0, "unaligned_arguments": 0})
        self.unaligned: list[dict[str, Any]] = []
        self.fuzzy: list[dict[str, Any]] = []

    def note(self, into: list[dict[str, Any]], item: dict[str, Any]) -> None:
        if self.listed is None or len(into) < self.listed:
            into.append(item)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"align": self.how, **self.counts, "unaligned_listed": self.unaligned}
        if self.how == "fuzzy":
            out["threshold"] = self.threshold
            out["fuzzy_listed"] = self.fuzzy
        return out


class _Aligner:
    """One predicted document placed on its gold document's text."""

    def __init__(self, doc_id: str, gold: Document | None, summary: _Summary):
        self.doc_id, self.summary = doc_id, summary
        self.text = _Text(gold) if gold is not None else None
        self.end = self.text.length if self.text is not None else 0
        self.extra = 0

    def past_end(self) -> tuple[int, int]:
        """A place past the end of the document, pairing with nothing (an unaligned prediction)."""
        self.extra += 1
        return self.end + 2 * self.extra - 1, self.end + 2 * self.extra

    def unaligned(self, item: dict[str, Any], reason: str) -> None:
        self.summary.note(self.summary.unaligned, {"document": self.doc_id, **item, "reason": reason
                                                   if self.text is not None else "no gold document of this id"})

    def place(self, items: list[tuple[str, str]], what: str) -> tuple[list[tuple[int, int] | None], dict[int, str]]:
        """Each ``(string, label)`` placed (``None``: unaligned, with its reason), one-to-one within ``items``."""
        s = self.summary
        placed, reasons, similar = _place(items, self.text, s.how, s.threshold)
        for k, (found, score, there) in similar.items():
            s.note(s.fuzzy, {"document": self.doc_id, "text": items[k][0], "label": items[k][1],
                             **({} if what == "entity" else {"kind": what}), "placed": list(found),
                             "placed_text": there, "similarity": round(score, 4)})
        if what == "entity":
            s.counts["fuzzy"] += len(similar)
            s.counts["exact"] += sum(p is not None for p in placed) - len(similar)
        return placed, reasons

    def document(self, doc: Document) -> Document:
        counts = self.summary.counts
        entities = [a for a in doc.annotations if a.get(KIND) == "entity"]
        spans, reasons = self.place([(a.get(TEXT), a.label) for a in entities], "entity")
        out: list[Annotation] = []
        first: dict[str, Annotation] = {}
        for k, a in enumerate(entities):
            attrs = {n: v for n, v in a.attributes.items() if n not in (TEXT, KIND)}
            span = spans[k]
            if span is None:
                counts["unaligned"] += 1
                self.unaligned({"text": a.get(TEXT), "label": a.label}, reasons[k])
                span = self.past_end()
            new = make_annotation(a.label, span[0], span[1], attrs)
            if spans[k] is not None:
                first.setdefault(a.get(TEXT).strip(), new)
            out.append(new)
        for a in doc.annotations:
            if a.get(KIND) != "relation":
                continue
            head, tail = first.get(a.get(HEAD).strip()), first.get(a.get(TAIL).strip())
            if head is None or tail is None:
                counts["unaligned_relations"] += 1
                self.unaligned({"text": f"{a.get(HEAD)} -> {a.get(TAIL)}", "label": a.label},
                               "an end is not among the aligned entities")
                continue
            counts["relations"] += 1
            out.append(make_annotation(a.label, None, None, {"head": head, "tail": tail}))
        if "events" in counts:
            aligned: dict[str, list[Annotation]] = defaultdict(list)
            for k, new in enumerate(out[:len(entities)]):
                if spans[k] is not None:
                    aligned[entities[k].get(TEXT).strip()].append(new)
            out.extend(self.events(doc, aligned))
        return Document(self.doc_id, tuple(out))

    def events(self, doc: Document, entities: dict[str, list[Annotation]]) -> list[Annotation]:
        """A document's events placed on the text: their trigger spans (labelled by the event's type), the argument
        spans that are not entities (labelled ``Argument``), and the events (spanless: their ``trigger`` and one
        attribute per role, a role given twice numbered as brat numbers it: ``Theme``, ``Theme2``)."""
        counts = self.summary.counts
        events = [a for a in doc.annotations if a.get(KIND) == "event"]
        triggers, why = self.place([(a.get(TRIGGER), a.label) for a in events], "trigger")
        out: list[Annotation] = []
        aligned_triggers: dict[str, list[Annotation]] = defaultdict(list)
        spans = []
        for k, a in enumerate(events):
            span = triggers[k]
            if span is None:
                counts["unaligned_triggers"] += 1
                self.unaligned({"text": a.get(TRIGGER), "label": a.label, "kind": "trigger"}, why[k])
                span = self.past_end()
            else:
                counts["events"] += 1
            t = make_annotation(a.label, span[0], span[1])
            if triggers[k] is not None:
                aligned_triggers[a.get(TRIGGER).strip()].append(t)
            spans.append(t)
            out.append(t)
        own: dict[tuple[int, int], Annotation] = {}
        roles: list[dict[str, Annotation]] = []
        for k, a in enumerate(events):
            attrs: dict[str, Annotation] = {}
            for role, s in a.get(ARGUMENTS):
                target = self.argument(s.strip(), spans[k], entities, aligned_triggers, own)
                if target is None:
                    counts["unaligned_arguments"] += 1
                    self.unaligned({"text": s, "label": role, "kind": "argument", "event": a.label},
                                   "not in the text")
                    span = self.past_end()
                    target = make_annotation("Argument", span[0], span[1])
                    out.append(target)
                else:
                    counts["arguments"] += 1
                name, n = role, 1
                while name in attrs:        # a role given twice: role, role2, role3 (as brat numbers them)
                    n += 1
                    name = f"{role}{n}"
                attrs[name] = target
            roles.append(attrs)
        made = _nest(events, spans, roles)
        return [a for a in out if a.start is not None] + list(own.values()) + made

    def argument(self, s: str, trigger: Annotation, entities: dict[str, list[Annotation]],
                 triggers: dict[str, list[Annotation]], own: dict[tuple[int, int], Annotation]) -> Annotation | None:
        """The place of an event's argument: among the aligned entities and triggers of its string, the nearest to
        the event's trigger; else an occurrence of the string (a fuzzy one with ``fuzzy``), a gold span first
        (as for an entity), then the nearest to the trigger, then the first (arguments may share a place)."""
        ts, te = trigger.start or 0, trigger.end or 0

        def distance(x: int, y: int) -> int:
            return max(0, x - te, ts - y)

        known = entities.get(s, []) + triggers.get(s, [])
        if known:
            return min(known, key=lambda a: (distance(a.start or 0, a.end or 0), a.start or 0))
        if self.text is None:
            return None
        occs = self.text.occurrences(s)
        if not occs and self.summary.how == "fuzzy":
            found = _fuzzy(s, self.text, set(), self.summary.threshold)
            occs = [found[0]] if found is not None else []
        if not occs:
            return None
        text = self.text
        best = min(occs, key=lambda o: (-text.weight("", o), distance(*o), o[0]))
        if best not in own:
            own[best] = make_annotation("Argument", best[0], best[1])
        return own[best]


def _nest(events: list[Annotation], triggers: list[Annotation], roles: list[dict[str, Annotation]]
          ) -> list[Annotation]:
    """The events, an argument placed on another event's trigger pointing to that event (as brat's ``E`` lines
    do), built so that an event exists before those that point to it; where events point to each other in a
    cycle, the arguments of the cycle stay their triggers' spans."""
    event_of = {id(t): k for k, t in enumerate(triggers)}
    made: dict[int, Annotation] = {}
    waiting = list(range(len(events)))
    while waiting:
        ready = [k for k in waiting if all(event_of.get(id(t)) in made or event_of.get(id(t)) in (None, k)
                                           for t in roles[k].values())]
        cycle = not ready
        for k in ready or waiting:
            attrs: dict[str, Any] = {"trigger": triggers[k]}
            for name, t in roles[k].items():
                j = event_of.get(id(t))
                attrs[name] = made[j] if j is not None and j in made and not (cycle and j in waiting) else t
            made[k] = make_annotation(events[k].label, None, None, attrs)
        waiting = [k for k in waiting if k not in made]
    return [made[k] for k in range(len(events))]


def _place(items: list[tuple[str, str]], text: _Text | None, how: str, threshold: float
           ) -> tuple[list[tuple[int, int] | None], dict[int, str], dict[int, tuple[tuple[int, int], float, str]]]:
    """Each ``(string, label)`` placed on the text (``None``: unaligned), the reasons of the unaligned ones, and the
    fuzzily placed ones with their similarity; the strings of ``items`` go to distinct occurrences."""
    spans: list[tuple[int, int] | None] = [None] * len(items)
    reasons: dict[int, str] = {}
    similar: dict[int, tuple[tuple[int, int], float, str]] = {}
    if text is None:
        return spans, {k: "no gold document of this id" for k in range(len(items))}, similar
    by_string: dict[str, list[int]] = defaultdict(list)
    for k, (s, _) in enumerate(items):
        by_string[s.strip()].append(k)
    used: set[tuple[int, int]] = set()
    taken = np.zeros(text.length + 1, dtype=bool)      # the units the placed predictions cover
    for s, ks in sorted(by_string.items(), key=lambda item: -len(item[0])):     # longer strings first
        occs = text.occurrences(s)
        if not occs:
            continue
        placed = _assign([items[k][1] for k in ks], occs, text, taken)
        for k, span in zip(ks, placed):
            spans[k] = span
            if span is None:
                reasons[k] = "listed more often than the text holds it"
            else:
                used.add(span)
        for span in placed:
            if span is not None:
                taken[span[0]:span[1]] = True
    if how == "fuzzy":
        for k, (s, _) in enumerate(items):
            if spans[k] is None and k not in reasons:
                found = _fuzzy(s.strip(), text, used, threshold)
                if found is not None:
                    spans[k] = found[0]
                    used.add(found[0])
                    similar[k] = found
    for k in range(len(items)):
        if spans[k] is None:
            reasons.setdefault(k, "not in the text")
    return spans, reasons, similar


