"""CLUEval as a :class:`~accord.result.Result`: one measure per leniency level and mode."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..match.coverage import CLASS_NAMES
from ..result import ClueKind, CountTable, Measure, Result, ResultTable, label_table
from ..result._sentence_units import SentenceIndex
from ._evaluate import LEVELS, ClueEvaluation, leniency_level

INTERNAL = frozenset(("lines", "source", "cpos", "token_ids", "sentence_attributes", "structures", "text_attributes"))
"""Metadata keys a reader keeps for itself (VRT's), never a field to slice by."""

__all__ = ["ClueResult", "clueval_result", "measure_corpora", "measure_name", "attribute_as_label",
           "check_attributes", "metadata_measures", "metadata_slicings", "NO_VALUE"]


def measure_name(level: int, labelled: bool) -> str:
    """``exact``, ``superset``, ``tiling``, ``overlap``; ``-unlabelled`` when labels are ignored."""
    return LEVELS[level - 1] + ("" if labelled else "-unlabelled")


class ClueResult(Result):
    """``accord score --match clueval``: the four leniency levels, labelled and unlabelled (the chosen
    one first), and the coverage classes of each side (``classes``: counts by document and label)."""

    def __init__(self, measures: Mapping[str, Measure], classes: Mapping[str, CountTable], **kwargs: Any):
        super().__init__("score", "clueval", measures, nested=True, **kwargs)
        self.classes = dict(classes)

    def _merged_into(self, out: Result, other: Result) -> None:
        assert isinstance(out, ClueResult) and isinstance(other, ClueResult)
        out.classes = {side: t + other.classes[side] for side, t in self.classes.items()}

    def _reorder_extras(self, documents: list[str]) -> None:
        self.classes = {side: t.take(documents) for side, t in self.classes.items()}

    def class_counts(self, side: str, label: str | None = None) -> dict[str, int]:
        """Spans of ``side`` in each coverage class, of one label or all."""
        t = self.classes[side]
        row = t.rows.index(("all",) if label is None else ("label", label))
        return dict(zip(CLASS_NAMES, t.values[:, row].sum(axis=0).tolist()))

    @property
    def tables(self) -> list[ResultTable]:
        """The coverage classes of each side's spans (recall: the gold spans; precision: the predicted ones)."""
        rows = []
        for side, name in (("gold", "gold"), ("pred", "predicted")):
            counts = self.class_counts(side)
            rows.append((name, *(str(counts[k]) for k in CLASS_NAMES), str(sum(counts.values()))))
        return [*super().tables, ResultTable(
            "coverage classes", ("side", *CLASS_NAMES, "total"), rows,
            caption="coverage classes (recall: gold spans; precision: predicted spans)")]

    def extras_dict(self) -> dict[str, Any]:
        classes = {}
        for side, t in self.classes.items():
            classes[side] = {"totals": self.class_counts(side),
                             "by_label": {row[1]: self.class_counts(side, row[1]) for row in t.rows[1:]}}
        return {"classes": classes}


def clueval_result(ev: ClueEvaluation, level: int | str = 1, labelled: bool = True, *,
                   options: Mapping[str, Any] | None = None, inputs: Mapping[str, Any] | None = None) -> ClueResult:
    """The result of a CLUEval evaluation: counts of each level by document and label."""
    level = leniency_level(level)
    kind = ClueKind(ev.beta, ev.zero_division)
    docs = [d.id for d in ev.documents]
    g, p = ev.gold, ev.pred
    index = SentenceIndex([(d.gold, d.pred) for d in ev.documents])
    bases = np.fromiter((d.base for d in ev.documents), np.int64, len(ev.documents))
    g_unit = index.units(g.doc, g.start - bases[g.doc]) if len(g) else np.zeros(0, dtype=np.int64)
    p_unit = index.units(p.doc, p.start - bases[p.doc]) if len(p) else np.zeros(0, dtype=np.int64)
    measures = {}
    order = [(level, labelled)] + [x for x in ev.levels() if x != (level, labelled)]
    for lvl, lab in order:
        gh, ph = ev.hits("gold", lvl, lab), ev.hits("pred", lvl, lab)
        table = label_table(kind.fields, docs, ev.labels, [
            (g.doc, g.label, None), (p.doc, p.label, None), (g.doc[gh], g.label[gh], None),
            (p.doc[ph], p.label[ph], None)],
            sentences=(index.sizes, [g_unit, p_unit, g_unit[gh], p_unit[ph]]) if index.known else None)
        measures[measure_name(lvl, lab)] = Measure(kind, table)
    classes = {}
    for side, spans, cover in (("gold", g, ev.recall_cover), ("pred", p, ev.precision_cover)):
        columns = [(spans.doc[cover.klass == k], spans.label[cover.klass == k], None)
                   for k in range(len(CLASS_NAMES))]
        classes[side] = label_table(CLASS_NAMES, docs, ev.labels, columns)
    opts = {"leniency": level, "leniency_name": LEVELS[level - 1], "labelled": labelled, **kind.options(),
            **(options or {})}
    result = ClueResult(measures, classes, options=opts, inputs=inputs)
    _check(result, ev)
    return result


def _check(result: ClueResult, ev: ClueEvaluation) -> None:
    from ..errors import TallyError

    for name, m in result.measures.items():
        t = m.counts()
        if int(t[0]) != len(ev.gold) or int(t[1]) != len(ev.pred) or t[2] > t[0] or t[3] > t[1]:
            raise TallyError(f"CLUEval {name}: a span was lost or counted twice ({t.tolist()})")
    for side, n in (("gold", len(ev.gold)), ("pred", len(ev.pred))):
        if int(np.sum(result.classes[side].values[:, 0])) != n:
            raise TallyError(f"coverage classes of the {side} side do not add up to its {n} spans")


NO_VALUE = "(none)"
"""The label a span scores under for an attribute it has no value of (a merged span no span of that layer was in)."""


def measure_corpora(gold: Any, pred: Any, options: Any) -> ClueResult:
    """The ``clueval`` mode (:mod:`accord.modes`): both sides' spans classified, every leniency level counted.

    With ``attributes`` (``--attributes risk``: spans carrying several attributes, as the combined model's merged
    spans do), each attribute is scored too, on the same spans, as if it were their label: the measures
    ``ATTRIBUTE:LEVEL`` (``risk:exact`` ... ``risk:overlap``, labelled: unlabelled, they are the label's) beside
    the label's, each by value (``by_label``); a span without a value of the attribute scores under the value
    :data:`NO_VALUE`."""
    from ._evaluate import evaluate_spans

    attributes = tuple(dict.fromkeys((options.settings or {}).get("attributes") or ()))
    fields = metadata_slicings((options.settings or {}).get("slices"))
    if attributes:
        check_attributes(attributes, gold, pred)
    ev = evaluate_spans(gold, pred, allow_missing=options.allow_missing, beta=options.beta,
                        zero_division=options.zero_division)
    extra = {**({"attributes": list(attributes)} if attributes else {}),
             **({"slices": [f"metadata:{f}" for f in fields]} if fields else {})}
    out = clueval_result(ev, options.leniency, options.labelled, options={**options.options, **extra},
                         inputs=options.inputs)
    for name in attributes:
        by_value = evaluate_spans(attribute_as_label(gold, name), attribute_as_label(pred, name),
                                  allow_missing=options.allow_missing, beta=options.beta,
                                  zero_division=options.zero_division)
        scored = clueval_result(by_value, options.leniency, True)
        for measure, m in scored.measures.items():
            if not measure.endswith("-unlabelled"):     # without labels an attribute scores as the label does
                out.measures[f"{name}:{measure}"] = m
    for name, m in metadata_measures(ev, fields, options.leniency, options.labelled).items():
        out.measures[name] = m
    out.source = ev
    return out


def metadata_slicings(slices: Any) -> tuple[str, ...]:
    """The metadata fields of ``slices`` (``metadata:FIELD``); any other slicing is the pairs mode's: an error."""
    from ..errors import OptionError

    names = [x.strip() for x in (slices.split(",") if isinstance(slices, str) else (slices or ()))]
    other = [x for x in names if not (x.startswith("metadata:") and x[len("metadata:"):])]
    if other:
        raise OptionError(f"--match clueval slices by metadata:FIELD; {', '.join(other)} slice the pairs mode's "
                          "entities")
    return tuple(dict.fromkeys(x[len("metadata:"):] for x in names))


def _span_values(ev: ClueEvaluation, side: str, field: str) -> tuple[np.ndarray, bool]:
    """Each span's value of a metadata field: its document's (``<text>`` attributes), else its sentence's
    (``<s>`` attributes, ``metadata["sentence_attributes"]``); None where it has none; and whether any had one."""
    table = ev.gold if side == "gold" else ev.pred
    out = np.full(len(table), None, dtype=object)
    found = False
    for k, pair in enumerate(ev.documents):
        doc = pair.document
        rows = np.flatnonzero(table.doc == k)
        value = doc.metadata.get(field) if field not in INTERNAL else None
        if value is not None:
            out[rows] = str(value)
            found = True
            continue
        attrs = doc.metadata.get("sentence_attributes")
        if not attrs or doc.sentences is None or not len(rows):
            found = found or bool(attrs and any(field in a for a in attrs))
            continue
        starts = np.asarray([s for s, _ in doc.sentences], dtype=np.int64)
        at = np.searchsorted(starts, table.start[rows] - pair.base, side="right") - 1
        for row, sentence in zip(rows.tolist(), at.tolist()):
            v = attrs[sentence].get(field) if 0 <= sentence < len(attrs) else None
            if v is not None:
                out[row] = str(v)
                found = True
    return out, found


def metadata_measures(ev: ClueEvaluation, fields: tuple[str, ...], level: int | str, labelled: bool
                      ) -> dict[str, Measure]:
    """``FIELD=VALUE`` measures at the chosen level: the counts of the spans whose document (or sentence) has that
    value of the field, over the same documents as the other measures (so the bootstrap gives each its interval);
    spans without a value are ``FIELD=(none)``.

    Raises
    ------
    OptionError
        A field that no document or sentence has.
    """
    from ..errors import OptionError

    out: dict[str, Measure] = {}
    if not fields:
        return out
    level = leniency_level(level)
    kind = ClueKind(ev.beta, ev.zero_division)
    docs = [d.id for d in ev.documents]
    g, p = ev.gold, ev.pred
    gh, ph = ev.hits("gold", level, labelled), ev.hits("pred", level, labelled)
    index = SentenceIndex([(d.gold, d.pred) for d in ev.documents])
    bases = np.fromiter((d.base for d in ev.documents), np.int64, len(ev.documents))
    g_unit = index.units(g.doc, g.start - bases[g.doc]) if len(g) else np.zeros(0, dtype=np.int64)
    p_unit = index.units(p.doc, p.start - bases[p.doc]) if len(p) else np.zeros(0, dtype=np.int64)
    for field in fields:
        (gv, g_found), (pv, p_found) = _span_values(ev, "gold", field), _span_values(ev, "pred", field)
        if not (g_found or p_found):
            known = sorted({k for d in ev.documents for k in d.document.metadata if k not in INTERNAL}
                           | {k for d in ev.documents for a in d.document.metadata.get("sentence_attributes") or ()
                              for k in a})
            raise OptionError(f"slices metadata:{field}: no document or sentence has the field {field!r} (they have "
                              f"{', '.join(known) or 'no metadata'})")
        gv = np.array([NO_VALUE if v is None else v for v in gv.tolist()], dtype=object)
        pv = np.array([NO_VALUE if v is None else v for v in pv.tolist()], dtype=object)
        for value in sorted(set(gv.tolist()) | set(pv.tolist())):
            gm, pm = gv == value, pv == value
            table = label_table(kind.fields, docs, ev.labels, [
                (g.doc[gm], g.label[gm], None), (p.doc[pm], p.label[pm], None),
                (g.doc[gh & gm], g.label[gh & gm], None), (p.doc[ph & pm], p.label[ph & pm], None)],
                sentences=(index.sizes, [g_unit[gm], p_unit[pm], g_unit[gh & gm], p_unit[ph & pm]])
                if index.known else None)
            out[f"{field}={value}"] = Measure(kind, table)
    return out


def check_attributes(names: tuple[str, ...], *corpora: Any) -> None:
    """An :class:`~accord.errors.OptionError` for a name no span of ``corpora`` has as an attribute."""
    from .._support.names import check_names

    found = {k for corpus in corpora for doc in corpus.documents for a in doc.annotations for k in a.attributes}
    check_names(list(names), found, "attribute", "--attributes")


def attribute_as_label(corpus: Any, name: str) -> Any:
    """The corpus with each span labelled by its value of attribute ``name`` (:data:`NO_VALUE` without one)."""
    from ..model import Corpus

    def value(a: Any) -> str:
        v = a.attributes.get(name)
        return NO_VALUE if v is None else str(v)
    return Corpus([doc._replace(annotations=tuple(a._replace(label=value(a)) for a in doc.annotations))
                   for doc in corpus.documents], name=corpus.name)
