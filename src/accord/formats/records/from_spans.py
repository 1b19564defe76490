"""Relation and event records from annotation files (brat, MAT JSON, XMI, Label Studio...) for ``accord structured``.

:func:`records_from_corpus` turns the annotation model's spanless annotations into the records of
:mod:`accord.formats.records.records`, so that any structured metric runs on any format that holds relations or events:

* ``relations``: a spanless annotation pointing to exactly two spans (its first two annotation-valued
  attributes, in the order the file gives them: brat's ``Arg1``/``Arg2``, Label Studio's and doccano's
  ``from``/``to``, INCEpTION's ``Governor``/``Dependent``) is ``{"type": label, "subj": span, "obj": span}``;
* ``events``: a spanless annotation with a ``trigger`` (brat's ``E`` lines) is ``{"trig": {"mention": the
  trigger's span, "type": label}, "args": [{"mention": span, "role": attribute}, ...]}``; an argument that is
  itself an event stands for its trigger's span.

Spans are half-open character (or token) offsets, the same convention on both sides.
"""

from __future__ import annotations

from typing import Any

from ...errors import FormatError
from ...model import Annotation, Corpus, is_aggregate
from .records import Mention, Records

__all__ = ["records_from_corpus"]


def _span(a: Annotation, doc_id: str, what: str) -> Mention:
    if a.start is not None:
        assert a.end is not None  # make_annotation: a start comes with an end
        return Mention(a.start, a.end)
    trigger = a.get("trigger")
    if isinstance(trigger, Annotation) and trigger.start is not None:
        assert trigger.end is not None  # make_annotation: a start comes with an end
        return Mention(trigger.start, trigger.end)
    raise FormatError(f"document {doc_id!r}: {what} points to {a.label!r}, which has neither a span nor a "
                      "trigger", path=None)


def records_from_corpus(corpus: Corpus, kind: str) -> Records:
    """``{document: [record, ...]}`` of ``relations`` or ``events`` (see the module docstring)."""
    if kind not in ("relations", "events"):
        raise FormatError(f"annotation files give relations and events records, not {kind!r}", path=corpus.name)
    out = Records()
    kinds: set[str] = set()
    for doc in corpus.documents:
        records: list[dict[str, Any]] = []
        for a in doc.annotations:
            if a.start is not None:
                continue
            pointed = [(name, v) for name, v in a.attributes.items() if isinstance(v, Annotation)]
            if isinstance(a.get("trigger"), Annotation):
                kinds.add("events")
                if kind == "events":
                    args = []
                    for name, value in a.attributes.items():
                        targets = value if is_aggregate(value) else (value,)
                        for t in targets:
                            if isinstance(t, Annotation) and name != "trigger":
                                args.append({"mention": _span(t, doc.id, f"{a.label} {name}"), "role": name})
                    records.append({"trig": {"mention": _span(a.get("trigger"), doc.id, a.label), "type": a.label},
                                    "args": args})
            elif len(pointed) >= 2 and "members" not in a.attributes:
                kinds.add("relations")
                if kind == "relations":
                    (_, subj), (_, obj) = pointed[:2]
                    records.append({"type": a.label, "subj": _span(subj, doc.id, a.label),
                                    "obj": _span(obj, doc.id, a.label)})
        out[doc.id] = records
    out.kinds = frozenset(kinds)
    return out
