"""Agreement on spans (GATE guide 10.5.2): pairwise precision, recall and F between annotation sets.

Each pair of annotators (A, B) is compared as an Annotation Diff with A as the key: per
document and type, correct, partial, missing and spurious counts. Where a ``feature`` is
given, annotations are compared only with annotations carrying the same value of it (and
annotations without it are left out), as GATE's IAA plugin does: the counts of each value
are summed. Swapping A and B swaps precision and recall, so F does not depend on the order.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..diff import DiffCounts, annotation_diff
from ..diff._features import _as_string
from ..errors import RatingsError
from ..model import Annotation, Corpus

__all__ = ["SpanAgreement", "span_agreement"]

_SEP = "\x1f"


@dataclass(frozen=True)
class SpanAgreement:
    """Pairwise Annotation Diff counts between annotators.

    ``cells[(a, b)][document][type]`` holds the :class:`~accord.diff.DiffCounts` of
    annotator ``b`` against ``a`` (``a`` before ``b`` in the given order); a document takes
    part in a pair only when both annotators have it.
    """

    annotators: tuple[str, ...]
    types: tuple[str, ...]
    cells: dict[tuple[str, str], dict[str, dict[str, DiffCounts]]]
    feature: str | Mapping[str, str] | None = None

    @property
    def pairs(self) -> list[tuple[str, str]]:
        return list(self.cells)

    def counts(self, a: str, b: str, document: str | None = None, type: str | None = None) -> DiffCounts:
        """Summed (micro) counts of B against A, over documents and types unless one is named.

        Asking for (b, a) gives the counts with the roles swapped (missing and spurious
        exchanged).
        """
        if (a, b) not in self.cells:
            if (b, a) in self.cells:
                c = self.counts(b, a, document, type)
                return DiffCounts(c.correct, c.partial, c.spurious, c.missing)
            raise RatingsError(f"no annotator pair ({a!r}, {b!r}); the annotators are {', '.join(self.annotators)}")
        cells = self.cells[(a, b)]
        docs = cells.values() if document is None else [cells[document]]
        total = DiffCounts()
        for by_type in docs:
            for c in (by_type.values() if type is None else [by_type[type]]):
                total = total + c
        return total

    def f(self, a: str, b: str, measure: str = "strict", beta: float = 1.0, average: str = "micro") -> float:
        """F of a pair: ``micro`` from the summed counts, ``macro`` the mean over its documents."""
        if average == "micro":
            return self.counts(a, b).f(measure, beta)
        key = (a, b) if (a, b) in self.cells else (b, a)
        docs = list(self.cells.get(key, {}))
        if not docs:
            return float("nan")
        return sum(self.counts(a, b, document=d).f(measure, beta) for d in docs) / len(docs)

    def mean_over_pairs(self, measure: str = "strict", beta: float = 1.0) -> dict[str, float]:
        """Macro over pairs: the mean precision, recall and F of the pairs (each micro)."""
        rows = [self.counts(a, b) for a, b in self.cells]
        n = len(rows)
        return {"precision": sum(r.precision(measure) for r in rows) / n,
                "recall": sum(r.recall(measure) for r in rows) / n,
                "f": sum(r.f(measure, beta) for r in rows) / n}

    def gate_iaa_counts(self) -> dict[str, float]:
        """The counts GATE's IAA plugin reports overall: for each type and document the mean
        over pairs, then the mean over documents, then over types (``correct``, ``partial``,
        ``spurious``, ``missing``, floats)."""
        per_type: list[tuple[float, ...]] = []   # correct, partial, spurious, missing
        docs = sorted({d for cells in self.cells.values() for d in cells})
        for t in self.types:
            per_doc = []
            for d in docs:
                cs = [cells[d][t] for cells in self.cells.values() if d in cells]
                if cs:
                    n = len(cs)
                    per_doc.append((sum(c.correct for c in cs) / n, sum(c.partial for c in cs) / n,
                                    sum(c.spurious for c in cs) / n, sum(c.missing for c in cs) / n))
            if per_doc:
                per_type.append(tuple(sum(x[i] for x in per_doc) / len(per_doc) for i in range(4)))
        if not per_type:
            return {"correct": 0.0, "partial": 0.0, "spurious": 0.0, "missing": 0.0}
        return {k: sum(x[i] for x in per_type) / len(per_type)
                for i, k in enumerate(("correct", "partial", "spurious", "missing"))}

    def gate_iaa_f(self) -> dict[str, Any]:
        """The F-measures GATE's IAA plugin prints "micro averaged over documents": P, R and F1 from the averaged
        counts (:meth:`gate_iaa_counts`), with the plugin's formulas and its 0 for an empty denominator:

        .. math:: P_{strict} = c / (c + p + s),\\ R_{strict} = c / (c + p + m),\\
                  P_{lenient} = (c + p) / (c + p + s),\\ R_{lenient} = (c + p) / (c + p + m),\\
                  F_1 = 2PR / (P + R)

        ``average`` is the mean of the strict and lenient figures (GATE's average measure).
        """
        n = self.gate_iaa_counts()
        c, p, s, m = n["correct"], n["partial"], n["spurious"], n["missing"]

        def ratio(x: float, y: float) -> float:
            return x / y if y else 0.0

        out: dict[str, Any] = {"counts": n}
        for name, credit in (("strict", c), ("lenient", c + p)):
            pr, rc = ratio(credit, c + p + s), ratio(credit, c + p + m)
            out[name] = {"precision": pr, "recall": rc, "f1": ratio(2 * pr * rc, pr + rc)}
        out["average"] = {k: (out["strict"][k] + out["lenient"][k]) / 2 for k in ("precision", "recall", "f1")}
        return out

    def measures(self, measure: str = "strict", beta: float = 1.0) -> dict[tuple[str, str], Any]:
        """Each pair's counts as a measure of the result model (GATE's ``measure``): documents x types."""
        import numpy as np

        from ..result import ALL, CountTable, GateKind, Measure

        kind = GateKind(measure, beta)
        rows = (ALL,) + tuple(("label", t) for t in sorted(self.types))
        out = {}
        for pair, cells in self.cells.items():
            docs = list(cells)
            values = np.zeros((len(docs), len(rows), len(kind.fields)), dtype=np.float64)
            for d, doc in enumerate(docs):
                for k, (_, t) in enumerate(rows[1:], start=1):
                    c = cells[doc].get(t)
                    if c is not None:
                        values[d, k] = (c.correct, c.partial, c.missing, c.spurious, c.bdm)
            values[:, 0] = values[:, 1:].sum(axis=1)
            out[pair] = Measure(kind, CountTable(kind.fields, tuple(docs), rows, values))
        return out

    def to_dict(self, measure: str = "strict", beta: float = 1.0) -> dict[str, Any]:
        """JSON form (see :func:`span_agreement_dict`)."""
        return span_agreement_dict(self.measures(measure, beta), measure, beta, self.types, self.feature)


def span_agreement_dict(measures: Mapping[tuple[str, str], Any], measure: str, beta: float, types: Sequence[str],
                        feature: Any) -> dict[str, Any]:
    """The JSON form of a span agreement: each pair a measure of the contract (its totals the micro counts and
    rates, ``macro_by_document`` the mean over its documents), and the mean of the pairs' totals."""
    pairs = [{"annotators": list(pair), **m.to_dict()} for pair, m in measures.items()]
    totals = [p["totals"] for p in pairs]
    n = len(totals)
    mean = {k: sum(t[k] for t in totals) / n if n else None for k in ("precision", "recall", "f1")}
    feature = dict(feature) if isinstance(feature, Mapping) else feature
    return {"measure": measure, "beta": beta, "types": list(types), "feature": feature, "pairs": pairs,
            "mean_over_pairs": mean}


def _prepared(anns: Sequence[Annotation], types: Sequence[str] | None, feature: str | Mapping[str, str] | None
              ) -> list[Annotation]:
    out = []
    for a in anns:
        if a.start is None or (types is not None and a.label not in types):
            continue
        feat = feature.get(a.label) if isinstance(feature, Mapping) else feature
        if feat is not None:
            if feat not in a.attributes:
                continue
            a = a._replace(label=a.label + _SEP + _as_string(a.attributes[feat]))
        out.append(a)
    return out


def span_agreement(corpora: Sequence[Corpus], names: Sequence[str], *, types: Sequence[str] | None = None,
                   feature: str | Mapping[str, str] | None = None, pairing: str = "gate") -> SpanAgreement:
    """Pairwise Annotation Diffs between annotation sets (one corpus per annotator).

    Parameters
    ----------
    corpora, names : sequences
        The annotators' corpora and their names, in the same order.
    types : sequence of str, optional
        The annotation types compared (default: every type found).
    feature : str or mapping, optional
        Compare annotations only with those carrying the same value of this feature (its
        string form); annotations without it are left out. A mapping names the feature
        per type (``{"sent": "Op"}``; types not in it are compared by span alone), as
        GATE's ``Os;sent->Op``.
    pairing : {"gate", "optimal"}
        As in :func:`accord.diff.annotation_diff`.
    """
    if len(corpora) < 2:
        raise RatingsError(f"agreement needs at least two annotation sets, got {len(corpora)}")
    if len(set(names)) != len(names):
        raise RatingsError(f"annotator names repeat: {', '.join(names)}")
    found = sorted({a.label for c in corpora for d in c.documents for a in d.annotations if a.start is not None})
    wanted = list(types) if types is not None else found
    cells: dict[tuple[str, str], dict[str, dict[str, DiffCounts]]] = {}
    for (i, a), (j, b) in itertools.combinations(enumerate(names), 2):
        by_doc: dict[str, dict[str, DiffCounts]] = {}
        for doc_id in corpora[i]:
            if doc_id not in corpora[j]:
                continue
            ka = _prepared(corpora[i][doc_id].annotations, wanted, feature)
            kb = _prepared(corpora[j][doc_id].annotations, wanted, feature)
            diffs = annotation_diff(ka, kb, features=(), pairing=pairing)
            per_type = {t: DiffCounts() for t in wanted}
            for label, td in diffs.items():
                t = label.split(_SEP, 1)[0]
                per_type[t] = per_type[t] + td.counts
            by_doc[doc_id] = per_type
        if not by_doc:
            raise RatingsError(f"{a} and {b} have no document in common")
        cells[(a, b)] = by_doc
    return SpanAgreement(tuple(names), tuple(wanted), cells, feature)
