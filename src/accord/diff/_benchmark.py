"""GATE's Corpus Benchmark (guide 10.4): one key, two responses, what improved and what regressed.

Both responses are diffed against the same key (:func:`diff_corpora`). Per document and
type the figures before and after are set side by side. Each key annotation's fate is
compared: ranked ``correct`` > ``partial`` > the rest (missing, or paired with unequal
features), a rise is *fixed*, a fall *broken*. Responses are different objects on the two
sides, so spurious ones are matched by content (type, span, features): a spurious
response only in the new run is *broken*, one only in the old run *fixed*.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from .._support.names import check_names
from ..model import Annotation, Corpus, span_key
from ._counts import DiffCounts, parse_measure
from ._diff import CorpusDiff, diff_corpora

__all__ = ["Change", "Benchmark", "benchmark"]

_RANK = {"correct": 2, "partial": 1}


class Change(NamedTuple):
    """An annotation whose outcome differs between the two runs."""

    document: str
    type: str
    side: str              # "key" or "response"
    annotation: Annotation
    before: str            # outcome in the old run ("absent" for a response it did not have)
    after: str
    direction: str         # "fixed" or "broken"


def _content(a: Annotation) -> tuple:
    return (a.label, span_key(a), json.dumps(dict(a.attributes), sort_keys=True, default=str))


@dataclass(frozen=True)
class Benchmark:
    """The two diffs and the changes between them (``changes`` sorted by document and position)."""

    before: CorpusDiff
    after: CorpusDiff
    changes: tuple[Change, ...]

    def rows(self, measure: str = "average", beta: float = 1.0) -> list[dict[str, Any]]:
        """One row per (document, type) with counts and P/R/F before and after, then the totals."""
        measure = parse_measure(measure)
        out = []
        fixed = Counter((c.document, c.type) for c in self.changes if c.direction == "fixed")
        broken = Counter((c.document, c.type) for c in self.changes if c.direction == "broken")

        def row(doc: str, typ: str, b: DiffCounts, a: DiffCounts, nf: int, nb: int) -> dict[str, Any]:
            r: dict[str, Any] = {"document": doc, "type": typ}
            for name, c in (("before", b), ("after", a)):
                r[name] = {"correct": c.correct, "partial": c.partial, "missing": c.missing,
                           "spurious": c.spurious, "precision": c.precision(measure), "recall": c.recall(measure),
                           "f": c.f(measure, beta)}
            r["fixed"], r["broken"] = nf, nb
            return r

        for doc in self.before.documents:
            for typ in self.before.types:
                out.append(row(doc, typ, self.before.counts(doc, typ), self.after.counts(doc, typ),
                               fixed[(doc, typ)], broken[(doc, typ)]))
        out.append(row("<all>", "<all>", self.before.counts(), self.after.counts(), sum(fixed.values()),
                       sum(broken.values())))
        return out


def benchmark(key: Corpus, before: Corpus, after: Corpus, *, types: Sequence[str] | None = None,
              features: Sequence[str] | None = (), pairing: str = "gate", compare_as_strings: bool = False,
              allow_missing: str | None = None) -> Benchmark:
    """Diff ``before`` and ``after`` against ``key`` and list what changed (see the module docstring).

    The parameters are those of :func:`diff_corpora`; the types compared default to every
    type found in any of the three corpora, so both diffs have the same rows.
    """
    from ..pipeline._offset_units import unify_units

    # the three in one unit at once: the key placed once, so that its annotations are the same objects in both diffs
    key, before, after = unify_units([key, before, after], [key.name, before.name, after.name],
                                     ["key", "before", "after"])
    found = {a.label for c in (key, before, after) for d in c.documents for a in d.annotations}
    if types is None:
        types = sorted(found)
    else:
        check_names(types, found, "annotation type", "--type")
    opts: dict[str, Any] = dict(types=types, features=features, pairing=pairing, compare_as_strings=compare_as_strings,
                check_types=False,
                allow_missing=allow_missing)
    old = diff_corpora(key, before, **opts)
    new = diff_corpora(key, after, **opts)
    changes: list[Change] = []
    for doc in old.documents:
        if doc not in new.diffs:
            continue
        for typ in types:
            od, nd = old.diffs[doc][typ], new.diffs[doc][typ]
            old_key = {id(r.key): r.outcome for r in od.rows if r.key is not None}
            for r in nd.rows:
                if r.key is None:
                    continue
                was, now = old_key.get(id(r.key), "missing"), r.outcome
                rw, rn = _RANK.get(was, 0), _RANK.get(now, 0)
                if rw != rn:
                    changes.append(Change(doc, typ, "key", r.key, was, now, "fixed" if rn > rw else "broken"))
            old_spur = Counter(_content(r.response) for r in od.rows
                               if r.outcome == "spurious" and r.response is not None)
            new_spur = Counter(_content(r.response) for r in nd.rows
                               if r.outcome == "spurious" and r.response is not None)
            for rows, other, before_out, after_out, direction in (
                    (nd.rows, old_spur, "absent", "spurious", "broken"),
                    (od.rows, new_spur, "spurious", "absent", "fixed")):
                left = Counter(other)
                for r in rows:
                    if r.outcome != "spurious" or r.response is None:   # (a spurious row has its response)
                        continue
                    c = _content(r.response)
                    if left[c]:
                        left[c] -= 1
                    else:
                        changes.append(Change(doc, typ, "response", r.response, before_out, after_out, direction))
    changes.sort(key=lambda c: (c.document, c.annotation.start, c.annotation.end, c.type, c.side))
    return Benchmark(old, new, tuple(changes))
