"""The CorefUD scorer's mention matching: key and response mentions aligned one to one, by their words, their heads
or their dependencies, before the coreference metrics are computed.

The CorefUD scorer (ufal/corefud-scorer, v1.2; ``corefud-scorer.py -a exact|head|partial``) aligns the mentions of a
document in three steps, each on the mentions the steps before left unaligned:

1. **zeros** (mentions whose head is an empty node) of the key and the response, by their heads' enhanced
   dependencies: ``10 F(deps) + F(parents)``, ``F`` the F1 of two sets, 0 when the heads are in different sentences
   (``zeros="dependent"``, the scorer's default; ``"linear"`` leaves zeros to the next steps, ``"drop"`` removes them);
2. **equal** mentions: the same set of words (``exact`` and ``partial``), the same words and the same head
   (``head``);
3. under ``head``, a key mention and a response mention with the same head score ``|K ∩ R| / |K|``; under
   ``partial``, a response mention that holds the key mention's head and lies within it scores ``|R| / |K|``.

Steps 1 and 3 keep the pairs of the 1:1 assignment of largest total score (scipy's ``linear_sum_assignment``'s
pairs, as :mod:`accord.match._small_assignment` finds them, on the matrix of scores, rows and columns in the
scorer's order of mentions: first word, last word, length) whose score is above 0. An aligned response mention
then counts as its key mention in every metric; this module gives each key mention a number and each response
mention its key mention's number (a new one when unaligned), so that the metrics of :mod:`accord.structured.coref`
score the numbers as one-word spans.

Before aligning, a mention written twice in one entity keeps its first occurrence (equal as in step 2), and with
``singletons="drop"`` the entities of one mention are removed (before zeros are, as the scorer does); an entity left
with no mention by ``zeros="drop"`` is removed too (the scorer keeps it, counts it -1 in MUC's denominators and
divides by its size 0 in B-cubed).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from .._support.surface import spelled
from ..errors import OptionError

__all__ = ["MENTION_MATCH", "ZEROS", "align_corpus"]

MENTION_MATCH = ("exact", "head", "partial")
ZEROS = ("dependent", "linear", "drop")

Spans = list[list[tuple[int, int]]]


def _f(a: set, b: set) -> float:
    common = len(a & b)
    if not common:
        return 0.0
    p, r = common / len(a), common / len(b)
    return 2 * p * r / (p + r)


def _zero_score(k: Any, s: Any) -> float:
    if k.sentence != s.sentence:
        return 0.0
    kd, sd = set(k.deps), set(s.deps)
    return 10 * _f(kd, sd) + _f({p for p, _ in kd}, {p for p, _ in sd})


def _head_score(k: Any, s: Any) -> float:
    if k.head != s.head:
        return 0.0
    kw = set(k.words)
    return len(kw.intersection(s.words)) / len(kw)


def _partial_score(k: Any, s: Any) -> float:
    kw, sw = set(k.words), set(s.words)
    if k.head in sw and sw <= kw:
        return len(sw) / len(kw)
    return 0.0


def _candidates(match: str, k: Sequence, s: Sequence) -> np.ndarray:
    """Rows and columns of the cells that may score above 0 (a cheap test on first, last and head words)."""
    kh = np.array([m.head for m in k], dtype=np.int64)
    sh = np.array([m.head for m in s], dtype=np.int64)
    if match == "head":
        return np.argwhere(kh[:, None] == sh[None, :])
    if match == "zero":
        return np.argwhere((kh[:, None] >> 32) == (sh[None, :] >> 32))
    kf = np.array([m.words[0] for m in k], dtype=np.int64)
    kl = np.array([m.words[-1] for m in k], dtype=np.int64)
    sf = np.array([m.words[0] for m in s], dtype=np.int64)
    sl = np.array([m.words[-1] for m in s], dtype=np.int64)
    return np.argwhere((kf[:, None] <= sf[None, :]) & (sl[None, :] <= kl[:, None])
                       & (sf[None, :] <= kh[:, None]) & (kh[:, None] <= sl[None, :]))


_SCORES: dict[str, Callable[[Any, Any], float]] = {"head": _head_score, "partial": _partial_score,
                                                        "zero": _zero_score}


def _assign(match: str, keys: list, syss: list, kset: Mapping, sset: Mapping) -> list[tuple[Any, Any]]:
    """The scorer's step 1 or 3: pairs of the best 1:1 assignment that score above 0."""
    if not keys or not syss:
        return []
    from ..match._small_assignment import max_assignment

    def order(m: Any) -> tuple[int, int, int]:
        return m.words[0], m.words[-1], len(m.words)
    keys = sorted(keys, key=lambda e: order(kset[e]))
    syss = sorted(syss, key=lambda e: order(sset[e]))
    km, sm = [kset[e] for e in keys], [sset[e] for e in syss]
    cells = _candidates(match, km, sm)
    if not len(cells):
        return []
    score = _SCORES[match]
    sim = np.zeros((len(keys), len(syss)))
    for i, j in cells.tolist():
        sim[i, j] = score(km[i], sm[j])
    rows, cols = max_assignment(sim)    # scipy's linear_sum_assignment(-sim), without importing scipy.optimize
    return [(keys[i], syss[j]) for i, j in zip(rows.tolist(), cols.tolist()) if sim[i, j] > 0]


def _prepare(entities: Sequence[Sequence], eq: Callable, singletons: str, zeros: str) -> list[list]:
    out = []
    for entity in entities:
        seen: dict = {}
        for e, m in ((eq(m), m) for m in entity):
            seen.setdefault(e, m)
        unique = list(seen.items())
        if singletons == "drop" and len(unique) == 1:
            continue
        if zeros == "drop":
            unique = [(e, m) for e, m in unique if not m.zero]
            if not unique:    # an entity of zeros only: gone (the scorer would keep it empty and divide by 0)
                continue
        out.append(unique)
    return out


def align_document(key: Sequence[Sequence], response: Sequence[Sequence], *, match: str = "head",
                   singletons: str = "drop", zeros: str = "dependent",
                   extra: list | None = None) -> tuple[Spans, Spans, tuple[int, int, int]]:
    """One document's key and response entities as numbered mentions (``(n, n)`` spans) and its mention counts:
    key mentions, response mentions, aligned pairs (see the module docstring); ``extra``, when given, receives the
    entities of both sides as lists of ``(identity, mention)`` and each key identity's response counterpart (the
    equal response mention when there is one, else the aligned one), as the scorer's score of zeros finds it."""
    def eq(m: Any) -> Any:
        return (m.words, m.head) if match == "head" else m.words
    k, r = _prepare(key, eq, singletons, zeros), _prepare(response, eq, singletons, zeros)
    kset: dict = {}
    sset: dict = {}
    for entity in k:
        for e, m in entity:
            kset.setdefault(e, m)
    for entity in r:
        for e, m in entity:
            sset.setdefault(e, m)
    pairs: dict = {}
    kleft, sleft = dict.fromkeys(kset), dict.fromkeys(sset)
    if zeros == "dependent":
        for a, b in _assign("zero", [e for e in kleft if kset[e].zero], [e for e in sleft if sset[e].zero],
                            kset, sset):
            pairs[b] = a
            del kleft[a], sleft[b]
    for e in [e for e in kleft if e in sleft]:
        pairs[e] = e
        del kleft[e], sleft[e]
    if match != "exact":
        for a, b in _assign(match, list(kleft), list(sleft), kset, sset):
            pairs[b] = a
    number = {e: n for n, e in enumerate(kset)}
    snumber = {e: number[pairs[e]] if e in pairs else len(kset) + n for n, e in enumerate(sset)}
    ks = [[(number[e], number[e]) for e, _ in entity] for entity in k]
    rs = [[(snumber[e], snumber[e]) for e, _ in entity] for entity in r]
    if extra is not None:    # for MOR and the zeros' score: the entities and each key mention's counterpart
        inverse = {a: b for b, a in pairs.items()}
        counterpart = {e: e if e in sset else inverse.get(e) for e in kset}
        extra.append((k, r, counterpart))
    return ks, rs, (len(kset), len(sset), len(pairs))


Counts = dict[str, tuple[int, int, int]]


def align_corpus(key: Mapping[str, Sequence[Sequence]], response: Mapping[str, Sequence[Sequence]], *,
                 match: str = "head", singletons: str = "drop", zeros: str = "dependent",
                 extra: dict[str, Any] | None = None) -> tuple[dict[str, Spans], dict[str, Spans], Counts]:
    """:func:`align_document` for every document of the key (a document the response lacks: no response entity);
    ``extra``, when given, receives each document's numbered entities."""
    if match not in MENTION_MATCH:
        raise OptionError(f"{spelled('mention_match')} must be one of {', '.join(MENTION_MATCH)}; got {match!r}")
    if zeros not in ZEROS:
        raise OptionError(f"{spelled('zeros')} must be one of {', '.join(ZEROS)}; got {zeros!r}")
    ks, rs, counts = {}, {}, {}
    for doc, entities in key.items():
        out: list | None = [] if extra is not None else None
        ks[doc], rs[doc], counts[doc] = align_document(entities, response.get(doc, ()), match=match,
                                                       singletons=singletons, zeros=zeros, extra=out)
        if extra is not None and out:
            extra[doc] = out[0]
    return ks, rs, counts
