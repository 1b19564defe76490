"""The two metrics of the CorefUD scorer that are not CoNLL-2012's: MOR and the anaphor-level score of zeros.

* **MOR** (mention overlap ratio, Findings of CRAC 2022): key and response mentions are grouped in blocks of
  overlapping word ranges (sorted by first word; a mention joins the block while it starts at or before the block's
  last word); within a block they pair 1:1 maximising the words they share (scipy's ``linear_sum_assignment``).
  Recall is the shared words over the key mentions' words, precision over the response mentions'. It does not depend
  on ``--mention-match``: its pairing is its own.
* **zero** (the scorer's ``als_zeros``): each zero of a key entity but its first mention (mentions in the scorer's
  order: first word, last word, length) is an anaphor; it is right (tp) when its response counterpart (the equal
  response mention when there is one, even one aligned to another key mention, else the one aligned to it) is in a
  response entity that also holds the counterpart of an earlier mention of the key entity, wrongly linked (wl)
  when its counterpart's entity holds none of them, missed (fn) when it has no counterpart or its counterpart opens
  its response entity; a zero of a response entity but its first mention that no key anaphor covers is a false
  alarm (fp). Recall ``tp / (tp + fn + wl)``, precision ``tp / (tp + fp + wl)``.

Both are counted by document from the mentions :mod:`accord.structured.coref_align` prepared (after singletons and
zeros are handled, a mention written in two entities counted in each).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["corefud_scores", "mor_counts", "zero_counts"]

Counts = tuple[float, float, float, float]
"""recall numerator, recall denominator, precision numerator, precision denominator"""


def _order(m: Any) -> tuple[int, int, int]:
    return m.words[0], m.words[-1], len(m.words)


def mor_counts(key: Sequence[Sequence[Any]], response: Sequence[Sequence[Any]]) -> Counts:
    """MOR's counts of one document (entities of :class:`~accord.formats.coref.corefud_words.Mention`)."""
    items = sorted([(m, True) for e in key for m in e] + [(m, False) for e in response for m in e],
                   key=lambda x: _order(x[0]))
    shared = key_words = resp_words = 0.0
    block: list[tuple[Any, bool]] = []
    reach = None
    for item in items + [(None, False)]:
        m = item[0]
        if m is not None and (reach is None or m.words[0] <= reach):
            block.append(item)
            reach = m.words[-1] if reach is None else max(reach, m.words[-1])
            continue
        ks = [x for x, k in block if k]
        rs = [x for x, k in block if not k]
        key_words += sum(len(x.words) for x in ks)
        resp_words += sum(len(x.words) for x in rs)
        if ks and rs:
            overlap = np.array([[_common(a, b) for b in rs] for a in ks], dtype=np.float64)
            from ..match._small_assignment import max_assignment

            rows, cols = max_assignment(overlap)     # scipy's pairs, without importing scipy.optimize
            shared += float(overlap[rows, cols].sum())
        block, reach = ([item], m.words[-1]) if m is not None else ([], None)
    return shared, key_words, shared, resp_words


def _common(a: Any, b: Any) -> int:
    if a.words[0] > b.words[-1] or b.words[0] > a.words[-1]:
        return 0
    return len(set(a.words).intersection(b.words))


def zero_counts(key: Sequence[Sequence[tuple[Any, Any]]], response: Sequence[Sequence[tuple[Any, Any]]],
                counterpart: dict[Any, Any]) -> Counts:
    """The anaphor-level counts of zeros of one document: entities as lists of ``(identity, Mention)`` and each key
    identity's response counterpart (:func:`accord.structured.coref_align.align_document`): the equal response
    mention when the response has one, else the aligned one, as the scorer looks it up."""
    resp_entity: dict[Any, int] = {}
    for number, entity in enumerate(response):
        for e, _ in entity:
            resp_entity[e] = number    # the last entity holding it, as the scorer's look-up
    firsts = {min(entity, key=lambda x: _order(x[1]))[0] for entity in response if entity}
    tp = fp = fn = wl = 0
    covered: set[Any] = set()
    for entity in key:
        earlier: set[int] = set()
        for i, (e, m) in enumerate(sorted(entity, key=lambda x: _order(x[1]))):
            other = counterpart.get(e)
            cid: int | None = resp_entity.get(other) if other is not None else None
            if i and m.zero:
                if other is None or other in firsts:
                    fn += 1
                elif cid not in earlier:
                    wl += 1
                else:
                    tp += 1
                if other is not None:
                    covered.add(other)
            if cid is not None:
                earlier.add(cid)
    for entity in response:
        for e, m in entity:
            if e not in firsts and e not in covered and m.zero:
                fp += 1
    return float(tp), float(tp + fn + wl), float(tp), float(tp + fp + wl)


def corefud_scores(numbered: dict[str, Any], documents: Sequence[str], metrics: Sequence[str]) -> dict[str, Any]:
    """``mor`` and/or ``zero`` as :class:`~accord.structured.coref.CorefScore` (corpus and documents) from what
    :func:`~accord.structured.coref_align.align_corpus` gives in ``extra`` (a document without it: nothing
    counted)."""
    from .coref import CorefScore

    out = {}
    for metric in metrics:
        by_doc = {}
        for doc in documents:
            key, resp, counterpart = numbered.get(doc, ([], [], {}))
            if metric == "mor":
                counts = mor_counts([[m for _, m in e] for e in key], [[m for _, m in e] for e in resp])
            else:
                counts = zero_counts(key, resp, counterpart)
            by_doc[doc] = CorefScore(metric, *counts)
        rn, rd, pn, pd = (sum(getattr(s, f) for s in by_doc.values())
                          for f in ("recall_num", "recall_den", "precision_num", "precision_den"))
        out[metric] = CorefScore(metric, rn, rd, pn, pd, by_document=by_doc)
    return out
