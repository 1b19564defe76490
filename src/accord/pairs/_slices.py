"""Slices of the pairs mode: the same pairing counted again over parts of the items, each part a measure of the
result (``accord score --slices nesting,length,seen``).

Every slice is a :class:`~accord.result.Measure` of :class:`~accord.result.PairsKind` with its own count table
(documents x rows x counts; rows: every item of the slice, then its labels), so that intervals, the JSON, the
CSV and the tables show it as any other measure. A slice is named ``SLICING:VALUE``:

- ``nesting:flat``, ``nesting:nested``, ``nesting:outer``, ``nesting:inner``: how an entity sits among the
  entities of its own side in its document, as nested NER papers split them. An entity is *inner* when another
  entity's span contains its span (Gu 2006, "Recognizing nested named entities in GENIA corpus", BioNLP; Ju et
  al. 2018, NAACL: entities embedded in longer ones), *outer* otherwise (the outermost or top-level entities of
  Finkel and Manning 2009, EMNLP, and Shibuya and Hovy 2020, TACL); *nested* when it contains another entity or
  is contained in one, *flat* otherwise (neither). Containment is of spans (a discontinuous span by its extent):
  ``b.start <= a.start and a.end <= b.end`` with the two spans not equal; entities of one span under two labels,
  and entities that cross without containing, are not nested by that; an entity without a span is flat and outer.
  flat and nested part the items, and so do outer and inner.
- ``length:BIN``: the entity's length in tokens (the tokens of a document of tokens; the whitespace-separated words
  of the covered text in a document of text; a discontinuous span: of its pieces), in bins ``1, 2, 3, 4+`` by
  default or the bins given (``1,2-3,4+``: contiguous, the first from 0 or 1, the last open). An entity of no
  token (without a span, or over spaces) counts in the first bin.
- ``seen:seen``, ``seen:unseen``: whether the entity's (text, label) is an entity of the training corpus (``train``):
  the covered text with its whitespace runs made single spaces, and the label as written.

A gold item counts in the slice of its own class among the gold entities, a predicted item in that of its class
among the predicted entities; a match counts once, in its gold item's slice (as a match counts under its gold
item's label), so a slice's gold count is always its gold entities, and its predicted count is its predicted
entities but for the matches whose two items fall in different slices (which the nesting slices can have: the
system may miss the entity that made a gold entity inner).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._support.surface import spelled
from ..errors import OptionError
from ..match.engine import DocumentAlignment
from ..model import Annotation, Document
from ..result import ALL, CountTable, Measure, PairsKind, ResultTable, SentenceCounts
from ..result._sentence_units import SentenceIndex
from ..result._table import row_order
from ._report import Report

__all__ = ["SLICINGS", "LengthBins", "SlicedReport", "TrainingSet", "check_slices", "nesting_classes",
           "slice_measures", "slice_options", "sliced", "token_length"]

SLICINGS = ("nesting", "length", "seen")
"""The slicings ``--slices`` knows."""

NESTING = ("flat", "nested", "outer", "inner")

_GOLD_FIELD = np.array([0, 1, 3], dtype=np.int64)    # MATCH, CLASH, UNPAIRED -> match, gold_clash, missing
_PRED_FIELD = np.array([-1, 2, 4], dtype=np.int64)   # -> (counted on the gold side), pred_clash, spurious

CAPTIONS = {
    "nesting": "nesting (each side's entities: inner = inside another entity's span, outer = not; nested = inner or "
               "containing another, flat = neither)",
    "length": "length in tokens (words of the covered text in documents of text)",
    "seen": "seen in training ((text, label) of an entity of {train}) or not",
}


@dataclass(frozen=True)
class LengthBins:
    """Bins of entity length: ``(low, high, name)``, ``high`` None for the last, open bin."""

    bins: tuple[tuple[int, int | None, str], ...]

    @classmethod
    def parse(cls, spec: str | Sequence[str] | None) -> LengthBins:
        """Bins from ``"1,2,3,4+"`` (the default), ``"1-2,3-5,6+"``... (an :class:`OptionError` unless they are
        contiguous, start at 0 or 1 and end with an open bin ``N+``)."""
        if spec is None:
            spec = "1,2,3,4+"
        parts = [p.strip() for p in (spec.split(",") if isinstance(spec, str) else spec)]
        bins: list[tuple[int, int | None, str]] = []
        for part in parts:
            try:
                if part.endswith("+"):
                    low, high = int(part[:-1]), None
                elif "-" in part:
                    a, _, b = part.partition("-")
                    low, high = int(a), int(b)
                else:
                    low = high = int(part)
            except ValueError:
                raise OptionError(f"{spelled('length_bins')}: {part!r} is not a bin (N, A-B or N+)") from None
            if low < 0 or (high is not None and high < low):
                raise OptionError(f"{spelled('length_bins')}: {part!r} is not a bin of lengths from low to high")
            expected = bins[-1][1] + 1 if bins and bins[-1][1] is not None else None
            if bins and (bins[-1][1] is None or low != expected):
                raise OptionError(f"{spelled('length_bins')} must be contiguous and end with an open bin (N+); "
                                  f"{part!r} follows {bins[-1][2]!r}")
            if not bins and low > 1:
                raise OptionError(f"{spelled('length_bins')} must start at 0 or 1; got {part!r}")
            bins.append((low, high, part))
        if not bins or bins[-1][1] is not None:
            raise OptionError(f"{spelled('length_bins')} must end with an open bin (N+, as in 1,2,3,4+); got {spec!r}")
        return cls(tuple(bins))

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for _, _, name in self.bins)

    def codes(self, lengths: np.ndarray) -> np.ndarray:
        """The bin of each length (a length below the first bin in the first)."""
        lows = np.asarray([low for low, _, _ in self.bins], dtype=np.int64)
        return np.maximum(np.searchsorted(lows, np.asarray(lengths, dtype=np.int64), side="right") - 1, 0)


@dataclass(frozen=True)
class TrainingSet:
    """The (text, label) of every entity of a training corpus (the ``seen`` slices)."""

    name: str
    keys: frozenset[tuple[str, str]]
    entities: int

    @classmethod
    def read(cls, source: Any, fmt: str | None = None, read_options: Mapping[str, Any] | None = None) -> TrainingSet:
        """The training entities of a path (read in ``fmt``, else sniffed) or a corpus."""
        from ..pipeline import source_name
        from ..pipeline._read import read_corpus

        if isinstance(source, TrainingSet):
            return source
        corpus = read_corpus(source, fmt, dict(read_options or {}), "train")
        keys: set[tuple[str, str]] = set()
        entities = 0
        for doc in corpus.values():
            for ann in doc.annotations:
                if ann.start is not None:
                    entities += 1
                    keys.add(entity_key(ann, doc))
        return cls(source_name(source), frozenset(keys), entities)


def entity_key(ann: Annotation, doc: Document | None) -> tuple[str, str]:
    """An entity's (text, label): the covered text of its pieces, whitespace runs made single spaces."""
    if doc is None or ann.start is None:
        return "", ann.label
    return " ".join(" ".join(doc.surface(a, b) for a, b in ann.pieces).split()), ann.label


def token_length(ann: Annotation, doc: Document | None) -> int:
    """An entity's length in tokens: the tokens it spans in a document of tokens, the words (whitespace-separated)
    of its covered text in a document of text, its offsets in a document of neither; 0 without a span."""
    if ann.start is None:
        return 0
    if doc is not None and doc.text is not None:
        return sum(len(doc.text[a:b].split()) for a, b in ann.pieces)
    return sum(b - a for a, b in ann.pieces)


def nesting_classes(anns: Sequence[Annotation]) -> tuple[np.ndarray, np.ndarray]:
    """``(inner, nested)`` boolean arrays of ``anns``: inside another entity's span; inside one or containing one
    (spans as extents; equal spans do not contain each other; spanless entities neither)."""
    n = len(anns)
    inner, nested = np.zeros(n, dtype=bool), np.zeros(n, dtype=bool)
    spanned = [k for k, a in enumerate(anns) if a.start is not None]
    if len(spanned) < 2:
        return inner, nested
    pairs = np.array([(anns[k].start, anns[k].end) for k in spanned], dtype=np.int64)
    spans, where = np.unique(pairs, axis=0, return_inverse=True)
    where = where.reshape(-1)
    start, end = spans[:, 0], spans[:, 1]
    # by start, longest first: a span is inside another iff an earlier one ends at or after its end
    order = np.lexsort((-end, start))
    ends = end[order]
    before = np.concatenate([[np.iinfo(np.int64).min], np.maximum.accumulate(ends)[:-1]])
    is_inner = np.zeros(len(spans), dtype=bool)
    is_inner[order] = before >= ends
    # by start from the last, shortest first: a span contains another iff an earlier one ends at or before its end
    order = np.lexsort((end, -start))
    ends = end[order]
    before = np.concatenate([[np.iinfo(np.int64).max], np.minimum.accumulate(ends)[:-1]])
    has_inner = np.zeros(len(spans), dtype=bool)
    has_inner[order] = before <= ends
    at = np.asarray(spanned, dtype=np.int64)
    inner[at] = is_inner[where]
    nested[at] = (is_inner | has_inner)[where]
    return inner, nested


def check_slices(slices: Iterable[str] | str | None, train: Any, length_bins: Any) -> tuple[str, ...]:
    """The slicings asked for, in order and once each (an :class:`OptionError` for an unknown one, ``seen``
    without ``train``, ``train`` without ``seen``, bins without ``length``)."""
    names = [s.strip() for s in (slices.split(",") if isinstance(slices, str) else (slices or ()))]
    unknown = [s for s in names if s not in SLICINGS]
    if unknown:
        raise OptionError(f"{spelled('slices')} must be among {', '.join(SLICINGS)}; "
                          f"got {', '.join(map(repr, unknown))}"
                          + (" (metadata:FIELD slices --match clueval)" if any(
                              s.startswith("metadata:") for s in unknown) else ""))
    chosen = tuple(dict.fromkeys(names))
    if "seen" in chosen and train is None:
        raise OptionError(f"{spelled('slices', 'seen')} needs the training corpus: "
                          f"{spelled('train', cli_value='FILE')}")
    if train is not None and "seen" not in chosen:
        raise OptionError(f"{spelled('train', cli_value='FILE')} is read for {spelled('slices', 'seen')} only; add "
                          f"seen to {spelled('slices')}")
    if length_bins is not None and "length" not in chosen:
        raise OptionError(f"{spelled('length_bins')} applies to {spelled('slices', 'length')}; add length to "
                          f"{spelled('slices')}")
    return chosen


def slice_names(slicings: Sequence[str], bins: LengthBins) -> list[tuple[str, str]]:
    """``(slicing, value)`` of every slice, in order."""
    values = {"nesting": NESTING, "length": bins.names, "seen": ("seen", "unseen")}
    return [(s, v) for s in slicings for v in values[s]]


def slice_measures(alignments: Sequence[DocumentAlignment], documents: Sequence[str], labels: Sequence[str],
                   slicings: Sequence[str], kind: PairsKind, *, bins: LengthBins | None = None,
                   train: TrainingSet | None = None, limitation: frozenset[str] | None = None,
                   sentences: bool = True) -> dict[str, Measure]:
    """The measure of every slice (``SLICING:VALUE``) of aligned documents counted as the pairs mode counts them:
    ``documents`` and ``labels`` in the order of the main tally; ``limitation`` the score profile's labels;
    ``sentences`` whether to keep the counts by sentence (when the gold documents have sentences)."""
    bins = bins or LengthBins.parse(None)
    names = slice_names(slicings, bins)
    position = {(s, v): k for k, (s, v) in enumerate(names)}
    doc_index = {d: k for k, d in enumerate(documents)}
    label_index = {lbl: k for k, lbl in enumerate(labels)}
    first_of: dict[str, DocumentAlignment] = {}
    for al in alignments:
        first_of.setdefault(al.doc_id, al)
    index = SentenceIndex([(first_of[d].gold_doc, first_of[d].pred_doc) for d in documents if d in first_of])
    known = sentences and index.known and len(first_of) == len(documents)
    longest = max((low for low, _, _ in bins.bins), default=0)
    length_at = [position["length", bins.names[c]] for c in bins.codes(np.arange(longest + 1)).tolist()
                 ] if "length" in slicings else []
    # one entry per (item, slice it is in): document, label, field, start, slice
    docs: list[int] = []
    label_codes: list[int] = []
    fields: list[int] = []
    starts: list[int] = []
    slice_of: list[int] = []
    for al in alignments:
        d = doc_index[al.doc_id]
        for anns, scoring, status, field_of, doc in (
                (al.gold, al.gold_label, al.gold_status, _GOLD_FIELD, al.gold_doc or al.pred_doc),
                (al.pred, al.pred_label, al.pred_status, _PRED_FIELD, al.pred_doc or al.gold_doc)):
            if not len(anns):
                continue
            inner = nested = None
            if "nesting" in slicings:
                inner, nested = nesting_classes(anns)
            for i, ann in enumerate(anns):
                f = int(field_of[int(status[i])])
                if f < 0 or (limitation is not None and ann.label not in limitation):
                    continue
                where = []
                for s in slicings:
                    if s == "nesting":
                        assert inner is not None and nested is not None
                        where += [position[s, "nested" if nested[i] else "flat"],
                                  position[s, "inner" if inner[i] else "outer"]]
                    elif s == "length":
                        where.append(length_at[min(token_length(ann, doc), len(length_at) - 1)])
                    else:
                        assert train is not None
                        where.append(position[s, "seen" if entity_key(ann, doc) in train.keys else "unseen"])
                code = label_index[scoring[i]]
                start = -1 if ann.start is None else ann.start
                for w in where:
                    docs.append(d)
                    label_codes.append(code)
                    fields.append(f)
                    starts.append(start)
                    slice_of.append(w)
    doc_arr, label_arr, field_arr, slice_arr = (np.asarray(a, dtype=np.int64) for a in (docs, label_codes, fields,
                                                                                        slice_of))
    unit = index.units(doc_arr, np.asarray(starts, dtype=np.int64)) if known else None
    out: dict[str, Measure] = {}
    n_doc, n_lab = len(documents), len(labels)
    for k, (s, v) in enumerate(names):
        mine = slice_arr == k
        flat = np.bincount((doc_arr[mine] * n_lab + label_arr[mine]) * 5 + field_arr[mine],
                           minlength=n_doc * n_lab * 5).reshape(n_doc, n_lab, 5)
        present = [j for j in range(n_lab) if flat[:, j].any()]
        rows = sorted([ALL, *(("label", labels[j]) for j in present)], key=row_order)
        at = {row: r for r, row in enumerate(rows)}
        values = np.zeros((n_doc, len(rows), 5), dtype=np.int64)
        values[:, [at["label", labels[j]] for j in present]] = flat[:, present]
        values[:, at[ALL]] = flat.sum(axis=1)
        counts = None
        if unit is not None:
            row_of_label = np.full(n_lab, -1, dtype=np.int64)
            row_of_label[present] = [at["label", labels[j]] for j in present]
            u = unit[mine]
            counts = SentenceCounts.from_items(
                index.sizes, np.concatenate([u, u]),
                np.concatenate([row_of_label[label_arr[mine]], np.full(len(u), at[ALL], dtype=np.int64)]),
                np.concatenate([field_arr[mine], field_arr[mine]]), None, len(rows), 5)
        out[f"{s}:{v}"] = Measure(kind, CountTable(kind.fields, tuple(documents), tuple(rows), values, counts))
    return out


def _percent(x: Any, interval: Any = None) -> str:
    text = "—" if x is None or x != x else f"{100 * x:.2f}"
    if interval is not None and interval[0] is not None and interval[1] is not None:
        text += f" [{100 * interval[0]:.1f}, {100 * interval[1]:.1f}]"
    return text


class SlicedReport(Report):
    """A :class:`Report` with slices: its measures are ``pairs`` and then every slice (``nesting:flat``...), its
    tables one per slicing (each slice's counts and rates, with intervals when bootstrapped) before the units'."""

    slicings: tuple[str, ...] = ()

    @property
    def tables(self) -> list[ResultTable]:
        out = []
        ci = self.ci or {}
        train = (self.options.get("train") or {}).get("source", "")
        for slicing in self.options.get("slices", ()):
            rows = []
            for name, measure in self.measures.items():
                if not name.startswith(slicing + ":"):
                    continue
                b = measure.totals()
                intervals = (ci.get(name) or {}).get("rows", {}).get(ALL, {})
                rows.append((name.partition(":")[2], str(b["gold"]), str(b["pred"]), str(b["match"]),
                             str(b["missing"]), str(b["spurious"]),
                             *(_percent(b[k], intervals.get(k)) for k in ("precision", "recall", "f1"))))
            out.append(ResultTable(f"{slicing} slices", ("slice", "gold", "pred", "match", "missing", "spurious",
                                                         "P %", "R %", "F %"), rows,
                                   caption=f"by {CAPTIONS[slicing].format(train=train)}"))
        return out + super().tables


def sliced(report: Report, measures: Mapping[str, Measure], options: Mapping[str, Any]) -> SlicedReport:
    """``report`` with the slices' measures after its own (its JSON then nests them under ``measures``), and the
    slices' options."""
    out = SlicedReport.__new__(SlicedReport)
    out.__dict__.update(report.__dict__)
    out.measures = {**report.measures, **measures}
    out.nested = True
    out.options = {**report.options, **options}
    return out


def slice_options(slicings: Sequence[str], bins: LengthBins | None, train: TrainingSet | None) -> dict[str, Any]:
    """The options that say how the slices were cut: the slicings, the length bins, the training corpus."""
    out: dict[str, Any] = {"slices": list(slicings)}
    if bins is not None:
        out["length_bins"] = list(bins.names)
    if train is not None:
        out["train"] = {"source": train.name, "entities": train.entities, "distinct": len(train.keys)}
    return out
