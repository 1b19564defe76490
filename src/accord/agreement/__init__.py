"""Agreement between annotators: the kappa family, Krippendorff's alpha, and the tables behind them.

Every coefficient takes ``ratings``, an items-by-raters table (rows, a dict of columns, a
numpy array or a pandas DataFrame; ``None`` or NaN where a rater gave no rating), or the
additive :class:`AgreementStats` of one (``agreement_stats(a) + agreement_stats(b)`` is the
statistics of both tables together, so per-document results merge exactly)::

    from accord import agreement
    agreement.cohen_kappa([["a", "a"], ["a", "b"], ["b", "b"]])          # a float for two raters
    agreement.cohen_kappa({"ann1": [...], "ann2": [...], "ann3": [...]})   # Pairwise: each pair and the mean
    agreement.krippendorff_alpha(table, level="ordinal")
"""

from ._allway import iaa_allway_counts, iaa_allway_kappa
from ._alt_test import AltTestResult, alt_test
from ._coefficients import (
    LEVELS,
    Pairwise,
    bennett_s,
    cohen_kappa,
    confusion_matrix,
    davies_fleiss_kappa,
    fleiss_kappa,
    gwet_ac1,
    krippendorff_alpha,
    observed_agreement,
    scott_pi,
    specific_agreement,
)
from ._continua import Continua, continua_from_rows, read_units_table
from ._dissimilarity import Dissimilarity
from ._more_coefficients import (
    gwet_ac2,
    intraclass_correlation,
    krippendorff_alpha_sets,
    weighted_fleiss_kappa,
    weighted_kappa,
)
from ._paired import AgreementComparison, CoefficientComparison, compare_coefficients
from ._ratings import MISSING, Ratings, ratings_from_long, to_ratings
from ._set_distances import jaccard_distance, masi_distance
from ._stats import AgreementStats
from ._unitizing_result import UnitizingResult


def agreement_stats(ratings, *, categories=None) -> AgreementStats:  # noqa: ANN001 - documented below
    """The additive sufficient statistics of ``ratings`` (see :class:`AgreementStats`)."""
    from ._coefficients import stats_of

    return stats_of(ratings, categories)


COEFFICIENTS = {
    "observed_agreement": observed_agreement,
    "cohen_kappa": cohen_kappa,
    "scott_pi": scott_pi,
    "fleiss_kappa": fleiss_kappa,
    "davies_fleiss_kappa": davies_fleiss_kappa,
    "krippendorff_alpha": krippendorff_alpha,
    "bennett_s": bennett_s,
    "gwet_ac1": gwet_ac1,
}
"""The coefficients ``accord agree`` reports, by name (``specific_agreement`` is reported per category)."""

__all__ = [
    "observed_agreement", "specific_agreement", "cohen_kappa", "scott_pi", "fleiss_kappa", "davies_fleiss_kappa",
    "krippendorff_alpha", "bennett_s", "gwet_ac1", "confusion_matrix", "Pairwise", "LEVELS", "COEFFICIENTS",
    "Ratings", "MISSING", "to_ratings", "ratings_from_long", "AgreementStats", "agreement_stats",
    "iaa_allway_kappa", "iaa_allway_counts",
    "Continua", "continua_from_rows", "read_units_table", "Dissimilarity", "UnitizingResult",
    "compare_coefficients", "AgreementComparison", "CoefficientComparison",
    "weighted_kappa", "gwet_ac2", "weighted_fleiss_kappa", "krippendorff_alpha_sets", "masi_distance",
    "jaccard_distance", "intraclass_correlation", "alt_test", "AltTestResult",
]
