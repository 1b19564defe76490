"""``accord agree --html``: every figure of an agreement result on one page.

One self-contained page (the shared layout of every accord page), drawn from the result's own structure
(``result.to_dict()``), not from a list of known coefficients, so that a coefficient added to the result appears
without a change here: the coefficients of the whole input (pairwise ones as their mean over pairs, each pair's value
listed; a mapping of values, such as γ-k per category, one row per entry), with the bootstrap interval of each when
the result was bootstrapped over items; γ and the unitizing alphas; specific agreement per category; every other
table the result holds (GATE's pair tables, the IAA plugin's F, each annotator against the majority, BDM, all-way,
each type's figures), each drawn generically from its rows; the annotator matrix of pairwise F
(:mod:`accord.report.agreement_matrix`, from :func:`accord.agreement._matrix.matrix_view`); each annotator's agreement
with the others (:func:`accord.agreement._matrix.annotator_view`); the coefficients of each document; and the
disagreement browser (:mod:`accord.report.agreement_disputes`, from the result's ``disputes``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from .agreement_disputes import disputes_context
from .agreement_matrix import cell_colour, matrix_context
from .agreement_table import COEFFICIENT_NAMES

__all__ = ["agreement_html", "FIGURE_NAMES"]

FIGURE_NAMES = {**COEFFICIENT_NAMES, "gamma": "γ", "gamma_cat": "γ-cat", "gamma_k": "γ-k",
                "observed_disorder": "observed disorder", "expected_disorder": "expected disorder",
                "expected_disorder_cv": "expected disorder's coefficient of variation",
                "u_alpha_1995": "uα (1995/2004)", "overall": "", "by_category": "",
                "observed_disagreement": "observed disagreement", "expected_disagreement": "expected disagreement",
                "u_alpha": "uα (2016)", "binary_u_alpha": "|uα (2016)", "cu_alpha": "cuα (2016)",
                "cu_alpha_by_category": "(k)cuα (2016)", "pair_tables": "pair tables",
                "against_majority": "each annotator against the majority of the others (strict Annotation Diff)",
                "f_measures": "GATE's IAA plugin F, micro averaged over documents",
                "bdm": "BDM-based agreement (GATE's IAA plugin: P = correct/(n + s), R = correct/(n + m))",
                "all_way": "all-way agreement (GATE's IAA plugin)", "strict": "strict", "lenient": "lenient"}
"""How the page names a figure of the result (a key missing here is shown as it is spelt)."""

RESULT_PARTS = ("schema_version", "generator", "command", "mode", "options", "inputs", "totals", "by_label",
                "by_document", "span_agreement", "alignment")
"""Parts of a result's dictionary the page draws in its own sections (γ's alignment: the disagreement browser);
every other part (all-way, a reference's or a test's figures...) is drawn as tables."""

SHORT_NAMES = {"against_majority": "against the majority of the others"}
"""Names of per-annotator figures in the head of the annotators' table."""

INFO = ("raters", "annotators", "categories", "items", "convention", "types", "krippendorff_level", "ci",
        "units_per_annotator", "units", "samples", "continuum_length", "specific_agreement", "coefficients",
        "verbosity")
"""Keys of the totals that describe the input, drawn by the page's own sections (not as figures)."""


def _number(v: Any) -> str:
    if v is None or isinstance(v, str):
        return "n/a" if v is None else v
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, int):
        return str(v)
    return f"{v:.4f}"


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


NOT_RATES = ("disorder", "disagreement", "_cv", "correct", "partial", "missing", "spurious", "matched",
             "instances", "votes", "counts", "units", "spans", "samples")
"""Parts of a figure's name that mark it as no agreement rate (a disorder, a count): not coloured as a score."""


def _colour(v: Any, name: str = "") -> str | None:
    """A rate's colour (a float whose name does not mark it as a count or a disorder), else None."""
    if not isinstance(v, float) or math.isnan(v) or any(part in name for part in NOT_RATES):
        return None
    return cell_colour(v)


def _name(key: Any, categories: Any = ()) -> str:
    if key in FIGURE_NAMES:
        return FIGURE_NAMES[key]
    return repr(key) if key in categories or key == "" else str(key).replace("_", " ")


def _scalar(v: Any) -> Any:
    """A figure's one value: the mean over pairs of a pairwise coefficient, else the value itself (None for a
    mapping of values)."""
    if isinstance(v, Mapping):
        return v.get("mean") if "pairs" in v or "mean" in v else None
    return v


def _interval(interval: Any) -> str | None:
    if not interval or len(interval) != 2 or None in interval:
        return None
    return f"[{interval[0]:.3f}, {interval[1]:.3f}]"


def _figure_rows(name: str, v: Any, ci: Mapping[str, Any], level: str | None, categories: Any,
                 label: str | None = None) -> list[dict[str, Any]]:
    """The coefficients table's rows of one figure: a value, a pairwise coefficient (its mean, each pair listed) or
    a mapping of values (one row per numeric entry, nested ones flattened)."""
    if label is None:
        label = COEFFICIENT_NAMES.get(name, _name(name, categories))
        if name == "krippendorff_alpha" and level:
            label += f" ({level})"
    if isinstance(v, Mapping) and not ("pairs" in v or "mean" in v):
        rows = []
        for key, sub in v.items():
            if _is_number(sub) or sub is None or isinstance(sub, Mapping):
                rows += _figure_rows(f"{name}/{key}", sub, ci, None, categories,
                                     " ".join(x for x in (label, _name(key, categories)) if x))
        return rows
    if not (_is_number(v) or v is None or isinstance(v, Mapping)):
        return []
    value = _scalar(v)
    pairs = v.get("pairs", []) if isinstance(v, Mapping) else []
    colour = cell_colour(value) if _colour(value, name) is not None or value is None else "transparent"
    return [{"name": name, "label": label, "value": _number(value), "colour": colour,
             "ci": _interval(ci.get(name)),
             "pairs": [(f"{p['raters'][0]} ~ {p['raters'][1]}", _number(p["value"])) for p in pairs]}]


def _coefficients(totals: Mapping[str, Any], ci: Mapping[str, Any], level: str | None) -> list[dict[str, Any]]:
    """Every figure of the totals: the coefficients, then (units) each numeric figure the totals hold."""
    rows = []
    categories = totals.get("categories", ())
    for name, v in (totals.get("coefficients") or {}).items():
        rows += _figure_rows(name, v, ci, level, categories)
    if "coefficients" not in totals:
        for name, v in totals.items():
            if name not in INFO and (_is_number(v) or isinstance(v, Mapping) and _numeric_leaves(v)):
                rows += _figure_rows(name, v, ci, None, categories)
    return rows


def _numeric_leaves(v: Mapping[str, Any]) -> bool:
    return all(_is_number(x) or x is None or (isinstance(x, Mapping) and _numeric_leaves(x)) for x in v.values())


def _cell(v: Any, name: str = "") -> dict[str, Any]:
    if isinstance(v, (list, tuple)) and "ci" in name.split() and len(v) == 2 and all(
            x is None or _is_number(x) for x in v):
        return {"text": _interval(v) or "n/a", "num": True, "colour": None}    # a bootstrap interval
    if isinstance(v, (list, tuple)):
        shown = [repr(x) if x == "" else str(x) for x in v]
        joint = " ~ " if name.split(" ", 1)[0] in ("raters", "annotators") else ", "
        return {"text": joint.join(shown), "num": False, "colour": None}
    if isinstance(v, float) and v.is_integer() and _colour(v, name) is None and not any(
            part in name for part in ("disorder", "disagreement", "_cv")):
        return {"text": f"{v:g}", "num": True, "colour": None}     # a count kept as a float (GATE's averages)
    if _is_number(v) or v is None:
        return {"text": _number(v), "num": True, "colour": _colour(v, name)}
    return {"text": str(v), "num": False, "colour": None}


def _flat(row: Mapping[str, Any]) -> dict[str, Any]:
    """One row's cells, a nested mapping's entries as ``key entry`` columns."""
    out: dict[str, Any] = {}
    for key, v in row.items():
        if isinstance(v, Mapping):
            for sub, x in _flat(v).items():
                out[f"{key} {sub}"] = x
        else:
            out[key] = v
    return out


def _table(title: str, anchor: str, rows: Sequence[Mapping[str, Any]], first: str | None = None) -> dict[str, Any]:
    """A table of mappings (one per row), its columns every key of them in order (nested mappings flattened)."""
    flat = [_flat(r) for r in rows]
    columns = list(dict.fromkeys(k for r in flat for k in r))
    if first is not None and first in columns:
        columns.remove(first)
        columns.insert(0, first)
    return {"title": title, "anchor": anchor, "columns": [FIGURE_NAMES.get(c, c.replace("_", " ")) for c in columns],
            "rows": [[_cell(r.get(c), f"{c} {r.get('') or r.get('figure') or ''}") for c in columns] for r in flat]}


def _pair_table(block: Mapping[str, Any], prefix: str, anchor: str, categories: Sequence[Any] = (),
                summed: str = ", summed over documents") -> dict[str, Any]:
    """The table of one pair (GATE's, or accord's confusion matrix): the first annotator's categories (rows)
    against the second's (columns), with the specific agreement of each category when given."""
    a, b = block["raters"]
    cats = list(block.get("categories", categories))
    rows = []
    for cat, counts in zip(cats, block.get("matrix", block.get("counts", []))):
        sp = block.get("specific_agreement", {}).get(cat, {})
        rows.append([{"text": repr(cat) if cat == "" else cat, "num": False, "colour": None, "head": True},
                     *(_cell(n) for n in counts), _cell(sp.get("positive")), _cell(sp.get("negative"))])
    specific = ["positive sp. agr.", "negative sp. agr."] if "specific_agreement" in block else []
    return {"title": f"{prefix}{a} (rows) against {b} (columns){summed}", "anchor": anchor,
            "columns": ["", *(repr(c) if c == "" else c for c in cats), *specific],
            "rows": [r[:len(cats) + 1 + len(specific)] for r in rows]}


def _is_rows(v: Any) -> bool:
    return isinstance(v, list) and bool(v) and all(isinstance(r, Mapping) for r in v)


def _mapping_blocks(title: str, anchor: str, v: Mapping[str, Any], depth: int = 0) -> list[dict[str, Any]]:
    """The tables of a mapping: one row per entry when every entry is a mapping (its entries the columns);
    otherwise a table of its plain values, then a table per list of rows and per nested mapping."""
    if all(isinstance(x, Mapping) for x in v.values()):
        return [_table(title, anchor, [{"": k, **x} for k, x in v.items()], first="")]
    blocks = []
    plain = {k: x for k, x in v.items() if not isinstance(x, Mapping) and not _is_rows(x)}
    if plain:
        blocks.append(_table(title, f"{anchor}-values", [{"figure": k.replace("_", " "), "value": x}
                                                         for k, x in plain.items()]))
    for k, x in v.items():
        sub = f"{title}: {FIGURE_NAMES.get(k, k.replace('_', ' '))}"
        if _is_rows(x):
            blocks.append(_table(sub, f"{anchor}-{k}", x, first="annotator" if "annotator" in x[0] else "raters"))
        elif isinstance(x, Mapping) and x and depth < 3:
            blocks += _mapping_blocks(sub, f"{anchor}-{k}", x, depth + 1)
    return blocks


def _blocks(totals: Mapping[str, Any], extra: Mapping[str, Any], prefix: str = "",
            anchor: str = "t") -> list[dict[str, Any]]:
    """The tables of every structured figure the result holds beyond the coefficients (the totals' other entries,
    then ``extra``: the result's own other parts), each drawn generically from its rows or entries."""
    blocks: list[dict[str, Any]] = []
    items = [(k, v) for k, v in totals.items() if k not in INFO] + [(k, v) for k, v in extra.items()
                                                                     if k not in totals]
    for n, (key, v) in enumerate(items):
        title = prefix + FIGURE_NAMES.get(key, key.replace("_", " "))
        here = f"{anchor}-{n}"
        if "coefficients" not in totals and isinstance(v, Mapping) and _numeric_leaves(v):
            continue     # drawn among the coefficients (units: γ-k, uα per category)
        if key == "pair_tables" and isinstance(v, list):
            blocks += [_pair_table(b, prefix, f"{here}-{k}") for k, b in enumerate(v)]
        elif key == "confusion_matrices" and isinstance(v, list):
            blocks += [_pair_table(b, prefix, f"{here}-{k}", totals.get("categories", ()), ", items both rated")
                       for k, b in enumerate(v)]
        elif _is_rows(v):
            blocks.append(_table(title, here, v, first="annotator" if "annotator" in v[0] else "raters"))
        elif isinstance(v, Mapping) and v:
            blocks += _mapping_blocks(title, here, v)
        elif _is_number(v) or isinstance(v, str):
            blocks.append(_table(title, here, [{"figure": title, "value": v}]))
    return blocks


def _type_blocks(by_label: Mapping[str, Any], ci: Mapping[str, Any]) -> list[dict[str, Any]]:
    """GATE's conventions over several types: each type's coefficients and tables."""
    blocks: list[dict[str, Any]] = []
    for n, (t, summary) in enumerate(by_label.items()):
        if not isinstance(summary, Mapping) or "coefficients" not in summary:
            continue
        rows = [{"coefficient": r["label"], "mean of pairs": r["value"],
                 **{pair: v for pair, v in r["pairs"]}} for r in _coefficients(summary, {}, None)]
        blocks.append(_table(f"type {t}: coefficients", f"type-{n}", rows, first="coefficient"))
        blocks += _blocks({k: v for k, v in summary.items() if k != "by_document"}, {}, f"type {t}: ", f"type-{n}")
    return blocks


def _documents(by_document: Mapping[str, Any], totals: Mapping[str, Any]) -> tuple[list[dict[str, Any]], list[str]]:
    """Each document's figures (its coefficients, or its numeric figures for units) and the columns of them."""
    documents = []
    for doc, summary in by_document.items():
        coefs = summary.get("coefficients", summary)
        values = {}
        for name, v in coefs.items():
            if name in INFO and "coefficients" not in summary:
                continue
            if isinstance(v, Mapping) and not ("pairs" in v or "mean" in v):
                values.update({r["name"]: _scalar_of_row(r) for r in _figure_rows(name, v, {}, None, ())})
            elif _is_number(v) or v is None or isinstance(v, Mapping):
                values[name] = _scalar(v)
        documents.append({"document": doc, "items": summary.get("items"), "values": values})
    columns = list(totals["coefficients"]) if "coefficients" in totals else \
        list(dict.fromkeys(c for d in documents for c in d["values"]))
    return documents, columns


def _scalar_of_row(row: Mapping[str, Any]) -> Any:
    return None if row["value"] == "n/a" else float(row["value"])


def _column_name(c: str) -> str:
    if c in COEFFICIENT_NAMES:
        return COEFFICIENT_NAMES[c]
    return " ".join(x for x in (_name(p) for p in c.split("/")) if x)


def agreement_html(result: Any, matrix: Mapping[str, Any] | None = None, title: str = "Annotator agreement",
                   annotators: Mapping[str, Any] | None = None) -> str:
    """The page of an agreement result (``AgreementResult`` or ``UnitizingResult``): its figures, tables, documents,
    options and inputs, with the annotator matrix when ``matrix`` (:func:`accord.agreement._matrix.matrix_view`) is
    given, each annotator's agreement with the others when ``annotators``
    (:func:`accord.agreement._matrix.annotator_view`) is, and the disagreement browser when the result holds its
    ``disputes``."""
    from ._csp import page_environment

    data = result.to_dict()
    totals = data["totals"]
    ci = totals.get("ci") or result.ci or {}
    level = totals.get("krippendorff_level")
    coefficients = _coefficients(totals, ci, level)
    documents, columns = _documents(data.get("by_document") or {}, totals)
    specific = None
    if "specific_agreement" in totals:
        pos, neg = totals["specific_agreement"]["positive"], totals["specific_agreement"]["negative"]
        pos, neg = pos.get("mean", pos), neg.get("mean", neg)
        specific = [(repr(c) if c == "" else c, _number(pos.get(c)), _number(neg.get(c)))
                    for c in totals.get("categories", [])]
    extra = {k: v for k, v in data.items() if k not in RESULT_PARTS}
    tables = _blocks(totals, extra) + _type_blocks(data.get("by_label") or {}, ci)
    if "span_agreement" in data and matrix is None:
        span = data["span_agreement"]
        tables.append(_table(f"span agreement ({span['measure']} F of each pair)", "span-agreement",
                             [{"raters": p["annotators"], **{k: p["totals"].get(k) for k in ("precision", "recall",
                                                                                             "f1")}}
                              for p in span["pairs"]], first="raters"))
    facts = [f"{totals[k]:g} {k.replace('_', ' ')}" for k in ("units", "samples") if _is_number(totals.get(k))]
    if _is_number(totals.get("continuum_length")):
        facts.append(f"a continuum of {totals['continuum_length']:g}")
    people = None
    if annotators is not None and annotators.get("rows"):
        people = {"columns": [" — ".join(x for x in (COEFFICIENT_NAMES.get(f, SHORT_NAMES.get(f, _name(f))), how) if x)
                              for f, how in annotators["columns"]],
                  "rows": annotators["rows"],
                  "note": "Each annotator against the others: a pairwise coefficient's mean over the pairs the "
                          "annotator is in, the mean F of its row of the matrix, and the figures the result gives "
                          "per annotator."}
    context = matrix_context(matrix) if matrix is not None else {}
    env = page_environment()   # scripts allowed by their hashes
    env.globals["colour"] = cell_colour
    return env.get_template("agreement.html").render(
        title=title, coefficients=coefficients, totals=totals, options=result.options, inputs=result.inputs,
        raters=totals.get("raters") or totals.get("annotators") or [], facts=facts, mode=data.get("mode"),
        documents=documents, columns=columns, column_name=_column_name, specific=specific, tables=tables,
        annotators=people, disputes=disputes_context(getattr(result, "disputes", None)),
        has_matrix=matrix is not None, number=_number, **context)
