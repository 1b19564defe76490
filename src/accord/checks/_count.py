"""``accord count``: the spans of tag files, by mention (as ``seqscore count``), by label or by document."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from ..errors import OptionError
from ..formats.tokens.conll import read_conll

__all__ = ["count_spans", "BY"]

BY = ("mention", "label", "document")


def count_spans(paths: Sequence[str | Path], *, by: str = "mention", scheme: str = "IOB2",
                repair: str = "conlleval", tag_column: int = -1, encoding: str | None = None
                ) -> list[tuple[object, ...]]:
    """Rows of counts over the spans of column files, read under ``scheme`` and ``repair`` (as accord score reads
    them).

    ``by="mention"``: ``(count, label, tokens)`` for each distinct label and token text, the most frequent first and
    ties in the order first met (``seqscore count``'s rows); ``by="label"``: ``(label, spans, documents)`` sorted by
    label, the documents counting those with the label; ``by="document"``: ``(document, label, spans)`` in file
    order, labels sorted (a document named ``FILE#N`` when several files are given).
    """
    if by not in BY:
        raise OptionError(f"--by: expected one of {', '.join(BY)}, got {by!r}")
    if not paths:
        raise OptionError("count needs one or more files")
    mentions: Counter[tuple[str, str]] = Counter()
    labels: Counter[str] = Counter()
    label_docs: Counter[str] = Counter()
    documents: list[tuple[object, ...]] = []
    for path in paths:
        corpus = read_conll(path, tag_column=tag_column, scheme=scheme, repair=repair, encoding=encoding)
        for doc in corpus.values():
            here: Counter[str] = Counter()
            tokens = doc.tokens or ()
            for a in doc.annotations:
                if a.start is None or a.end is None:
                    continue
                here[a.label] += 1
                if by == "mention":
                    mentions[(a.label, " ".join(tokens[a.start:a.end]))] += 1
            labels.update(here)
            label_docs.update(here.keys())
            if by == "document":
                name = doc.id if len(paths) == 1 else f"{path}#{doc.id}"
                documents.extend((name, label, here[label]) for label in sorted(here))
    if by == "mention":
        return [(n, label, text) for (label, text), n in mentions.most_common()]
    if by == "label":
        return [(label, labels[label], label_docs[label]) for label in sorted(labels)]
    return documents
