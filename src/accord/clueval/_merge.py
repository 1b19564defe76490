"""The combined model: several BIO layers merged into one sequence of spans with one attribute per layer.

The spans of all layers of a document are one set; two spans are connected when they
overlap (exact matches included); each connected component, an *overlap component*, becomes
one span, its hull ``[min start, max end)``. Components are the engine's overlap blocks
(:func:`accord.match.blocks.overlap_blocks`): one sweep over the spans sorted by start, a
span opening a new component when it starts at or after the furthest end seen so far
(spans that merely touch stay apart). That is linear after the sort, where an adjacency
matrix of all pairs would be quadratic. The majority values come from one sort too
(:func:`accord.match.coverage.group_majority`).

Each layer's value on a merged span is its label with most tokens among that layer's
spans in the component (the spans of one layer never overlap, so a token counts once);
a tie goes to the label of the layer's leftmost span among the tied labels. A layer with
no span in the component has no value there. When every layer holds the same spans, the
merged spans are those spans, each with every layer's label.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..errors import OptionError
from ..match.axis import layered_tables
from ..match.blocks import overlap_blocks
from ..match.coverage import group_majority
from ..model import Annotation, Attributes, Corpus

__all__ = ["merge_layers"]


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
    ids = list(first)
    tables, labels, bases = layered_tables(
        [[layers[n][doc_id] for n in names] for doc_id in ids], names, doc_ids=ids,
        where=lambda doc_id, layer: f"layer {layer!r}, document {doc_id!r}")
    start = np.concatenate([t.start for t in tables])
    end = np.concatenate([t.end for t in tables])
    label = np.concatenate([t.label for t in tables])
    doc = np.concatenate([t.doc for t in tables])
    layer = np.repeat(np.arange(len(names)), [len(t) for t in tables])
    comp = overlap_blocks(start, end)          # numbered in order of position, so by document too
    n_comp = int(comp.max()) + 1 if len(comp) else 0
    hull_start = np.full(n_comp, np.iinfo(np.int64).max)
    hull_end = np.zeros(n_comp, dtype=np.int64)
    comp_doc = np.zeros(n_comp, dtype=np.int64)
    np.minimum.at(hull_start, comp, start)
    np.maximum.at(hull_end, comp, end)
    comp_doc[comp] = doc
    groups, winners = group_majority(comp * len(names) + layer, label, end - start, start)
    values: list[dict[str, str]] = [{} for _ in range(n_comp)]
    for g, w in zip(groups.tolist(), winners.tolist()):
        c, k = divmod(g, len(names))
        values[c][names[k]] = labels[w]
    bounds = np.searchsorted(comp_doc, np.arange(len(ids) + 1)).tolist()
    hs, he, base = hull_start.tolist(), hull_end.tolist(), bases.tolist()
    docs = []
    for d, document in enumerate(first.values()):
        anns = []
        for c in range(bounds[d], bounds[d + 1]):
            ordered = {name: values[c][name] for name in names if name in values[c]}
            head = next(ordered[n] for n in names_for_label if n in ordered)
            anns.append(Annotation(head, hs[c] - base[d], he[c] - base[d], Attributes(ordered), None))
        docs.append(document.replace_annotations(anns))
    return Corpus(docs, name=first.name)
