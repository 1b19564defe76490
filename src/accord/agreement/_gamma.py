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

The samples do not depend on the order of the input: before anything is drawn, the documents are
put in the order of their names, the annotators in the order of their units (then of their names)
and the units in the order of document, annotator, start, end and category; sums over documents
run in the order of their names. Permuting the rows of a table, the inputs or the annotators' names
gives the same γ under one seed. The samples are at most :data:`MAX_SAMPLES` (a ``precision`` that
asks for more is capped there with a warning naming the precision obtained).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import AgreementWarning, MergeError, OptionError
from ._alignment import Alignment, best_alignment
from ._continua import Continua
from ._dissimilarity import Dissimilarity
from ._samplers import SAMPLERS, sample_continua

__all__ = ["GammaTables", "gamma_tables", "PRECISION_LEVELS", "precision_level", "DEFAULT_SEED", "MAX_SAMPLES"]

PRECISION_LEVELS = {"high": 0.01, "medium": 0.02, "low": 0.1}
"""pygamma-agreement's named precision levels."""

DEFAULT_SEED = 0
"""The seed of the samples when none is given: the same input always gives the same γ."""

MAX_SAMPLES = 1000
"""The most random continua drawn for the expected disorder (``--samples`` above it is refused; a
``--precision`` asking for more is capped at it, with a warning)."""

MAX_SAMPLED_CANDIDATES = 4_000_000
"""The most candidate unitary alignments the samples a ``--precision`` asks for may weigh in all
(samples × the observed alignment's candidates): it is capped at fewer samples for denser units,
with a warning (never fewer than ``--samples``)."""

MAX_TABLE_CELLS = 50_000_000
"""The most numbers the per-sample tables may hold (samples × documents × (4 categories' sums + 6)):
more samples than fit are refused before they are drawn."""

_BATCH_UNITS = 250_000
_BATCH_CANDIDATES = 1_000_000


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
        chosen = np.arange(len(self.documents))[slice(None) if rows is None else rows]
        rows = chosen[np.argsort(np.array([self.documents[i] for i in chosen], dtype=object), kind="stable")]
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

    def __add__(self, other: GammaTables) -> GammaTables:
        if self.samples != other.samples or self.n_annotators != other.n_annotators:
            raise MergeError("cannot merge γ tables with different numbers of samples or annotators")
        both = set(self.documents) & set(other.documents)
        if both:
            raise MergeError(f"cannot merge γ tables that both hold document {sorted(both)[0]!r}")
        cats = tuple(sorted(set(self.categories) | set(other.categories)))

        def widen(t: GammaTables, table: np.ndarray, axis: int) -> np.ndarray:
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


def _canonical(units: Continua) -> tuple[Continua, np.ndarray, np.ndarray, np.ndarray]:
    """``units`` in an order independent of the input's, and the way back.

    Documents in the order of their names; annotators in the order of their units (document, start,
    end, category), then of their names (so that renaming annotators, or giving them in another
    order, changes nothing); rows by document, annotator, start, end, category. Returns
    ``(canonical, rows, annotators, documents)``: canonical row ``i`` is row ``rows[i]`` of
    ``units``, canonical annotator ``j`` is ``annotators[j]``, canonical document ``c`` is
    ``documents[c]``.
    """
    n_docs, n = len(units.documents), units.n_annotators
    doc_order = np.array(sorted(range(n_docs), key=lambda d: units.documents[d]), dtype=np.int64)
    doc_rank = np.empty(n_docs, dtype=np.int64)
    doc_rank[doc_order] = np.arange(n_docs)
    docs = doc_rank[units.document]
    signature = []
    for a in range(n):
        mine = np.flatnonzero(units.annotator == a)
        signature.append(sorted(zip(docs[mine].tolist(), units.start[mine].tolist(), units.end[mine].tolist(),
                                    units.category[mine].tolist())))
    ann_order = np.array(sorted(range(n), key=lambda a: (signature[a], units.annotators[a])), dtype=np.int64)
    ann_rank = np.empty(n, dtype=np.int64)
    ann_rank[ann_order] = np.arange(n)
    anns = ann_rank[units.annotator]
    rows = np.lexsort((units.category, units.end, units.start, anns, docs))
    canonical = Continua(tuple(units.annotators[a] for a in ann_order), tuple(units.documents[d] for d in doc_order),
                         units.categories, docs[rows], anns[rows], units.category[rows], units.start[rows],
                         units.end[rows], (), units.lengths[doc_order] if len(units.lengths) else units.lengths)
    return canonical, rows, ann_order, doc_order


def _back(alignment: Alignment, rows: np.ndarray, ann_order: np.ndarray, doc_order: np.ndarray) -> Alignment:
    """A canonical alignment in the rows, annotators and documents of the input."""
    canon = alignment.units
    out = np.full_like(canon, -1)
    for j, a in enumerate(ann_order):
        out[:, a] = np.where(canon[:, j] >= 0, rows[np.maximum(canon[:, j], 0)], -1)
    document = doc_order[alignment.document]
    first = np.where(out >= 0, out, np.iinfo(np.int64).max).min(axis=1)
    order = np.lexsort((first, document))
    return Alignment(out[order], alignment.disorder[order], document[order], alignment.candidates, alignment.listed)


def _joined(first: Continua, second: Continua, n_docs: int) -> Continua:
    """The samples of ``first`` then those of ``second`` (both of :func:`sample_continua`, ``n_docs`` documents a
    sample), as one batch: the alignment of a sample's document does not depend on the others beside it, and a
    batch is aligned in one pass along the continuum however many samples it holds."""
    offset = len(first.documents)
    names = tuple(f"{first.documents[d % n_docs].rpartition('#')[0]}#{(offset + d) // n_docs}"
                  for d in range(len(second.documents)))
    return Continua(first.annotators, first.documents + names, first.categories,
                    np.concatenate([first.document, second.document + offset]),
                    np.concatenate([first.annotator, second.annotator]),
                    np.concatenate([first.category, second.category]),
                    np.concatenate([first.start, second.start]), np.concatenate([first.end, second.end]))


def _sample_limit(units: Continua) -> int:
    """The most samples whose tables fit :data:`MAX_TABLE_CELLS` (and :data:`MAX_SAMPLES`)."""
    per_sample = max(1, len(units.documents)) * (6 + 4 * len(units.categories))
    return max(1, min(MAX_SAMPLES, MAX_TABLE_CELLS // per_sample))


def gamma_tables(units: Continua, diss: Dissimilarity | None = None, *, samples: int = 30,
                 precision: float | str | None = None, sampler: str = "statistical",
                 seed: int | None = None, time_limit: float | None = None,
                 jobs: int = 1) -> tuple[GammaTables, Alignment]:
    """The γ tables of ``units`` and their optimal alignment.

    ``samples`` random continua of every document give the expected disorder (drawn from
    ``numpy.random.default_rng(seed)``; :data:`DEFAULT_SEED` when ``seed`` is None), from the units
    in an order that does not depend on the input's. With a ``precision`` (a fraction, or
    ``high``/``medium``/``low``), more samples are drawn when the coefficient of variation ``cv`` of
    the samples' disorders asks for it, as pygamma-agreement and the paper (section 5.3) do:
    :math:`S \\ge (1.96\\, cv / p)^2`, at most :data:`MAX_SAMPLES`, and fewer for dense units
    (:data:`MAX_SAMPLED_CANDIDATES`; past it, an :class:`~accord.errors.AgreementWarning` names the
    precision obtained). Units too dense to list their candidate alignments are aligned by column
    generation (:mod:`._colgen`), all of this γ's within ``time_limit`` CPU seconds
    (:data:`~accord.agreement._colgen.COLGEN_SECONDS` when None). With ``jobs`` above 1, the documents and samples are
    aligned in that many processes, in groups of whole documents, with the figures of one process
    (:mod:`._alignment_jobs`, which also says how the time limit is shared).

    Raises
    ------
    OptionError
        ``samples`` below 1 or above the limit (:data:`MAX_SAMPLES`, or fewer when the tables of
        many documents and categories would not fit :data:`MAX_TABLE_CELLS`); an unknown sampler.
    AlignmentError
        Units too dense for the exact alignment (:mod:`._alignment`).
    RatingsError
        A unit of length 0 (γ's positional dissimilarity divides by lengths; pygamma-agreement refuses them too).
    """
    diss = diss or Dissimilarity()
    units.check_positive("γ")
    limit = _sample_limit(units)
    if samples < 1:
        raise OptionError(f"--samples must be at least 1, got {samples}")
    if samples > limit:
        why = "" if limit == MAX_SAMPLES else (f" for {len(units.documents):,} documents and "
                                               f"{len(units.categories):,} categories")
        raise OptionError(f"--samples {samples:,} is more than γ draws (at most {limit:,}{why}); use --precision "
                          "to draw as many as the expected disorder needs")
    if sampler not in SAMPLERS:
        raise OptionError(f"unknown sampler {sampler!r}; expected one of {', '.join(SAMPLERS)}")
    level = precision_level(precision)
    canonical, rows, ann_order, doc_order = _canonical(units)
    from ._alignment_jobs import alignment_jobs
    from ._colgen import time_budget

    with time_budget(time_limit), alignment_jobs(jobs):
        tables, alignment = _tables(canonical, diss, samples, level, limit, sampler, seed)
    back = np.empty(len(doc_order), dtype=np.int64)
    back[doc_order] = np.arange(len(doc_order))
    tables = GammaTables(units.documents, tables.categories, tables.n_annotators, tables.observed[back],
                         tables.expected[:, back], tables.observed_cat[back], tables.expected_cat[:, back],
                         tables.observed_k[back], tables.expected_k[:, back])
    return tables, _back(alignment, rows, ann_order, doc_order)


def _tables(units: Continua, diss: Dissimilarity, samples: int, level: float | None, limit: int, sampler: str,
            seed: int | None) -> tuple[GammaTables, Alignment]:
    n_docs = len(units.documents)
    alignment = best_alignment(units, diss)
    observed, o_cat, o_k = _observe(units, alignment, diss, n_docs)
    why = ""
    work = max(samples, MAX_SAMPLED_CANDIDATES // max(1, alignment.candidates))
    if work < limit:        # --precision on dense units: fewer samples
        limit, why = work, f" for units this dense ({alignment.candidates:,} candidate unitary alignments a continuum)"
    rng = np.random.default_rng(DEFAULT_SEED if seed is None else seed)
    expected: list[np.ndarray] = []
    e_cat: list[np.ndarray] = []
    e_k: list[np.ndarray] = []
    # samples per batch: a bounded number of units, and of candidates (dense units weigh more)
    per_batch = max(1, min(_BATCH_UNITS // max(1, len(units)), _BATCH_CANDIDATES // max(1, alignment.candidates)))

    def draw(count: int) -> None:
        done = 0
        while done < count:
            batch = min(per_batch, count - done)
            sampled = sample_continua(units, batch, rng, sampler)
            rest = count - done - batch
            if 0 < rest <= per_batch // 4:     # a short last batch drawn apart (the same samples) but aligned
                sampled = _joined(sampled, sample_continua(units, rest, rng, sampler), n_docs)   # with this one
                batch += rest
            chance = best_alignment(sampled, diss, "a random continuum drawn for the expected disorder")
            obs, cat, per_k = _observe(sampled, chance, diss, batch * n_docs)
            expected.append(obs.reshape(batch, n_docs, 2))
            e_cat.append(cat.reshape(batch, n_docs, 4))
            e_k.append(per_k.reshape(batch, n_docs, len(units.categories), 4))
            done += batch

    from ._alignment_jobs import CANDIDATES_PER_UNIT

    density = CANDIDATES_PER_UNIT.set(alignment.listed / len(units) if alignment.listed else math.inf)
    try:
        draw(samples)
        if level is not None and observed[:, 1].sum() > 0:
            exp = np.concatenate(expected).sum(axis=1)
            per_sample = exp[:, 0] / (exp[:, 1] / units.n_annotators)
            cv = float(np.std(per_sample) / np.mean(per_sample)) if np.mean(per_sample) else 0.0
            ratio = cv * 1.96 / level
            required = math.ceil(ratio ** 2) if ratio < 1e100 else None   # a tiny --precision: beyond any count
            if required is None or required > limit:
                asked = f"{required:,}" if required is not None else "more than 10^200"
                warnings.warn(AgreementWarning(
                    f"γ: --precision {level:g} asks for {asked} samples of the expected disorder (their coefficient "
                    f"of variation is {cv:.3g}); drawn {limit:,}, the most γ draws{why}, which give a precision of "
                    f"{1.96 * cv / math.sqrt(limit):.3g}"), stacklevel=3)
                required = limit
            if required > samples:
                draw(required - samples)
    finally:
        CANDIDATES_PER_UNIT.reset(density)
    tables = GammaTables(units.documents, units.categories, units.n_annotators, observed,
                         np.concatenate(expected), o_cat, np.concatenate(e_cat), o_k, np.concatenate(e_k))
    return tables, alignment
