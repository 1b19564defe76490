"""The combined model: several BIO layers merged into one sequence of spans with one attribute per layer.

The spans of all layers of a document are one set; two spans are connected when they
overlap (exact matches included); each connected component, an *overlap component*, becomes
one span, its hull ``[min start, max end)``. Components are found by one sweep over the
spans sorted by start: a span opens a new component when it starts at or after the
furthest end seen so far (spans that merely touch stay apart). That is linear after the
sort, where an adjacency matrix of all pairs would be quadratic.

Each layer's value on a merged span is its label with most tokens among that layer's
spans in the component (the spans of one layer never overlap, so a token counts once);
a tie goes to the label of the layer's leftmost span among the tied labels. A layer with
no span in the component has no value there. When every layer holds the same spans, the
merged spans are those spans, each with every layer's label.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from ..errors import OptionError
from ..match.coverage import OverlappingSpansError, check_disjoint
from ..model import Annotation, Attributes, Corpus

__all__ = ["merge_layers", "overlap_components"]


def overlap_components(start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """Component ids of spans sorted by start: a new component where a span starts at or after
    every earlier span's end."""
    n = len(start)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    reach = np.maximum.accumulate(end)
    new = np.empty(n, dtype=bool)
    new[0] = True
    new[1:] = start[1:] >= reach[:-1]
    return np.cumsum(new) - 1


def merge_layers(layers: Mapping[str, Corpus], *, label_from: str | None = None) -> Corpus:
    """Merge the span layers of the same documents into one corpus of combined spans.

    Parameters
    ----------
    layers : mapping of layer name to Corpus
        The same documents (ids and tokens) in every layer; each layer's spans must not
        overlap within a document (checked).
    label_from : str, optional
        The layer whose value becomes the merged annotation's label (default the first
        layer; where it has no value, the next layer that has one).

    Returns
    -------
    Corpus
        The first layer's documents, each merged span an annotation whose attributes map
        every layer with a value on it to that value.
    """
    names = list(layers)
    if not names:
        raise OptionError("merge needs at least one layer")
    first = layers[names[0]]
    for name in names[1:]:
        if list(layers[name]) != list(first):
            raise OptionError(f"layer {name!r} does not hold the same documents as layer {names[0]!r}")
    if label_from is not None:
        if label_from not in names:
            raise OptionError(f"no layer {label_from!r} to take labels from; layers: {', '.join(names)}")
        names_for_label = [label_from] + [n for n in names if n != label_from]
    else:
        names_for_label = names
    docs = []
    for doc_id, doc in first.items():
        spans: list[tuple[int, int, int, str]] = []
        for k, name in enumerate(names):
            layer_doc = layers[name][doc_id]
            own = sorted((a.start, a.end, a.label) for a in layer_doc.annotations if a.start is not None)
            s = np.asarray([x[0] for x in own], dtype=np.int64)
            e = np.asarray([x[1] for x in own], dtype=np.int64)
            bad = check_disjoint(s, e)
            if bad >= 0:
                raise OverlappingSpansError(f"layer {name!r}, document {doc_id!r}: the span {own[bad][2]} "
                                            f"[{own[bad][0]}, {own[bad][1]}) overlaps the one before it or is "
                                            "empty; each layer must be a sequence of separate spans")
            spans.extend((a, b, k, lab) for a, b, lab in own)
        docs.append(doc.replace_annotations(_merge_document(spans, names, names_for_label)))
    return Corpus(docs, name=first.name)


def _merge_document(spans: Sequence[tuple[int, int, int, str]], names: list[str],
                    names_for_label: list[str]) -> list[Annotation]:
    if not spans:
        return []
    spans = sorted(spans)
    start = np.fromiter((x[0] for x in spans), dtype=np.int64, count=len(spans))
    end = np.fromiter((x[1] for x in spans), dtype=np.int64, count=len(spans))
    comp = overlap_components(start, end)
    heads = np.flatnonzero(np.r_[True, comp[1:] != comp[:-1]])
    hull_start = start[heads]
    hull_end = np.maximum.reduceat(end, heads)
    # votes[(component, layer)] = {label: [tokens, first start]}
    votes: dict[tuple[int, int], dict[str, list[int]]] = {}
    for c, (a, b, k, lab) in zip(comp.tolist(), spans):
        tally = votes.setdefault((c, k), {})
        if lab in tally:
            tally[lab][0] += b - a
        else:
            tally[lab] = [b - a, a]
    out = []
    for c in range(len(heads)):
        values = {}
        for k, name in enumerate(names):
            tally = votes.get((c, k))
            if tally:
                values[name] = min(tally.items(), key=lambda kv: (-kv[1][0], kv[1][1]))[0]
        label = next(values[n] for n in names_for_label if n in values)
        out.append(Annotation(label, int(hull_start[c]), int(hull_end[c]), Attributes(values), None))
    return out
