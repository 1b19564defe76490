"""Agreement of every annotator with a reference annotator (``accord agree --reference NAME``): a pre-annotation
or a model's output against each person, reported per annotator."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

from ..errors import OptionError
from ._ratings import MISSING, Ratings

__all__ = ["REFERENCE_COEFFICIENTS", "rater_index", "reference_agreement", "reference_intervals"]

REFERENCE_COEFFICIENTS = ("observed_agreement", "cohen_kappa", "scott_pi", "krippendorff_alpha", "bennett_s",
                          "gwet_ac1")
"""The two-rater coefficients reported for each annotator against the reference (and the ``--coefficients``)."""


def rater_index(raters: Sequence[Hashable], name: str, option: str) -> int:
    """The position of the rater named ``name`` (compared as text), or an :class:`~accord.errors.OptionError`
    listing the raters."""
    names = [str(r) for r in raters]
    if str(name) not in names:
        raise OptionError(f"{option} {name}: no such annotator; the annotators are {', '.join(names)}")
    return names.index(str(name))


def reference_agreement(codes: np.ndarray, categories: Sequence[Hashable], raters: Sequence[Hashable],
                        reference: str, extras: Sequence[str], level: str) -> dict[str, Any]:
    """``{"reference": name, "annotators": {name: {"items": n, "coefficients": {...}}}}``: each other annotator's
    two-rater coefficients with the reference over the items both rated (:data:`REFERENCE_COEFFICIENTS`, then the
    outputs of ``extras``)."""
    from ._measures import extra_table
    from ._stats import agreement_stats
    from ._summary import _plain, summarize

    ref = rater_index(raters, reference, "--reference")
    out: dict[str, Any] = {"reference": str(raters[ref]), "annotators": {}}
    for j, name in enumerate(raters):
        if j == ref:
            continue
        sub = codes[:, [ref, j]]
        both = int(((sub != MISSING).all(axis=1)).sum())
        summary, _ = summarize(agreement_stats(Ratings(sub, tuple(categories), (raters[ref], name))), level=level)
        coefficients = {n: summary["coefficients"][n] for n in REFERENCE_COEFFICIENTS}
        if extras:
            coefficients.update(_plain(extra_table(sub, categories, (raters[ref], name), extras).values()))
        out["annotators"][str(name)] = {"items": both, "coefficients": coefficients}
    return out


def reference_intervals(reference: dict[str, Any], codes: np.ndarray, categories: Sequence[Hashable],
                        raters: Sequence[Hashable], level: str, extras: Sequence[str], options: Any) -> None:
    """Add ``"ci"`` to each annotator of ``reference`` (:func:`reference_agreement`): the bootstrap over the
    items, each annotator from the same seed."""
    import warnings

    from ..errors import StatisticsWarning
    from ._measures import coefficient_intervals

    ref = rater_index(raters, reference["reference"], "--reference")
    for j, name in enumerate(raters):
        if j == ref:
            continue
        sub = codes[:, [ref, j]]
        with warnings.catch_warnings():      # the same items as the other coefficients': warned about once, there
            warnings.simplefilter("ignore", StatisticsWarning)
            reference["annotators"][str(name)]["ci"] = coefficient_intervals(
                sub, categories, (raters[ref], name), level, REFERENCE_COEFFICIENTS, extras, options)
