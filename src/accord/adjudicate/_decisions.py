"""Adjudication of an Annotation Diff: for each row, keep the key's annotation, the response's, both or neither.

A *decision* is made per diff row, found again by its document, type and the spans of its
key and response annotations. Choices come from, in increasing precedence:

1. ``rest``: the choice for any row nothing else decides (default ``none``: left out);
2. ``rules``, applied in order, each overriding the previous on the rows it covers:
   ``"matches"`` keeps the key annotation of every correct row; ``("key", TYPE)`` or
   ``("response", TYPE)`` keeps that side of every row of the type (a row without an
   annotation on that side keeps nothing);
3. a decisions file (:func:`read_decisions`), as the HTML diff page saves it.

The decisions file is CSV with the header
``document,type,key_start,key_end,response_start,response_end,choice``, a row per
decided diff row (empty spans for the absent side), ``choice`` one of ``key``,
``response``, ``both``, ``none``.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import NamedTuple

from .._support.io import read_text
from ..diff import CorpusDiff
from ..diff._diff import DiffRow
from ..errors import FormatError, OptionError
from ..model import Annotation, Corpus, Document

__all__ = ["CHOICES", "DECISION_COLUMNS", "Adjudication", "adjudicate", "read_decisions", "write_decisions",
           "row_id"]

CHOICES = ("key", "response", "both", "none")
DECISION_COLUMNS = ("document", "type", "key_start", "key_end", "response_start", "response_end", "choice")

RowId = tuple[str, str, int | None, int | None, int | None, int | None]


def row_id(document: str, type: str, row: DiffRow) -> RowId:
    """The identity of a diff row in a decisions file."""
    k, r = row.key, row.response
    return (document, type, k.start if k else None, k.end if k else None, r.start if r else None,
            r.end if r else None)


def read_decisions(path: str | Path) -> dict[RowId, str]:
    """Read a decisions file (see the module docstring); a malformed row is an error naming its line."""
    p = Path(path)
    reader = csv.DictReader(read_text(p).splitlines())
    missing = [c for c in DECISION_COLUMNS if c not in (reader.fieldnames or [])]
    if missing:
        raise FormatError(f"a decisions file needs the columns {', '.join(DECISION_COLUMNS)}; missing "
                          f"{', '.join(missing)}", path=p, line=1)
    out: dict[RowId, str] = {}
    for n, rec in enumerate(reader, 2):
        choice = (rec["choice"] or "").strip().lower()
        if choice not in CHOICES:
            raise FormatError(f"choice must be one of {', '.join(CHOICES)}, got {rec['choice']!r}", path=p, line=n)
        try:
            spans = tuple(int(rec[c]) if (rec[c] or "").strip() else None for c in DECISION_COLUMNS[2:6])
        except ValueError:
            raise FormatError("offsets must be whole numbers or empty", path=p, line=n) from None
        if (spans[0] is None) != (spans[1] is None) or (spans[2] is None) != (spans[3] is None) or \
                spans[0] is None and spans[2] is None:
            raise FormatError("give the key span, the response span or both, each as a start and an end",
                              path=p, line=n)
        rid: RowId = (rec["document"], rec["type"], spans[0], spans[1], spans[2], spans[3])
        if rid in out and out[rid] != choice:
            raise FormatError(f"the row {rid} is decided twice, differently", path=p, line=n)
        out[rid] = choice
    return out


def write_decisions(decisions: Mapping[RowId, str], path: str | Path) -> None:
    """Write decisions as CSV (the format :func:`read_decisions` reads)."""
    from .._support.safe_paths import atomic_write

    with atomic_write(path, newline="") as fh:     # whole or not at all
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(DECISION_COLUMNS)
        for rid, choice in decisions.items():
            w.writerow(["" if x is None else x for x in rid] + [choice])


class Adjudication(NamedTuple):
    """The adjudicated corpus, the choice of every row, and how many rows each source decided."""

    corpus: Corpus
    choices: dict[RowId, str]
    decided_by: dict[str, int]


def _parse_rule(rule: str | tuple[str, str]) -> tuple[str, str | None]:
    if isinstance(rule, tuple):
        side, typ = rule
    elif rule == "matches":
        return ("matches", None)
    else:
        side, sep, typ = rule.partition(":")
        if not sep:
            raise OptionError(f"unknown rule {rule!r}; expected matches, key:TYPE or response:TYPE")
    if side not in ("key", "response") or not typ:
        raise OptionError(f"unknown rule {rule!r}; expected matches, key:TYPE or response:TYPE")
    return (side, typ)


def adjudicate(diff: CorpusDiff, *, rules: Iterable[str | tuple[str, str]] = ("matches",),
               decisions: Mapping[RowId, str] | None = None, rest: str = "none") -> Adjudication:
    """Build the adjudicated corpus from a diff (see the module docstring).

    Raises :class:`~accord.errors.OptionError` for an unknown rule or choice, and for a
    decision that names no row of the diff (so a decisions file made for another diff is
    not silently ignored).
    """
    if rest not in CHOICES:
        raise OptionError(f"rest must be one of {', '.join(CHOICES)}, got {rest!r}")
    spanless = sorted({typ for by_type in diff.diffs.values() for typ, td in by_type.items() for row in td.rows
                       for a in (row.key, row.response) if a is not None and a.start is None})
    if spanless:
        # a kept relation would point to the other side's arguments when those were not kept: not adjudicated
        raise OptionError(f"adjudication keeps or drops spanned annotations; the relations or events of "
                          f"{', '.join(spanless)} cannot be adjudicated (accord diff compares them): leave out their "
                          "types, or adjudicate only their arguments' types")
    parsed = [_parse_rule(r) for r in rules]
    for side, typ in parsed:
        if typ is not None and typ not in diff.types:
            raise OptionError(f"rule {side}:{typ}: no type {typ!r} in the diff; its types are "
                              f"{', '.join(diff.types)}")
    decisions = dict(decisions or {})
    choices: dict[RowId, str] = {}
    decided_by = {"rest": 0, "rules": 0, "decisions": 0}
    kept: dict[str, list[Annotation]] = {}
    for doc in diff.documents:
        out = kept.setdefault(doc, [])
        for typ, td in diff.diffs[doc].items():
            for row in td.rows:
                rid = row_id(doc, typ, row)
                choice, source = rest, "rest"
                for side, rule_type in parsed:
                    if side == "matches":
                        if row.outcome == "correct":
                            choice, source = "key", "rules"
                    elif rule_type == typ:
                        choice, source = side, "rules"
                if rid in decisions:
                    choice, source = decisions.pop(rid), "decisions"
                choices[rid] = choice
                decided_by[source] += 1
                if choice in ("key", "both") and row.key is not None:
                    out.append(row.key)
                if choice in ("response", "both") and row.response is not None:
                    out.append(row.response)
    if decisions:
        first = next(iter(decisions))
        raise OptionError(f"{len(decisions)} decision(s) match no row of the diff, e.g. {first}")
    docs = [Document(d, tuple(sorted(anns, key=lambda a: (a.start, a.end, a.label))), text=diff.texts.get(d))
            for d, anns in kept.items()]
    return Adjudication(Corpus(docs), choices, decided_by)
