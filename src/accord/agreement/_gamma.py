"""γ, γ-cat and γ-k (Mathet, Widlöcher & Métivier 2015; Mathet 2017), from additive per-document tables.

.. math::

    \\gamma = 1 - \\frac{\\delta_o}{\\delta_e}, \\qquad
    \\delta_o = \\frac{\\sum_{\\breve a \\in \\hat a} \\delta(\\breve a)}{N / n}, \\qquad
    \\delta_e = \\frac{1}{S} \\sum_{s=1}^{S} \\delta_o(\\text{sample}_s),

:math:`\\hat a` the optimal alignment (:mod:`._alignment`), ``N`` the units of ``n`` annotators,
the ``S`` samples random continua (:mod:`._samplers`); γ is 1 when :math:`\\delta_o = 0`. Over
several documents the sums run over all of them (the documents are one continuum whose units
never align across documents) and sample ``s`` is the ``s``-th sample of every document.

γ-cat and γ-k (Mathet 2017, "The agreement measure γcat", section 4.2.5, as pygamma-agreement
computes it) weigh the categorical dissimilarity of every pair of units of a unitary alignment
with ``v`` units by :math:`\\max(0, 1 - \\alpha d_{pos}) / (v - 1)`; a pair of a unit and the empty
unit adds :math:`\\Delta_\\varnothing^2` to the disorder and :math:`\\Delta_\\varnothing` to the
weight. The disorder is the weighted mean (0 when nothing disagrees; with no pair of two units it
is 1 if no pair counted at all, else 0). γ-k counts only the pairs where a unit has category
``k``. :math:`\\gamma_{cat} = 1 - \\delta^{cat}_o / \\delta^{cat}_e` (1 when
:math:`\\delta^{cat}_o = 0`, 0 when :math:`\\delta^{cat}_e = 0`), γ-k likewise.

Every document keeps its sums (disorder, units, and the four γ-cat sums, observed and per
sample), so results over disjoint documents add up.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import MergeError, OptionError
from ._alignment import Alignment, best_alignment
from ._continua import Continua
from ._dissimilarity import Dissimilarity
from ._samplers import SAMPLERS, sample_continua

__all__ = ["GammaTables", "gamma_tables", "PRECISION_LEVELS", "precision_level", "DEFAULT_SEED"]

PRECISION_LEVELS = {"high": 0.01, "medium": 0.02, "low": 0.1}
"""pygamma-agreement's named precision levels."""

DEFAULT_SEED = 0
"""The seed of the samples when none is given: the same input always gives the same γ."""

_BATCH_UNITS = 250_000


def precision_level(value: str | float | None) -> float | None:
    """A precision level: a fraction in (0, 1) or ``high``, ``medium``, ``low`` (1%, 2%, 10%)."""
    if value is None:
        return None
    if isinstance(value, str) and value.strip().lower() in PRECISION_LEVELS:
        return PRECISION_LEVELS[value.strip().lower()]
    try:
        number = float(value)
    except ValueError:
        raise OptionError(f"--precision takes a fraction in (0, 1) or high, medium, low; got {value!r}") from None
    if not 0 < number < 1:
        raise OptionError(f"--precision must be in (0, 1) (0.02 is 2%); got {value!r}")
    return number


def _cat_sums(units: Continua, alignment: Alignment, diss: Dissimilarity, n_documents: int
              ) -> tuple[np.ndarray, np.ndarray]:
    """γ-cat sums per document ``(D, 4)`` and γ-k sums per document and category ``(D, K, 4)``: total
    disorder, total weight, relevant pairs, pairs of two units."""
    k_count = len(units.categories)
    cat = np.zeros((n_documents, 4))
    per_k = np.zeros((n_documents, k_count, 4))
    rows = alignment.units
    if not len(rows):
        return cat, per_k
    n = rows.shape[1]
    real = rows >= 0
    nv = real.sum(axis=1)
    base = np.where(nv >= 2, 1.0 / np.maximum(nv - 1, 1), 0.0)
    delta = diss.delta_empty
    doc = alignment.document
    for i in range(n):
        for j in range(i + 1, n):
            u, v = rows[:, i], rows[:, j]
            ru, rv = real[:, i], real[:, j]
            one = ru ^ rv
            both = ru & rv
            uu, vv = np.maximum(u, 0), np.maximum(v, 0)
            pos = diss.alpha * diss.positional(units.start[uu], units.end[uu], units.start[vv], units.end[vv])
            weight = base * np.maximum(0.0, 1.0 - pos)
            d_cat = diss.categorical(units.category[uu], units.category[vv])
            disorder = np.where(both, d_cat * weight, np.where(one, delta * delta, 0.0))
            weights = np.where(both, weight, np.where(one, delta, 0.0))
            parts = np.stack([disorder, weights, np.ones(len(rows)), both.astype(float)], axis=1)
            np.add.at(cat, doc, parts)
            cu = np.where(ru, units.category[uu], -1)
            cv = np.where(rv, units.category[vv], -1)
            for mask, k in ((cu >= 0, cu), ((cv >= 0) & (cv != cu), cv)):
                np.add.at(per_k, (doc[mask], k[mask]), parts[mask])
    return cat, per_k


def _cat_disorder(sums: np.ndarray) -> np.ndarray:
    """The γ-cat/γ-k disorder of sums ``(..., 4)``, as pygamma-agreement's ``gamma_k_disorder``."""
    td, tw, relevant, loops = sums[..., 0], sums[..., 1], sums[..., 2], sums[..., 3]
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = np.where(td == 0, 0.0, td / np.where(tw == 0, 1.0, tw))
    return np.where(loops == 0, np.where(relevant == 0, 1.0, 0.0), ratio)


@dataclass(frozen=True)
class GammaTables:
    """The additive γ tables of documents: observed (per document) and per sample and document."""

    documents: tuple[str, ...]
    categories: tuple[str, ...]
    n_annotators: int
    observed: np.ndarray          # (D, 2): summed unitary disorder, units
    expected: np.ndarray          # (S, D, 2)
    observed_cat: np.ndarray      # (D, 4)
    expected_cat: np.ndarray      # (S, D, 4)
    observed_k: np.ndarray        # (D, K, 4)
    expected_k: np.ndarray        # (S, D, K, 4)

    @property
    def samples(self) -> int:
        return self.expected.shape[0]

    def values(self, rows: slice | np.ndarray | None = None) -> dict[str, Any]:
        """γ, γ-cat, γ-k and the disorders of the documents ``rows`` (all by default)."""
        rows = slice(None) if rows is None else rows
        n = self.n_annotators
        obs = self.observed[rows].sum(axis=0)
        exp = self.expected[:, rows].sum(axis=1)
        units = int(obs[1])
        if units == 0:
            return {"units": 0, "gamma": None, "gamma_cat": None, "gamma_k": {}, "observed_disorder": None,
                    "expected_disorder": None, "samples": self.samples}
        observed = obs[0] / (obs[1] / n)
        with np.errstate(invalid="ignore", divide="ignore"):
            per_sample = exp[:, 0] / (exp[:, 1] / n)
        expected = float(np.mean(per_sample))
        gamma = 1.0 if observed == 0 else 1.0 - observed / expected
        o_cat = float(_cat_disorder(self.observed_cat[rows].sum(axis=0)))
        e_cat = float(np.mean(_cat_disorder(self.expected_cat[:, rows].sum(axis=1))))
        gamma_cat = 1.0 if o_cat == 0 else (0.0 if e_cat == 0 else 1.0 - o_cat / e_cat)
        o_k = _cat_disorder(self.observed_k[rows].sum(axis=0))
        e_k = np.mean(_cat_disorder(self.expected_k[:, rows].sum(axis=1)), axis=0)
        used = self.observed_k[rows].sum(axis=0)[:, 2] > 0
        gamma_k: dict[str, float | None] = {}
        for k, name in enumerate(self.categories):
            if not used[k]:
                continue
            if o_k[k] == 0:
                gamma_k[name] = 1.0
            elif e_k[k] == 0:
                gamma_k[name] = None
            else:
                gamma_k[name] = float(1.0 - o_k[k] / e_k[k])
        cv = float(np.std(per_sample) / np.mean(per_sample)) if expected else math.nan
        return {"units": units, "gamma": float(gamma), "gamma_cat": float(gamma_cat), "gamma_k": gamma_k,
                "observed_disorder": float(observed), "expected_disorder": expected,
                "expected_disorder_cv": cv, "samples": self.samples}

    def __add__(self, other: "GammaTables") -> "GammaTables":
        if self.samples != other.samples or self.n_annotators != other.n_annotators:
            raise MergeError("cannot merge γ tables with different numbers of samples or annotators")
        both = set(self.documents) & set(other.documents)
        if both:
            raise MergeError(f"cannot merge γ tables that both hold document {sorted(both)[0]!r}")
        cats = tuple(sorted(set(self.categories) | set(other.categories)))

        def widen(t: "GammaTables", table: np.ndarray, axis: int) -> np.ndarray:
            shape = list(table.shape)
            shape[axis] = len(cats)
            out = np.zeros(shape)
            index = [cats.index(c) for c in t.categories]
            sl: list[Any] = [slice(None)] * len(shape)
            sl[axis] = index
            out[tuple(sl)] = table
            return out
        return GammaTables(self.documents + other.documents, cats, self.n_annotators,
                           np.concatenate([self.observed, other.observed]),
                           np.concatenate([self.expected, other.expected], axis=1),
                           np.concatenate([self.observed_cat, other.observed_cat]),
                           np.concatenate([self.expected_cat, other.expected_cat], axis=1),
                           np.concatenate([widen(self, self.observed_k, 1), widen(other, other.observed_k, 1)]),
                           np.concatenate([widen(self, self.expected_k, 2), widen(other, other.expected_k, 2)],
                                          axis=1))


def _observe(units: Continua, alignment: Alignment, diss: Dissimilarity, n_documents: int
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    observed = np.stack([alignment.document_totals(n_documents),
                         np.bincount(units.document, minlength=n_documents).astype(float)], axis=1)
    cat, per_k = _cat_sums(units, alignment, diss, n_documents)
    return observed, cat, per_k


def gamma_tables(units: Continua, diss: Dissimilarity | None = None, *, samples: int = 30,
                 precision: float | str | None = None, sampler: str = "statistical",
                 seed: int | None = None) -> tuple[GammaTables, Alignment]:
    """The γ tables of ``units`` and their optimal alignment.

    ``samples`` random continua of every document give the expected disorder (drawn from
    ``numpy.random.default_rng(seed)``; :data:`DEFAULT_SEED` when ``seed`` is None). With a
    ``precision`` (a fraction, or ``high``/``medium``/``low``), more samples are drawn when the
    coefficient of variation ``cv`` of the samples' disorders asks for it, as pygamma-agreement
    and the paper (section 5.3) do: :math:`S \\ge (1.96\\, cv / p)^2`.
    """
    diss = diss or Dissimilarity()
    if samples < 1:
        raise OptionError(f"--samples must be at least 1, got {samples}")
    if sampler not in SAMPLERS:
        raise OptionError(f"unknown sampler {sampler!r}; expected one of {', '.join(SAMPLERS)}")
    level = precision_level(precision)
    n_docs = len(units.documents)
    alignment = best_alignment(units, diss)
    observed, o_cat, o_k = _observe(units, alignment, diss, n_docs)
    rng = np.random.default_rng(DEFAULT_SEED if seed is None else seed)
    expected: list[np.ndarray] = []
    e_cat: list[np.ndarray] = []
    e_k: list[np.ndarray] = []

    def draw(count: int) -> None:
        per_batch = max(1, _BATCH_UNITS // max(1, len(units)))
        done = 0
        while done < count:
            batch = min(per_batch, count - done)
            sampled = sample_continua(units, batch, rng, sampler)
            chance = best_alignment(sampled, diss)
            obs, cat, per_k = _observe(sampled, chance, diss, batch * n_docs)
            expected.append(obs.reshape(batch, n_docs, 2))
            e_cat.append(cat.reshape(batch, n_docs, 4))
            e_k.append(per_k.reshape(batch, n_docs, len(units.categories), 4))
            done += batch

    draw(samples)
    if level is not None and observed[:, 1].sum() > 0:
        exp = np.concatenate(expected).sum(axis=1)
        per_sample = exp[:, 0] / (exp[:, 1] / units.n_annotators)
        cv = float(np.std(per_sample) / np.mean(per_sample)) if np.mean(per_sample) else 0.0
        required = int(math.ceil((cv * 1.96 / level) ** 2))
        if required > samples:
            draw(required - samples)
    tables = GammaTables(units.documents, units.categories, units.n_annotators, observed,
                         np.concatenate(expected), o_cat, np.concatenate(e_cat), o_k, np.concatenate(e_k))
    return tables, alignment
