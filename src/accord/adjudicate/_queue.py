"""The adjudication queue of an aggregation: the disagreements, one row each, with a ``choice`` to fill in.

Spans (:class:`~accord.adjudicate._spans.SpanAggregate`): one row per group the annotators disagree on, with the
columns ``document, start, end, text`` (the extent covering the group), one column per annotator (its label, with
its extent when that differs from the group's, ``;`` between several spans; empty when it marked nothing),
``method, votes, status`` (the method's choice; on a tie, the tied labels joined by `` = ``), and
``gold_start, gold_end, choice``: the gold span and the label(s) to keep
(``|`` between several, empty or ``none`` for none), filled in with the method's choice. Items of a ratings table:
``item``, one column per annotator, ``method, posterior, votes, status, choice``.

The same file, edited (or the ``decisions.csv`` the queue's HTML page saves, which has only the identifying
columns and ``choice``), is read back by :func:`read_span_decisions` / :func:`read_item_decisions`, and
:func:`apply_span_decisions` puts the choices into the gold corpus. A decision naming no group of the run is an
error, so that a file made for another run is not silently ignored. The gold relations follow their arguments: one
whose argument a decision removed is left out, with a warning.
"""

from __future__ import annotations

import csv
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .._support.io import read_text
from ..errors import AccordWarning, FormatError, OptionError
from ..model import Annotation, Attributes, Corpus
from ._aggregate import TIE, Aggregate
from ._spans import NONE, SpanAggregate, SpanGroup, annotation_order

__all__ = ["span_queue", "item_queue", "write_queue", "read_span_decisions", "read_item_decisions",
           "apply_span_decisions", "SPAN_KEY", "ITEM_KEY"]

SPAN_KEY = ("document", "start", "end")
ITEM_KEY = ("item",)

SpanId = tuple[str, int, int]


def _cell(group: SpanGroup, anns: list[Annotation]) -> str:
    return "; ".join(a.label if (a.start, a.end) == (group.start, group.end) else f"{a.label} {a.start}-{a.end}"
                     for a in anns)


def _shown(result: Aggregate, i: int) -> str:
    """The method's choice on item ``i``; on a tie, the tied categories joined by `` = ``."""
    if result.status[i] != "tie":
        return str(result.labels[i])
    post = result.posteriors[i]
    return " = ".join(str(c) for c, p in zip(result.categories, post) if p >= post.max() - TIE)


def span_queue(agg: SpanAggregate) -> tuple[list[str], list[dict[str, Any]]]:
    """The queue's columns and rows (see the module docstring)."""
    names = list(agg.result.annotators)
    columns = [*SPAN_KEY, "text", *names, "method", "votes", "status", "gold_start", "gold_end", "choice"]
    rows = []
    for g in agg.disagreements():
        group, gold = agg.groups[g], agg.gold[g]
        text = agg.corpus[group.document].text
        label = agg.result.labels[g]
        voters = [m[0] for m in group.members if m and m[0].label == label]
        span = gold or (voters[0] if voters else None)
        rows.append({"document": group.document, "start": group.start, "end": group.end,
                     "text": text[group.start:group.end] if text is not None else "",
                     **{n: _cell(group, m) for n, m in zip(names, group.members)},
                     "method": _shown(agg.result, g), "votes": int(agg.result.votes[g]),
                     "status": agg.result.status[g],
                     "gold_start": "" if span is None else span.start, "gold_end": "" if span is None else span.end,
                     "choice": "none" if gold is None else str(label) if group.classes else gold.label})
    return columns, rows


def item_queue(result: Aggregate, items: Sequence[Any], codes: Any) -> tuple[list[str], list[dict[str, Any]]]:
    """The queue of a ratings table: the items whose answers differ (``codes``: items by annotators, -1 none)."""
    names = list(result.annotators)
    columns = [*ITEM_KEY, *names, "method", "posterior", "votes", "status", "choice"]
    rows = []
    for i, item in enumerate(items):
        given = [int(c) for c in codes[i] if c >= 0]
        if len(set(given)) <= 1:
            continue
        label = result.labels[i]
        k = result.categories.index(label)
        rows.append({"item": item, **{n: "" if c < 0 else result.categories[c] for n, c in zip(names, codes[i])},
                     "method": _shown(result, i), "posterior": round(float(result.posteriors[i, k]), 6),
                     "votes": int(result.votes[i]), "status": result.status[i],
                     "choice": label if result.status[i] == "decided" else ""})
    return columns, rows


def write_queue(path: str | Path, columns: Sequence[str], rows: Sequence[Mapping[str, Any]]) -> None:
    """Write a queue as CSV (whole or not at all)."""
    from .._support.safe_paths import atomic_write

    with atomic_write(path, newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(columns), lineterminator="\n", extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)


def _records(path: str | Path, key: Sequence[str]) -> tuple[Path, list[tuple[int, dict[str, str]]]]:
    p = Path(path)
    reader = csv.DictReader(read_text(p).splitlines())
    missing = [c for c in (*key, "choice") if c not in (reader.fieldnames or [])]
    if missing:
        raise FormatError(f"a decisions file needs the columns {', '.join((*key, 'choice'))}; missing "
                          f"{', '.join(missing)}", path=p, line=1)
    return p, [(n, {k: (v or "").strip() for k, v in rec.items() if isinstance(k, str)})
               for n, rec in enumerate(reader, 2)]


def _choice(value: str) -> tuple[str, ...]:
    labels = tuple(x.strip() for x in value.split("|") if x.strip())
    return () if labels in ((), ("none",), (NONE,)) else labels


def read_span_decisions(path: str | Path) -> dict[SpanId, tuple[tuple[str, ...], int | None, int | None]]:
    """The decisions of a span queue: ``(document, start, end) -> (labels, gold_start, gold_end)``."""
    p, records = _records(path, SPAN_KEY)
    out: dict[SpanId, tuple[tuple[str, ...], int | None, int | None]] = {}
    for n, rec in records:
        try:
            sid = (rec["document"], int(rec["start"]), int(rec["end"]))
            gs = int(rec["gold_start"]) if rec.get("gold_start") else None
            ge = int(rec["gold_end"]) if rec.get("gold_end") else None
        except ValueError:
            raise FormatError("start, end, gold_start and gold_end must be whole numbers", path=p, line=n) from None
        if (gs is None) != (ge is None) or (gs is not None and ge is not None and not gs < ge):
            raise FormatError("give gold_start and gold_end together, gold_start before gold_end", path=p, line=n)
        decision = (_choice(rec["choice"]), gs, ge)
        if sid in out and out[sid] != decision:
            raise FormatError(f"the group {sid} is decided twice, differently", path=p, line=n)
        out[sid] = decision
    return out


def read_item_decisions(path: str | Path) -> dict[str, tuple[str, ...]]:
    """The decisions of an item queue: ``item -> labels`` (empty: no label)."""
    p, records = _records(path, ITEM_KEY)
    out: dict[str, tuple[str, ...]] = {}
    for n, rec in records:
        labels = _choice(rec["choice"])
        if len(labels) > 1:
            raise FormatError(f"item {rec['item']!r}: one label per item, got {rec['choice']!r}", path=p, line=n)
        if rec["item"] in out and out[rec["item"]] != labels:
            raise FormatError(f"item {rec['item']!r} is decided twice, differently", path=p, line=n)
        out[rec["item"]] = labels
    return out


def apply_span_decisions(agg: SpanAggregate, decisions: Mapping[SpanId, tuple[tuple[str, ...], int | None,
                                                                                int | None]]) -> Corpus:
    """The gold corpus with each decided group's annotations replaced by the decision's label(s) on its span (the
    gold span given, else the group's gold span, else the first span of the chosen label, else the group's
    extent)."""
    left = dict(decisions)
    by_doc: dict[str, list[Annotation]] = {d: [] for d in agg.corpus}
    for group, gold, chosen in zip(agg.groups, agg.gold, agg.result.labels):
        sid = (group.document, group.start, group.end)
        if sid not in left:
            if gold is not None and group.classes:
                by_doc[group.document].extend(Annotation(c, group.start, group.end) for c in str(chosen).split("|"))
            elif gold is not None:
                by_doc[group.document].append(gold)
            continue
        labels, gs, ge = left.pop(sid)
        for label in labels:
            mine = [m[0] for m in group.members if m and m[0].label == label]
            ref = gold if gold is not None else (mine[0] if mine else None)
            span = (gs, ge) if gs is not None and ge is not None else \
                (ref.start, ref.end) if ref is not None else (group.start, group.end)
            by_doc[group.document].append(Annotation(label, span[0], span[1]))
    dropped = _relations_back(agg, by_doc)
    if dropped:
        warnings.warn(AccordWarning(f"{dropped} relation(s) of the gold left out: the decisions removed an "
                                    "argument's span"), stacklevel=2)
    if left:
        first = next(iter(left))
        raise OptionError(f"{len(left)} decision(s) name no group of this run, e.g. document {first[0]!r} "
                          f"[{first[1]}, {first[2]}) (groups are found again by their document, start and end)")
    return Corpus([d._replace(annotations=tuple(sorted(by_doc[d.id], key=annotation_order)))
                   for d in agg.corpus.documents], name=agg.corpus.name)


def _relations_back(agg: SpanAggregate, by_doc: dict[str, list[Annotation]]) -> int:
    """The gold relations put back among the decided spans, each pointing to the spans of its arguments' label and
    extent; the number left out (an argument no longer there)."""
    if agg.relations is None:
        return 0
    dropped = 0
    for doc_id, rels in agg.relations.gold.items():
        spans = {(a.label, a.start, a.end): a for a in by_doc[doc_id]}
        for r in rels:
            args = {role: spans.get((v.label, v.start, v.end)) for role, v in r.attributes.items()
                    if isinstance(v, Annotation)}
            if any(v is None for v in args.values()):
                dropped += 1
                continue
            by_doc[doc_id].append(r._replace(attributes=Attributes(args)))
    return dropped
