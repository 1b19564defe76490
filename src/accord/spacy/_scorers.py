"""The registered scorers: ``accord.ner_scorer.v1`` (``doc.ents``) and ``accord.spans_scorer.v1``
(``doc.spans[spans_key]``), both computed by :func:`accord.score` on the examples (each example one document, its
``reference`` gold and its ``predicted`` the prediction)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..errors import OptionError

try:
    from spacy.util import registry
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise OptionError("accord.spacy needs spaCy: pip install spacy") from exc

__all__ = ["make_ner_scorer", "make_spans_scorer", "score_examples"]


def score_examples(examples: Iterable[Any], *, prefix: str = "ents", spans_key: str | None = None,
                   **options: Any) -> dict[str, Any]:
    """accord's figures of spaCy ``Example`` objects under spaCy's keys: ``<prefix>_p``, ``<prefix>_r``,
    ``<prefix>_f`` (the pairs mode's totals) and ``<prefix>_per_type`` (``{label: {"p", "r", "f"}}``); ``None`` for
    each when neither side holds an entity, as spaCy's own scorer gives them. ``options`` go to
    :func:`accord.score` (``profile``, ``beta``...)."""
    from .._api import score

    examples = list(examples)
    empty = {f"{prefix}_p": None, f"{prefix}_r": None, f"{prefix}_f": None, f"{prefix}_per_type": None}
    if not examples:
        return empty
    result = score(examples, spans_key=spans_key, **options)
    totals = result.totals
    if not totals.gold and not totals.pred:
        return empty
    return {f"{prefix}_p": totals.precision, f"{prefix}_r": totals.recall, f"{prefix}_f": totals.f1,
            f"{prefix}_per_type": {label: {"p": b.precision, "r": b.recall, "f": b.f1}
                                   for label, b in result.by_label.items()}}


@registry.scorers("accord.ner_scorer.v1")
def make_ner_scorer() -> Callable[..., dict[str, Any]]:
    """The scorer of an ``ner`` (or ``entity_ruler``) component: ``ents_p``, ``ents_r``, ``ents_f``,
    ``ents_per_type`` by accord's strict pairing (same span, same label)."""

    def ner_scorer(examples: Iterable[Any], **kwargs: Any) -> dict[str, Any]:
        return score_examples(examples, prefix="ents")

    return ner_scorer


@registry.scorers("accord.spans_scorer.v1")
def make_spans_scorer(spans_key: str = "sc") -> Callable[..., dict[str, Any]]:
    """The scorer of a ``spancat`` component: ``spans_<key>_p``, ``_r``, ``_f``, ``_per_type`` of
    ``doc.spans[spans_key]`` (overlapping spans paired one to one)."""

    def spans_scorer(examples: Iterable[Any], **kwargs: Any) -> dict[str, Any]:
        key = kwargs.get("spans_key", spans_key)     # a spancat component passes its own key
        return score_examples(examples, prefix=f"spans_{key}", spans_key=key)

    return spans_scorer
