"""One self-contained HTML page for one or more systems scored against the same gold standard.

The page holds a summary (P, R, F of every system and measure, with confidence intervals when the results were
bootstrapped, and the inputs and options), the counts of every measure, each system's labels and documents
(sortable tables with bars) and its span confusion matrix (gold label against predicted label of overlapping
spans, :func:`accord.clueval.span_confusion`), the error browser over every system's errors
(:mod:`accord.report.error_browser`) and, with two or more systems, the paired comparisons with their
significance marks and the errors each system fixes or breaks against the first. A system of generated output
(strings without offsets, aligned to the gold text) has its alignment summarised and listed
(:func:`alignment_view`, from ``result.options["alignment"]``). The span views (confusion counts,
the browser's data, the changes) are given to it as data, made by the clueval package
(:func:`accord.clueval._browser.span_views`). Everything is inline (CSS, JS, data); the page's
Content-Security-Policy forbids every network request.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .agreement_matrix import cell_colour

__all__ = ["report_html", "alignment_view", "NO_SPAN_VIEWS"]

RATE_KEYS = ("precision", "recall", "f1")


def _rate(block: Mapping[str, Any], key: str) -> dict[str, Any]:
    value = block.get(key)
    interval = (block.get("ci") or {}).get(key)
    return {"value": value, "text": "—" if value is None else f"{100 * value:.2f}",
            "ci": None if not interval or None in interval else f"[{100 * interval[0]:.1f}, {100 * interval[1]:.1f}]",
            "colour": cell_colour(value)}


def _rows(blocks: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [{"name": name, "gold": b.get("gold"), "pred": b.get("pred"),
             "rates": [_rate(b, k) for k in ("precision", "recall", "f1")]} for name, b in blocks.items()]


def _documents_json(blocks: Mapping[str, Mapping[str, Any]]) -> str:
    """The per-document rows of a lazy table: ``[name, gold, pred, P, R, F, P_lo, P_hi, R_lo, R_hi, F_lo, F_hi]``
    (rates rounded to 6 decimals, ``null`` where undefined or without intervals)."""
    from .error_browser import embedded_json

    def r(v: Any) -> Any:
        return None if v is None or v != v else round(float(v), 6)

    rows = []
    for name, b in blocks.items():
        ci = b.get("ci") or {}
        rows.append([name, b.get("gold"), b.get("pred"), *(r(b.get(k)) for k in RATE_KEYS),
                     *(r(x) for k in RATE_KEYS for x in (ci.get(k) or (None, None)))])
    return embedded_json(rows)


def _heat(count: int, row_total: int, diagonal: bool) -> str:
    """A confusion cell's background: its share of the gold row, green on the diagonal, red elsewhere."""
    if not count or not row_total:
        return "transparent"
    share = count / row_total
    return f"rgba(0,150,0,{0.15 + 0.6 * share:.3f})" if diagonal else f"rgba(190,0,0,{0.12 + 0.7 * share:.3f})"


def _confusion_view(confusion: Mapping[str, Any]) -> dict[str, Any]:
    """A confusion matrix's cells with their colours and totals (``confusion``: ``labels`` with ``none`` last, and
    ``counts`` by gold label in rows)."""
    names = list(confusion["labels"])
    rows = []
    for i, (gold, counts) in enumerate(zip(names, confusion["counts"])):
        total = sum(counts)
        rows.append({"gold": gold, "total": total, "cells": [
            {"count": n, "pred": pred, "colour": _heat(n, total, i == j and gold != "none")}
            for j, (pred, n) in enumerate(zip(names, counts))]})
    return {"labels": names, "rows": rows,
            "column_totals": [sum(column) for column in zip(*confusion["counts"])] if rows else []}


def alignment_view(alignment: Mapping[str, Any] | None,
                   options: Mapping[str, Any] | None = None) -> dict[str, Any] | None:
    """What the page shows of a system's alignment (``result.options["alignment"]``, None: not generated output):
    ``counts``, a line of its counts; ``how``, the way its strings were placed; the listed ``unaligned`` and
    ``fuzzy`` predictions (the summary lists the first fifty of each by default) and how many more there are
    (``unaligned_more``, ``fuzzy_more``); with ``--align none``, the ``pairs`` matched by a relaxed similarity or a
    judge (their settings from the result's ``options``)."""
    if not alignment:
        return None
    a = alignment
    if a.get("align") == "none":
        names = ", ".join(a.get("normalize") or []) or "no normaliser"
        return {"how": "not placed on the text (--align none): per document, the multiset of (string, label) "
                       f"against the gold spans' strings, after {names}",
                "counts": f"{a.get('strings', 0)} predicted strings against {a.get('gold_strings', 0)} gold strings",
                "unaligned": [], "fuzzy": [], "unaligned_more": 0, "fuzzy_more": 0, "fuzzy_shown": False,
                "pairs": _pair_tables(a, options or {})}
    unaligned = list(a.get("unaligned_listed") or [])
    fuzzy = [{**f, "similarity_text": f"{f.get('similarity', 0):.2f}", "where": "–".join(map(str, f["placed"]))}
             for f in a.get("fuzzy_listed") or []]
    counts = f"{a.get('exact', 0)} exact · {a.get('fuzzy', 0)} fuzzy · {a.get('unaligned', 0)} unaligned"
    if a.get("relations") or a.get("unaligned_relations"):
        counts += f"; relations {a.get('relations', 0)} kept · {a.get('unaligned_relations', 0)} unaligned"
    how = "exactly (--align exact)" if a.get("align") == "exact" else \
        f"exactly, then fuzzily at a similarity of at least {a.get('threshold')} (--align fuzzy)"
    return {"how": f"placed on the gold text {how}", "counts": counts, "unaligned": unaligned,
            "fuzzy": fuzzy, "fuzzy_shown": a.get("align") == "fuzzy",
            "unaligned_more": max(0, a.get("unaligned", 0) + a.get("unaligned_relations", 0) - len(unaligned)),
            "fuzzy_more": max(0, a.get("fuzzy", 0) - len(fuzzy)), "pairs": []}


LISTED = 50
"""The pairs of strings a relaxed measure or a judge matched that the page lists (all are counted)."""


def _pair_tables(a: Mapping[str, Any], options: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The pairs of gold and predicted strings matched past the strict rows (``--align none``): by a relaxed
    similarity (``relaxed``) and by a judge (``judge``), each a table of its first :data:`LISTED` pairs."""
    out = []
    relaxed, judge = a.get("relaxed"), a.get("judge")
    how, asked = options.get("relaxed") or {}, options.get("judge") or {}
    if relaxed:
        rows = list(relaxed.get("listed") or [])[:LISTED]
        n = relaxed.get("matched", 0)
        out.append({"id": "relaxed", "caption": f"Relaxed matches: {n} pair{'' if n == 1 else 's'} of the same "
                                                f"label, {how.get('similarity', relaxed.get('similarity'))} "
                                                f"similarity at least {how.get('threshold', relaxed.get('threshold'))}",
                    "score": "Similarity", "rows": [{**r, "value": f"{r.get('similarity', 0):.2f}"} for r in rows],
                    "more": max(0, relaxed.get("matched", 0) - len(rows))})
    if judge:
        rows = list(judge.get("decided") or [])[:LISTED]
        name = asked.get("judge", judge.get("judge")) or "(its cache)"
        out.append({"id": "judge", "caption": f"Pairs the judge {name} matched: "
                                              f"{judge.get('matched', 0)} ({judge.get('calls', 0)} verdicts asked, "
                                              f"{judge.get('cached', 0)} from the cache, {judge.get('undecided', 0)} "
                                              "undecided)",
                    "score": "Verdict", "rows": [{**r, "value": f"{r.get('score', 0):.2f}"} for r in rows],
                    "more": max(0, judge.get("matched", 0) - len(rows))})
    return out


NO_SPAN_VIEWS: dict[str, Any] = {
    "note": "no span views were given: the page has no error browser and no confusion matrix"}
"""The span views of a page made without them."""


def report_html(systems: Mapping[str, Any], comparison: Any = None, title: str = "accord report", *,
                views: Mapping[str, Any] | None = None, page_size: int = 100) -> str:
    """The page of ``systems`` (name -> Result, all over the same documents) and their ``comparison``
    (:class:`accord.stats.ComparisonResult`, or None), with the span views ``views`` (the error browser's data,
    each system's confusion counts and the changes against the first, :func:`accord.clueval._browser.span_views`;
    or a ``note`` saying why there are none)."""
    from ._csp import page_environment
    from .error_browser import embedded_data

    sections = []
    summary = []
    counts = []
    for name, result in systems.items():
        data = result.to_dict()
        measures = data["measures"] if "measures" in data else {next(iter(result.measures)): data}
        aligned = alignment_view((data.get("options") or {}).get("alignment"), data.get("options"))
        for measure, m in measures.items():
            summary.append({"system": name, "measure": measure, "gold": m["totals"].get("gold"),
                            "pred": m["totals"].get("pred"), "alignment": aligned["counts"] if aligned else "",
                            "rates": [_rate(m["totals"], k) for k in RATE_KEYS]})
            counts.append({"system": name, "measure": measure,
                           "counts": {k: v for k, v in m["totals"].items()
                                      if k not in RATE_KEYS and k not in ("ci", "gold", "pred")}})
        main_name, main = next(iter(measures.items()))
        sections.append({"system": name, "measure": main_name, "labels": _rows(main["by_label"]),
                         "macro": [_rate(main["macro"], k) for k in RATE_KEYS],
                         "documents": len(main["by_document"]),
                         "documents_json": _documents_json(main["by_document"]), "inputs": data["inputs"],
                         "options": data["options"], "classes": data.get("classes"), "alignment": aligned})
    comparisons = []
    leaderboard, forest, described = None, None, None
    if comparison is not None:
        leaderboard, forest, described = _leaderboard_view(comparison)
        for c in comparison.comparisons:
            comparisons.append({"a": c.a, "b": c.b, "measure": c.measure, "label": c.label or "ALL", "rate": c.rate,
                                "a_value": _rate({"v": c.a_value}, "v")["text"],
                                "b_value": _rate({"v": c.b_value}, "v")["text"],
                                "difference": "—" if c.difference is None else f"{100 * c.difference:+.2f}",
                                "p": "—" if c.p_value is None else f"{c.p_value:.4f}",
                                "p_adjusted": "—" if c.p_adjusted is None else f"{c.p_adjusted:.4f}",
                                "mark": c.mark(comparison.options["alpha"]), "significant": c.significant})
    views = dict(NO_SPAN_VIEWS if views is None else views)
    browser = None
    if views["note"] is None:
        encoding, text = embedded_data(views["browser"])
        browser = {"data": views["browser"], "json": text, "encoding": encoding, "page_size": page_size}
        for s in sections:
            s["confusion"] = _confusion_view(views["confusions"][s["system"]])
    count_keys = list(dict.fromkeys(k for c in counts for k in c["counts"]))
    env = page_environment()   # scripts allowed by their hashes
    return env.get_template("report.html").render(
        title=title, summary=summary, sections=sections, comparisons=comparisons, counts=counts,
        count_keys=count_keys, comparison_options=comparison.options if comparison is not None else None,
        generated=any(s["alignment"] for s in sections),
        browser=browser, span_note=views["note"], changes=views.get("changes") or [],
        first_system=next(iter(systems)), leaderboard=leaderboard, forest=forest, described=described)


def _leaderboard_view(comparison: Any) -> tuple[dict[str, Any], dict[str, Any] | None, dict[str, Any]]:
    """The leaderboard's rows, the forest plot's geometry (:func:`accord.report.leaderboard.forest_plot`) and the
    sentences saying how the comparisons were made."""
    from .leaderboard import (
        caption_text,
        detectable_lines,
        forest_plot,
        interval_text,
        rate_name,
        value_text,
    )

    board = comparison.leaderboard()
    o = comparison.options
    rows = [{"rank": "—" if s.rank is None else s.rank, "key": s.key, "system": s.system, "value": value_text(s),
             "sort": -1 if s.value is None else s.value, "interval": interval_text(s), "runs": s.runs,
             "beats": s.marks} for s in board]
    view = {"rows": rows, "rate": rate_name(board.rate), "measure": board.measure,
            "intervals": any(s.interval is not None for s in board),
            "confidence": f"{100 * o.get('confidence', 0.95):g}"}
    correction = {"holm": "adjusted by Holm's method", "bonferroni": "adjusted by Bonferroni's method",
                  "none": "not adjusted"}[o.get("correction", "holm")]
    families = {"separate": "within separate families (the totals of every pair of systems one family, each "
                            "label's comparisons another)",
                "overall": "within two families (the totals of every pair of systems, and every label's comparisons)",
                "all": "within one family of every comparison"}.get(o.get("families", "separate"), "")
    unit = o.get("resample", "documents")
    described = {"caption": caption_text(comparison, board, marks="Beats"),
                 "correction": correction if o.get("correction") == "none" else f"{correction} {families}",
                 "units": f"{o.get('resampled_units')} {unit}", "detectable": detectable_lines(comparison)}
    return view, forest_plot(board), described
