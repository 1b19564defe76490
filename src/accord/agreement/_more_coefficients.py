"""The public functions of the coefficients ``accord agree --coefficients`` adds: weighted kappa, Gwet's AC2,
Krippendorff's alpha of set-valued labels and the intraclass correlations (``accord.agreement.weighted_kappa``...),
each the value of :mod:`._measures` on the whole table (the weights, distances and kernels are in :mod:`._weighted`,
:mod:`._set_distances` and :mod:`._icc`)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from ..errors import OptionError
from ._measures import measure_values
from ._set_distances import SET_DISTANCES
from ._weighted import AC2_WEIGHTS, KAPPA_WEIGHTS

__all__ = ["weighted_kappa", "gwet_ac2", "weighted_fleiss_kappa", "krippendorff_alpha_sets", "intraclass_correlation"]


def weighted_kappa(ratings: Any, *, weights: str = "linear",
                   categories: Sequence[Hashable] | None = None) -> Any:
    """Cohen's weighted kappa (Cohen 1968), two raters; each pair and their mean for more.

    .. math:: \\kappa_w = 1 - \\frac{\\sum_{i,j} d_{ij}\\, o_{ij}}{\\sum_{i,j} d_{ij}\\, e_{ij}},\\quad
              e_{ij} = \\frac{o_{i\\cdot}\\, o_{\\cdot j}}{N}

    over the ``N`` items both raters rated, ``o`` their contingency table, ``d_ij = |i - j|`` (``linear``) or
    ``(i - j)²`` (``quadratic``) with ``i``, ``j`` the categories' positions (:func:`positions`: by value for
    numbers and numeric text, else in the category order; all the table's categories, or ``categories``):
    scikit-learn's ``cohen_kappa_score(weights=..., labels=categories)``.
    No item rated by both gives NaN; an expected disagreement of 0 (one category) gives 1.0, each with an
    :class:`~accord.errors.AgreementWarning`.

    Returns
    -------
    float for two raters, :class:`~accord.agreement.Pairwise` for more
    """
    if weights not in KAPPA_WEIGHTS:
        raise OptionError(f"weighted kappa: unknown weights {weights!r}; expected one of {', '.join(KAPPA_WEIGHTS)}")
    return measure_values(ratings, f"weighted_kappa_{weights}", categories=categories)


def gwet_ac2(ratings: Any, *, weights: str = "quadratic", categories: Sequence[Hashable] | None = None) -> float:
    """Gwet's AC2: AC1 with partial agreement between close categories (Gwet 2014), any number of raters.

    .. math:: P_a = \\frac{1}{n'} \\sum_{i: r_i \\ge 2} \\sum_k \\frac{r_{ik} (r^\\star_{ik} - 1)}{r_i (r_i - 1)},
              \\quad r^\\star_{ik} = \\sum_l w_{kl} r_{il},\\quad
              P_e = \\frac{\\sum_{k,l} w_{kl}}{q (q - 1)} \\sum_k \\pi_k (1 - \\pi_k),\\quad
              AC_2 = \\frac{P_a - P_e}{1 - P_e}

    ``r_ik`` raters gave item ``i`` category ``k``, ``r_i`` rated it, ``n'`` items were rated twice or more,
    ``π_k = (1/n) Σ_i r_ik / r_i`` over the ``n`` items rated at least once, ``q`` categories (the table's, or
    ``categories``) and ``w`` the agreement weights of :func:`agreement_weights` (``weights``: linear, quadratic,
    ordinal, radical, ratio, circular, bipolar; ``identity`` gives AC1). Equal to irrCAC's
    ``CAC(ratings, weights=...).gwet()``.
    """
    if weights not in AC2_WEIGHTS and weights != "identity":
        raise OptionError(f"Gwet's AC2: unknown weights {weights!r}; expected identity or one of "
                          f"{', '.join(AC2_WEIGHTS)}")
    value: float = measure_values(ratings, f"gwet_ac2_{weights}", categories=categories)
    return value


def weighted_fleiss_kappa(ratings: Any, *, weights: str = "quadratic",
                          categories: Sequence[Hashable] | None = None) -> float:
    """Fleiss' kappa with partial agreement between categories (Gwet 2014), any number of raters.

    .. math:: P_e = \\sum_{k,l} w_{kl}\\, \\pi_k \\pi_l,\\quad \\kappa_w = \\frac{P_a - P_e}{1 - P_e}

    ``P_a``, ``π_k`` and the weights ``w`` as in :func:`gwet_ac2` (``identity`` weights give
    :func:`~accord.agreement.fleiss_kappa`). Equal to irrCAC's ``CAC(ratings, weights=...).fleiss()``.
    """
    if weights not in AC2_WEIGHTS and weights != "identity":
        raise OptionError(f"weighted Fleiss' kappa: unknown weights {weights!r}; expected identity or one of "
                          f"{', '.join(AC2_WEIGHTS)}")
    value: float = measure_values(ratings, f"fleiss_kappa_{weights}", categories=categories)
    return value


def krippendorff_alpha_sets(ratings: Any, *, distance: str = "masi",
                            categories: Sequence[Hashable] | None = None) -> float:
    """Krippendorff's alpha of set-valued ratings (Passonneau 2006), any number of raters, missing values allowed.

    .. math:: \\alpha = 1 - (n - 1) \\frac{\\sum_{c,k} o_{ck}\\, \\delta_{ck}}{\\sum_{c,k} n_c n_k\\, \\delta_{ck}}

    with ``o`` the coincidence matrix of the sets (items rated by at least two raters), ``n_c`` its margins, ``n``
    their total and ``δ`` the MASI distance (``distance="masi"``, :func:`masi_distance`) or the Jaccard distance
    (``"jaccard"``, :func:`jaccard_distance`) of the two sets. Equal to NLTK's
    ``AnnotationTask(data, distance=masi_distance).alpha()`` (its ``jaccard_distance`` likewise); where NLTK
    returns 1 for data with one value only, the value here is NaN with a warning, as for
    :func:`~accord.agreement.krippendorff_alpha`. Cells are sets, or text ``a|b`` (:func:`as_label_set`).
    """
    if distance not in SET_DISTANCES:
        raise OptionError(f"unknown set distance {distance!r}; expected one of {', '.join(SET_DISTANCES)}")
    value: float = measure_values(ratings, f"krippendorff_alpha_{distance}", categories=categories)
    return value


def intraclass_correlation(ratings: Any, *, categories: Sequence[Hashable] | None = None) -> dict[str, float]:
    """The six intraclass correlations of numeric ratings (items x raters), as pingouin's ``intraclass_corr``.

    With ``N`` items, ``k`` raters and the two-way ANOVA mean squares ``MS_R`` (items), ``MS_C`` (raters),
    ``MS_E`` (residual) and ``MS_W = (SS_total - SS_R) / (N (k - 1))`` (within items):

    .. math:: ICC1 = \\frac{MS_R - MS_W}{MS_R + (k - 1) MS_W},\\quad
              ICC2 = \\frac{MS_R - MS_E}{MS_R + (k - 1) MS_E + k (MS_C - MS_E) / N},\\quad
              ICC3 = \\frac{MS_R - MS_E}{MS_R + (k - 1) MS_E}

    .. math:: ICC1k = \\frac{MS_R - MS_W}{MS_R},\\quad ICC2k = \\frac{MS_R - MS_E}{MS_R + (MS_C - MS_E) / N},\\quad
              ICC3k = \\frac{MS_R - MS_E}{MS_R}

    ICC1: one-way random raters; ICC2: two-way random, absolute agreement; ICC3: two-way mixed, consistency; the
    ``k`` forms are the reliability of the mean of the ``k`` raters. Items not rated by every rater are left out
    (with a warning), as pingouin's ``nan_policy="omit"``; fewer than two items, or a zero denominator (where
    pingouin gives ±inf or NaN), give NaN.

    Returns
    -------
    dict
        ``{"icc1": ..., "icc2": ..., "icc3": ..., "icc1k": ..., "icc2k": ..., "icc3k": ...}``
    """
    values: dict[str, float] = measure_values(ratings, "icc", categories=categories)
    return values
