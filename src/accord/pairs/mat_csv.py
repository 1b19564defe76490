"""MATScore's CSV files: ``bytag_<fmt>.csv``, ``bytoken_``, ``bypseudotoken_``, ``bychar_``, ``details.csv`` and
``confusability.csv`` (``accord score --mat-csv DIR``), with MAT's columns, row order and formulas.

The columns of a summary table, in MAT's order (MAT notes 2.2): ``similarity profile``, ``score profile``, ``file``,
``test docs``, ``tag``, [``tag subset``], ``test toks`` (``test pseudo-toks``, ``test chars``), ``match``,
``refclash``, [``ref<token> (detail)``...], ``missing``, ``refonly``, ``reftotal``, ``hypclash``,
[``hyp<token> (detail)``...], ``spurious``, ``hyponly``, ``hyptotal``, ``precision``, ``recall``, ``fmeasure``; the
unit tables add ``tag_sensitive_accuracy``, ``tag_sensitive_error_rate``, ``tag_blind_accuracy``,
``tag_blind_error_rate``; with confidence data ``X_mean``, ``X_variance``, ``X_stddev`` follow each rate (on the
``file=<all>`` rows only). The formulas are MAT's:

* ``refonly = refclash + missing``, ``reftotal = refonly + match``, ``hyponly = hypclash + spurious``,
  ``hyptotal = hyponly + match``;
* ``precision = 1 if hyptotal = 0, else 0 if match = 0, else match / hyptotal``; ``recall`` alike with
  ``reftotal``; ``fmeasure = 0 if P + R = 0, else 2PR / (P + R)`` (β is 1 in MAT's files whatever ``--beta``);
* ``tag_sensitive_accuracy = (test - missing - spurious - refclash) / test`` (1 when ``test`` is 0),
  ``tag_blind_accuracy = (test - missing - spurious) / test``, the error rates ``1 -`` them.

Each computed cell is a spreadsheet formula over the row's own cells (``excel``: ``=IF(a,b,c)``; ``oo``: OpenOffice's
``=IF(a;b;c)``) or its value (``literal``); one file per format asked. Rows: for each file (sorted file names) the
labels (spanned, then spanless, each sorted) with their decompositions, the aggregations, then ``<all>``; then the
same block summed over files with ``file=<all>``. ``test toks`` of the tag table is the number of token annotations
of the predicted document inside the scored regions (its tokens for token-unit documents); every ``file=<all>`` row
holds the corpus's (the sum over files), so that a label's accuracies there divide by the whole test size.

Where accord differs, by design: the ``similarity profile`` column names accord's profile (``strict``, ``lenient``,
or ``<default>`` for MAT's default profile); the variance of the confidence data is MAT's population variance of
the resampled values, but a resample lacking a label still counts (under ``--zero-division``); ``details.csv``
describes an annotation by its label and attributes.

With a task's similarity profile, ``details.csv`` adds after MAT's 14 columns a ``ref <dim>`` / ``hyp <dim>`` pair of
columns per dimension of its tag profiles other than ``_label`` and ``_span`` (MAT notes 2.4), in the order the
profile first names them: the value each side's annotation has for that dimension (an attribute's value, through
``<attr_equivalences>`` the attribute its label has, an annotation by its id, a set's members sorted and joined
by commas; several attributes' values joined by commas; a remainder's attributes as ``name=value``), empty where
the annotation's label has no tag profile with that dimension.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .._support.csv_cells import SpreadsheetDictWriter, SpreadsheetWriter, row_cells, text_cell
from .._support.safe_paths import atomic_directory
from ..errors import OptionError
from ..match.engine import UNPAIRED, DocumentAlignment
from ..model import TOKEN_OFFSETS, Annotation, Document, covered_text
from ._report import Report

if TYPE_CHECKING:
    from ..model.schema import SimilarityProfileSpec, Task

__all__ = ["FORMULA_FORMATS", "check_formula_formats", "summary_tables", "detail_rows", "dimension_columns",
           "write_mat_csv"]

FORMULA_FORMATS = ("excel", "oo", "literal")
_TABLES = (("bytag", None, "test toks"), ("bytoken", "token", "test toks"),
           ("bypseudotoken", "pseudo-token", "test pseudo-toks"), ("bychar", "character", "test chars"))
_RATES = ("precision", "recall", "fmeasure")
_ACCURACIES = ("tag_sensitive_accuracy", "tag_sensitive_error_rate", "tag_blind_accuracy", "tag_blind_error_rate")
DETAIL_COLUMNS = ("file", "type", "refid", "hypid", "refdescription", "hypdescription", "reflabel", "hyplabel",
                  "refstart", "refend", "hypstart", "hypend", "refcontent", "hypcontent")


def _letter(k: int) -> str:
    """The spreadsheet column name of 0-based column ``k`` (A, ..., Z, AA, ...)."""
    out = ""
    k += 1
    while k:
        k, r = divmod(k - 1, 26)
        out = chr(65 + r) + out
    return out


def _profile_name(report: Report) -> str:
    name = report.options.get("profile")
    return "<default>" if name in (None, "mat", "default") else str(name)   # "default": the task's unnamed one


def _file_names(report: Report) -> dict[str, str]:
    """Document id -> the predicted file's name (MAT's ``file`` column), the id when there is no file."""
    corpora = getattr(report, "corpora", None)
    pred = corpora[1] if corpora else None
    files = getattr(pred, "files", {}) or {}
    return {al.doc_id: files.get(al.doc_id, al.doc_id) for al in report.alignments}


def _token_count(doc: Document | None, token_labels: frozenset[str], gold: Document | None = None) -> int:
    if doc is None:
        return 0
    if doc.text is None and doc.tokens is not None:
        return len(doc.tokens)
    count = sum(1 for a in doc.annotations if a.label in token_labels and a.start is not None)
    if not count:   # a token side placed on the text (accord.pipeline._offset_units): its tokens
        placed = [d.metadata[TOKEN_OFFSETS] for d in (doc, gold)
                  if d is not None and TOKEN_OFFSETS in (d.metadata or {})]
        count = len(placed[0][0]) if placed else 0
    return count


def _label_order(report: Report) -> list[str]:
    """Labels with spans first, then spanless ones, each sorted (MAT's order within a stratum)."""
    spanless: dict[str, bool] = {}
    for al in report.alignments:
        for anns, labels in ((al.gold, al.gold_label), (al.pred, al.pred_label)):
            for a, lbl in zip(anns, labels):
                spanless[lbl] = spanless.get(lbl, True) and a.start is None
    labels = list(report.tally.labels) if report.tally is not None else []
    return sorted(labels, key=lambda lbl: (spanless.get(lbl, False), lbl))


def _mismatch_details(report: Report) -> tuple[dict[str, dict[str, dict[str, int]]], list[str], list[str]]:
    """Per document and label the counts of each error token (``ref<token> (detail)``, ``hyp<token> (detail)``),
    and the two column lists in MAT's order (each new column inserted right after its anchor: latest first)."""
    cells: dict[str, dict[str, dict[str, int]]] = {}
    ref_cols: list[str] = []
    hyp_cols: list[str] = []
    for al in report.alignments:
        doc = cells.setdefault(al.doc_id, {})
        for pair in al.pairs:
            if pair.similarity >= 1.0:
                continue
            for side, tokens, label, cols in (("ref", pair.gold_tokens or ("unknownclash",), al.gold_label[pair.gold],
                                               ref_cols),
                                              ("hyp", pair.pred_tokens or pair.gold_tokens or ("unknownclash",),
                                               al.pred_label[pair.pred], hyp_cols)):
                for tok in tokens:
                    col = f"{side}{tok} (detail)"
                    if col not in cols:
                        cols.insert(0, col)
                    row = doc.setdefault(label, {})
                    row[col] = row.get(col, 0) + 1
    return cells, ref_cols, hyp_cols


class _Sheet:
    """One summary table being built: its columns, and rows whose computed cells are filled per format."""

    def __init__(self, columns: list[str], test_column: str, units: bool, ci_columns: list[str]):
        self.columns = columns
        self.test_column = test_column
        self.units = units
        self.ci_columns = ci_columns
        self.rows: list[dict[str, Any]] = []

    def cells(self, row: dict[str, Any], n: int, fmt: str) -> list[Any]:
        """The row's cells in ``fmt``; ``n`` is its 1-based line in the file (the header is line 1)."""
        col = {name: f"{_letter(k)}{n}" for k, name in enumerate(self.columns)}
        values = _computed(row, self.test_column, self.units)
        out: list[Any] = []
        for name in self.columns:
            if name in values and fmt != "literal":
                out.append(_formula(name, col, self.test_column, fmt))
            elif name in values:
                out.append(values[name])
            else:
                v = row.get(name, 0 if name.endswith("(detail)") else "")
                out.append("" if v is None else text_cell(v))     # a label never reads as a formula
        return out


def _computed(row: dict[str, Any], test_column: str, units: bool) -> dict[str, float | int]:
    match, refclash, missing = row["match"], row["refclash"], row["missing"]
    hypclash, spurious = row["hypclash"], row["spurious"]
    refonly, hyponly = refclash + missing, hypclash + spurious
    reftotal, hyptotal = refonly + match, hyponly + match
    p = 1.0 if hyptotal == 0 else (0.0 if match == 0 else match / hyptotal)
    r = 1.0 if reftotal == 0 else (0.0 if match == 0 else match / reftotal)
    out: dict[str, float | int] = {"refonly": refonly, "reftotal": reftotal, "hyponly": hyponly,
                                   "hyptotal": hyptotal, "precision": p, "recall": r,
                                   "fmeasure": 0.0 if p + r == 0 else 2 * p * r / (p + r)}
    if units:
        test = row[test_column]
        sens = 1.0 if test == 0 else (test - missing - spurious - refclash) / test
        blind = 1.0 if test == 0 else (test - missing - spurious) / test
        out.update(tag_sensitive_accuracy=sens, tag_sensitive_error_rate=1 - sens, tag_blind_accuracy=blind,
                   tag_blind_error_rate=1 - blind)
    return out


def _formula(name: str, c: dict[str, str], test: str, fmt: str) -> str:
    sep = ";" if fmt == "oo" else ","

    def if_(cond: str, yes: str, no: str) -> str:
        return f"IF({cond}{sep}{yes}{sep}{no})"
    t = c.get(test)
    formulas = {
        "refonly": lambda: f"{c['refclash']}+{c['missing']}",
        "reftotal": lambda: f"{c['refonly']}+{c['match']}",
        "hyponly": lambda: f"{c['hypclash']}+{c['spurious']}",
        "hyptotal": lambda: f"{c['hyponly']}+{c['match']}",
        "precision": lambda: if_(f"{c['hyptotal']}=0", "1",
                                 if_(f"{c['match']}=0", "0", f"{c['match']}/{c['hyptotal']}")),
        "recall": lambda: if_(f"{c['reftotal']}=0", "1", if_(f"{c['match']}=0", "0", f"{c['match']}/{c['reftotal']}")),
        "fmeasure": lambda: if_(f"{c['precision']}+{c['recall']}=0", "0",
                                f"2*{c['precision']}*{c['recall']}/({c['precision']}+{c['recall']})"),
        "tag_sensitive_accuracy": lambda: if_(f"{t}=0", "1",
                                              f"({t}-{c['missing']}-{c['spurious']}-{c['refclash']})/{t}"),
        "tag_sensitive_error_rate": lambda: f"1-{c['tag_sensitive_accuracy']}",
        "tag_blind_accuracy": lambda: if_(f"{t}=0", "1", f"({t}-{c['missing']}-{c['spurious']})/{t}"),
        "tag_blind_error_rate": lambda: f"1-{c['tag_blind_accuracy']}",
    }
    return "=" + formulas[name]()


def _columns(test_column: str, subset: bool, ref_cols: list[str], hyp_cols: list[str], units: bool,
             confidence: bool) -> tuple[list[str], list[str]]:
    rates = list(_RATES) + (list(_ACCURACIES) if units else [])
    ci_columns = [f"{r}_{s}" for r in rates for s in ("mean", "variance", "stddev")] if confidence else []
    columns = ["similarity profile", "score profile", "file", "test docs", "tag"] + (["tag subset"] if subset else [])
    columns += [test_column, "match", "refclash", *ref_cols, "missing", "refonly", "reftotal", "hypclash", *hyp_cols,
                "spurious", "hyponly", "hyptotal"]
    for rate in rates:
        columns.append(rate)
        if confidence:
            columns += [f"{rate}_{s}" for s in ("mean", "variance", "stddev")]
    return columns, ci_columns


def _counts_row(arr: Iterable[int]) -> dict[str, int]:
    m, gc, pc, mi, sp = (int(x) for x in arr)
    return {"match": m, "refclash": gc, "missing": mi, "hypclash": pc, "spurious": sp}


def _add(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    out = dict(a)
    for k, v in b.items():
        if isinstance(v, (int, np.integer)) and k not in ("test docs",):
            out[k] = out.get(k, 0) + int(v)
    return out


def _confidence(report: Report, measure: str, row: tuple, rates: Sequence[str]) -> dict[str, float | None]:
    """MAT's ``X_mean``, ``X_variance`` (population), ``X_stddev`` of the resampled values of one row."""
    ci = (report.ci or {}).get(measure) or {}
    resampled = (ci.get("resampled") or {}).get(row) or {}
    b = report.options.get("bootstrap") or 0
    out: dict[str, float | None] = {}
    for rate in rates:
        mom = resampled.get("f1" if rate == "fmeasure" else rate) or {}
        mean, var = mom.get("mean"), mom.get("variance")
        if var is not None and b > 1:
            var = var * (b - 1) / b      # MAT divides by the number of samples
        out[f"{rate}_mean"], out[f"{rate}_variance"] = mean, var
        out[f"{rate}_stddev"] = None if var is None else float(np.sqrt(var))
    return out


def summary_tables(report: Report, mismatch_details: bool = False) -> dict[str, _Sheet]:
    """MAT's summary tables of a report: ``bytag`` and each scored unit's (``bytoken``...), by name."""
    from ..result import ALL

    if report.tally is None:
        raise OptionError("--mat-csv needs the scores of one comparison (a merged result has no per-item tally)")
    files = _file_names(report)
    docs = sorted(files, key=lambda d: (files[d], d))
    sim, score_profile = _profile_name(report), report.options.get("score_profile") or "<default>"
    ci = report.ci or {}
    confidence = any("resampled" in m for m in ci.values())
    token_labels = frozenset(report.options.get("token_annotations") or ("lex",))
    details, ref_cols, hyp_cols = _mismatch_details(report) if mismatch_details else ({}, [], [])
    tally = report.tally
    subset = bool(tally.decompositions)
    labels = _label_order(report)
    out: dict[str, _Sheet] = {}
    for name, unit, test_column in _TABLES:
        units = unit is not None
        unit_key = unit if unit is not None else ""      # used where ``units`` holds
        if units and (unit_key not in report.units or report.units[unit_key].skipped):
            continue
        columns, ci_columns = _columns(test_column, subset, ref_cols if not units else [],
                                       hyp_cols if not units else [], units, confidence)
        sheet = _Sheet(columns, test_column, units, ci_columns)
        head = {"similarity profile": sim, "score profile": score_profile}
        corpus_rows: dict[tuple, dict[str, Any]] = {}

        def emit(file: str, docs_n: int, key: tuple, tag: str, sub: str, counts: dict[str, Any], test: int, *,
                 head: dict[str, Any] = head, test_column: str = test_column, sheet: _Sheet = sheet,
                 corpus_rows: dict[tuple, dict[str, Any]] = corpus_rows) -> None:    # this table's, bound
            row = {**head, "file": file, "test docs": docs_n, "tag": tag, test_column: test, **counts}
            if subset:
                row["tag subset"] = sub
            sheet.rows.append(row)
            if file != "<all>":
                if key not in corpus_rows:
                    corpus_rows[key] = {"tag": tag, "tag subset": sub, test_column: 0}
                corpus_rows[key] = _add(corpus_rows[key], {test_column: test, **counts})

        by_doc = {al.doc_id: al for al in report.alignments}
        corpus_test = 0       # the corpus rows' test size: every file's once (MAT sums the files' <all> rows)
        rates = list(_RATES) + (list(_ACCURACIES) if units else [])
        for doc in docs:
            if units:
                scores = report.units[unit_key]
                test = scores.test_units.get(doc, 0)
                corpus_test += test
                rows = scores.by_document.get(doc, {})
                total = np.zeros(5, dtype=np.int64)
                for lbl in sorted(rows):
                    emit(files[doc], 1, ("label", lbl), lbl, "<none>", _counts_row(rows[lbl]), test)
                    total += np.asarray(rows[lbl], dtype=np.int64)
                emit(files[doc], 1, ALL, "<all>", "", _counts_row(total), test)
                continue
            test = _token_count(by_doc[doc].pred_doc, token_labels, by_doc[doc].gold_doc)
            corpus_test += test
            rows = tally.docs.get(doc, {})
            extra = details.get(doc, {})
            for lbl in labels:
                if lbl not in rows:
                    continue
                emit(files[doc], 1, ("label", lbl), lbl, "<none>", {**_counts_row(rows[lbl]), **extra.get(lbl, {})},
                     test)
                for sub in tally.decompositions.get(lbl, {}):
                    arr = rows.get(f"{lbl}|{sub}")
                    if arr is not None:
                        emit(files[doc], 1, ("decomposition", lbl, sub), lbl, sub, _counts_row(arr), test)
            for agg in tally.aggregations:
                if agg in rows:
                    emit(files[doc], 1, ("aggregation", agg), agg, "<none>", _counts_row(rows[agg]), test)
            all_details: dict[str, int] = {}
            for cols in extra.values():
                for k, v in cols.items():
                    all_details[k] = all_details.get(k, 0) + v
            emit(files[doc], 1, ALL, "<all>", "", {**_counts_row(tally.doc_totals[doc]), **all_details}, test)
        measure = unit or "pairs"
        if units:
            order = [("label", lbl) for lbl in sorted(report.units[unit_key].labels)] + [ALL]
        else:
            order = [k for lbl in labels for k in [("label", lbl)] + [("decomposition", lbl, sub) for sub in
                                                                      tally.decompositions.get(lbl, {})]]
            order += [("aggregation", agg) for agg in tally.aggregations] + [ALL]
        for key in order:
            row = corpus_rows.get(key)
            if row is None:
                continue
            counts = {k: v for k, v in row.items() if k not in ("tag", "tag subset", test_column)}
            final = {**head, "file": "<all>", "test docs": len(docs), "tag": row["tag"], test_column: corpus_test,
                     **counts}
            if subset:
                final["tag subset"] = row["tag subset"] or "<none>"
            if confidence:
                final.update(_confidence(report, measure, key, rates))
            sheet.rows.append(final)
        out[name] = sheet
    return out


def _description(a: Annotation | None) -> str:
    if a is None:
        return ""
    parts = [a.label]
    for k, v in a.attributes.items():
        if isinstance(v, Annotation):
            v = v.id or f"{v.label}[{v.start},{v.end})"
        elif isinstance(v, (frozenset, tuple)):
            v = ",".join(sorted(str(x.id if isinstance(x, Annotation) else x) for x in v))
        parts.append(f"{k}={v}")
    return " ".join(parts)


def _cell(v: Any) -> str:
    """An attribute value as a details cell: an annotation by its id, a set's or list's members joined by commas."""
    if v is None:
        return ""
    if isinstance(v, Annotation):
        return str(v.id or f"{v.label}[{v.start},{v.end})")
    if isinstance(v, frozenset):
        return ",".join(sorted(_cell(x) for x in v))
    if isinstance(v, tuple):
        return ",".join(_cell(x) for x in v)
    return str(v)


DimensionCell = Callable[[Annotation, Document | None], str]


def dimension_columns(task: Task | None, spec: SimilarityProfileSpec | None) -> dict[str, DimensionCell]:
    """The dimensions of a task's similarity profile that ``details.csv`` shows (every one but ``_label`` and
    ``_span``, in the order the profile first names them), each with how to write an annotation's cell."""
    if task is None or spec is None:
        return {}
    cells: dict[str, dict[str, DimensionCell]] = {}    # dimension -> true label -> cell
    for tp in spec.tag_profiles:
        for d in tp.dimensions:
            if d.name in ("_label", "_span"):
                continue
            per_label = cells.setdefault(d.name, {})
            remainder = (d.name in ("_nonannotation_attribute_remainder", "_annotation_attribute_remainder")
                         or d.method in ("_nonannotation_attribute_remainder", "_annotation_attribute_remainder"))
            declared = {n.strip() for dim in tp.dimensions for n in dim.name.split(",")}
            for names in tp.equivalences.values():
                declared.update(names)
            for label in tp.labels:
                per_label[label] = _dimension_cell(task, label, d.name, tp.equivalences.get(d.name), remainder,
                                                   frozenset(declared))
    return {name: _by_label(per_label) for name, per_label in cells.items()}


def _by_label(per_label: dict[str, DimensionCell]) -> DimensionCell:
    def cell(a: Annotation, doc: Document | None) -> str:
        f = per_label.get(a.label)
        return "" if f is None else f(a, doc)
    return cell


def _dimension_cell(task: Task, label: str, name: str, equivalents: tuple[str, ...] | None, remainder: bool,
                    declared: frozenset[str]) -> DimensionCell:
    if remainder:
        annotation_typed = "_annotation_attribute_remainder" in name

        def rest(a: Annotation, doc: Document | None) -> str:
            spec = task.labels.get(a.label)
            names = sorted(n for n in (spec.attributes if spec is not None else a.attributes)
                           if n not in declared and not (spec is not None and spec.attributes[n].effective_labels)
                           and (spec is None or (spec.attributes[n].type == "annotation") == annotation_typed))
            return " ".join(f"{n}={_cell(task.value(a, n, doc))}" for n in names if task.value(a, n, doc) is not None)
        return rest
    if equivalents:
        have = [n for n in equivalents if task.attribute(label, n) is not None]
        names: tuple[str, ...] = tuple(have[:1])
    else:
        names = tuple(n.strip() for n in name.split(","))

    def values(a: Annotation, doc: Document | None) -> str:
        return ",".join(v for v in (_cell(task.value(a, n, doc)) for n in names) if v)
    return values


def detail_rows(report: Report, dimensions: dict[str, DimensionCell] | None = None) -> list[dict[str, Any]]:
    """MAT's ``details.csv`` rows: one per pair and unpaired item, files in name order, items by position; with
    ``dimensions`` (:func:`dimension_columns`), a ``ref <dim>`` / ``hyp <dim>`` pair after the 14 columns for each."""
    files = _file_names(report)
    dimensions = dimensions or {}
    out: list[dict[str, Any]] = []
    for al in sorted(report.alignments, key=lambda a: (files[a.doc_id], a.doc_id)):
        events = []

        def row(kind: str, g: Annotation | None, p: Annotation | None, gl: str, pl: str, *,
                al: DocumentAlignment = al) -> dict[str, Any]:     # this iteration's document, bound
            def content(doc: Document | None, a: Annotation | None) -> str:
                return "" if a is None or doc is None or doc.text is None else covered_text(doc.text, a)
            return {"file": files[al.doc_id], "type": kind, "refid": g.id if g is not None else "",
                    "hypid": p.id if p is not None else "", "refdescription": _description(g),
                    "hypdescription": _description(p), "reflabel": gl, "hyplabel": pl,
                    "refstart": "" if g is None or g.start is None else g.start,
                    "refend": "" if g is None or g.end is None else g.end,
                    "hypstart": "" if p is None or p.start is None else p.start,
                    "hypend": "" if p is None or p.end is None else p.end,
                    "refcontent": content(al.gold_doc, g) if g is not None and g.start is not None else "",
                    "hypcontent": content(al.pred_doc, p) if p is not None and p.start is not None else "",
                    **{f"{side} {name}": "" if a is None else cell(a, d)
                       for name, cell in dimensions.items()
                       for side, a, d in (("ref", g, al.gold_doc), ("hyp", p, al.pred_doc))}}
        for pair in al.pairs:
            g, p = al.gold[pair.gold], al.pred[pair.pred]
            kind = "match" if pair.similarity >= 1.0 else ",".join(pair.gold_tokens or ("unknownclash",))
            events.append((g.start if g.start is not None else -1,
                           row(kind, g, p, al.gold_label[pair.gold], al.pred_label[pair.pred])))
        for i in (al.gold_status == UNPAIRED).nonzero()[0].tolist():
            g = al.gold[i]
            events.append((g.start if g.start is not None else -1, row("missing", g, None, al.gold_label[i], "")))
        for j in (al.pred_status == UNPAIRED).nonzero()[0].tolist():
            p = al.pred[j]
            events.append((p.start if p.start is not None else -1, row("spurious", None, p, "", al.pred_label[j])))
        events.sort(key=lambda e: e[0])
        out.extend(r for _, r in events)
    return out


def check_formula_formats(formats: Sequence[str]) -> None:
    """Refuse a ``--csv-formula-output`` format MAT does not have."""
    bad = [f for f in formats if f not in FORMULA_FORMATS]
    if bad:
        raise OptionError(f"--csv-formula-output: unknown format(s) {', '.join(bad)}; expected "
                          f"{', '.join(FORMULA_FORMATS)}")


def write_mat_csv(report: Report, directory: str | Path, formats: Sequence[str] = ("excel",),
                  mismatch_details: bool = False, task: Task | None = None,
                  similarity_profile: SimilarityProfileSpec | None = None) -> list[Path]:
    """Write MATScore's files into ``directory`` (created if needed); returns the paths written.

    The files are written in a folder beside ``directory`` and moved in when all are complete (an interruption
    leaves the previous files); text from the data that a spreadsheet would run as a formula starts with ``'``
    (:mod:`accord._support.csv_cells`), accord's own formulas (``--csv-formula-output``) are kept.

    ``formats`` are any of ``excel``, ``oo``, ``literal`` (MAT's ``--csv_formula_output``): one summary file per
    table and format. ``details.csv`` is always written (with a ``ref <dim>`` / ``hyp <dim>`` pair per dimension of
    ``similarity_profile``, the task's profile that paired, but ``_label`` and ``_span``), ``confusability.csv``
    when a matrix was built.
    """
    check_formula_formats(formats)
    written = []
    with atomic_directory(directory) as d:     # built beside DIR, moved in when complete
        for name, sheet in summary_tables(report, mismatch_details).items():
            for fmt in dict.fromkeys(formats):
                path = d / f"{name}_{fmt}.csv"
                with path.open("w", encoding="utf-8", newline="") as fh:
                    w = csv.writer(fh)
                    w.writerow(row_cells(sheet.columns))
                    for n, row in enumerate(sheet.rows, start=2):
                        w.writerow(sheet.cells(row, n, fmt))     # accord's formulas; data cells escaped there
                written.append(Path(directory) / path.name)
        path = d / "details.csv"
        with path.open("w", encoding="utf-8", newline="") as fh:
            dimensions = dimension_columns(task, similarity_profile)
            names = [f"{side} {name}" for name in dimensions for side in ("ref", "hyp")]
            dw = SpreadsheetDictWriter(fh, fieldnames=[*DETAIL_COLUMNS, *names])
            dw.writeheader()
            dw.writerows(detail_rows(report, dimensions))
        written.append(Path(directory) / path.name)
        for scores in report.units.values():
            if scores.confusability is not None:
                from ..units import confusability_rows

                hyps, refs, cells = confusability_rows(scores)
                path = d / "confusability.csv"
                with path.open("w", encoding="utf-8", newline="") as fh:
                    sw = SpreadsheetWriter(fh)
                    sw.writerow([""] + [f"{r} (ref)" for r in refs])
                    for h in hyps:
                        sw.writerow([f"{h} (hyp)"] + [cells.get((h, r), 0) for r in refs])
                written.append(Path(directory) / path.name)
                break
    return written
