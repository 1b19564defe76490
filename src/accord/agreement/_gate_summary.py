"""GATE's conventions over one or several annotation types: the IAA plugin's and Corpus QA's summaries."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..model import Corpus

__all__ = ["gate_summary_of", "mean_over_types", "CONSENSUS"]

CONSENSUS = "consensus"
"""The name of the adjudicated set GATE's QA summariser compares every annotator with."""


def mean_over_types(by_type: dict[str, dict]) -> dict:
    """Several types under a GATE convention: each coefficient (mean and pairs) averaged over the types,
    as GATE's IAA plugin does; each type's own summary under ``by_type``, its documents as ``TYPE / DOC``."""
    first = next(iter(by_type.values()))

    def mean(values: list) -> float | None:
        kept = [v for v in values if v is not None]
        return sum(kept) / len(kept) if kept else None

    coefficients = {}
    for name, block in first["coefficients"].items():
        pairs = []
        for k, pair in enumerate(block["pairs"]):
            pairs.append({"raters": pair["raters"], "value": mean([s["coefficients"][name]["pairs"][k]["value"]
                                                                   for s in by_type.values()])})
        coefficients[name] = {"pairs": pairs, "mean": mean([s["coefficients"][name]["mean"] for s in by_type.values()])}
    by_document = {f"{t} / {d}": v for t, s in by_type.items() for d, v in s["by_document"].items()}
    return {"convention": first["convention"], "raters": first["raters"], "types": list(by_type),
            "coefficients": coefficients, "by_document": by_document, "by_type": by_type}


def gate_summary_of(corpora: Sequence[Corpus], names: Sequence[str], types: Sequence[str],
                    feature: str | Mapping[str, str] | None, convention: str, *, verbosity: int = 1,
                    consensus: str | None = CONSENSUS) -> dict[str, Any]:
    """GATE's pairwise tables and its averaging (``iaa`` or ``corpus-qa``), per type, then over types.

    ``feature`` may name the feature of each type (``{"Per": "label"}``, GATE's ``annTypesAndFeats``
    ``Per->label``); a type it does not name is compared by span alone. ``verbosity`` 2 adds each document's
    pair tables (:func:`accord.agreement._gate.gate_summary`).

    A set named ``consensus`` (GATE's QA summariser: the adjudicated set) among at least two other annotators is
    kept apart, as GATE keeps "average against consensus" apart from the IAA average: the coefficients are those
    of the other annotators, and ``against_consensus`` holds each annotator against it (a two-set run each, the
    annotator first) and their mean. ``consensus=None`` treats every set as an annotator."""
    from ._sources import check_corpus_names

    def feature_of(t: str) -> str | None:
        return feature.get(t) if isinstance(feature, Mapping) else feature

    for t in dict.fromkeys(types):
        check_corpus_names(corpora, [t], feature_of(t))
    names = list(names)
    if consensus is not None and consensus in names and len(names) >= 3:
        k = names.index(consensus)
        others = [(c, n) for c, n in zip(corpora, names) if n != consensus]
        summary = _summary([c for c, _ in others], [n for _, n in others], types, feature_of, convention,
                           verbosity)
        summary["against_consensus"] = _against(corpora[k], consensus, others, types, feature_of, convention)
        return summary
    return _summary(corpora, names, types, feature_of, convention, verbosity)


def _summary(corpora: Sequence[Corpus], names: Sequence[str], types: Sequence[str],
             feature_of: Callable[[str], str | None], convention: str, verbosity: int) -> dict[str, Any]:
    from ._gate import gate_pair_tables, gate_summary

    by_type = {}
    for t in dict.fromkeys(types):
        f = feature_of(t)
        by_type[t] = gate_summary(gate_pair_tables(corpora, names, type=t, feature=f, convention=convention),
                                  convention, verbosity)
        if convention == "iaa" and len(names) > 2:
            from ._allway import iaa_allway_kappa

            by_type[t]["all_way"] = iaa_allway_kappa(corpora, names, type=t, feature=f)
    return next(iter(by_type.values())) if len(by_type) == 1 else mean_over_types(by_type)


def _against(consensus: Corpus, name: str, others: Sequence[tuple[Corpus, str]], types: Sequence[str],
             feature_of: Callable[[str], str | None], convention: str) -> dict[str, Any]:
    """Each annotator against the consensus set, each pair a run of its own (GATE's QA summariser: key = the
    annotator, response = the consensus), averaged over the pairs as the IAA figures are."""
    from ._gate import gate_pair_tables, gate_summary

    by_type = {}
    for t in dict.fromkeys(types):
        f = feature_of(t)
        tables = {}
        for corpus, n in others:
            tables.update(gate_pair_tables([corpus, consensus], [n, name], type=t, feature=f, convention=convention))
        by_type[t] = gate_summary(tables, convention)
    out = next(iter(by_type.values())) if len(by_type) == 1 else mean_over_types(by_type)
    return {"consensus": name, **out}
