"""The pairs mode's details: why each gold and predicted item counted as it did (``accord score --details``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from ..match.engine import UNPAIRED, DocumentAlignment
from ..model import Annotation, Document

__all__ = ["DETAIL_COLUMNS", "detail_rows"]

DETAIL_COLUMNS = ("document", "outcome", "gold_label", "pred_label", "gold_start", "gold_end", "pred_start",
                  "pred_end", "gold_text", "pred_text", "gold_attributes", "pred_attributes", "similarity")


def _attrs(ann: Annotation | None) -> str:
    if ann is None or not ann.attributes:
        return ""
    out = {}
    for k, v in ann.attributes.items():
        if isinstance(v, Annotation):
            v = f"{v.label}#{v.id}" if v.id else f"{v.label}[{v.start},{v.end})"
        elif isinstance(v, (frozenset, tuple)):
            v = sorted(str(x.id if isinstance(x, Annotation) else x) for x in v)
        out[k] = v
    return json.dumps(out, ensure_ascii=False, sort_keys=True)


def detail_rows(report: Any) -> Iterator[dict[str, Any]]:
    """One row per pair and per unpaired item, in document order.

    ``outcome`` is ``match``, ``missing``, ``spurious``, or for a clash the comma-joined
    error tokens of the gold side (MAT's ``tagclash``, ``overmark``, ``undermark``,
    ``overlap``, ``setclash``, ``annclash``, ``annattributenotpaired``; accord adds
    ``attrclash`` for a differing scalar attribute).
    """
    for al in report.alignments:
        gdoc, pdoc = al.gold_doc, al.pred_doc

        def row(outcome: str, g: Annotation | None, p: Annotation | None, gl: str, pl: str, sim: float | None, *,
                al: DocumentAlignment = al, gdoc: Document | None = gdoc,
                pdoc: Document | None = pdoc) -> dict[str, Any]:       # this iteration's document, bound
            return {
                "document": al.doc_id, "outcome": outcome, "gold_label": gl, "pred_label": pl,
                "gold_start": None if g is None else g.start, "gold_end": None if g is None else g.end,
                "pred_start": None if p is None else p.start, "pred_end": None if p is None else p.end,
                "gold_text": _surface(gdoc, g), "pred_text": _surface(pdoc, p),
                "gold_attributes": _attrs(g), "pred_attributes": _attrs(p), "similarity": sim,
            }

        events = []
        for pair in al.pairs:
            g, p = al.gold[pair.gold], al.pred[pair.pred]
            outcome = "match" if pair.similarity >= 1.0 else ",".join(pair.gold_tokens or ("clash",))
            events.append(((g.start if g.start is not None else -1), row(outcome, g, p, al.gold_label[pair.gold],
                                                                          al.pred_label[pair.pred], pair.similarity)))
        for i in (al.gold_status == UNPAIRED).nonzero()[0].tolist():
            g = al.gold[i]
            events.append(((g.start if g.start is not None else -1),
                           row("missing", g, None, al.gold_label[i], "", None)))
        for j in (al.pred_status == UNPAIRED).nonzero()[0].tolist():
            p = al.pred[j]
            events.append(((p.start if p.start is not None else -1),
                           row("spurious", None, p, "", al.pred_label[j], None)))
        events.sort(key=lambda e: e[0])
        for _, r in events:
            yield r


def _surface(doc: Document | None, a: Annotation | None) -> str:
    """The text an annotation covers; the pieces of a discontinuous span joined by a space, as brat quotes them."""
    if a is None or doc is None:
        return ""
    return " ".join(doc.surface(x, y) for x, y in a.pieces)
