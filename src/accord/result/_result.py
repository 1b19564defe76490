"""The result of every command: measures over count tables, views of them, one JSON contract."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from ..errors import MergeError, OptionError, TallyError
from ._contract import SCHEMA_VERSION
from ._kinds import Kind
from ._table import ALL, CountTable, Row
from ._tables import ResultTable

__all__ = ["SCHEMA_VERSION", "Block", "Measure", "Result", "merge_inputs"]


class Block(dict[str, Any]):
    """One row's counts and rates, as in the JSON (``block["f1"]``), also as attributes (``block.f1``)."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def rates(self) -> tuple[Any, Any, Any]:
        """``(precision, recall, f1)`` (``None`` where undefined)."""
        return self["precision"], self["recall"], self["f1"]


def _sum_documents(values: np.ndarray) -> np.ndarray:
    """Sum over documents (axis 0) in the order numpy sums a 1-d array (pairwise), so that a float
    total is bit-identical to the sum of each count's column."""
    if values.dtype.kind in "iu" or len(values) < 2:
        summed: np.ndarray = values.sum(axis=0)
        return summed
    pairwise: np.ndarray = np.ascontiguousarray(np.moveaxis(values, 0, -1)).sum(axis=-1)
    return pairwise


@dataclass(frozen=True, eq=False)
class Measure:
    """A kind of measure over a count table: everything a measure reports is computed from ``table``."""

    kind: Kind
    table: CountTable

    def counts(self, row: Row = ALL, document: str | None = None) -> np.ndarray:
        """The counts of a row (zeros when absent), summed over documents or of one document."""
        t = self.table
        if row not in t.rows:
            return np.zeros(len(t.fields), dtype=t.values.dtype)
        r = t.rows.index(row)
        if document is None:
            return _sum_documents(t.values[:, r])
        one: np.ndarray = t.values[t.documents.index(document), r]
        return one

    def block(self, row: Row = ALL, document: str | None = None) -> Block:
        return Block(self.kind.blocks(self.counts(row, document)[None, :])[0])

    def _blocks(self, values: np.ndarray, keys: list[Any]) -> dict[Any, Block]:
        return {k: Block(b) for k, b in zip(keys, self.kind.blocks(values))}

    def totals(self) -> Block:
        return self.block(ALL)

    def by_label(self) -> dict[str, Block]:
        t = self.table
        idx = t.group("label")
        return self._blocks(_sum_documents(t.values[:, idx]), [t.rows[k][1] for k in idx])

    def by_document(self) -> dict[str, Block]:
        t = self.table
        if ALL not in t.rows:
            return {}
        return self._blocks(t.values[:, t.rows.index(ALL)], list(t.documents))

    def by_document_label(self) -> dict[str, dict[str, Block]]:
        """Each document's label rows that count something."""
        t = self.table
        idx = t.group("label")
        out: dict[str, dict[str, Block]] = {}
        if not idx:
            return {d: {} for d in t.documents}
        cells = t.values[:, idx]
        nonzero = np.asarray(cells[..., :self.kind.presence].any(axis=2)) | self.kind.every_cell
        blocks = iter(self.kind.blocks(cells[nonzero]))
        for d, doc in enumerate(t.documents):
            out[doc] = {t.rows[idx[k]][1]: Block(next(blocks)) for k in np.flatnonzero(nonzero[d])}
        return out

    def groups(self) -> dict[str, Any]:
        """Rows of the other groups, by group: ``aggregations: {NAME: BLOCK}``, ``decompositions:
        {LABEL: {SUBSET: BLOCK}}``, ..."""
        t = self.table
        out: dict[str, Any] = {}
        others = [k for k, row in enumerate(t.rows) if row[0] not in ("all", "label")]
        blocks = self.kind.blocks(_sum_documents(t.values[:, others])) if others else []
        for k, b in zip(others, blocks):
            row = t.rows[k]
            node = out.setdefault(row[0] + "s", {})
            for part in row[1:-1]:
                node = node.setdefault(part, {})
            node[row[-1]] = Block(b)
        return out

    def macro(self, over: str = "label") -> dict[str, float | None]:
        """The unweighted mean of each rate over the labels (``over="label"``) or the documents, undefined
        (NaN) rates left out; ``None`` without any."""
        t = self.table
        if over == "label":
            idx = t.group("label")
            values = _sum_documents(t.values[:, idx]) if idx else np.zeros((0, len(t.fields)))
        else:
            values = t.values[:, t.rows.index(ALL)] if ALL in t.rows else np.zeros((0, len(t.fields)))
        out: dict[str, float | None] = {}
        rates = self.kind.rates(values) if len(values) else {}
        for name in self.kind.rate_names:
            kept = [x for x in rates[name].tolist() if x == x] if rates else []
            out[name] = sum(kept) / len(kept) if kept else None
        return out

    def to_dict(self, ci: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The measure's part of the JSON contract; with ``ci`` (from :func:`accord.stats.confidence_intervals`)
        the total, label and group blocks and the macro means carry their intervals."""
        out = {"kind": self.kind.name, "totals": self.totals(), "macro": self.macro("label"),
               "macro_by_document": self.macro("document"), "by_label": self.by_label(),
               "by_document": self.by_document(), "by_document_label": self.by_document_label(), **self.groups()}
        if ci is not None:
            for row, intervals in ci["rows"].items():
                block = _row_block(out, row)
                if block is not None:
                    block["ci"] = intervals
                    if "resampled" in ci:
                        block["resampled"] = ci["resampled"][row]
            out["macro"] = {**out["macro"], "ci": ci["macro"]}
        return out

    def __add__(self, other: Measure) -> Measure:
        if type(self.kind) is not type(other.kind) or self.kind.options() != other.kind.options():
            raise MergeError(f"cannot merge measures {self.kind!r} and {other.kind!r}")
        return Measure(self.kind, self.table + other.table)


@dataclass(frozen=True, eq=False)
class _MarkedMeasure(Measure):
    """A measure whose per-document tables are markers in its dict (:meth:`Result.marked_dict`), written from the
    counts by :func:`accord.result._json_tables.json_text_tables`: the same text as the tables' own."""

    markers: Any = None

    def by_document(self) -> Any:
        t = self.table
        if ALL not in t.rows:
            return {}
        return self.markers.add(t.documents, self.kind, t.values[:, t.rows.index(ALL)])

    def by_document_label(self) -> Any:
        t = self.table
        idx = t.group("label")
        if not idx:
            return self.markers.add(t.documents)
        cells = t.values[:, idx]
        keep = np.asarray(cells[..., :self.kind.presence].any(axis=2)) | self.kind.every_cell
        return self.markers.add_labels(t.documents, [t.rows[k][1] for k in idx], self.kind, cells[keep], keep)


def _row_block(out: dict[str, Any], row: Row) -> dict[str, Any] | None:
    """The block of ``row`` in a measure's JSON (None for a row it does not show)."""
    if row == ALL:
        return cast("dict[str, Any]", out["totals"])
    if row[0] == "label":
        return cast("dict[str, Any] | None", out["by_label"].get(row[1]))
    node = out.get(row[0] + "s")
    for part in row[1:]:
        if not isinstance(node, dict):
            return None
        node = node.get(part)
    return node


def merge_inputs(a: Mapping[str, Any], b: Mapping[str, Any]) -> dict[str, Any]:
    """Inputs of two merged results: each side's sources united (in order), its documents added."""
    out: dict[str, Any] = {}
    for side in dict.fromkeys(list(a) + list(b)):
        x, y = a.get(side, {"sources": [], "documents": 0}), b.get(side, {"sources": [], "documents": 0})
        out[side] = {"sources": list(dict.fromkeys(list(x["sources"]) + list(y["sources"]))),
                     "documents": x["documents"] + y["documents"]}
    return out


class Result:
    """What every command returns: named measures over per-document count tables.

    Every figure is computed from the count tables alone, so two results over disjoint documents
    merge by addition (``a + b`` or :meth:`merge`) into exactly the result of scoring them together.

    Attributes
    ----------
    command : str
        ``score``, ``coref``, ``smatch``, ``structured``, ``agree``, ``diff``, ``qa``, ``benchmark``.
    mode : str
        What produced the numbers: the pairing mode or profile (``pairs``, ``clueval``, ``semeval``,
        ``gate``, ...), or the command's name.
    measures : dict of str to Measure
        The first is the main measure: :attr:`totals`, :attr:`by_label` and :attr:`by_document` show it.
    nested : bool
        Whether the JSON nests the measures under ``measures`` (commands with several measures) or
        writes the single measure at the top level.
    options : dict
        Every option that changes a number.
    inputs : dict
        ``{side: {"sources": [...], "documents": n}}``.
    """

    def __init__(self, command: str, mode: str, measures: Mapping[str, Measure], *, nested: bool,
                 options: Mapping[str, Any] | None = None, inputs: Mapping[str, Any] | None = None):
        if not measures:
            raise TallyError("a result needs at least one measure")
        if not nested and len(measures) != 1:
            raise TallyError("a result that does not nest its measures has exactly one")
        self.command, self.mode, self.nested = command, mode, nested
        self.measures: dict[str, Measure] = dict(measures)
        self.options: dict[str, Any] = dict(options or {})
        self.inputs: dict[str, Any] = dict(inputs or {})
        self.source: Any = None
        """The mode's own objects the result was computed from (alignments, diffs, scores), for details
        files and inspection; ``None`` after a merge."""
        self.corpora: tuple[Any, Any] | None = None
        """The gold and predicted corpora as read (span modes of ``score``), for the report's error browser
        and confusion matrix; ``None`` after a merge."""
        self.ci: dict[str, Any] | None = None
        """Confidence intervals by measure (see :meth:`bootstrap`), or None."""
        self.repairs: list[dict[str, Any]] = []
        """Invalid tag transitions repaired while reading (one entry per file; see RepairWarning); written as
        ``repairs`` by every ``score`` mode."""
        self._tables: list[ResultTable] = []

    # -- views of the main measure
    @property
    def main(self) -> Measure:
        return next(iter(self.measures.values()))

    @property
    def totals(self) -> Block:
        """The main measure's totals."""
        return self.main.totals()

    @property
    def by_label(self) -> dict[str, Block]:
        return self.main.by_label()

    @property
    def by_document(self) -> dict[str, Block]:
        return self.main.by_document()

    @property
    def documents(self) -> tuple[str, ...]:
        return self.main.table.documents

    def macro(self) -> dict[str, float | None]:
        return self.main.macro("label")

    # -- what a mode shows beyond its measures
    @property
    def tables(self) -> list[ResultTable]:
        """The mode's named tables beyond its measures, in the order a renderer shows them after the measures
        (:class:`ResultTable`: coverage classes, a confusability matrix...); subclasses compute them from their
        own additive tables, a mode may also add fixed ones with :meth:`add_table`."""
        return list(self._tables)

    def add_table(self, table: ResultTable) -> None:
        """Add a named table (a mode, when it measures)."""
        self._tables.append(table)

    def details(self) -> ResultTable | None:
        """One row per item and why it counted as it did (``--details``), for the modes that list their items;
        ``None`` for the others."""
        return None

    # -- JSON
    def header(self) -> dict[str, Any]:
        from .._support.surface import generator

        return {"schema_version": SCHEMA_VERSION, "generator": generator(), "command": self.command,
                "mode": self.mode, "options": self.options, "inputs": self.inputs}

    def extras_dict(self) -> dict[str, Any]:
        """Mode-specific keys after the measures; subclasses compute them from their own additive tables
        (and merge those in :meth:`_merged_into`)."""
        return {}

    def to_dict(self) -> dict[str, Any]:
        """Exactly the JSON output (the site's JSON contract page, generated from the schema)."""
        out = self.header()
        ci = self.ci or {}
        if self.nested:
            out["measures"] = {name: m.to_dict(ci.get(name)) for name, m in self.measures.items()}
        else:
            out.update(self.main.to_dict(ci.get(next(iter(self.measures)))))
        if self.command == "score":
            out["repairs"] = self.repairs
        out.update(self.extras_dict())
        return out

    def to_flat_dict(self, prefix: str = "") -> dict[str, float]:
        """Every total, label and macro figure as one flat ``{name: float}`` for ``mlflow.log_metrics`` or
        ``wandb.log``: ``f1``, ``PER/f1``, ``macro/f1``, ``f1_low``/``f1_high`` after :meth:`bootstrap`, each name
        after ``prefix`` (``"eval/"``); the names are listed in :mod:`accord.result._flat`."""
        from ._flat import flat_dict

        return flat_dict(self, prefix)

    def to_json(self, indent: int | None = 2) -> str:
        """Exactly ``json_text(self.to_dict(), indent)``; the per-document tables (``by_document``,
        ``by_document_label``) written from their count arrays, column by column (:mod:`._json_tables`)."""
        from ._json_text import json_text

        if indent is None or indent <= 0:
            return json_text(self.to_dict(), indent=indent)
        from ._json_tables import MarkerLost, TableMarkers, json_text_tables

        markers = TableMarkers()
        try:
            return json_text_tables(self.marked_dict(markers), markers, indent)
        except MarkerLost:      # a subclass that leaves a table out of its dict
            return json_text(self.to_dict(), indent=indent)

    def marked_dict(self, markers: Any) -> dict[str, Any]:
        """:meth:`to_dict` with each measure's per-document tables as markers of ``markers`` (a
        :class:`~accord.result._json_tables.TableMarkers`), for
        :func:`~accord.result._json_tables.json_text_tables` to write from the counts."""
        import copy

        shell = copy.copy(self)
        shell.measures = {name: _MarkedMeasure(m.kind, m.table, markers) if type(m) is Measure else m
                          for name, m in self.measures.items()}
        return shell.to_dict()

    def to_frame(self) -> Any:
        """A tidy pandas frame: one row per document (``<all>`` for the totals) x row x measure, with the
        counts and rates as columns (needs pandas)."""
        try:
            import pandas as pd
        except ImportError:  # pragma: no cover - depends on the environment
            raise OptionError("to_frame needs pandas: pip install 'accord[pandas]'") from None
        records = []
        for name, m in self.measures.items():
            t = m.table
            scopes = [("<all>", _sum_documents(t.values))] + [(d, t.values[k]) for k, d in enumerate(t.documents)]
            for doc, cells in scopes:
                for row, block in zip(t.rows, m.kind.blocks(cells)):
                    records.append({"measure": name, "document": doc, "group": row[0],
                                    "row": "/".join(row[1:]) or "<all>", **block})
        return pd.DataFrame.from_records(records)

    def corpus_block(self, row: Row, block: dict[str, Any]) -> dict[str, Any]:
        """A row's counts and rates over the whole corpus as the CSV and JSON give them: the measure's own, unless a
        mode's tool writes its corpus rows by another convention (the Corpus Benchmark's empty types)."""
        return block

    def csv_measures(self) -> dict[str, Measure]:
        """The measures the CSV lists (subclasses add their own, e.g. MAT's units)."""
        return self.measures

    def to_csv(self) -> str:
        """One CSV row per measure x scope (``<all>`` or a document) x row: the columns ``measure, document,
        group, row, subset`` and then every count and rate of the measures' blocks. A document's rows that
        count nothing are left out (its total row is always there)."""
        import io

        records: list[dict[str, Any]] = []
        for name, m in self.csv_measures().items():
            t = m.table
            presence = m.kind.presence
            scopes = [("<all>", _sum_documents(t.values), None)] + [
                (d, t.values[k], t.values[k][:, :presence].any(axis=1) | m.kind.every_cell)
                for k, d in enumerate(t.documents)]
            for doc, cells, keep in scopes:
                rows = list(range(len(t.rows))) if keep is None else [
                    r for r in range(len(t.rows)) if keep[r] or t.rows[r] == ALL]
                for r, block in zip(rows, m.kind.blocks(cells[rows])):
                    row = t.rows[r]
                    if keep is None:
                        block = self.corpus_block(row, block)
                    records.append({"measure": name, "document": doc, "group": row[0],
                                    "row": "<all>" if row == ALL else row[1],
                                    "subset": "/".join(row[2:]), **block})
        columns = list(dict.fromkeys(k for rec in records for k in rec))
        buf = io.StringIO()
        from .._support.csv_cells import SpreadsheetDictWriter

        w = SpreadsheetDictWriter(buf, fieldnames=columns, lineterminator="\n", restval="")   # no formula from data
        w.writeheader()
        w.writerows({k: "" if v is None else v for k, v in rec.items()} for rec in records)
        return buf.getvalue()

    # -- statistics
    def bootstrap(self, n_resamples: int, seed: int | None = None, confidence: float = 0.95,
                  method: str = "percentile", summary: bool = False, resample: str = "auto") -> Result:
        """Add confidence intervals of every rate (totals, labels, groups, macro means) by resampling the
        documents or the sentences ``n_resamples`` times (see :mod:`accord.stats`); returns the result itself.

        ``seed`` makes the intervals reproducible; ``method`` is ``percentile`` or ``bca``; ``summary`` adds
        the mean, variance and standard deviation of the resampled values (MAT's confidence data);
        ``resample`` is ``documents``, ``sentences`` or ``auto`` (documents from 30 documents on, else sentences
        when the counts know them: :mod:`accord.stats._units`). The unit chosen and how many there are go to
        ``options`` (``resample``, ``resampled_units``).

        Raises
        ------
        StatisticsError
            A single unit to resample (a one-document input without sentences), or sentences asked of counts
            that do not know them.
        """
        from ..stats import BootstrapOptions, confidence_intervals
        from ..stats._units import check_unit_count, resampling_unit, unit_matrix

        options = BootstrapOptions(n_resamples, seed, confidence, method, resample)
        measures = self.csv_measures()
        tables = [m.table for m in measures.values()]
        unit = resampling_unit(tables, resample)
        units = unit_matrix(tables, self.documents, unit)
        check_unit_count(units.n, unit, "a bootstrap interval")
        self.ci = confidence_intervals(measures, self.documents, options, summary=summary, units=units)
        self.options.update(options.to_dict())
        self.options.update(resample=unit, resampled_units=units.n)
        self.options["confidence_data"] = summary
        return self

    # -- merging
    def merge(self, other: Result) -> Result:
        """The result of both results' documents (which must be disjoint, under the same options)."""
        if not isinstance(other, Result) or type(other) is not type(self):
            raise MergeError(f"cannot merge a {type(self).__name__} with {type(other).__name__}")
        if (other.command, other.mode, list(other.measures)) != (self.command, self.mode, list(self.measures)):
            raise MergeError(f"cannot merge results of {self.command} ({self.mode}: {', '.join(self.measures)}) "
                             f"and {other.command} ({other.mode}: {', '.join(other.measures)})")
        if self.ci is not None or other.ci is not None:
            raise MergeError("cannot merge results with confidence intervals (they do not add up); merge, then "
                             "bootstrap the merged result")
        if other.options != self.options:
            diff = sorted(k for k in set(self.options) | set(other.options)
                          if self.options.get(k) != other.options.get(k))
            raise MergeError(f"cannot merge results computed with different options ({', '.join(diff)})")
        merged = {name: m + other.measures[name] for name, m in self.measures.items()}
        out = type(self).__new__(type(self))
        Result.__init__(out, self.command, self.mode, merged, nested=self.nested, options=self.options,
                        inputs=merge_inputs(self.inputs, other.inputs))
        out.repairs = self.repairs + other.repairs
        self._merged_into(out, other)
        return out

    @staticmethod
    def merge_all(results: list[Result]) -> Result:
        """``results[0] + results[1] + ...`` (documents in that order), merged pairwise in a balanced tree, so
        that ``k`` results of ``n`` documents cost ``n log k`` copies, not ``n k``."""
        if not results:
            raise MergeError("nothing to merge")
        level = list(results)
        while len(level) > 1:
            level = [level[k].merge(level[k + 1]) if k + 1 < len(level) else level[k]
                     for k in range(0, len(level), 2)]
        return level[0]

    def reorder_documents(self, documents: list[str]) -> Result:
        """The result itself with its documents in the order of ``documents`` (which holds each of them once;
        others are ignored): the order of every per-document table, view and resampling."""
        present = set(self.documents)
        order = [d for d in documents if d in present]
        if len(order) != len(present):
            raise MergeError(f"reordering names {len(order)} of the result's {len(present)} documents")
        if tuple(order) != self.documents:
            self.measures = {name: Measure(m.kind, m.table.take(order)) for name, m in self.measures.items()}
            self._reorder_extras(order)
        return self

    def _reorder_extras(self, documents: list[str]) -> None:
        """Subclasses reorder their own per-document tables here."""

    def __add__(self, other: Result) -> Result:
        if not isinstance(other, Result):
            return NotImplemented
        return self.merge(other)

    def _merged_into(self, out: Result, other: Result) -> None:
        """Subclasses set their own attributes of a merged result here."""

    # -- print() and notebooks
    def display(self) -> Any:
        """What ``print(result)`` and a notebook show (:class:`accord.result._display.Display`): each measure's
        totals and the main measure's labels, their rates with their intervals after :meth:`bootstrap`."""
        from ._display import Display, Table, figure, inputs_line

        ci = self.ci or {}
        rates = list(dict.fromkeys(r for m in self.measures.values() for r in m.kind.rate_names))
        blocks = {name: m.totals() for name, m in self.measures.items()}
        counts = [c for c in ("gold", "pred") if all(c in b for b in blocks.values())]
        totals = Table("totals" if len(self.measures) > 1 else f"totals ({next(iter(self.measures))})",
                       ["measure", *counts, *rates])
        for name, block in blocks.items():
            rows = ci.get(name, {}).get("rows", {})
            totals.rows.append([name, *(figure(block.get(c)) for c in counts),
                                *(figure(block.get(r), rows.get(ALL, {}).get(r)) for r in rates)])
        main_name = next(iter(self.measures))
        main_rows = ci.get(main_name, {}).get("rows", {})
        main_rates = list(self.main.kind.rate_names)
        labels = Table(f"by label ({main_name})", ["label", *counts, *main_rates])
        for label, block in self.by_label.items():
            interval = main_rows.get(("label", label), {})
            labels.rows.append([str(label), *(figure(block.get(c)) for c in counts),
                                *(figure(block.get(r), interval.get(r)) for r in main_rates)])
        notes = [inputs_line(self.inputs)] if self.inputs else []
        if ci:
            notes.append("intervals: [low, high], from the bootstrap")
        n = len(self.documents)
        return Display(f"accord {self.command} ({self.mode}): {n} document{'s' if n != 1 else ''}", notes,
                       [totals, *([labels] if labels.rows else [])])

    def __str__(self) -> str:
        from ._display import as_text

        return as_text(self.display())

    def _repr_html_(self) -> str:
        from ._display import as_html

        return as_html(self.display())

    def __repr__(self) -> str:
        t = self.totals
        rates = " ".join(f"{k[0].upper()}={t[k]:.4f}" if isinstance(t.get(k), float) else f"{k[0].upper()}=—"
                         for k in ("precision", "recall", "f1") if k in t)
        names = ", ".join(self.measures) if len(self.measures) <= 4 else f"{len(self.measures)} measures"
        return (f"<{type(self).__name__} {self.command} ({self.mode}) {len(self.documents)} documents, "
                f"{'measures ' + names if self.nested else 'one measure'}: {next(iter(self.measures))} {rates}>")
