"""Coreference, Smatch and the named structured metrics as :class:`~accord.result.Result` objects."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..result import BetterKind, CorefKind, Measure, RecordsKind, Result, SmatchKind, document_table
from ._amr_result import SmatchResult

__all__ = ["CorefResult", "coref_result", "smatch_result", "records_result"]


class CorefResult(Result):
    """``accord coref``: one measure per metric and ``mentions`` (mention identification: distinct mentions of
    both sides over those of the key and of the response); ``conll_f1`` (the mean of the MUC, B-cubed and CEAFe
    F1) when the three are scored."""

    def conll_f1(self) -> float | None:
        if not all(m in self.measures for m in ("muc", "bcub", "ceafe")):
            return None
        return (self.measures["muc"].totals().f1 + self.measures["bcub"].totals().f1
                + self.measures["ceafe"].totals().f1) / 3

    def extras_dict(self) -> dict[str, Any]:
        value = self.conll_f1()
        return {} if value is None else {"conll_f1": value}

    def display(self) -> Any:
        """As every result's, with the CoNLL F1 as a note when MUC, B-cubed and CEAFe are scored (the table of
        ``accord coref`` prints it too)."""
        from ..result._display import figure

        shown = super().display()
        value = self.conll_f1()
        if value is not None:
            shown.notes.append(f"CoNLL F1 (mean of MUC, B-cubed, CEAFe F1): {figure(value)}")
        return shown


def _mentions(clusters: Mapping[str, Sequence[Sequence[Any]]], documents: Sequence[str]) -> np.ndarray:
    counts = getattr(clusters, "mention_counts", None)
    if counts is not None:      # chains kept as arrays (accord.formats.coref._chains.CorefChains)
        return np.asarray(counts(documents), dtype=np.float64)
    return np.array([sum(len(e) for e in clusters.get(d, ())) for d in documents], dtype=np.float64)


def coref_result(scores: Mapping[str, Any], key: Mapping[str, Any], response: Mapping[str, Any], *,
                 options: Mapping[str, Any] | None = None, inputs: Mapping[str, Any] | None = None) -> CorefResult:
    """Counts of every metric by document (:func:`accord.structured.coref.coref_scores`), with the
    mentions of each side."""
    documents = list(key)
    gold, pred = _mentions(key, documents), _mentions(response, documents)
    measures = {}
    for metric, score in scores.items():
        kind = CorefKind(blanc=score.noncoref is not None, rule=getattr(score, "blanc_rule", "conll2012"))
        table = getattr(score.by_document, "table", None)
        counts = table(documents) if table is not None else None     # the scorer's own table (DocumentScores)
        if counts is None:
            rows = []
            for d in documents:
                s = score.by_document[d]
                rows.append([s.recall_num, s.recall_den, s.precision_num, s.precision_den, *(s.noncoref or ())])
            counts = np.asarray(rows, dtype=np.float64).reshape(len(documents), -1)
        values = np.column_stack([gold, pred, counts])
        measures[metric] = Measure(kind, document_table(kind.fields, documents, values))
    return CorefResult("coref", "coref", measures, nested=True, options=options, inputs=inputs)


def smatch_result(total: Any, *, documents: Sequence[str] | None = None, options: Mapping[str, Any] | None = None,
                  inputs: Mapping[str, Any] | None = None, fine: Any = None) -> SmatchResult:
    """Smatch counts of each graph pair (documents: ``documents``, or ``1``, ``2``, ... in input order); with
    ``fine`` (:class:`~accord.structured._amr_fine.FineScore`), one more measure per fine-grained aspect; the
    pairs a time limit stopped keep their bounds (:class:`~accord.structured._amr_result.SmatchResult`)."""
    from ._amr_result import FINE_MEASURES

    kind = SmatchKind()
    values = np.array([[s.match, s.gold_triples, s.test_triples] for s in total.by_pair], dtype=np.int64)
    documents = list(documents) if documents is not None else [str(k + 1) for k in range(len(total.by_pair))]
    table = document_table(kind.fields, documents, values.reshape(len(documents), 3))
    measures = {"smatch": Measure(kind, table)}
    if fine is not None:
        for aspect, name in FINE_MEASURES.items():
            counts = np.array([p.counts[aspect] for p in fine.by_pair], dtype=np.int64).reshape(len(documents), 3)
            measures[name] = Measure(kind, document_table(kind.fields, documents, counts))
    bounds = {d: s.bound for d, s in zip(documents, total.by_pair) if s.bound is not None}
    return SmatchResult("smatch", "smatch", measures, nested=fine is not None, options=options, inputs=inputs,
                        bounds=bounds)


def records_result(results: Mapping[str, Any], loaded: Mapping[str, tuple[Mapping[str, list], Mapping[str, list]]],
                   kinds: Mapping[str, str], *, options: Mapping[str, Any] | None = None,
                   inputs: Mapping[str, Any] | None = None) -> Result:
    """Counts of every named metric by document: records of each side and the similarity sums
    (:class:`accord.structured.named.RecordScores`); ``kinds`` names each metric's record kind."""
    from .templates import BetterScore

    measures = {}
    for name, r in results.items():
        key, resp = loaded[kinds[name]]
        documents = list(r.by_document)
        rows = []
        for d in documents:
            s = r.by_document[d]
            counts = [len(key.get(d, ())), len(resp.get(d, ()))]
            if isinstance(s, BetterScore):
                f, t = s.filler_score, s.type_score
                rows.append(counts + [f.match, f.gold_match, f.pred_total, f.gold_total,
                                      t.match, t.gold_match, t.pred_total, t.gold_total])
            else:
                rows.append(counts + [s.match, s.gold_match, s.pred_total, s.gold_total])
        kind = BetterKind() if name == "better" else RecordsKind()
        values = np.asarray(rows, dtype=np.float64).reshape(len(documents), len(kind.fields))
        measures[name] = Measure(kind, document_table(kind.fields, documents, values))
    return Result("structured", "structured", measures, nested=True, options=options, inputs=inputs)
