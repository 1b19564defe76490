"""The structured metrics by name, scored per document and for a corpus (``accord structured``).

Each name maps to the kind of record it reads (see :mod:`accord.formats.records.records`) and a
metric built in the framework. A corpus score is the micro average over documents, as the
CoNLL scorers compute it: matching scores and totals are summed, then divided. BETTER's
score is the product of the micro type F1 and the micro filler F1.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from ..errors import AccordWarning, OptionError
from ._matching import MatchScore, micro
from ._muc4 import MUC4_KEY_SLOTS, Judgements, muc4_original
from ._muc4_rme import muc4_rme
from ._similarity import Similarity
from .ie import (
    ceaf_ree,
    ceaf_ree_phi3,
    ceaf_ree_phi4,
    ceaf_rme_phi3,
    ceaf_rme_subset,
    event_argument_f1,
    event_argument_set_f1,
    event_trigger_f1,
    las,
    relation_f1,
    scirex_f1,
    singleton_mentions,
    uas,
)
from .templates import (
    BetterScore,
    attack_half_credit,
    better_score,
    muc4_score,
    muc4_subset,
    set_fill,
    slot_filler,
    string_fill,
)

__all__ = ["NAMED_METRICS", "RecordScores", "named_metric", "score_records"]

NAMED_METRICS: dict[str, tuple[str, str]] = {
    "relation": ("relations", "relation F1: type and both argument mentions exact (equation 10)"),
    "relation-boundaries": ("relations", "relation F1 on argument mentions only"),
    "uas": ("dependencies", "unlabelled attachment F1 (equation 11)"),
    "las": ("dependencies", "labelled attachment F1 (equation 12)"),
    "event-trigger": ("events", "trigger classification F1 (equation 15)"),
    "event-trigger-id": ("events", "trigger identification F1"),
    "event-argument": ("events", "argument classification F1 (equation 16)"),
    "event-argument-id": ("events", "argument identification F1"),
    "ceaf-ree": ("entities", "CEAF-REE: role-filler entities 1:1, role exact and mentions a subset (eq. 26)"),
    "ceaf-ree-phi3": ("entities", "CEAF-REE with phi3 for the entities (partial credit, section 6), 1:1"),
    "ceaf-ree-phi4": ("entities", "CEAF-REE with phi4 for the entities, 1:1"),
    "ceaf-rme-subset": ("entities", "CEAF-RME with the subset similarity: predicted mentions as singleton entities, "
                        "N:1 (equation 27)"),
    "ceaf-rme-phi3": ("entities", "CEAF-RME with phi3: predicted mentions as singleton entities, N:1 (equation 28)"),
    "scirex": ("nary_relations", "SciREX n-ary relation F1 (equations 29 to 31)"),
    "muc4": ("templates", "MUC-4 slot-filler F1 of the best template alignment (equation 32)"),
    "muc4-attack": ("templates", "MUC-4 with the original evaluation's half credit for the generic 'attack' type "
                    "predicted in place of a specific one"),
    "muc4-subset": ("templates", "MUC-4 with phi_subset for string fills (Du et al. 2021b: the alignment of "
                    "CEAF-REE): credit when every predicted mention is one of the entity's"),
    "muc4-original": ("templates", "MUC-4 as the 1992 evaluation scored it (appendix C): half credit for 'attack', "
                      "templates aligned only when one of 7 key slots matches at least partly, and the "
                      "interactive half credit for string fills when judgements are given"),
    "muc4-rme-subset": ("templates", "MUC-4 with Chen et al. (2023)'s one-sided phi_subset for string fills: each "
                        "predicted mention a singleton, N:1 to the reference entities (equation 27 as phi_T)"),
    "muc4-rme-phi3": ("templates", "MUC-4 with Chen et al. (2023)'s one-sided phi3 for string fills: shared "
                      "mentions, N:1, recall over the reference mentions (equation 28 as phi_T)"),
    "better": ("templates", "BETTER Granular: template type F1 x slot-filler F1 (appendix D)"),
}
"""Metric name -> (record kind, description)."""


def named_metric(name: str, *, inclusive: bool = False, premodifiers: Collection[str] = (),
                 set_parent: Mapping[Hashable, Hashable | None] | None = None,
                 attached: bool | None = None, judgements: Judgements | None = None,
                 key_slots: Collection[str] | None = MUC4_KEY_SLOTS) -> Similarity:
    """The metric called ``name`` in :data:`NAMED_METRICS`, as a similarity over one document's records.

    ``inclusive`` says SciREX spans are inclusive (half-open by default); ``premodifiers``
    and ``set_parent`` configure MUC-4's and BETTER's string-fill and set-fill similarities;
    ``attached`` (True or False) scores ``event-argument`` and ``event-argument-id`` as TextEE does
    (:func:`accord.structured.ie.event_argument_set_f1`); ``judgements`` and ``key_slots`` configure
    ``muc4-original`` (:func:`accord.structured.muc4_original`).
    """
    if attached is not None and name in ("event-argument", "event-argument-id"):
        return event_argument_set_f1(name == "event-argument", attached=attached)
    builders: dict[str, Callable[[], Similarity]] = {
        "relation": lambda: relation_f1(True),
        "relation-boundaries": lambda: relation_f1(False),
        "uas": lambda: uas,
        "las": lambda: las,
        "event-trigger": lambda: event_trigger_f1(True),
        "event-trigger-id": lambda: event_trigger_f1(False),
        "event-argument": lambda: event_argument_f1(True),
        "event-argument-id": lambda: event_argument_f1(False),
        "ceaf-ree": ceaf_ree,
        "ceaf-ree-phi3": ceaf_ree_phi3,
        "ceaf-ree-phi4": ceaf_ree_phi4,
        "ceaf-rme-subset": ceaf_rme_subset,
        "ceaf-rme-phi3": ceaf_rme_phi3,
        "scirex": lambda: scirex_f1(inclusive=inclusive),
        "muc4": lambda: muc4_score(set_parent=set_parent, premodifiers=premodifiers),
        "muc4-attack": lambda: muc4_score(set_parent=set_parent, premodifiers=premodifiers,
                                          type_similarity=attack_half_credit),
        "muc4-subset": lambda: muc4_subset(set_parent=set_parent),
        "muc4-original": lambda: muc4_original(set_parent=set_parent, premodifiers=premodifiers,
                                               judgements=judgements, key_slots=key_slots),
        "muc4-rme-subset": lambda: muc4_rme("subset", set_parent=set_parent),
        "muc4-rme-phi3": lambda: muc4_rme("phi3", set_parent=set_parent),
        "better": lambda: better_score(filler_similarity=slot_filler(set_similarity=set_fill(set_parent),
                                                                     string_similarity=string_fill(premodifiers))),
    }
    if name not in builders:
        raise OptionError(f"unknown structured metric {name!r}; expected one of {', '.join(NAMED_METRICS)}")
    return builders[name]()


@dataclass(frozen=True)
class RecordScores:
    """A named metric over a corpus: the micro total and each document's score."""

    metric: str
    total: MatchScore | BetterScore
    by_document: dict[str, MatchScore | BetterScore] = field(repr=False)

    def block(self, score: MatchScore | BetterScore | None = None) -> dict[str, float]:
        """Rates and counts of ``score`` (the total by default) for the table, JSON and CSV outputs."""
        s = self.total if score is None else score
        if isinstance(s, BetterScore):
            f = s.filler_score
            return {"recall": f.recall, "precision": f.precision, "f1": f.f1, "type_f1": s.type_score.f1,
                    "score": float(s), "match": f.match, "pred_total": f.pred_total, "gold_total": f.gold_total,
                    "type_match": s.type_score.match, "pred_templates": s.type_score.pred_total,
                    "gold_templates": s.type_score.gold_total}
        return s.to_dict()


def _drop_empty_entities(metric: str, docs: Mapping[str, list[Any]], side: str) -> Mapping[str, list[Any]]:
    """The role-filler entities that have a mention; the others are left out with a warning (an entity
    without mentions can be neither found nor predicted, and would keep even the key from scoring 1
    against itself; the reference scorers' readers skip them too)."""
    dropped = {d: sum(1 for r in recs if not r["entity"]) for d, recs in docs.items()}
    count = sum(dropped.values())
    if not count:
        return docs
    first = next(d for d, n in dropped.items() if n)
    warnings.warn(AccordWarning(f"{metric}: {count} {side} entit{'y' if count == 1 else 'ies'} without a mention "
                                f"left out (first in document {first!r})"), stacklevel=3)
    return {d: [r for r in recs if r["entity"]] for d, recs in docs.items()}


def score_records(name: str, key: Mapping[str, list[Any]], response: Mapping[str, list[Any]],
                  **options: Any) -> RecordScores:
    """Score a named metric on ``{doc id: [record, ...]}`` for both sides.

    A key document missing from the response is scored against no records; a response
    document the key lacks is an error (its records could not count anywhere).
    """
    metric = named_metric(name, **options)
    extra = [d for d in response if d not in key]
    if extra:
        raise OptionError(f"{len(extra)} response document(s) are not in the key, e.g. {extra[0]!r}")
    if NAMED_METRICS[name][0] == "entities":
        key, response = _drop_empty_entities(name, key, "key"), _drop_empty_entities(name, response, "response")
    if name.startswith("ceaf-rme"):    # equations 27 and 28 score predicted mentions as singleton entities
        response = {d: singleton_mentions(recs) for d, recs in response.items()}
    # every named metric is normalized: it scores a document as a MatchScore (BETTER's as a BetterScore)
    by_doc = cast("dict[str, MatchScore | BetterScore]",
                  {d: metric(response.get(d, []), gold) for d, gold in key.items()})
    if name == "better":
        scores = cast("list[BetterScore]", list(by_doc.values()))
        total: MatchScore | BetterScore = BetterScore(micro(s.type_score for s in scores),
                                                      micro(s.filler_score for s in scores), [])
    else:
        total = micro(cast("Iterable[MatchScore]", by_doc.values()))
    return RecordScores(name, total, by_doc)
