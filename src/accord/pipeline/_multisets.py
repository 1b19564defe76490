"""Generated output scored without alignment (``--align none``): each document's multiset of (normalised string,
label) against the gold spans' strings and labels, the convention of GoLLIE and UniversalNER; with relaxed matching
by a string similarity (:mod:`accord.pipeline._relaxed`) and a judge (:mod:`accord.pipeline._judge`) as further
layers, each scored as a measure of its own beside the strict one."""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import OptionError, PairingError
from ..formats.records.generated import KIND, TEXT, TRIGGER
from ..model import Annotation, Corpus, Document, make_annotation

__all__ = ["LISTED", "Layers", "multiset_layers", "multisets"]

LISTED = 50
"""How many relaxed matches the result's options list (all are counted)."""

Item = tuple[str, str, str]
"""(normalised string, label, string as written)."""


def _gold_string(doc: Document, a: Annotation) -> str:
    """The text a gold span covers (a token file: its tokens joined by spaces)."""
    assert a.start is not None and a.end is not None
    if doc.text is not None:
        return doc.text[a.start:a.end]
    if doc.tokens is not None:
        return " ".join(str(t) for t in doc.tokens[a.start:a.end])
    raise PairingError(f"document {doc.id!r}: the gold side has neither text nor tokens to read its spans' strings")


@dataclass
class _Doc:
    """One document's items on both sides and the pairs matched so far (gold index, predicted index)."""

    doc_id: str
    has_gold: bool
    has_pred: bool
    gold: list[Item] = field(default_factory=list)
    pred: list[Item] = field(default_factory=list)
    pairs: list[tuple[int, int]] = field(default_factory=list)

    def left(self) -> tuple[list[int], list[int]]:
        """The gold and predicted items not matched yet."""
        g, p = {i for i, _ in self.pairs}, {j for _, j in self.pairs}
        return [i for i in range(len(self.gold)) if i not in g], [j for j in range(len(self.pred)) if j not in p]

    def left_by_label(self) -> dict[str, tuple[list[int], list[int]]]:
        """The items not matched yet, by label (labels of both sides only), in first-seen order."""
        lg, lp = self.left()
        out: dict[str, tuple[list[int], list[int]]] = {}
        gold_labels = {self.gold[i][1] for i in lg}
        for j in lp:
            lab = self.pred[j][1]
            if lab in gold_labels:
                out.setdefault(lab, ([i for i in lg if self.gold[i][1] == lab], []))[1].append(j)
        return out


def _strict(doc: _Doc) -> None:
    """Pair items of equal normalised string and label, as many as the smaller count of each."""
    waiting: dict[tuple[str, str], list[int]] = defaultdict(list)
    for i in range(len(doc.gold) - 1, -1, -1):     # last first: pop() gives the earliest
        s, lab, _ = doc.gold[i]
        waiting[s, lab].append(i)
    for j, (s, lab, _) in enumerate(doc.pred):
        q = waiting.get((s, lab))
        if q:
            doc.pairs.append((q.pop(), j))


def _layout(doc: _Doc, pairs: Sequence[tuple[int, int]]) -> tuple[list[Annotation], list[Annotation]]:
    """Spans every span mode counts: a matched pair shares a span; of the items left, per normalised string, a gold
    and a predicted item (labels in sorted order) share a span (a label error on the same string); the rest have
    spans of their own."""
    out: list[list[Annotation]] = [[], []]
    at = 0

    def put(x: str | None, y: str | None) -> None:
        nonlocal at
        for side, label in ((0, x), (1, y)):
            if label is not None:
                out[side].append(make_annotation(label, at, at + 1))
        at += 2

    for i, j in pairs:
        put(doc.gold[i][1], doc.pred[j][1])
    taken_g, taken_p = {i for i, _ in pairs}, {j for _, j in pairs}
    sides: list[dict[str, list[str]]] = [defaultdict(list), defaultdict(list)]
    for i, (s, lab, _) in enumerate(doc.gold):
        if i not in taken_g:
            sides[0][s].append(lab)
    for j, (s, lab, _) in enumerate(doc.pred):
        if j not in taken_p:
            sides[1][s].append(lab)
    for s in dict.fromkeys([*sides[0], *sides[1]]):
        gl, pl = sorted(sides[0].get(s, ())), sorted(sides[1].get(s, ()))
        for x, y in zip(gl, pl):
            put(x, y)
        for x in gl[len(pl):]:
            put(x, None)
        for y in pl[len(gl):]:
            put(None, y)
    return out[0], out[1]


@dataclass
class Layers:
    """The strict corpora, then each further layer's (``relaxed``, ``judge``: cumulative, each with the matches of
    the layers before it). ``summary`` is the result's ``options["alignment"]``: the strings, and what each layer
    found (``relaxed``: its matches, their total similarity, the first fifty; ``judge``: the pairs left, the calls,
    the cached verdicts, the pairs left undecided, the matches and each of them); ``options`` the settings of each
    layer, the result's ``options["relaxed"]`` (similarity, threshold) and ``options["judge"]`` (judge, cache,
    limit): settings only, so that systems scored alike compare (``accord compare``)."""

    gold: Corpus
    pred: Corpus
    summary: dict[str, Any]
    layers: dict[str, tuple[Corpus, Corpus]] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    captions: dict[str, str] = field(default_factory=dict)


def _read(gold: Corpus, pred: Corpus, norm: Callable[[str], str]) -> tuple[list[_Doc], int, int]:
    docs = []
    relations = events = 0
    for doc_id in dict.fromkeys([*gold, *pred]):
        g, p = gold.get(doc_id), pred.get(doc_id)
        d = _Doc(doc_id, g is not None, p is not None)
        if g is not None:
            for a in g.annotations:
                if a.start is not None:
                    written = _gold_string(g, a)
                    d.gold.append((norm(written), a.label, written))
        if p is not None:
            for a in p.annotations:
                if a.get(KIND) == "entity":
                    written = a.get(TEXT)
                    d.pred.append((norm(written), a.label, written))
                elif a.get(KIND) == "event":    # its trigger: a string of the event's type, as a gold trigger span
                    written = a.get(TRIGGER)
                    d.pred.append((norm(written), a.label, written))
                    events += 1
                else:
                    relations += 1
        docs.append(d)
    return docs, relations, events


def _corpora(docs: Sequence[_Doc], gold: Corpus, pred: Corpus, pairs_of: Callable[[_Doc], Sequence[tuple[int, int]]]
             ) -> tuple[Corpus, Corpus]:
    gold_docs, pred_docs = [], []
    for d in docs:
        g, p = _layout(d, pairs_of(d))
        if d.has_gold:
            gold_docs.append(Document(d.doc_id, tuple(g)))
        if d.has_pred:
            pred_docs.append(Document(d.doc_id, tuple(p)))
    return (Corpus(gold_docs, name=gold.name, files=gold.files), Corpus(pred_docs, name=pred.name, files=pred.files))


def _relax(docs: Sequence[_Doc], similarity: str, threshold: float) -> dict[str, Any]:
    """Pair the items left, label by label, by the similarity (each document's pairs extended); what it found."""
    from ._relaxed import BLOCK_LIMIT, best_pairs, similarity_matrix

    matched, listed = 0, []     # type: tuple[int, list[dict[str, Any]]]
    total = 0.0
    for d in docs:
        for label, (lg, lp) in d.left_by_label().items():
            if len(lg) * len(lp) > BLOCK_LIMIT:
                raise OptionError(f"document {d.doc_id!r}, label {label!r}: {len(lg):,} gold and {len(lp):,} "
                                  f"predicted strings left over, more than {BLOCK_LIMIT:,} pairs to compare for "
                                  "relaxed matching")
            sims = similarity_matrix([d.gold[i][0] for i in lg], [d.pred[j][0] for j in lp], similarity)
            for r, c in best_pairs(sims, threshold):
                d.pairs.append((lg[r], lp[c]))
                matched += 1
                total += float(sims[r, c])
                if len(listed) < LISTED:
                    listed.append({"document": d.doc_id, "label": label, "gold": d.gold[lg[r]][2],
                                   "pred": d.pred[lp[c]][2], "similarity": round(float(sims[r, c]), 6)})
    return {"similarity": similarity, "threshold": threshold, "matched": matched,
            "total_similarity": round(total, 6), "listed": listed}


def _judge(docs: Sequence[_Doc], judge: Any, cache_path: Any, limit: int) -> dict[str, Any]:
    """Pair the items left, label by label, by the judge's verdicts (each document's pairs extended); what it
    found: the calls, the cached verdicts, the pairs matched and each of them."""
    import numpy as np

    from ._judge import MATCH_AT, JudgeCache, call_judge, load_judge, warn_undecided
    from ._relaxed import BLOCK_LIMIT, best_pairs

    fn, name = load_judge(judge)
    if fn is None and not os.path.exists(cache_path):
        from .._support.surface import spelled

        raise OptionError(f"{spelled('judge_cache', cli_value=cache_path)}: no such file, and no judge "
                          f"({spelled('judge')}) to give verdicts")
    cache = JudgeCache(cache_path)
    if fn is not None:
        cache.open_for_verdicts()     # a cache that cannot be written is named before the judge is asked
    blocks = []
    for d in docs:
        for label, (lg, lp) in d.left_by_label().items():
            if len(lg) * len(lp) > BLOCK_LIMIT:
                raise OptionError(f"document {d.doc_id!r}, label {label!r}: {len(lg):,} gold and {len(lp):,} "
                                  f"predicted strings left over, more than {BLOCK_LIMIT:,} pairs for the judge")
            gold_records = [{"document": d.doc_id, "text": d.gold[i][2], "label": label} for i in lg]
            pred_records = [{"document": d.doc_id, "text": d.pred[j][2], "label": label} for j in lp]
            blocks.append((d, lg, lp, gold_records, pred_records))
    # the calls it would take, before the first: distinct pairs without a cached verdict
    from ._judge import record_key

    asked: set[str] = set()
    pairs = 0
    for _, _, _, gr, pr in blocks:
        for g in gr:
            for p in pr:
                pairs += 1
                key = record_key(g, p)
                if fn is not None and key not in cache.verdicts:
                    asked.add(key)
                    if len(asked) > limit:
                        from .._support.surface import spelled

                        raise OptionError(f"the judge would be asked about more than {limit:,} pairs of strings "
                                          f"(distinct pairs of one document and label left undecided, not cached): "
                                          f"raise {spelled('judge_limit')} to allow it")
    calls = cached = undecided = 0
    seen: set[str] = set()
    matched, listed = 0, []
    for d, lg, lp, gr, pr in blocks:
        scores = np.zeros((len(lg), len(lp)), dtype=np.float64)
        for r, g in enumerate(gr):
            for c, p in enumerate(pr):
                key = record_key(g, p)
                verdict = cache.verdicts.get(key)
                if verdict is None:
                    if fn is None:
                        if key not in seen:
                            undecided += 1
                            seen.add(key)
                        continue
                    assert name is not None
                    verdict = call_judge(fn, name, g, p)
                    cache.add(g, p, verdict, name)
                    calls += 1
                    seen.add(key)
                elif key not in seen:
                    cached += 1
                    seen.add(key)
                scores[r, c] = verdict
        for r, c in best_pairs(scores, MATCH_AT):
            d.pairs.append((lg[r], lp[c]))
            matched += 1
            listed.append({"document": d.doc_id, "label": gr[r]["label"], "gold": gr[r]["text"],
                           "pred": pr[c]["text"], "score": round(float(scores[r, c]), 6)})
    if undecided:
        warn_undecided(undecided)
    return {"judge": name, "cache": None if cache_path is None else str(cache_path), "limit": limit,
            "pairs": pairs, "calls": calls, "cached": cached, "undecided": undecided, "matched": matched,
            "decided": listed}


def multiset_layers(gold: Corpus, pred: Corpus, normalize: Sequence[str] | str | None = None, *,
                    relaxed: str | None = None, relaxed_threshold: float | None = None, judge: Any = None,
                    judge_cache: Any = None, judge_limit: int | None = None) -> Layers:
    """Both sides as multisets of (normalised string, label) per document (``--align none``), made into spans that
    every span mode counts as such: per document, a gold and a predicted item of equal string and label share a span
    (as many as the smaller count); of the items left, per string, a gold and a predicted item of different labels
    share a span (a label error on the same string), and the rest have spans of their own. So the strict matches
    are, per document, the sum over (string, label) of the smaller of the two counts.

    With ``relaxed`` (a similarity of :mod:`accord.pipeline._relaxed`), the items left after the strict matching are
    also paired one-to-one, label by label, by largest total similarity at or above ``relaxed_threshold``: the
    ``relaxed`` layer. With ``judge`` or ``judge_cache``, the items left after that are paired by the judge's verdicts
    (:mod:`accord.pipeline._judge`): the ``judge`` layer. Each layer holds the matches of those before it; in each, the
    items left pair as label errors on the same string as in the strict one. Relations are not scored this way (a
    warning counts them).

    Raises
    ------
    OptionError
        An unknown normaliser or similarity, a threshold outside (0, 1], a judge limit below 0 or exceeded, a block
        of strings too large to compare.
    """
    from ._normalize import normalizer
    from ._relaxed import check_relaxed

    norm = normalizer(normalize)
    threshold = check_relaxed(relaxed, relaxed_threshold)
    using_judge = judge is not None or judge_cache is not None
    if judge_limit is not None and not using_judge:
        from .._support.surface import spelled

        raise OptionError(f"{spelled('judge_limit')} applies with {spelled('judge')}")
    from ._judge import DEFAULT_LIMIT

    limit = DEFAULT_LIMIT if judge_limit is None else judge_limit
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
        from .._support.surface import spelled

        raise OptionError(f"{spelled('judge_limit')} must be a whole number >= 0; got {limit!r}")
    names = normalize.split(",") if isinstance(normalize, str) else list(normalize or ())
    docs, relations, events = _read(gold, pred, norm)
    for d in docs:
        _strict(d)
    strict_pairs = {d.doc_id: list(d.pairs) for d in docs}
    g_c, p_c = _corpora(docs, gold, pred, lambda d: strict_pairs[d.doc_id])
    if relations:
        import warnings

        from ..errors import AccordWarning

        warnings.warn(f"{relations} predicted relation(s) are not scored with --align none (strings and labels of "
                      "entities only); align them (--align exact) to score relations", AccordWarning, stacklevel=3)
    if events:
        import warnings

        from ..errors import AccordWarning

        warnings.warn(f"{events} predicted event(s) are scored by their triggers only with --align none (the trigger's "
                      "string and the event's type, as the gold trigger spans); align them (--align exact) to score "
                      "their arguments", AccordWarning, stacklevel=3)
    summary: dict[str, Any] = {"align": "none", "normalize": [n.strip() for n in names if n.strip()],
               "gold_strings": sum(len(d.gold) for d in docs), "strings": sum(len(d.pred) for d in docs)}
    out = Layers(g_c, p_c, summary)
    if relaxed is not None:
        assert threshold is not None
        found = _relax(docs, relaxed, threshold)
        out.options["relaxed"] = {k: found.pop(k) for k in ("similarity", "threshold")}
        summary["relaxed"] = found
        out.layers["relaxed"] = _corpora(docs, gold, pred, lambda d: d.pairs)
        out.captions["relaxed"] = f"relaxed: strict, then {relaxed} >= {threshold:g} (same label, one-to-one)"
    if using_judge:
        found = _judge(docs, judge, judge_cache, limit)
        out.options["judge"] = {k: found.pop(k) for k in ("judge", "cache", "limit")}
        summary["judge"] = found
        out.layers["judge"] = _corpora(docs, gold, pred, lambda d: d.pairs)
        before = "strict, relaxed" if relaxed is not None else "strict"
        out.captions["judge"] = (f"judge: {before}, then {out.options['judge']['judge'] or 'cached verdicts'} "
                                 ">= 0.5 (same label, one-to-one)")
    return out


def multisets(gold: Corpus, pred: Corpus,
              normalize: Sequence[str] | str | None = None) -> tuple[Corpus, Corpus, dict[str, Any]]:
    """The strict layer of :func:`multiset_layers`: both corpora as spans and what the strings were."""
    out = multiset_layers(gold, pred, normalize)
    return out.gold, out.pred, out.summary


def attach_layers(result: Any, layers: Layers, measure: Callable[[Corpus, Corpus], Any],
                  table: Callable[..., Any]) -> Any:
    """``result`` (the strict layer's, of any span mode) with each further layer's main measure after its own
    measures (its JSON then nests them), a table standing for each (``table``: :class:`accord.result.ResultTable`,
    handed in: the pipeline does not import the results' package, which reaches the statistics), and the layers'
    settings in its options. The layers' corpora are the strict one's items laid out anew: the warnings of measuring
    them again are those already given, and are not repeated."""
    import warnings

    from ..errors import AccordWarning

    for name, (g, p) in layers.layers.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", AccordWarning)
            layer = measure(g, p)
        result.measures[name] = layer.main
        result.add_table(table(name, measure=name, caption=layers.captions[name]))
    if layers.layers:
        result.nested = True
    result.options.update(layers.options)
    return result
