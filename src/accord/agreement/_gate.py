"""GATE's two ways of turning annotation sets into classification tables, for exact GATE numbers.

accord's own way (:func:`accord.agreement._sources.ratings_from_corpora`) takes the union
of the spans every annotator marked as the items. GATE builds one two-annotator table per
pair instead (``../shared/notes/gate-evaluation.md`` section 3):

``corpus-qa`` (``gate.util.ClassificationMeasures``, Corpus QA's classification tab)
    Instances are the annotations of the type that carry the feature. An A annotation
    sharing its span with another A annotation is left out; each remaining one counts
    when exactly one B annotation is coextensive with it, under the pair of values
    (``""`` for an empty value). Unmatched annotations are not counted; there is no
    ``Non-cat``. Tables add up over documents (GATE's corpus figures sum them).

``iaa`` (GATE's IAA plugin)
    Labels are the feature values found in the document, plus ``Non-cat`` for an
    annotation without the feature. Cell (i, j) counts the coextensive pairs an
    Annotation Diff (GATE's greedy pairing, features ignored) finds between A's
    label-i and B's label-j annotations. Unmatched annotations are not counted. Without
    a feature the table is ``[[c, m], [s, 0]]`` over the categories ``Anns`` and
    ``Non-cat``. The plugin reports the mean over pairs, then documents, then types.

Each function returns a two-column :class:`~accord.agreement.Ratings` table (one row per
counted pair of annotations), so every coefficient of :mod:`accord.agreement` applies.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..diff import annotation_diff
from ..diff._features import _as_string
from ..errors import RatingsError
from ..model import Annotation, Corpus, span_key
from ._ratings import Ratings, to_ratings
from ._sources import ANNOTATED, NON_CAT

__all__ = ["GATE_CONVENTIONS", "corpus_qa_table", "iaa_table", "gate_pair_tables", "gate_summary", "pair_tables"]

GATE_CONVENTIONS = ("corpus-qa", "iaa")


def _table(cells: Counter, a: str, b: str, categories: Sequence[str]) -> Ratings:
    rows = [[i, j] for (i, j), n in sorted(cells.items()) for _ in range(n)]
    return to_ratings({a: [r[0] for r in rows], b: [r[1] for r in rows]}, categories=list(categories))


def corpus_qa_table(a_anns: Sequence[Annotation], b_anns: Sequence[Annotation], type: str, feature: str,
                    names: tuple[str, str] = ("A", "B")) -> Ratings:
    """The confusion table of GATE's ``ClassificationMeasures`` for one document and one pair."""
    def instances(anns: Sequence[Annotation]) -> list[Annotation]:
        return [x for x in anns if x.label == type and x.start is not None and feature in x.attributes]

    def value(x: Annotation) -> str:
        v = x.attributes[feature]
        return "" if v is None else _as_string(v)

    a_inst, b_inst = instances(a_anns), instances(b_anns)
    a_spans = Counter(map(span_key, a_inst))
    b_by_span: dict[tuple, list[Annotation]] = {}
    for x in b_inst:
        b_by_span.setdefault(span_key(x), []).append(x)
    cells: Counter = Counter()
    for x in a_inst:
        span = span_key(x)
        if a_spans[span] > 1:
            continue
        partners = b_by_span.get(span, [])
        if len(partners) == 1:
            cells[(value(x), value(partners[0]))] += 1
    categories = sorted({value(x) for x in a_inst} | {value(x) for x in b_inst})
    return _table(cells, names[0], names[1], categories)


def iaa_table(a_anns: Sequence[Annotation], b_anns: Sequence[Annotation], type: str, feature: str | None,
              labels: Sequence[str] | None = None, names: tuple[str, str] = ("A", "B")) -> Ratings:
    """The contingency table of GATE's IAA plugin for one document and one pair.

    ``labels`` are the feature values of the document (default: those found in the two
    sets); an annotation without the feature, or with a value outside them, is ``Non-cat``.
    """
    a_inst = [x for x in a_anns if x.label == type and x.start is not None]
    b_inst = [x for x in b_anns if x.label == type and x.start is not None]
    if feature is None:
        d = annotation_diff(a_inst, b_inst, types=[type])[type].counts
        cells = Counter({(ANNOTATED, ANNOTATED): d.correct, (ANNOTATED, NON_CAT): d.missing,
                         (NON_CAT, ANNOTATED): d.spurious})
        return _table(+cells, names[0], names[1], [ANNOTATED, NON_CAT])
    if labels is None:
        labels = sorted({_as_string(x.attributes[feature]) for x in a_inst + b_inst if feature in x.attributes})
    known = set(labels)

    def label(x: Annotation) -> str:
        if feature not in x.attributes:
            return NON_CAT
        v = _as_string(x.attributes[feature])
        return v if v in known else NON_CAT

    cats = list(labels) + [NON_CAT]
    a_by: dict[str, list[Annotation]] = {c: [] for c in cats}
    b_by: dict[str, list[Annotation]] = {c: [] for c in cats}
    for inst, by in ((a_inst, a_by), (b_inst, b_by)):
        for x in inst:
            by[label(x)].append(x._replace(label="X"))
    cells = Counter()
    for i, j in itertools.product(cats, cats):
        if a_by[i] and b_by[j]:
            n = annotation_diff(a_by[i], b_by[j], types=["X"])["X"].counts.correct
            if n:
                cells[(i, j)] = n
    return _table(cells, names[0], names[1], cats)


def gate_pair_tables(corpora: Sequence[Corpus], names: Sequence[str], *, type: str, feature: str | None,
                     convention: str = "iaa") -> dict[tuple[str, str], dict[str, Ratings]]:
    """GATE's table for every annotator pair and every document both have.

    With ``iaa`` the labels of a document are the feature values any annotator gave in it.
    """
    if convention not in GATE_CONVENTIONS:
        raise RatingsError(f"unknown GATE convention {convention!r}; expected one of {', '.join(GATE_CONVENTIONS)}")
    if convention == "corpus-qa" and feature is None:
        raise RatingsError("the corpus-qa convention compares a feature's values: give --feature")
    if len(corpora) < 2:
        raise RatingsError(f"agreement needs at least two annotation sets, got {len(corpora)}")
    out: dict[tuple[str, str], dict[str, Ratings]] = {}
    for (i, a), (j, b) in itertools.combinations(enumerate(names), 2):
        tables: dict[str, Ratings] = {}
        for doc_id in corpora[i]:
            if doc_id not in corpora[j]:
                continue
            ka, kb = corpora[i][doc_id].annotations, corpora[j][doc_id].annotations
            if convention == "corpus-qa":
                assert feature is not None  # corpus-qa needs a feature (refused above without one)
                tables[doc_id] = corpus_qa_table(ka, kb, type, feature, (a, b))
            else:
                labels = None
                if feature is not None:
                    labels = sorted({_as_string(x.attributes[feature]) for c in corpora if doc_id in c
                                     for x in c[doc_id].annotations if x.label == type and feature in x.attributes})
                tables[doc_id] = iaa_table(ka, kb, type, feature, labels, (a, b))
        out[(a, b)] = tables
    return out


def gate_summary(tables: dict[tuple[str, str], dict[str, Ratings]], convention: str, verbosity: int = 1) -> dict:
    """Observed agreement, Cohen's kappa and Scott's pi per pair and their mean, as GATE reports them.

    ``corpus-qa``: each pair's tables summed over documents (the corpus confusion matrix).
    ``iaa``: for each document the mean over pairs, then the mean over documents (the IAA
    plugin's order). Per-document values are under ``by_document``. NaN becomes ``None``.
    ``verbosity`` 2 (the IAA plugin's most detailed level) adds each document's confusion matrix and specific
    agreements of every pair under ``pair_tables_by_document`` (:func:`pair_tables` of that document alone).
    """
    import warnings

    from . import agreement_stats
    from ._coefficients import cohen_kappa, observed_agreement, scott_pi
    from ._stats import AgreementStats

    funcs = {"observed_agreement": observed_agreement, "cohen_kappa": cohen_kappa, "scott_pi": scott_pi}

    def plain(x: float) -> float | None:
        return None if math.isnan(x) else x

    def values(stats: AgreementStats) -> dict[str, float]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return {n: float(f(stats)) for n, f in funcs.items()} if stats.n_rated else \
                {n: math.nan for n in funcs}

    docs = list(dict.fromkeys(d for per in tables.values() for d in per))
    by_doc: dict[str, dict] = {}
    for d in docs:
        pairs = {p: values(agreement_stats(per[d])) for p, per in tables.items() if d in per}
        by_doc[d] = {n: {"pairs": [{"raters": list(p), "value": plain(v[n])} for p, v in pairs.items()],
                         "mean": plain(_nanmean([v[n] for v in pairs.values()]))} for n in funcs}
    coefficients: dict[str, dict] = {}
    if convention == "corpus-qa":
        pair_values = {}
        for p, per in tables.items():
            stats = None
            for t in per.values():
                s = agreement_stats(t)
                stats = s if stats is None else stats + s
            pair_values[p] = values(stats) if stats is not None else {n: math.nan for n in funcs}
        for n in funcs:
            coefficients[n] = {"pairs": [{"raters": list(p), "value": plain(v[n])} for p, v in pair_values.items()],
                               "mean": plain(_nanmean([v[n] for v in pair_values.values()]))}
    else:
        for n in funcs:
            means = [by_doc[d][n]["mean"] for d in docs]
            coefficients[n] = {"pairs": [], "mean": plain(_nanmean([math.nan if m is None else m for m in means]))}
            for p in tables:
                vals = [x["value"] for d in docs for x in by_doc[d][n]["pairs"] if tuple(x["raters"]) == p]
                coefficients[n]["pairs"].append({"raters": list(p), "value": plain(_nanmean(
                    [math.nan if v is None else v for v in vals]))})
    out = {"convention": convention, "raters": list(dict.fromkeys(r for p in tables for r in p)),
           "coefficients": coefficients, "by_document": by_doc, "pair_tables": pair_tables(tables)}
    if verbosity >= 2:
        out["pair_tables_by_document"] = {d: pair_tables({p: {d: per[d]} for p, per in tables.items() if d in per})
                                          for d in docs}
    return out


def pair_tables(tables: dict[tuple[str, str], dict[str, Ratings]]) -> list[dict[str, Any]]:
    """Each annotator pair's confusion matrix summed over documents (rows: the first annotator, columns: the
    second; GATE's ``Non-cat`` included under ``iaa``) and the specific agreement of each category (GATE's
    ``ContingencyTable``; 0 for an empty denominator):

    .. math:: positive_i = 2 n_{ii} / (r_i + c_i),\\
              negative_i = 2 (N - r_i - c_i + n_{ii}) / (2N - r_i - c_i)
    """
    from . import agreement_stats

    out = []
    for pair, per in tables.items():
        stats = None
        for t in per.values():
            s = agreement_stats(t)
            stats = s if stats is None else stats + s
        if stats is None:
            continue
        cats = [str(c) for c in stats.categories]
        m = stats.pairs.get((0, 1))
        matrix = np.zeros((len(cats), len(cats)), dtype=np.int64) if m is None else np.asarray(m, dtype=np.int64)
        rows, cols, n = matrix.sum(axis=1), matrix.sum(axis=0), int(matrix.sum())
        specific = {}
        for i, c in enumerate(cats):
            nii, ri, ci = int(matrix[i, i]), int(rows[i]), int(cols[i])
            pos_den, neg_den = ri + ci, 2 * n - ri - ci
            specific[c] = {"positive": 2 * nii / pos_den if pos_den else 0.0,
                           "negative": 2 * (n - ri - ci + nii) / neg_den if neg_den else 0.0}
        out.append({"raters": list(pair), "categories": cats, "matrix": matrix.tolist(),
                    "specific_agreement": specific})
    return out


def _nanmean(xs: list[float]) -> float:
    kept = [x for x in xs if not math.isnan(x)]
    return sum(kept) / len(kept) if kept else math.nan
