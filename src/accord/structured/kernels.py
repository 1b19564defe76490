"""Kernels: is a similarity positive definite on a sample, and the optimal-assignment kernel (appendix B).

Chen et al. (appendix B, following Shen 2019 and Kriege et al. 2016) show when the framework's
similarities are *positive definite symmetric kernels*: the Kronecker delta is one, products of
kernels are kernels (lemma 2), and the normalized matching scores built on a suitable kernel
(precision/recall-style F1 and Jaccard, lemmas 7 and 8) stay kernels. Why it matters for a
matching-based metric: a kernel is an inner product of feature vectors, so ``1 - φ`` (or
``sqrt(φ(x,x) + φ(y,y) - 2φ(x,y))``) behaves like a distance, scores can be averaged, clustered and
fed to kernel methods, and the comparison of two outputs is a geometric one rather than the
artefact of one solver's choice. The catch is the matching step: the best one-to-one assignment of
parts (the ``Σ↔`` of section 2) is a kernel only when the base similarity is a *strong* kernel
(lemma 5). Kriege et al. define strong as ``k(x, y) ≥ min(k(x, z), k(z, y))`` for all ``x, y, z``
(the base similarity comes from a hierarchy); the paper's definition 3 writes the weaker
``k(x, x) ≥ k(x, y)``, which every similarity of the framework meets, and under which lemma 4 does
not hold: :func:`check_kernel` finds a base kernel with ``k(x, x) = 1 ≥ k(x, y)`` whose
optimal-assignment kernel has a negative eigenvalue (see the tests). So a matching-based metric
built on a partial-credit similarity should be checked, not assumed, before it is used as a kernel.

:func:`check_kernel` builds the Gram matrix of a similarity on a sample of items and reports its
symmetry and its smallest eigenvalue (``numpy.linalg.eigvalsh``): a negative eigenvalue beyond the
tolerance proves the similarity is not a kernel; none found on a sample is evidence, not proof.
:func:`is_strong` checks Kriege et al.'s condition on a sample, and
:func:`optimal_assignment_kernel` is ``Σ↔[k]`` (the best one-to-one matching, unnormalized).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import OptionError
from ._matching import Match, match
from ._similarity import _as_similarity

__all__ = ["KernelCheck", "gram_matrix", "check_kernel", "is_strong", "optimal_assignment_kernel",
           "MAX_KERNEL_ITEMS"]

MAX_KERNEL_ITEMS = 2000
"""The most items a check takes (a Gram matrix of ``n²`` cells and an ``O(n³)`` eigenvalue problem)."""


def _sample(items: Sequence[Any], max_items: int) -> list[Any]:
    xs = list(items)
    if not xs:
        raise OptionError("a kernel check needs at least one item")
    if len(xs) > max_items:
        raise OptionError(f"a kernel check takes at most {max_items} items (a {len(xs)}x{len(xs)} Gram matrix "
                          f"asked for); pass a sample or raise max_items")
    return xs


def gram_matrix(similarity: Any, items: Sequence[Any], *, max_items: int = MAX_KERNEL_ITEMS) -> np.ndarray:
    """``K[i, j] = similarity(items[i], items[j])`` as a float array (every pair computed, both orders)."""
    sim = _as_similarity(similarity, "similarity")
    xs = _sample(items, max_items)
    return np.array([[float(sim(a, b)) for b in xs] for a in xs], dtype=float)


@dataclass(frozen=True)
class KernelCheck:
    """The outcome of :func:`check_kernel`.

    Attributes
    ----------
    gram : numpy.ndarray
        The Gram matrix.
    asymmetry : float
        ``max |K - Kᵀ|``.
    min_eigenvalue : float
        The smallest eigenvalue of the symmetric part ``(K + Kᵀ) / 2``.
    tolerance : float
        The absolute tolerance used (the one given, times ``max(1, max |K|)``).
    """

    gram: np.ndarray
    asymmetry: float
    min_eigenvalue: float
    tolerance: float

    @property
    def symmetric(self) -> bool:
        return self.asymmetry <= self.tolerance

    @property
    def positive_definite(self) -> bool:
        """Symmetric and no eigenvalue below ``-tolerance``: a kernel on this sample."""
        return self.symmetric and self.min_eigenvalue >= -self.tolerance

    def __bool__(self) -> bool:
        return self.positive_definite


def check_kernel(similarity: Any, items: Sequence[Any], *, tolerance: float = 1e-9,
                 max_items: int = MAX_KERNEL_ITEMS) -> KernelCheck:
    """Whether ``similarity`` is a positive definite symmetric kernel on ``items`` (appendix B, definition 2).

    Parameters
    ----------
    similarity : similarity or callable
        Any similarity of :mod:`accord.structured` (a normalized matching score included).
    items : sequence
        The sample (at most ``max_items``).
    tolerance : float
        Relative tolerance for rounding: eigenvalues down to ``-tolerance * max(1, max |K|)`` count as 0.

    Returns
    -------
    KernelCheck
        True when positive definite on the sample.
    """
    if not (isinstance(tolerance, (int, float)) and tolerance >= 0):
        raise OptionError(f"tolerance must be a non-negative number, got {tolerance!r}")
    k = gram_matrix(similarity, items, max_items=max_items)
    if not np.isfinite(k).all():
        raise OptionError("the similarity gave a value that is not finite")
    tol = float(tolerance) * max(1.0, float(np.abs(k).max()))
    asym = float(np.abs(k - k.T).max())
    lam = float(np.linalg.eigvalsh((k + k.T) / 2)[0])
    return KernelCheck(k, asym, lam, tol)


def is_strong(similarity: Any, items: Sequence[Any], *, tolerance: float = 1e-9,
              max_items: int = 300) -> bool:
    """Kriege et al.'s strong-kernel condition on ``items``: non-negative and ``k(x, y) ≥ min(k(x, z), k(z, y))``
    for every ``x, y, z`` of the sample (``O(n³)`` time, hence the lower ``max_items``)."""
    k = gram_matrix(similarity, items, max_items=max_items)
    if (k < -tolerance).any():
        return False
    bound = np.full_like(k, -np.inf)    # [x, y] -> max over z of min(k(x, z), k(z, y)), one z at a time
    for z in range(len(k)):
        np.maximum(bound, np.minimum(k[:, z][:, None], k[z, :][None, :]), out=bound)
    return bool((k >= bound - tolerance).all())


def optimal_assignment_kernel(base: Any) -> Match:
    """The optimal-assignment kernel ``Σ↔[k]`` (appendix B, lemma 5): the total base similarity of the best
    one-to-one assignment of two collections' parts (unmatched parts add 0, as Kriege et al.'s dummy parts).

    It is a kernel when ``base`` is a strong kernel (:func:`is_strong`); otherwise it may not be, which
    :func:`check_kernel` shows on a sample.
    """
    return match(_as_similarity(base, "base"), "1:1")

