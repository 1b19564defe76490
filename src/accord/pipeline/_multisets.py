"""Generated output scored without alignment (``--align none``): each document's multiset of (normalised string,
label) against the gold spans' strings and labels, the convention of GoLLIE and UniversalNER."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from ..errors import PairingError
from ..formats.records.generated import KIND, TEXT
from ..model import Annotation, Corpus, Document, make_annotation

__all__ = ["multisets"]


def _gold_string(doc: Document, a: Annotation) -> str:
    """The text a gold span covers (a token file: its tokens joined by spaces)."""
    assert a.start is not None and a.end is not None
    if doc.text is not None:
        return doc.text[a.start:a.end]
    if doc.tokens is not None:
        return " ".join(str(t) for t in doc.tokens[a.start:a.end])
    raise PairingError(f"document {doc.id!r}: the gold side has neither text nor tokens to read its spans' strings")


def multisets(gold: Corpus, pred: Corpus,
              normalize: Sequence[str] | str | None = None) -> tuple[Corpus, Corpus, dict[str, Any]]:
    """Both sides as multisets of (normalised string, label) per document (``--align none``), made into spans that
    every span mode counts as such: per document and string, a gold and a predicted item of the same label share a
    span (as many as the smaller count), the items left share a span with a label of the other side where both
    have some (a label error on the same string), and the rest have spans of their own. So the strict matches are,
    per document, the sum over (string, label) of the smaller of the two counts. Relations are not scored this way
    (a warning counts them)."""
    from ._normalize import normalizer

    norm = normalizer(normalize)
    names = normalize.split(",") if isinstance(normalize, str) else list(normalize or ())
    gold_docs, pred_docs = [], []
    relations = 0
    counts = {"gold_strings": 0, "strings": 0}
    for doc_id in dict.fromkeys([*gold, *pred]):
        g, p = gold.get(doc_id), pred.get(doc_id)
        sides: list[dict[str, list[str]]] = [defaultdict(list), defaultdict(list)]
        if g is not None:
            for a in g.annotations:
                if a.start is not None:
                    sides[0][norm(_gold_string(g, a))].append(a.label)
        if p is not None:
            for a in p.annotations:
                if a.get(KIND) == "entity":
                    sides[1][norm(a.get(TEXT))].append(a.label)
                else:
                    relations += 1
        out: list[list[Annotation]] = [[], []]
        at = 0
        for s in dict.fromkeys([*sides[0], *sides[1]]):
            gl, pl = sorted(sides[0].get(s, ())), sorted(sides[1].get(s, ()))
            counts["gold_strings"] += len(gl)
            counts["strings"] += len(pl)
            left_g, left_p = list(gl), list(pl)
            pairs: list[tuple[str | None, str | None]] = []
            for lab in sorted(set(gl) & set(pl)):
                for _ in range(min(gl.count(lab), pl.count(lab))):
                    left_g.remove(lab)
                    left_p.remove(lab)
                    pairs.append((lab, lab))
            pairs += list(zip(left_g, left_p))
            pairs += [(x, None) for x in left_g[len(left_p):]] + [(None, y) for y in left_p[len(left_g):]]
            for x, y in pairs:
                for side, label in ((0, x), (1, y)):
                    if label is not None:
                        out[side].append(make_annotation(label, at, at + 1))
                at += 2
        if g is not None:
            gold_docs.append(Document(doc_id, tuple(out[0])))
        if p is not None:
            pred_docs.append(Document(doc_id, tuple(out[1])))
    if relations:
        import warnings

        from ..errors import AccordWarning

        warnings.warn(f"{relations} predicted relation(s) are not scored with --align none (strings and labels of "
                      "entities only); align them (--align exact) to score relations", AccordWarning, stacklevel=3)
    summary = {"align": "none", "normalize": [n.strip() for n in names if n.strip()], **counts}
    return (Corpus(gold_docs, name=gold.name, files=gold.files), Corpus(pred_docs, name=pred.name, files=pred.files),
            summary)
