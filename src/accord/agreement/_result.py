"""Agreement as a result of the one JSON contract: additive statistics per document, coefficients
computed from them."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import MergeError, OptionError, TallyError
from ..result._result import SCHEMA_VERSION, merge_inputs
from ._stats import AgreementStats
from ._summary import summarize, summary_rows

__all__ = ["AgreementResult", "SpanPart"]


@dataclass(frozen=True)
class SpanPart:
    """The span agreement of a result: each annotator pair's Annotation Diff counts as a measure."""

    measures: Mapping[tuple[str, str], Any]
    measure: str
    beta: float
    types: tuple[str, ...]
    feature: Any

    def to_dict(self) -> dict[str, Any]:
        from ._spans import span_agreement_dict

        return span_agreement_dict(self.measures, self.measure, self.beta, self.types, self.feature)

    def __add__(self, other: SpanPart) -> SpanPart:
        if set(self.measures) != set(other.measures) or (self.measure, self.beta) != (other.measure, other.beta):
            raise MergeError("cannot merge span agreements of different annotators or measures")
        return SpanPart({p: m + other.measures[p] for p, m in self.measures.items()}, self.measure, self.beta,
                        self.types if set(self.types) == set(other.types) else tuple(sorted(set(self.types) |
                                                                                               set(other.types))),
                        self.feature)


class AgreementResult:
    """``accord agree``: the coefficients of the whole input (``totals``) and of each document.

    With items from ratings tables or annotation sets (``mode`` ``ratings`` or ``annotation-sets``)
    each document keeps its additive statistics (:class:`~accord.agreement._stats.AgreementStats`):
    the totals are computed from their sum, and results over disjoint documents merge by
    addition. GATE's conventions (``iaa``, ``corpus-qa``) average coefficients over pairs and
    documents; their summaries are kept as GATE computes them and do not merge.
    """

    command = "agree"

    def __init__(self, mode: str, *, stats: Mapping[str, AgreementStats] | None = None,
                 summary: Mapping[str, Any] | None = None, options: Mapping[str, Any] | None = None,
                 inputs: Mapping[str, Any] | None = None, span: SpanPart | None = None,
                 ratings: Mapping[str, Any] | None = None):
        if (stats is None) == (summary is None):
            raise TallyError("an agreement result holds either per-document statistics or a GATE summary")
        self.mode = mode
        self.stats = dict(stats) if stats is not None else None
        self.summary = dict(summary) if summary is not None else None
        self.options = dict(options or {})
        self.inputs = dict(inputs or {})
        self.span = span
        self.ratings = dict(ratings or {})
        """The items (ratings tables) behind ``stats``, by document: the units the bootstrap resamples."""
        self.ci: dict[str, Any] | None = None
        self.comparison: Any = None
        """The paired test of two annotator pairs or rounds (:func:`accord.agreement.compare_coefficients`), when
        made."""
        self.warnings: list[str] = []
        self.source: Any = None
        """The span agreement (:class:`~accord.agreement._spans.SpanAgreement`) when computed."""
        self.disputes: dict[str, Any] | None = None
        """The disputed stretches of text (:func:`accord.agreement._disputes.disputes_view`) when computed."""
        if self.stats is not None:
            if not self.stats:
                raise OptionError("the annotation sets hold no documents")
            total = None
            for st in self.stats.values():
                total = st if total is None else total + st
            assert total is not None  # stats is not empty (refused above)
            self._totals, self.warnings = summarize(total, level=self.options.get("level", "nominal"))
            self._by_document = {d: summarize(st, level=self.options.get("level", "nominal"))[0]
                                 for d, st in self.stats.items()}
            if self.options.get("coefficients"):
                self._add_extras(self.options["coefficients"])
        self.reference: dict[str, Any] | None = None
        """Each annotator's agreement with the reference annotator (``--reference``), when asked."""
        self.alt_test: Any = None
        """The alternative annotator test of a candidate (:class:`~accord.agreement.AltTestResult`), when asked."""

    def _add_extras(self, names: list[str]) -> None:
        """The coefficients of ``--coefficients`` (:mod:`._measures`) in the totals and each document's summary."""
        from ._measures import extra_table
        from ._summary import _plain

        if not self.ratings:
            raise OptionError(f"{', '.join(names)}: these coefficients need the items (ratings tables or annotation "
                              "sets under the accord convention)")
        codes, categories, raters = self.pooled_codes()
        ext = extra_table(codes, categories, raters, names)
        self._totals["coefficients"].update(_plain(ext.values()))
        self.warnings += [w for w in ext.warnings() if w not in self.warnings]
        if len(self._by_document) > 1 or self.mode != "ratings":
            for d, t in self.ratings.items():
                self._by_document[d]["coefficients"].update(
                    _plain(extra_table(t.codes, t.categories, t.raters, names).values()))

    @property
    def documents(self) -> tuple[str, ...]:
        if self.stats is not None:
            return tuple(self.stats)
        assert self.summary is not None  # a result holds stats or a summary
        return tuple(self.summary.get("by_document", {}))

    @property
    def totals(self) -> dict[str, Any]:
        if self.summary is not None:
            return {k: v for k, v in self.summary.items() if k not in ("by_document", "by_type", "span_agreement",
                                                                       "all_way")}
        return self._totals

    def bootstrap(self, n_resamples: int, seed: int | None = None, confidence: float = 0.95,
                  method: str = "percentile", summary: bool = False, resample: str = "items") -> AgreementResult:
        """Percentile or BCa intervals of every coefficient (the mean over pairs for the pairwise ones) from
        ``n_resamples`` resamples of the **items** (every document's items pooled), drawn as
        ``scipy.stats.bootstrap`` draws them (the same stream for any ``batch``; BCa: its jackknife over the items);
        returns the result itself.

        Every resample's coefficients come from matrix products over the items' additive statistics
        (:mod:`accord.agreement._resample`): 100,000 items and 1,000 resamples take about a second. ``resample`` is
        ``"items"``, the one unit of agreement (``options["resample"]``); one item is a
        :class:`~accord.errors.StatisticsError`, fewer than 20 a :class:`~accord.errors.StatisticsWarning`."""
        from ..errors import OptionError
        from ..stats import BootstrapOptions

        options = BootstrapOptions(n_resamples, seed, confidence, method)
        if resample != "items":
            raise OptionError(f"resample={resample!r}: agreement resamples items (every document's items pooled); "
                              "documents and sentences apply to score and compare")
        if self.summary is not None or not self.ratings:
            raise OptionError("--bootstrap applies to ratings tables and annotation sets under the accord convention "
                              "(GATE's conventions average over pairs and documents)")
        if summary:
            raise OptionError("--confidence-data applies to counted measures, not to agreement coefficients")
        self.ci = self._intervals(options)
        self.options.update(options.to_dict())
        self.options["resample"] = "items"
        return self

    def pooled_codes(self) -> tuple[Any, tuple[Any, ...], tuple[Any, ...]]:
        """Every document's items in one table: ``(codes, categories, raters)``, the categories united in order."""
        import numpy as np

        from ._ratings import MISSING

        tables = list(self.ratings.values())
        categories = tuple(dict.fromkeys(c for t in tables for c in t.categories))
        parts = []
        for t in tables:
            remap = np.array([categories.index(c) for c in t.categories] + [MISSING], dtype=np.int64)
            parts.append(remap[t.codes])      # MISSING (-1) indexes the appended MISSING
        codes = np.concatenate(parts) if parts else np.zeros((0, len(tables[0].raters)), dtype=np.int64)
        return codes, categories, tables[0].raters

    def _intervals(self, options: Any) -> dict[str, Any]:
        from ._measures import coefficient_intervals, outputs_of
        from ._resample import COEFFICIENT_NAMES

        codes, categories, raters = self.pooled_codes()
        extras = list(self.options.get("coefficients") or ())
        names = [n for n in self._totals["coefficients"] if n in COEFFICIENT_NAMES]
        ci = coefficient_intervals(codes, categories, raters, self.options.get("level", "nominal"), names, extras,
                                   options)
        if self.reference is not None:
            from ._reference import reference_intervals

            reference_intervals(self.reference, codes, categories, raters, self.options.get("level", "nominal"),
                                extras, options)
        assert all(o in ci for e in extras for o in outputs_of(e))
        return ci

    @property
    def by_document(self) -> dict[str, Any]:
        if self.summary is not None:
            return dict(self.summary.get("by_document", {}))
        return self._by_document if len(self._by_document) > 1 or self.mode != "ratings" else {}

    @property
    def by_label(self) -> dict[str, Any]:
        """GATE conventions over several types: each type's summary."""
        return dict(self.summary.get("by_type", {})) if self.summary is not None else {}

    def to_dict(self) -> dict[str, Any]:
        totals = self.totals if self.ci is None else {**self.totals, "ci": self.ci}
        from .._support.surface import generator

        out = {"schema_version": SCHEMA_VERSION, "generator": generator(), "command": self.command,
               "mode": self.mode,
               "options": self.options, "inputs": self.inputs, "totals": totals,
               "by_label": self.by_label, "by_document": self.by_document}
        if self.summary is not None and "all_way" in self.summary:
            out["all_way"] = self.summary["all_way"]
        if self.span is not None:
            out["span_agreement"] = self.span.to_dict()
        if self.comparison is not None:
            out["comparison"] = self.comparison.to_dict()
        if self.reference is not None:
            out["reference"] = self.reference
        if self.alt_test is not None:
            out["alt_test"] = self.alt_test.to_dict()
        return out

    def to_json(self, indent: int | None = 2) -> str:
        from ..result._json_text import json_text

        return json_text(self.to_dict(), indent=indent)

    def to_csv(self) -> str:
        """Rows ``scope, coefficient, raters, value``: the whole input as ``<all>``, then each document (text cells
        that a spreadsheet would run as a formula begin with ``'``: :mod:`accord._support.csv_cells`)."""
        return self._rows_csv(spreadsheet=True)

    def _rows_csv(self, spreadsheet: bool) -> str:
        buf = io.StringIO()
        from .._support.csv_cells import SpreadsheetDictWriter

        writer = SpreadsheetDictWriter if spreadsheet else csv.DictWriter
        w = writer(buf, fieldnames=["scope", "coefficient", "raters", "value"], lineterminator="\n")
        w.writeheader()
        if self.summary is None:
            w.writerows(summary_rows("<all>", self.totals))
            for d, sm in self.by_document.items():
                w.writerows(summary_rows(d, sm))
            for c in self.comparison.comparisons if self.comparison is not None else ():
                sides = f"{c.second} - {c.first}"
                w.writerows({"scope": scope, "coefficient": c.coefficient, "raters": sides, "value": v} for scope, v in
                            (("difference", c.difference), ("difference_low", c.ci[0]), ("difference_high", c.ci[1]),
                             ("p_value", c.p_value), ("p_adjusted", c.p_adjusted)))
            return buf.getvalue()
        for scope, coefs in [("<all>", self.summary["coefficients"])] + list(self.summary["by_document"].items()):
            for name, v in coefs.items():
                w.writerow({"scope": scope, "coefficient": name, "raters": "all (mean of pairs)", "value": v["mean"]})
                for p in v["pairs"]:
                    w.writerow({"scope": scope, "coefficient": name, "raters": " | ".join(p["raters"]),
                                "value": p["value"]})
        for name in ("observed_agreement", "davies_fleiss_kappa", "siegel_castellan_kappa"):
            if "all_way" in self.summary:
                w.writerow({"scope": "<all>", "coefficient": name, "raters": "all (all-way)",
                            "value": self.summary["all_way"][name]})
        return buf.getvalue()

    def to_frame(self) -> Any:
        """A tidy pandas frame: one row per scope (``<all>`` or a document) x coefficient x raters (needs pandas)."""
        try:
            import pandas as pd
        except ImportError:  # pragma: no cover - depends on the environment
            from ..errors import OptionError

            raise OptionError("to_frame needs pandas: pip install 'accord[pandas]'") from None
        rows = list(csv.DictReader(io.StringIO(self._rows_csv(spreadsheet=False))))   # the data's own text
        frame = pd.DataFrame.from_records(rows, columns=["scope", "coefficient", "raters", "value"])
        frame["value"] = pd.to_numeric(frame["value"])
        return frame

    def merge(self, other: AgreementResult) -> AgreementResult:
        """Agreement over both results' documents (disjoint, same raters and options)."""
        if self.stats is None or other.stats is None:
            raise MergeError(f"results of GATE's {self.options.get('convention', 'iaa')} convention do not merge: "
                             "GATE averages their coefficients over pairs and documents")
        if self.ci is not None or other.ci is not None:
            raise MergeError("cannot merge results with confidence intervals; merge, then bootstrap")
        if (self.span is None) != (other.span is None):
            raise MergeError("cannot merge a result with span agreement and one without")
        if (self.mode, self.options) != (other.mode, other.options):
            raise MergeError("cannot merge agreement results of different modes or options")
        both = set(self.stats) & set(other.stats)
        if both:
            raise MergeError(f"cannot merge results that both hold document {sorted(both)[0]!r}")
        return AgreementResult(self.mode, stats={**self.stats, **other.stats}, options=self.options,
                               inputs=merge_inputs(self.inputs, other.inputs),
                               ratings={**self.ratings, **other.ratings},
                               span=None if self.span is None or other.span is None else self.span + other.span)

    def __add__(self, other: AgreementResult) -> AgreementResult:
        return self.merge(other)

    def display(self) -> Any:
        """What ``print(result)`` and a notebook show: every coefficient of the totals (with its interval after
        :meth:`bootstrap`) and the labels' figures."""
        from ..result._display import Display, Table, figure, inputs_line

        totals, ci = self.totals, self.ci or {}
        coefficients = Table("coefficients", ["coefficient", "value"])
        for name, value in (totals.get("coefficients") or {}).items():
            coefficients.rows.append([name, figure(value, ci.get(name))])
        tables = [coefficients] if coefficients.rows else []
        by_label = {k: v for k, v in self.by_label.items() if isinstance(v, dict)}
        columns = list(dict.fromkeys(c for v in by_label.values() for c, x in v.items()
                                     if isinstance(x, (int, float, dict, type(None)))))
        if by_label and columns:
            tables.append(Table("by label", ["label", *columns],
                                [[str(label), *(figure(v.get(c)) for c in columns)] for label, v in by_label.items()]))
        raters = ", ".join(map(str, totals.get("raters", [])))
        notes = [f"raters: {raters}"] if raters else []
        if "items" in totals:
            notes.append(f"items: {totals['items']}")
        if ci:
            notes.append("intervals: [low, high], from the bootstrap over the items")
        if not raters and self.inputs:
            notes.append(inputs_line(self.inputs))
        n = len(self.documents)
        return Display(f"accord agree ({self.mode}): {n} document{'s' if n != 1 else ''}", notes, tables)

    def __str__(self) -> str:
        from ..result._display import as_text

        return as_text(self.display())

    def _repr_html_(self) -> str:
        from ..result._display import as_html

        return as_html(self.display())

    def __repr__(self) -> str:
        coef = self.totals.get("coefficients", {})
        alpha = coef.get("krippendorff_alpha")
        value = alpha.get("mean") if isinstance(alpha, dict) else alpha
        return (f"<AgreementResult {self.mode} {len(self.documents)} documents, raters "
                f"{', '.join(map(str, self.totals.get('raters', [])))}: alpha="
                f"{'—' if value is None else f'{value:.4f}'}>")
