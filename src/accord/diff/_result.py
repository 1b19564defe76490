"""GATE's Annotation Diff, Corpus QA and Corpus Benchmark as :class:`~accord.result.Result` objects."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..result import ALL, CountTable, GateKind, Measure, Result
from ._diff import CorpusDiff
from ._qa import QA_BY, qa_table

__all__ = ["diff_table", "diff_result", "QAResult", "BenchmarkResult", "benchmark_result"]


def diff_table(diff: CorpusDiff, kind: GateKind | None = None) -> CountTable:
    """Correct, partial, missing, spurious and BDM credit of every document and type (every type of the
    comparison has a row, zero where a document has none of it); with a ``kind`` counting false positives per
    token or sentence (``fp_per``), each document's constant (``diff.constants``) on every row of it."""
    types = sorted(diff.types)
    docs = list(diff.documents)
    fields = GateKind.fields if kind is None else kind.fields
    values = np.zeros((len(docs), 1 + len(types), len(fields)), dtype=np.float64)
    for d, doc in enumerate(docs):
        for k, t in enumerate(types):
            c = diff.diffs[doc][t].counts
            values[d, 1 + k, :5] = (c.correct, c.partial, c.missing, c.spurious, c.bdm)
    values[:, 0] = values[:, 1:].sum(axis=1)
    if len(fields) > 5:     # the constant c of each document: the same on each of its rows, never summed over types
        values[:, :, 5] = np.asarray([diff.constants[doc] for doc in docs], dtype=np.float64)[:, None]
    return CountTable(fields, tuple(docs), (ALL,) + tuple(("label", t) for t in types), values)


def diff_result(diff: CorpusDiff, measures: Sequence[str], beta: float, *, command: str = "qa",
                options: Mapping[str, Any] | None = None, inputs: Mapping[str, Any] | None = None,
                error_rate: bool = False, fp_per: str | None = None) -> Result:
    """One measure per GATE measure (strict, lenient, average and the BDM ones), all over the same counts;
    labels are annotation types. The result's tables are GATE's Corpus QA tables by type and by document
    (:func:`~accord.diff._views.qa_result_table`). ``error_rate`` and ``fp_per`` add GATE's error rate and false
    positives per token or sentence (:class:`~accord.result.GateKind`; ``diff.constants`` holds each document's
    count)."""
    from ._views import qa_result_table

    kinds = {m: GateKind(m, beta, error_rate=error_rate, fp_per=fp_per) for m in measures}
    table = diff_table(diff, next(iter(kinds.values()), None))
    named = {m: Measure(kind, table) for m, kind in kinds.items()}
    extra = {**({"error_rate": True} if error_rate else {}), **({"fp_per": fp_per} if fp_per else {})}
    opts = {**diff.options, "measures": list(measures), "beta": beta, **extra, **(options or {})}
    result = QAResult(command, "gate", named, nested=True, options=opts, inputs=inputs)
    for by in QA_BY:
        result.add_table(qa_result_table(qa_table(diff, by, tuple(measures), beta, error_rate=error_rate,
                                                  fp_per=fp_per)))
    return result


class QAResult(Result):
    """``accord diff`` and ``accord qa``: with ``present``, GATE's Corpus QA lists of what is present in every
    document, set and type (:func:`accord.diff._present.present_in_every`; ``accord qa`` sets it)."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.present: dict[str, Any] | None = None

    def _merged_into(self, out: Result, other: Result) -> None:
        from ._present import merge_present

        assert isinstance(out, QAResult) and isinstance(other, QAResult)
        mine, theirs = getattr(self, "present", None), getattr(other, "present", None)
        out.present = merge_present(mine, theirs) if mine is not None and theirs is not None else None

    def extras_dict(self) -> dict[str, Any]:
        present = getattr(self, "present", None)
        return {"present_in_every": present} if present is not None else {}


class BenchmarkResult(Result):
    """``accord benchmark``: the chosen measure before and after, the annotations fixed and broken by
    document and type (``changes``) and each changed annotation (``changed``)."""

    def __init__(self, measures: Mapping[str, Measure], changes: CountTable, changed: list[dict[str, Any]],
                 **kwargs: Any):
        super().__init__("benchmark", "gate", measures, nested=True, **kwargs)
        self.changes, self.changed = changes, changed
        self.below_threshold: list[dict[str, Any]] | None = None
        """With a threshold: the annotations of the document types below it (GATE's verbose listing)."""

    def to_dict(self) -> dict[str, Any]:
        """The contract's JSON; a type without key or response has P = R = F = 0 in ``by_label``, as in GATE's
        tool (:meth:`corpus_block`; documents keep the Annotation Diff's 1.0)."""
        out = super().to_dict()
        for measure in out.get("measures", {}).values():
            for label, block in measure.get("by_label", {}).items():
                block.update(self.corpus_block(("label", label), block))
        return out

    def corpus_block(self, row: tuple[str, ...], block: dict[str, Any]) -> dict[str, Any]:
        """A type's corpus row: P = R = F = 0 when it has no key or no response, as GATE's Corpus Benchmark tool
        writes its statistics table (:func:`~accord.diff._views.empty_type_rates`)."""
        from ._views import empty_type_rates

        if row[0] != "label" or not empty_type_rates(block["gold"], block["pred"]):
            return block
        return {**block, "precision": 0.0, "recall": 0.0, "f1": 0.0}

    def _merged_into(self, out: Result, other: Result) -> None:
        assert isinstance(out, BenchmarkResult) and isinstance(other, BenchmarkResult)
        out.changes, out.changed = self.changes + other.changes, self.changed + other.changed

    def extras_dict(self) -> dict[str, Any]:
        t = self.changes

        def block(v: np.ndarray) -> dict[str, int]:
            return dict(zip(t.fields, map(int, v)))
        total = t.values.sum(axis=0)
        return {"changes": {
            "totals": block(total[0]),
            "by_label": {row[1]: block(total[k]) for k, row in enumerate(t.rows) if row[0] == "label"},
            "by_document": {doc: block(t.values[d, 0]) for d, doc in enumerate(t.documents)}},
            "changed": self.changed,
            **({"below_threshold": low} if (low := getattr(self, "below_threshold", None)) is not None else {})}


def benchmark_result(bench: Any, measure: str, beta: float, changed: list[dict[str, Any]], *,
                     options: Mapping[str, Any] | None = None, inputs: Mapping[str, Any] | None = None,
                     error_rate: bool = False, fp_per: str | None = None) -> BenchmarkResult:
    """The two diffs of a :class:`~accord.diff._benchmark.Benchmark` under one measure, and its changes (with
    GATE's error rate and false positives per token or sentence: ``error_rate``, ``fp_per``)."""
    kind = GateKind(measure, beta, error_rate=error_rate, fp_per=fp_per)
    before, after = diff_table(bench.before, kind), diff_table(bench.after, kind)
    types = sorted(set(bench.before.types) | set(bench.after.types))
    before, after = _with_rows(before, types), _with_rows(after, types)
    fixed = Counter((c.document, c.type) for c in bench.changes if c.direction == "fixed")
    broken = Counter((c.document, c.type) for c in bench.changes if c.direction == "broken")
    docs = list(before.documents)
    values = np.zeros((len(docs), 1 + len(types), 2), dtype=np.int64)
    for d, doc in enumerate(docs):
        for k, t in enumerate(types):
            values[d, 1 + k] = (fixed[(doc, t)], broken[(doc, t)])
    values[:, 0] = values[:, 1:].sum(axis=1)
    changes = CountTable(("fixed", "broken"), tuple(docs), (ALL,) + tuple(("label", t) for t in types), values)
    extra = {**({"error_rate": True} if error_rate else {}), **({"fp_per": fp_per} if fp_per else {})}
    opts = {**bench.before.options, "measure": kind.measure, "beta": beta, **extra, **(options or {})}
    return BenchmarkResult({"before": Measure(kind, before), "after": Measure(kind, after)}, changes, changed,
                           options=opts, inputs=inputs)


def _with_rows(table: CountTable, types: Sequence[str]) -> CountTable:
    rows = (ALL,) + tuple(("label", t) for t in types)
    if rows == table.rows:
        return table
    values = np.zeros((len(table.documents), len(rows), len(table.fields)), dtype=table.values.dtype)
    values[:, [rows.index(r) for r in table.rows]] = table.values
    if len(table.fields) > 5:     # a document's tokens or sentences on every row of it, an added one too
        values[:, :, 5] = table.values[:, [table.rows.index(ALL)], 5]
    return CountTable(table.fields, table.documents, rows, values)
