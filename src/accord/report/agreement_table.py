"""The terminal table of an agreement summary (``accord agree``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["COEFFICIENT_NAMES", "render_agreement", "render_gate_agreement", "render_unitizing"]

COEFFICIENT_NAMES = {"observed_agreement": "observed agreement", "cohen_kappa": "Cohen's kappa",
          "scott_pi": "Scott's pi",
          "fleiss_kappa": "Fleiss' kappa", "davies_fleiss_kappa": "Davies & Fleiss kappa",
          "krippendorff_alpha": "Krippendorff's alpha", "bennett_s": "Bennett's S", "gwet_ac1": "Gwet's AC1",
          "siegel_castellan_kappa": "Siegel & Castellan kappa (m raters)",
          # accord agree --coefficients
          "weighted_kappa_linear": "weighted kappa (linear)", "weighted_kappa_quadratic": "weighted kappa (quadratic)",
          **{f"gwet_ac2_{w}": f"Gwet's AC2 ({w})" for w in ("linear", "quadratic", "ordinal", "radical", "ratio",
                                                              "circular", "bipolar")},
          **{f"fleiss_kappa_{w}": f"Fleiss' kappa ({w} weights)" for w in ("linear", "quadratic", "ordinal", "radical",
                                                                             "ratio", "circular", "bipolar")},
          "krippendorff_alpha_masi": "Krippendorff's alpha (MASI)",
          "krippendorff_alpha_jaccard": "Krippendorff's alpha (Jaccard)",
          "icc1": "ICC1 (one-way)", "icc2": "ICC2 (absolute agreement)", "icc3": "ICC3 (consistency)",
          "icc1k": "ICC1k (mean of raters)", "icc2k": "ICC2k (mean of raters)", "icc3k": "ICC3k (mean of raters)"}


def _fmt(v: Any) -> str:
    return "n/a" if v is None else f"{v:.4f}"


def render_agreement(summary: Mapping[str, Any], console: Any = None) -> None:
    """Coefficients (pairwise ones as their mean, each pair beside it), then specific agreement per category."""
    from .table import TableConsole, new_table, print_table

    console = console or TableConsole()
    title = (f"{len(summary['raters'])} raters, {summary['items']} items, {len(summary['categories'])} categories")
    table = new_table(title, ["coefficient", "value", "pairs"], text=(2,))
    ci = summary.get("ci") or {}

    def value(name: str, v: Any) -> str:
        interval = ci.get(name)
        text = _fmt(v)
        if interval is not None and None not in interval:
            text += f" [{interval[0]:.3f}, {interval[1]:.3f}]"
        return text

    for name, v in summary["coefficients"].items():
        label = COEFFICIENT_NAMES.get(name, name)
        if name == "krippendorff_alpha":
            label += f" ({summary['krippendorff_level']})"
        if isinstance(v, dict):
            pairs = ", ".join(f"{p['raters'][0]}~{p['raters'][1]} {_fmt(p['value'])}" for p in v["pairs"])
            table.add_row(label, value(name, v["mean"]), pairs)
        else:
            table.add_row(label, value(name, v), "")
    print_table(console, table)
    spec = new_table("specific agreement (mean over pairs)", ["category", "positive", "negative"])
    pos, neg = summary["specific_agreement"]["positive"], summary["specific_agreement"]["negative"]
    pos, neg = pos.get("mean", pos), neg.get("mean", neg)
    for cat in summary["categories"]:
        spec.add_row(repr(cat) if cat == "" else cat, _fmt(pos.get(cat)), _fmt(neg.get(cat)))
    print_table(console, spec)
    _contingency_tables(summary, console)


_MAX_CONTINGENCY = (10, 20)
"""Pairs and categories past which the pairwise contingency tables are left to the JSON (a line says so)."""


def _contingency_tables(summary: Mapping[str, Any], console: Any) -> None:
    """Each pair's contingency table (the JSON's ``confusion_matrices``): the first rater's categories in rows,
    the second's in columns; left to the JSON, with a line saying so, past :data:`_MAX_CONTINGENCY`."""
    from .table import new_table, print_table

    matrices = summary.get("confusion_matrices") or []
    categories = [repr(c) if c == "" else str(c) for c in summary["categories"]]
    if not matrices:
        return
    if len(matrices) > _MAX_CONTINGENCY[0] or len(categories) > _MAX_CONTINGENCY[1]:
        console.print(f"{len(matrices)} pairwise contingency table(s) of {len(categories)} categories: in the JSON "
                      "(--output json, totals.confusion_matrices)")
        return
    for block in matrices:
        a, b = block["raters"]
        table = new_table(f"{a} (rows) against {b} (columns)", ["", *categories])
        for cat, row in zip(categories, block["counts"]):
            table.add_row(cat, *(f"{v:g}" for v in row))
        print_table(console, table)


def render_gate_agreement(summary: Mapping[str, Any], console: Any = None) -> None:
    """GATE-convention coefficients: the mean over pairs, each pair beside it, then per document."""
    from .table import TableConsole, new_table, print_table

    console = console or TableConsole()
    table = new_table(f"GATE {summary['convention']} convention, {len(summary['raters'])} raters",
                      ["scope", "coefficient", "mean of pairs", "pairs"], first=2, text=(3,))
    scopes = [("corpus", summary["coefficients"])] + (list(summary["by_document"].items())
                                                       if summary.get("verbosity", 1) >= 1 else [])
    for n, (scope, coefs) in enumerate(scopes):
        if n == 1:
            table.add_section()
        for name, v in coefs.items():
            pairs = ", ".join(f"{p['raters'][0]}~{p['raters'][1]} {_fmt(p['value'])}" for p in v["pairs"])
            table.add_row(scope, COEFFICIENT_NAMES.get(name, name), _fmt(v["mean"]), pairs)
    print_table(console, table)
    if "f_measures" in summary:
        fm = summary["f_measures"]
        c = fm["counts"]
        f = new_table("IAA plugin F, micro averaged over documents", ["measure", "precision", "recall", "F1"])
        for name in ("strict", "lenient", "average"):
            f.add_row(name, *(_fmt(fm[name][k]) for k in ("precision", "recall", "f1")))
        f.add_section()
        f.add_row("counts", f"c {c['correct']:.4f} p {c['partial']:.4f}", f"s {c['spurious']:.4f}",
                  f"m {c['missing']:.4f}")
        print_table(console, f)
    if "against_majority" in summary:
        mt = new_table("each annotator against the majority of the others (strict Annotation Diff)",
                       ["annotator", "votes needed", "correct", "partial", "missing", "spurious", "P", "R", "F1"])
        for r in summary["against_majority"]:
            mt.add_row(r["annotator"], *(str(r[k]) for k in ("votes_needed", "correct", "partial", "missing",
                                                              "spurious")),
                       *(_fmt(r[k]) for k in ("precision", "recall", "f1")))
        print_table(console, mt)
    if "bdm" in summary:
        bt = new_table("BDM-based agreement (GATE's IAA plugin: P = correct/(n + s), R = correct/(n + m))",
                       ["pair", "correct", "partial", "n", "missing", "spurious", "P", "R", "F1", "lenient F1"])
        for p in summary["bdm"]["pairs"]:
            bt.add_row("~".join(p["raters"]), *(f"{p[k]:.4f}" for k in ("correct", "partial")),
                       *(f"{p[k]:g}" for k in ("matched", "missing", "spurious")),
                       *(_fmt(p["strict"][k]) for k in ("precision", "recall", "f1")), _fmt(p["lenient"]["f1"]))
        mean = summary["bdm"]["mean"]
        bt.add_section()
        bt.add_row("mean of pairs", "", "", "", "", "",
                   *(_fmt(mean["strict"][k]) for k in ("precision", "recall", "f1")),
                   _fmt(mean["lenient"]["f1"]))
        print_table(console, bt)
    if "against_consensus" in summary:
        ac = summary["against_consensus"]
        ct = new_table(f"each annotator against the consensus set {ac['consensus']!r} (kept apart from the IAA "
                       "means, as GATE's average against consensus)", ["coefficient", "mean", "pairs"], first=1,
                       text=(2,))
        for name, v in ac["coefficients"].items():
            ct.add_row(COEFFICIENT_NAMES.get(name, name), _fmt(v["mean"]),
                       ", ".join(f"{p['raters'][0]}~{p['raters'][1]} {_fmt(p['value'])}" for p in v["pairs"]))
        print_table(console, ct)
    tables = [("", b, "summed over documents") for b in summary.get("pair_tables", ())] + [
        (f"{t}: ", b, "summed over documents") for t, s in (summary.get("by_type") or {}).items()
        for b in s.get("pair_tables", ())]
    by_doc = [(summary, "")] + [(s, f"{t} / ") for t, s in (summary.get("by_type") or {}).items()]
    tables += [("", b, f"document {prefix}{d}") for s, prefix in by_doc
               for d, blocks in (s.get("pair_tables_by_document") or {}).items() for b in blocks]
    for prefix, block, scope in tables:
        a, b = block["raters"]
        cats = block["categories"]
        m = new_table(f"{prefix}{a} (rows) against {b} (columns), {scope}",
                      ["", *(c or "\"\"" for c in cats), "positive sp. agr.", "negative sp. agr."])
        for cat, row in zip(cats, block["matrix"]):
            sp = block["specific_agreement"][cat]
            m.add_row(cat or "\"\"", *map(str, row), _fmt(sp["positive"]), _fmt(sp["negative"]))
        print_table(console, m)
    if "all_way" in summary:
        aw = summary["all_way"]
        allway = new_table(f"all-way, over {aw['instances']} instances of the first annotator",
                           ["coefficient", "value"])
        for name in ("observed_agreement", "davies_fleiss_kappa", "siegel_castellan_kappa"):
            allway.add_row(COEFFICIENT_NAMES.get(name, name) + (" (all agree)" if name == "observed_agreement" else ""),
                           _fmt(aw[name]))
        print_table(console, allway)


def render_unitizing(result: Any, console: Any = None) -> None:
    """γ (with γ-cat and γ-k per category) or Krippendorff's unitizing alphas, then each document's value."""
    from .table import TableConsole, new_table, print_table

    console = console or TableConsole()
    totals = result.totals
    units = ", ".join(f"{a} {n}" for a, n in totals["units_per_annotator"].items())
    if result.mode == "gamma":
        title = (f"γ · units {units} · {totals.get('samples')} {result.options.get('sampler')} samples, seed "
                 f"{result.options.get('seed')}")
        table = new_table(title, ["measure", "value"])
        table.add_row("γ", _fmt(totals.get("gamma")))
        table.add_row("γ-cat", _fmt(totals.get("gamma_cat")))
        table.add_row("observed disorder", _fmt(totals.get("observed_disorder")))
        table.add_row("expected disorder", _fmt(totals.get("expected_disorder")))
        for category, value in totals.get("gamma_k", {}).items():
            table.add_row(f"γ-k {category!r}", _fmt(value))
        print_table(console, table)
        per_doc = [(d, v.get("gamma")) for d, v in result.by_document.items()]
        name = "γ"
    else:
        u95 = totals.get("u_alpha_1995", {})
        table = new_table(f"unitizing alphas · units {units} · continuum {totals.get('continuum_length', 0):g}",
                          ["measure", "category", "value"], text=(1,))
        table.add_row("uα (1995/2004)", "all", _fmt(u95.get("overall")))
        for category, value in u95.get("by_category", {}).items():
            table.add_row("uα (1995/2004)", category or "''", _fmt(value))
        table.add_row("uα (2016)", "all", _fmt(totals.get("u_alpha")))
        table.add_row("|uα (2016)", "units vs gaps", _fmt(totals.get("binary_u_alpha")))
        table.add_row("cuα (2016)", "all", _fmt(totals.get("cu_alpha")))
        for category, value in totals.get("cu_alpha_by_category", {}).items():
            table.add_row("(k)cuα (2016)", category or "''", _fmt(value))
        print_table(console, table)
        per_doc = [(d, v.get("u_alpha_1995", {}).get("overall")) for d, v in result.by_document.items()]
        name = "uα (1995/2004)"
    if per_doc:
        docs = new_table("by document", ["document", name], text=(0,))
        for d, v in per_doc:
            docs.add_row(d, _fmt(v))
        print_table(console, docs)
