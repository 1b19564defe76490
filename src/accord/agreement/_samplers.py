"""Random continua for γ's expected disorder, drawn from a seeded generator.

γ's expected disorder is the mean disorder of continua that keep the observed statistics but
place the units by chance (Mathet et al. 2015, section 5.2). Two samplers, as pygamma-agreement
defines them, applied to each document separately:

``statistical`` (pygamma-agreement's default, ``StatisticalContinuumSampler``)
    every annotator of a sample gets ``|trunc(N(μ_n, σ_n))|`` units (at least one for the first
    annotator when none before had any), placed one after another: gap ``N(μ_g, σ_g)`` after the
    previous end (the first from 0), length ``|N(μ_l, σ_l)|`` (drawn again while below 10⁻⁶),
    category drawn with the observed frequencies. μ and σ (population) are those of the document:
    units per annotator; gaps between an annotator's consecutive units, the start of its first
    unit when positive, and a 0; unit lengths.
``shuffle`` (the paper's and its Java software's, pygamma's ``ShuffleContinuumSampler``)
    each sampled annotator copies the units of an annotator drawn at random, shifted by a pivot
    drawn (as an integer) from the part of ``[min(0, first start), last end]`` not within half the
    mean unit length of an earlier pivot, wrapping around the end.

Every sample of every document goes into one :class:`Continua` whose documents are numbered
``sample * n_documents + document``, so one call to the alignment solves them all.
"""

from __future__ import annotations

import numpy as np

from ..errors import OptionError
from ._continua import Continua

__all__ = ["SAMPLERS", "sample_continua"]

SAMPLERS = ("statistical", "shuffle")
_MIN_LENGTH = 1e-6


def _build(units: Continua, n_samples: int, document: np.ndarray, annotator: np.ndarray, start: np.ndarray,
           end: np.ndarray, category: np.ndarray) -> Continua:
    order = np.lexsort((category, end, start, annotator, document))
    n_docs = len(units.documents)
    names = tuple(f"{units.documents[d % n_docs]}#{d // n_docs}" for d in range(n_samples * n_docs))
    return Continua(units.annotators, names, units.categories, document[order], annotator[order], category[order],
                    start[order], end[order])


def _document_statistics(units: Continua) -> dict[str, np.ndarray]:
    n = units.n_annotators
    n_docs = len(units.documents)
    counts = np.zeros((n_docs, n))
    np.add.at(counts, (units.document, units.annotator), 1)
    length = units.end - units.start
    total = counts.sum(axis=1)
    # gaps: 0, consecutive units of one annotator, a first start when positive
    same = np.r_[False, (units.document[1:] == units.document[:-1]) & (units.annotator[1:] == units.annotator[:-1])]
    gap_values = np.where(same, units.start - np.r_[0.0, units.end[:-1]], units.start)
    gap_keep = same | (units.start > 0)
    gap_doc = units.document[gap_keep]
    gaps = gap_values[gap_keep]
    n_gaps = np.bincount(gap_doc, minlength=n_docs) + 1.0                    # the leading 0
    gap_mean = np.bincount(gap_doc, weights=gaps, minlength=n_docs) / n_gaps
    gap_var = (np.bincount(gap_doc, weights=gaps * gaps, minlength=n_docs) / n_gaps) - gap_mean ** 2
    safe = np.maximum(total, 1)
    len_mean = np.bincount(units.document, weights=length, minlength=n_docs) / safe
    len_var = np.bincount(units.document, weights=length * length, minlength=n_docs) / safe - len_mean ** 2
    cats = np.zeros((n_docs, len(units.categories)))
    np.add.at(cats, (units.document, units.category), 1)
    return {"counts": counts, "total": total, "gap_mean": gap_mean, "gap_std": np.sqrt(np.maximum(gap_var, 0)),
            "len_mean": len_mean, "len_std": np.sqrt(np.maximum(len_var, 0)),
            "cat_cdf": np.cumsum(cats / safe[:, None], axis=1)}


def _statistical(units: Continua, n_samples: int, rng: np.random.Generator) -> Continua:
    st = _document_statistics(units)
    n = units.n_annotators
    n_docs = len(units.documents)
    counts = st["counts"]
    n_mean, n_std = counts.mean(axis=1), counts.std(axis=1)
    nb = np.abs(np.trunc(rng.normal(n_mean[None, :, None], n_std[None, :, None], size=(n_samples, n_docs, n))))
    nb = nb.astype(np.int64)
    nb[:, st["total"] == 0, :] = 0
    # pygamma: the first annotator of a sample, reached while the sample is empty, gets at least one unit
    nb[:, st["total"] > 0, 0] = np.maximum(nb[:, st["total"] > 0, 0], 1)
    flat = nb.reshape(-1)
    total = int(flat.sum())
    group = np.repeat(np.arange(len(flat)), flat)
    doc = (group // n) % n_docs
    sample = group // (n * n_docs)
    gaps = rng.normal(st["gap_mean"][doc], st["gap_std"][doc])
    lengths = np.abs(rng.normal(st["len_mean"][doc], st["len_std"][doc]))
    short = np.flatnonzero(lengths < _MIN_LENGTH)
    while len(short):
        lengths[short] = np.abs(rng.normal(st["len_mean"][doc[short]], st["len_std"][doc[short]]))
        short = short[lengths[short] < _MIN_LENGTH]
        if len(short) and np.all(st["len_std"][doc[short]] == 0):
            raise OptionError("the units are shorter than 1e-6: the statistical sampler cannot draw them")
    step = gaps + lengths
    ends = np.cumsum(step)
    starts_of_groups = np.cumsum(flat) - flat
    offset = np.repeat(ends[starts_of_groups[flat > 0]] - step[starts_of_groups[flat > 0]], flat[flat > 0])
    ends = ends - offset
    starts = ends - lengths
    cdf = st["cat_cdf"][doc]
    category = np.minimum((cdf < rng.random(total)[:, None]).sum(axis=1), len(units.categories) - 1)
    return _build(units, n_samples, sample * n_docs + doc, group % n, starts, ends, category.astype(np.int64))


def _shuffle(units: Continua, n_samples: int, rng: np.random.Generator) -> Continua:
    n = units.n_annotators
    n_docs = len(units.documents)
    slices = units.document_slices()
    out_doc, out_ann, out_start, out_end, out_cat = [], [], [], [], []
    for s in range(n_samples):
        for d, rows in enumerate(slices):
            if rows.stop == rows.start:
                continue
            start, end = units.start[rows], units.end[rows]
            ann, cat = units.annotator[rows], units.category[rows]
            lo, hi = min(0.0, float(start.min())), float(end.max())
            radius = float((end - start).mean()) / 2
            placed = 0
            while not placed:
                free = [(lo, hi)]
                for idx in range(n):
                    if free:
                        widths = np.array([b - a for a, b in free])
                        if widths.sum() > 0:
                            a, b = free[rng.choice(len(free), p=widths / widths.sum())]
                            pivot = float(int(rng.uniform(a, b)))
                        else:
                            pivot = 1.0
                        free = _remove(free, pivot, radius)
                    else:
                        pivot = float(rng.uniform(lo, hi))
                    source = int(rng.integers(n))
                    mine = ann == source
                    shifted = start[mine] + pivot
                    wrap = np.where(shifted > hi, lo - hi, 0.0)
                    out_doc.append(np.full(int(mine.sum()), s * n_docs + d))
                    out_ann.append(np.full(int(mine.sum()), idx))
                    out_start.append(shifted + wrap)
                    out_end.append(end[mine] + pivot + wrap)
                    out_cat.append(cat[mine])
                    placed += int(mine.sum())
    def cat_or_empty(parts: list[np.ndarray], dtype: type) -> np.ndarray:
        return np.concatenate(parts).astype(dtype) if parts else np.zeros(0, dtype=dtype)
    return _build(units, n_samples, cat_or_empty(out_doc, np.int64), cat_or_empty(out_ann, np.int64),
                  cat_or_empty(out_start, np.float64), cat_or_empty(out_end, np.float64),
                  cat_or_empty(out_cat, np.int64))


def _remove(free: list[tuple[float, float]], pivot: float, radius: float) -> list[tuple[float, float]]:
    """``free`` without ``[pivot - radius, pivot + radius]``."""
    out = []
    for a, b in free:
        if a >= pivot - radius:
            if b > pivot + radius:
                out.append((pivot + radius, b))
        elif b > pivot + radius:
            out.extend([(a, pivot - radius), (pivot + radius, b)])
        else:
            out.append((a, pivot - radius))
    return out


def sample_continua(units: Continua, n_samples: int, rng: np.random.Generator, sampler: str = "statistical"
                    ) -> Continua:
    """``n_samples`` random continua of every document (documents numbered ``sample * n_documents + document``)."""
    if sampler == "statistical":
        return _statistical(units, n_samples, rng)
    if sampler == "shuffle":
        return _shuffle(units, n_samples, rng)
    raise OptionError(f"unknown sampler {sampler!r}; expected one of {', '.join(SAMPLERS)}")
