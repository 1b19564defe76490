"""The alternative annotator test (alt-test) of Calderon, Reichart & Dror (2025), "The Alternative Annotator Test
for LLM-as-a-Judge: How to Statistically Justify Replacing Human Annotators with LLMs" (ACL 2025, arXiv
2501.10970): may a candidate annotator (a model) replace the human annotators?

Leave each annotator ``h_j`` out in turn; on each item ``i`` that ``h_j`` rated, score how well the candidate ``f``
and ``h_j`` each represent the remaining annotators of the item, ``H_i \\ {h_j}``, with an alignment score ``S``:

* ``accuracy``: the share of the remaining annotators giving the same category,
  ``S(x, i, j) = (1/|H_i \\ h_j|) Σ_{h ∈ H_i \\ h_j} 1[x = h(i)]``;
* ``neg_rmse``: minus the root mean squared difference to their (numeric) ratings,
  ``S(x, i, j) = -sqrt((1/|H_i \\ h_j|) Σ_h (x - h(i))²)``.

The paper's quantities (its section 3, "the alt-test procedure"), over the ``n_j`` items ``h_j`` rated:

.. math:: W^f_{i,j} = 1[S(f, i, j) \\ge S(h_j, i, j)],\\quad W^h_{i,j} = 1[S(h_j, i, j) \\ge S(f, i, j)],\\quad
          \\hat\\rho^f_j = \\frac{1}{n_j} \\sum_i W^f_{i,j},\\quad \\hat\\rho^h_j = \\frac{1}{n_j} \\sum_i W^h_{i,j}

(a tie counts for both). For each annotator the hypotheses ``H0_j: ρ^h_j - ρ^f_j ≥ ε`` against
``H1_j: ρ^h_j - ρ^f_j < ε`` are tested by the one-sided paired t-test of ``d_{i,j} = W^h_{i,j} - W^f_{i,j}``
against ``ε``:

.. math:: t_j = \\frac{\\bar d_j - \\varepsilon}{s_{d_j} / \\sqrt{n_j}},\\quad p_j = F_{t, n_j - 1}(t_j)

``ε`` is the cost-benefit margin (the paper suggests 0.2 for expert annotators, 0.15 skilled, 0.1 crowd workers).
The ``m`` p-values are corrected by the Benjamini–Yekutieli procedure at level ``q``: reject the hypotheses of the
``k`` smallest p-values, ``k`` the largest rank with ``p_(k) ≤ k q / (m Σ_{l=1..m} 1/l)``. The **winning rate**
``ω = (rejected hypotheses) / m``; the candidate passes when ``ω ≥ 0.5``. The **average advantage probability**
``ρ = (1/m) Σ_j ρ^f_j`` compares candidates.

As in the authors' implementation (github.com/nitaytech/AltTest), an item enters when the candidate rated it and
at least ``min_annotators`` (2) annotators did, and an annotator with fewer than ``min_items`` (30) such items is
left out of the test (with a warning).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import AgreementWarning, OptionError, StatisticsError
from ._ratings import MISSING, to_ratings

__all__ = ["ALT_SCORINGS", "AltTestResult", "alt_test", "benjamini_yekutieli"]

ALT_SCORINGS = ("accuracy", "neg_rmse")


@dataclass(frozen=True)
class AltTestResult:
    """The alt-test of one candidate: each annotator's figures, the winning rate and the advantage probability.

    Attributes
    ----------
    annotators : dict
        Per annotator tested: ``items`` (``n_j``), ``candidate_advantage`` (``ρ^f_j``), ``annotator_advantage``
        (``ρ^h_j``), ``t``, ``p_value``, ``p_adjusted`` (Benjamini–Yekutieli) and ``won`` (``H0_j`` rejected).
    skipped : dict
        Annotators left out for having fewer than ``min_items`` items: their number of items.
    """

    candidate: str
    epsilon: float
    q: float
    scoring: str
    items: int
    annotators: dict[str, dict[str, Any]]
    skipped: dict[str, int] = field(default_factory=dict)

    @property
    def winning_rate(self) -> float:
        """``ω``: the share of tested annotators whose null hypothesis is rejected."""
        if not self.annotators:
            return float("nan")
        return sum(a["won"] for a in self.annotators.values()) / len(self.annotators)

    @property
    def advantage_probability(self) -> float:
        """``ρ``: the mean of the candidate's advantage probabilities ``ρ^f_j``."""
        if not self.annotators:
            return float("nan")
        return float(np.mean([a["candidate_advantage"] for a in self.annotators.values()]))

    @property
    def passed(self) -> bool:
        """Whether the candidate may replace the annotators: ``ω ≥ 0.5``."""
        return bool(self.winning_rate >= 0.5)

    def to_dict(self) -> dict[str, Any]:
        def plain(v: Any) -> Any:
            return None if isinstance(v, float) and not math.isfinite(v) else v   # t is ±inf without variation

        return {"candidate": self.candidate, "epsilon": self.epsilon, "q": self.q, "scoring": self.scoring,
                "items": self.items, "winning_rate": plain(self.winning_rate),
                "advantage_probability": plain(self.advantage_probability), "passed": self.passed,
                "annotators": {a: {k: plain(v) for k, v in d.items()} for a, d in self.annotators.items()},
                "skipped": dict(self.skipped)}


def benjamini_yekutieli(p_values: Sequence[float], q: float) -> tuple[np.ndarray, np.ndarray]:
    """The Benjamini–Yekutieli step-up procedure (2001) under any dependence: ``(rejected, adjusted p-values)``.

    .. math:: \\tilde p_{(k)} = \\min_{l \\ge k} \\min\\left(1, \\frac{m\\, c(m)}{l} p_{(l)}\\right),\\quad
              c(m) = \\sum_{l=1}^m \\frac{1}{l}

    and ``H_(k)`` rejected when ``p̃_(k) ≤ q`` (the same as rejecting up to the largest ``k`` with
    ``p_(k) ≤ k q / (m c(m))``). A NaN p-value is never rejected and counts in ``m``.
    """
    p = np.asarray(p_values, dtype=np.float64)
    m = len(p)
    if not m:
        return np.zeros(0, dtype=bool), np.zeros(0)
    c = float(np.sum(1.0 / np.arange(1, m + 1)))
    filled = np.where(np.isnan(p), np.inf, p)
    order = np.argsort(filled, kind="stable")
    scaled = filled[order] * m * c / np.arange(1, m + 1)
    adjusted_sorted = np.minimum(1.0, np.minimum.accumulate(scaled[::-1])[::-1])
    adjusted = np.empty(m)
    adjusted[order] = adjusted_sorted
    adjusted[np.isnan(p)] = np.nan
    return (adjusted <= q) & ~np.isnan(p), adjusted


def _score(x: np.ndarray, sub: np.ndarray, present: np.ndarray, count: np.ndarray,
           values: np.ndarray | None) -> np.ndarray:
    """``S``: each item's accuracy (``values`` None) or negative RMSE of the ratings ``x`` against the remaining
    annotators' ratings ``sub`` (``present`` where rated, ``count`` of them)."""
    if values is None:
        return np.asarray(((sub == x[:, None]) & present).sum(axis=1) / count, dtype=np.float64)
    diff = np.where(present, values[np.where(present, sub, 0)] - values[x][:, None], 0.0)
    return np.asarray(-np.sqrt((diff ** 2).sum(axis=1) / count), dtype=np.float64)


def _one_sided_t(d: np.ndarray, epsilon: float) -> tuple[float, float]:
    """``(t, p)`` of the one-sided one-sample t-test of ``mean(d) < epsilon`` (scipy's ``ttest_1samp``)."""
    from scipy.stats import ttest_1samp

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)   # no variation: t is ±inf or NaN, as scipy says
        res = ttest_1samp(d, epsilon, alternative="less")
    return float(res.statistic), float(res.pvalue)


def alt_test(ratings: Any, candidate: Hashable, *, epsilon: float = 0.2, q: float = 0.05,
             scoring: str = "accuracy", min_annotators: int = 2, min_items: int = 30,
             categories: Sequence[Hashable] | None = None) -> AltTestResult:
    """Does ``candidate`` (a column of ``ratings``, e.g. a model) agree with the other annotators at least as well
    as they agree with each other? The alt-test of the module documentation.

    Parameters
    ----------
    ratings
        An items-by-raters table (:func:`~accord.agreement.to_ratings`), the candidate one of its raters.
    candidate
        The rater tested (compared as text with the raters' names).
    epsilon : float
        The margin ``ε`` of the hypotheses (0.2 experts, 0.15 skilled annotators, 0.1 crowd workers).
    q : float
        The false discovery rate of the Benjamini–Yekutieli correction.
    scoring : {"accuracy", "neg_rmse"}
        The alignment score ``S``: categories (accuracy) or numeric ratings (negative RMSE).
    min_annotators, min_items : int
        An item enters with the candidate's rating and at least ``min_annotators`` annotators' ratings; an
        annotator with fewer than ``min_items`` items is left out (with a warning).

    Returns
    -------
    AltTestResult
    """
    from ._icc import numeric_values
    from ._reference import rater_index

    if scoring not in ALT_SCORINGS:
        raise OptionError(f"alt-test scoring {scoring!r}: expected one of {', '.join(ALT_SCORINGS)}")
    if not 0 < q < 1:
        raise OptionError(f"alt-test: the false discovery rate q must lie between 0 and 1, got {q}")
    if not -1 <= epsilon <= 1:
        raise OptionError(f"alt-test: epsilon is a difference of two probabilities, within [-1, 1]; got {epsilon}")
    r = to_ratings(ratings, categories=categories)
    c = rater_index(r.raters, str(candidate), "--candidate")
    humans = [j for j in range(r.n_raters) if j != c]
    if len(humans) < 2:
        raise OptionError(f"the alt-test needs at least two annotators besides the candidate {candidate!s}, got "
                          f"{len(humans)}")
    codes = r.codes
    rated = codes != MISSING
    keep = rated[:, c] & (rated[:, humans].sum(axis=1) >= max(2, min_annotators))
    values = numeric_values(r.categories, "the alt-test's neg_rmse scoring") if scoring == "neg_rmse" else None
    annotators: dict[str, dict[str, Any]] = {}
    skipped: dict[str, int] = {}
    for j in humans:
        items = np.flatnonzero(keep & rated[:, j])
        name = str(r.raters[j])
        if len(items) < min_items:
            skipped[name] = int(len(items))
            continue
        others = [h for h in humans if h != j]
        sub = codes[np.ix_(items, np.array(others, dtype=np.int64))]
        present = sub != MISSING
        count = present.sum(axis=1)

        s_candidate = _score(codes[items, c], sub, present, count, values)
        s_annotator = _score(codes[items, j], sub, present, count, values)
        w_f = (s_candidate >= s_annotator).astype(np.float64)
        w_h = (s_annotator >= s_candidate).astype(np.float64)
        t, p = _one_sided_t(w_h - w_f, epsilon)
        annotators[name] = {"items": int(len(items)), "candidate_advantage": float(w_f.mean()),
                            "annotator_advantage": float(w_h.mean()), "t": t, "p_value": p}
    if skipped:
        warnings.warn(f"the alt-test leaves out annotator(s) with fewer than {min_items} items: "
                      + ", ".join(f"{a} ({n})" for a, n in skipped.items()), AgreementWarning, stacklevel=2)
    if not annotators:
        raise StatisticsError(f"the alt-test has no annotator with {min_items} or more items rated by the candidate "
                              f"{candidate!s} and at least {max(2, min_annotators)} annotators (lower the minimum "
                              "with --alt-min-items)")
    rejected, adjusted = benjamini_yekutieli([a["p_value"] for a in annotators.values()], q)
    for a, won, padj in zip(annotators.values(), rejected, adjusted):
        a["p_adjusted"] = float(padj)
        a["won"] = bool(won)
    return AltTestResult(str(r.raters[c]), float(epsilon), float(q), scoring, int(keep.sum()), annotators, skipped)
