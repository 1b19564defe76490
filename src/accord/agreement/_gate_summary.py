"""GATE's conventions over one or several annotation types: the IAA plugin's and Corpus QA's summaries."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..model import Corpus

__all__ = ["gate_summary_of", "mean_over_types"]


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
                    feature: str | Mapping[str, str] | None, convention: str) -> dict[str, Any]:
    """GATE's pairwise tables and its averaging (``iaa`` or ``corpus-qa``), per type, then over types.

    ``feature`` may name the feature of each type (``{"Per": "label"}``, GATE's ``annTypesAndFeats``
    ``Per->label``); a type it does not name is compared by span alone."""
    from ._gate import gate_pair_tables, gate_summary
    from ._sources import check_corpus_names

    def feature_of(t: str) -> str | None:
        return feature.get(t) if isinstance(feature, Mapping) else feature

    for t in dict.fromkeys(types):
        check_corpus_names(corpora, [t], feature_of(t))
    by_type = {}
    for t in dict.fromkeys(types):
        f = feature_of(t)
        by_type[t] = gate_summary(gate_pair_tables(corpora, names, type=t, feature=f, convention=convention),
                                  convention)
        if convention == "iaa" and len(names) > 2:
            from ._allway import iaa_allway_kappa

            by_type[t]["all_way"] = iaa_allway_kappa(corpora, names, type=t, feature=f)
    return next(iter(by_type.values())) if len(by_type) == 1 else mean_over_types(by_type)
