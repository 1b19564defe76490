"""conlleval.pl's text output (``accord score --output conlleval``), for scripts that parse its lines.

conlleval.pl (CoNLL-2000, version 2004-01-26) prints one line of counts, one line of the overall accuracy,
precision, recall and FB1, then a line per chunk type (sorted by name) with its rates and the number of chunks
found in the predictions. Its rules, as written here:

- a token is a non-blank line whose first field is not ``-X-`` (conlleval's sentence boundary); a ``-DOCSTART-``
  line is a token (tagged ``O`` on both sides in CoNLL-2003's files), blank lines are not;
- the accuracy is the share of tokens whose two tags are equal, each tag split at its first hyphen into a chunk
  letter and a type (``B-NP`` is ``B`` and ``NP``; ``O`` has the type ``""``);
- a rate with an empty denominator is 0, FB1 is ``2PR / (P + R)`` (0 when both are 0), all in percent;
- numbers are printed with C's ``%6.2f``, the type name right-aligned in 17 columns (``%17s``, counted in bytes
  of UTF-8 as Perl counts them without a decoding layer), each line ended by a newline.

The chunk counts are accord's own (the pairs mode, strict profile, under ``--scheme`` and ``--repair``): for IOB1
and IOB2 tags read with the default ``--repair conlleval`` they are conlleval.pl's (checked on generated files
against conlleval.pl itself). conlleval.pl's chunk rules have no ``S`` letter (``S-X S-X`` is one chunk to it) and
start no chunk at a ``B`` after an ``E`` of the same type; with ``E`` and ``S`` letters the counts are accord's
reading of them under ``--scheme`` (IOBES, BILOU), not conlleval.pl's. The token counts are read from the tag
columns of the files, as conlleval.pl reads them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .._support.io import read_text
from ..errors import FormatError, OptionError

__all__ = ["ConllevalCounts", "conlleval_text", "counts_of_result", "tag_accuracy"]

_TYPE_WIDTH = 17
"""conlleval.pl's ``%17s`` for the chunk type of each line."""


@dataclass(frozen=True)
class ConllevalCounts:
    """What conlleval.pl's text is made of.

    Attributes
    ----------
    tokens : int
        Tokens read (conlleval's ``tokenCounter``).
    correct_tags : int
        Tokens whose gold and predicted tags are equal.
    labels : mapping of str to (int, int, int)
        For each chunk type: chunks in the gold side, chunks in the predicted side, correct chunks.
    """

    tokens: int
    correct_tags: int
    labels: Mapping[str, tuple[int, int, int]] = field(default_factory=dict)


def _rate(count: int, total: int) -> float:
    """``100 * count / total`` in conlleval's order of operations, 0 for an empty total."""
    return 100 * count / total if total > 0 else 0.0


def _fb1(precision: float, recall: float) -> float:
    return 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0


def _rates(gold: int, pred: int, correct: int) -> str:
    p, r = _rate(correct, pred), _rate(correct, gold)
    return f"precision: {p:6.2f}%; recall: {r:6.2f}%; FB1: {_fb1(p, r):6.2f}"


def conlleval_text(counts: ConllevalCounts) -> str:
    """conlleval.pl's output for ``counts``, every line ended by ``\\n``.

    Examples
    --------
    >>> print(conlleval_text(ConllevalCounts(4, 3, {"PER": (2, 1, 1)})), end="")
    processed 4 tokens with 2 phrases; found: 1 phrases; correct: 1.
    accuracy:  75.00%; precision: 100.00%; recall:  50.00%; FB1:  66.67
                  PER: precision: 100.00%; recall:  50.00%; FB1:  66.67  1
    """
    gold = sum(g for g, _, _ in counts.labels.values())
    pred = sum(p for _, p, _ in counts.labels.values())
    correct = sum(c for _, _, c in counts.labels.values())
    lines = [f"processed {counts.tokens} tokens with {gold} phrases; found: {pred} phrases; correct: {correct}."]
    if counts.tokens > 0:
        accuracy = _rate(counts.correct_tags, counts.tokens)
        lines.append(f"accuracy: {accuracy:6.2f}%; {_rates(gold, pred, correct)}")
    for label in sorted(counts.labels):
        g, p, c = counts.labels[label]
        pad = " " * max(0, _TYPE_WIDTH - len(label.encode("utf-8")))
        lines.append(f"{pad}{label}: {_rates(g, p, c)}  {p}")
    return "\n".join(lines) + "\n"


def counts_of_result(result: object) -> dict[str, tuple[int, int, int]]:
    """The chunk counts of a pairs result's labels that have a chunk on either side: ``(gold, pred, match)``."""
    out: dict[str, tuple[int, int, int]] = {}
    for label, block in result.by_label.items():     # type: ignore[attr-defined]
        g, p, m = int(block["gold"]), int(block["pred"]), int(block["match"])
        if g or p:
            out[label] = (g, p, m)
    return out


def _conlleval_key(tag: str) -> tuple[str, str]:
    """A tag as conlleval.pl compares it: the part before the first hyphen and the rest (its type; Perl's false
    values ``""`` and ``"0"`` are both the empty type)."""
    letter, _, kind = tag.partition("-")
    return letter, ("" if kind == "0" else kind)


_BOUNDARY = "-X-"
"""conlleval.pl's sentence boundary: a line whose first field is this is no token."""

_DOCSTART = re.compile(r"^[ \t]*-DOCSTART-(?:[ \t][^\n]*)?$", re.MULTILINE)


def _docstart_tags(text: str, column: int) -> list[str | None]:
    """The tag field of every ``-DOCSTART-`` line (``None`` where the line has no such column)."""
    out: list[str | None] = []
    for m in _DOCSTART.finditer(text):
        fields = m.group(0).split()
        out.append(fields[column] if -len(fields) <= column < len(fields) else None)
    return out


def _keys(cols: object) -> tuple[list[tuple[str, str]], np.ndarray]:
    distinct, index = cols.tag_codes     # type: ignore[attr-defined]
    return [_conlleval_key(t) for t in distinct], index


def tag_accuracy(gold: str | Path, pred: str | Path, gold_column: int = -1, pred_column: int = -1,
                 encoding: str | None = None) -> tuple[int, int]:
    """conlleval.pl's token count and count of equal tags, over the tag columns of two column files (or of one,
    ``pred`` the same path with another column).

    Raises
    ------
    FormatError
        A file cannot be read as a column file, or the two sides hold different numbers of tokens or of
        ``-DOCSTART-`` lines (conlleval.pl reads both tags from one line).
    """
    from ..formats.tokens.conll import parse_columns

    texts = {p: read_text(p, encoding) for p in dict.fromkeys((str(gold), str(pred)))}
    sides = []
    for path, column in ((str(gold), gold_column), (str(pred), pred_column)):
        cols = parse_columns(texts[path], tag_column=column, path=path)
        sides.append((cols, _docstart_tags(texts[path], column)))
    (g, g_docs), (p, p_docs) = sides
    if len(g.tags) != len(p.tags):
        raise FormatError(f"{len(g.tags):,} tokens on the gold side and {len(p.tags):,} in {pred}: conlleval's "
                          "text needs one predicted tag per gold token", path=gold)
    if len(g_docs) != len(p_docs):
        raise FormatError(f"{len(g_docs)} -DOCSTART- lines on the gold side and {len(p_docs)} in {pred}: "
                          "conlleval counts them as tokens of both sides", path=gold)
    g_keys, g_index = _keys(g)
    p_keys, p_index = _keys(p)
    ids: dict[tuple[str, str], int] = {}
    g_ids = np.asarray([ids.setdefault(k, len(ids)) for k in g_keys], dtype=np.int64)
    p_ids = np.asarray([ids.setdefault(k, len(ids)) for k in p_keys], dtype=np.int64)
    equal = g_ids[g_index] == p_ids[p_index]
    tokens = len(g.tags)
    if _BOUNDARY in texts[str(gold)]:    # conlleval's sentence boundary lines are no tokens
        token = np.fromiter((t == _BOUNDARY for t in g.tokens), dtype=bool, count=tokens)
        equal &= ~token
        tokens -= int(np.count_nonzero(token))
    correct = int(np.count_nonzero(equal))
    correct += sum(a is not None and b is not None and _conlleval_key(a) == _conlleval_key(b)
                   for a, b in zip(g_docs, p_docs))
    return tokens + len(g_docs), correct


def _column(args: object, side: str) -> int:
    """The 0-based tag column of a side: ``--gold-column``/``--pred-column``, else ``--columns``, else
    ``--tag-column``."""
    given = getattr(args, f"{side}_column", None)
    if given is None and getattr(args, "columns", None):
        given = args.columns     # type: ignore[attr-defined]
    if given is None:
        return int(getattr(args, "tag_column", -1))
    try:
        return int(given)
    except ValueError:
        raise OptionError(f"--output conlleval: the {side} column of a CoNLL file is a number (0 is the token, -1 "
                          f"the last), not {given!r}") from None


def conlleval_of_args(args: Any, result: Any) -> str:
    """``accord score --output conlleval``: the text for the result of scoring ``args.pred`` against
    ``args.gold`` (column files; the pairs mode's strict profile)."""
    from ..formats._registry import sniff

    a = args
    pred = a.pred or a.gold
    if getattr(result, "mode", None) != "pairs" or result.options.get("profile") != "strict" \
            or result.options.get("units"):
        raise OptionError("--output conlleval prints exact chunk matches: the pairs mode with the strict profile")
    if getattr(a, "bootstrap", None) is not None or getattr(a, "confidence_data", False):
        raise OptionError("--output conlleval has no intervals: leave out --bootstrap")
    for path, fmt in ((a.gold, a.format or a.gold_format), (pred, a.format or a.pred_format)):
        if Path(path).is_dir():
            raise OptionError(f"--output conlleval reads column files, not a directory ({path})")
        name = fmt or sniff(path).name
        if name != "conll":
            raise OptionError(f"--output conlleval reads CoNLL column files; {path} is read as {name}")
    tokens, correct = tag_accuracy(a.gold, pred, _column(a, "gold"), _column(a, "pred"))
    return conlleval_text(ConllevalCounts(tokens, correct, counts_of_result(result)))
