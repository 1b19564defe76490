"""Every coefficient of one set of statistics, as plain data for the JSON, CSV and table outputs."""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping
from typing import Any

from ._coefficients import (
    Pairwise,
    bennett_s,
    cohen_kappa,
    davies_fleiss_kappa,
    fleiss_kappa,
    gwet_ac1,
    krippendorff_alpha,
    observed_agreement,
    scott_pi,
    specific_agreement,
)
from ._stats import AgreementStats

__all__ = ["summarize", "summary_rows"]


def _plain(v: Any) -> Any:
    if isinstance(v, Pairwise):
        return {"mean": _plain(v.mean),
                "pairs": [{"raters": [str(a), str(b)], "value": _plain(x)} for (a, b), x in v.pairs.items()]}
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, float) and math.isnan(v):
        return None
    return v


def summarize(stats: AgreementStats, *, level: str = "nominal") -> tuple[dict[str, Any], list[str]]:
    """All coefficients of ``stats`` as JSON-ready data, and the warnings they raised (as text)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        coefficients = {
            "observed_agreement": observed_agreement(stats),
            "cohen_kappa": cohen_kappa(stats),
            "scott_pi": scott_pi(stats),
            "fleiss_kappa": fleiss_kappa(stats),
            "davies_fleiss_kappa": davies_fleiss_kappa(stats),
            "krippendorff_alpha": krippendorff_alpha(stats, level=level),
            "bennett_s": bennett_s(stats),
            "gwet_ac1": gwet_ac1(stats),
        }
        specific = {"positive": specific_agreement(stats), "negative": specific_agreement(stats, negative=True)}
    matrices = [{"raters": [str(stats.raters[a]), str(stats.raters[b])], "counts": t.tolist()}
                for (a, b), t in stats.pairs.items()]
    out = {"raters": [str(r) for r in stats.raters], "categories": [str(c) for c in stats.categories],
           "items": stats.n_rated, "krippendorff_level": level, "coefficients": _plain(coefficients),
           "specific_agreement": _plain(specific), "confusion_matrices": matrices}
    return out, list(dict.fromkeys(str(w.message) for w in caught))


def summary_rows(scope: str, summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Flat rows ``(scope, coefficient, raters, value)``: the mean as raters ``all``, then each pair."""
    rows = []
    for name, v in summary["coefficients"].items():
        if isinstance(v, dict):
            rows.append({"scope": scope, "coefficient": name, "raters": "all (mean of pairs)", "value": v["mean"]})
            rows.extend({"scope": scope, "coefficient": name, "raters": " | ".join(p["raters"]), "value": p["value"]}
                        for p in v["pairs"])
        else:
            rows.append({"scope": scope, "coefficient": name, "raters": "all", "value": v})
    return rows
