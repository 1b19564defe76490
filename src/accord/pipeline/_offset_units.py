"""Both sides of a comparison in one offset unit: the token side placed on the text of the character side.

A document read from a text format (brat, MAT JSON, GATE XML, Label Studio, doccano, XMI, ...) counts characters of
its text; one read from a column format (CoNLL, CoNLL-U, VRT) or given as tag lists counts tokens
(:attr:`accord.model.Document.unit`). Where the sides of a comparison hold one document in different units,
:func:`unify_units` places the tokens of the token side on the text of the character side, in order, and gives
that side's spans, fragments and sentences in characters; a one-line :class:`OffsetUnitsWarning` says so. The
character side is never changed, so a span that does not begin or end on a token boundary keeps its boundary.

A token is found where the text, skipping whitespace, goes on with the token's characters (whitespace inside a
token is skipped too): so the tokens ``York`` ``.`` are found in ``York.`` as well as in ``York .``. Where the
tokens and the text part (another token, a character the tokens lack, a text that goes on after the last token), or
where the token side holds tags without tokens (tag lists given in Python), the comparison is refused with an
:class:`~accord.errors.PairingError` naming the document, the token and the place in the text.

The work is done on arrays of code points, one pass over each document, so a corpus of a million tokens costs a
fraction of a second.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from ..errors import AccordWarning, PairingError
from ..model import TOKEN_OFFSETS, Annotation, Attributes, Corpus, Document, is_aggregate

__all__ = ["TOKEN_OFFSETS", "OffsetUnitsWarning", "place_tokens", "tokens_to_chars", "unify_units"]



_TOKEN_INDEXED = ("cpos", "token_ids")
"""Metadata of the column readers read with token offsets (VRT's corpus position, a column of token ids)."""


class OffsetUnitsWarning(AccordWarning):
    """One side of a comparison counted tokens and another characters: the token side was placed on the text."""


def unify_units(corpora: Sequence[Corpus], names: Sequence[str | None] | None = None,
                sides: Sequence[str] | None = None) -> list[Corpus]:
    """The corpora with every document in one offset unit (see the module docstring).

    Parameters
    ----------
    corpora : sequence of Corpus
        The sides of a comparison (gold and predicted, key and response, or one corpus per annotator), documents
        paired by id.
    names : sequence of str, optional
        Where each side came from (its path), for messages; default each corpus's ``name``.
    sides : sequence of str, optional
        What each side is called in messages (default ``gold``, ``predicted``, then ``side 3``...).

    Returns
    -------
    list of Corpus
        The same corpora where no document needed placing; otherwise a side whose documents counted tokens holds
        them in characters of the text of the first side that has the document's text.

    Raises
    ------
    PairingError
        The tokens are not found in order in the text (the message names the document, the token and the place),
        or a side holds tags without their tokens while another holds the text.
    """
    corpora = list(corpora)
    if len(corpora) < 2:
        return corpora
    # short-circuiting scans: a corpus of texts answers at its first document
    texts = [any(d.text is not None for d in c.values()) for c in corpora]
    tokens = [any(d.text is None and (d.tokens is not None or d.sentences is not None) for d in c.values())
              for c in corpora]
    if not any(texts) or not any(tokens):
        return corpora
    names = [c.name or "<corpus>" for c in corpora] if names is None else list(names)
    sides = list(sides) if sides is not None else (["gold", "predicted"] + [f"side {k + 1}" for k in
                                                                            range(2, len(corpora))])
    placed: list[dict[str, Document]] = [{} for _ in corpora]
    for k, corpus in enumerate(corpora):
        if not tokens[k]:
            continue
        for doc_id, doc in corpus.items():
            if doc.text is not None or (doc.tokens is None and doc.sentences is None):
                continue
            ref = next((j for j, c in enumerate(corpora) if j != k and doc_id in c and c[doc_id].text is not None),
                       None)
            if ref is None:
                continue
            where = (sides[k], names[k], sides[ref], names[ref])
            ref_text = corpora[ref][doc_id].text
            assert ref_text is not None  # ref was chosen above for its text
            placed[k][doc_id] = tokens_to_chars(doc, ref_text, where)
    if not any(placed):
        return corpora
    out = []
    for k, corpus in enumerate(corpora):
        if not placed[k]:
            out.append(corpus)
            continue
        docs = [placed[k].get(d, doc) for d, doc in corpus.items()]
        out.append(Corpus(docs, name=corpus.name, files=corpus.files))
        _warn(placed[k], sides, names, k, corpora)
    return out


def _warn(placed: dict[str, Document], sides: list[str], names: list[str | None], k: int,
          corpora: list[Corpus]) -> None:
    # the same words whatever documents it names, so that the shards of one run (accord.parallel) say it once
    first = next(iter(placed))
    ref = next(j for j, c in enumerate(corpora) if j != k and first in c and c[first].text is not None)
    warnings.warn(f"the {sides[k]} side ({names[k]}) counts tokens and the {sides[ref]} side ({names[ref]}) "
                  f"characters: the {sides[k]} tokens were placed on the {sides[ref]} text and both sides are "
                  "compared in characters", OffsetUnitsWarning, stacklevel=3)


_SPACE = np.array([chr(c).isspace() for c in range(0x3001)], dtype=bool)
"""Whether a code point is whitespace (``str.isspace``), for the code points up to the last such (U+3000)."""


def _is_space(codes: npt.NDArray[np.unsignedinteger[Any]]) -> npt.NDArray[np.bool_]:
    space: npt.NDArray[np.bool_] = _SPACE[np.minimum(codes, len(_SPACE) - 1)] & (codes < len(_SPACE))
    return space


def place_tokens(tokens: Sequence[str], text: str
                 ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]] | tuple[int, int]:
    """Where each token is in ``text``, found in order with whitespace skipped.

    Returns
    -------
    (starts, ends) : arrays of int64
        The half-open character extent of each token (a token of whitespace only, or empty, gets an empty extent
        after the previous token).
    (token, at) : (int, int)
        When the tokens are not found: the first token that is not (``len(tokens)`` when the text goes on after
        the last one) and the character of the text where it should have been.
    """
    tokens = tokens if isinstance(tokens, (list, tuple)) else list(tokens)
    joined = "".join(tokens)
    lengths = np.fromiter(map(len, tokens), dtype=np.int64, count=len(tokens))
    if " ".join(tokens) == text:    # the common case: the text is the tokens joined by spaces
        starts = np.concatenate([[0], np.cumsum(lengths + 1)[:-1]]).astype(np.int64) if len(tokens) else lengths
        return starts, starts + lengths
    text_codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype="<u4")
    token_codes = np.frombuffer(joined.encode("utf-32-le", "surrogatepass"), dtype="<u4")
    text_kept, token_kept = ~_is_space(text_codes), ~_is_space(token_codes)
    positions = np.flatnonzero(text_kept)
    a, b = text_codes[text_kept], token_codes[token_kept]
    # the number of kept characters of the joined tokens before each token boundary
    kept_before = np.concatenate([[0], np.cumsum(token_kept)]).astype(np.int64)
    bounds = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    first = kept_before[bounds[:-1]]
    last = kept_before[bounds[1:]]
    if len(a) != len(b) or not np.array_equal(a, b):
        m = min(len(a), len(b))
        diff = np.flatnonzero(a[:m] != b[:m])
        i = int(diff[0]) if len(diff) else m
        token = int(np.searchsorted(last, i, "right"))
        at = int(positions[i]) if i < len(positions) else len(text)
        return token, at
    if not len(tokens):
        return lengths, lengths
    padded = np.append(positions, len(text)).astype(np.int64)
    starts = padded[first]
    ends = np.where(last > first, padded[np.maximum(last - 1, 0)] + 1, 0)
    empty = last == first
    if empty.any():     # a token of whitespace only: an empty extent after the previous token
        prev = np.where(first > 0, padded[np.maximum(first - 1, 0)] + 1, 0)
        starts = np.where(empty, prev, starts)
        ends = np.where(empty, prev, ends)
    return starts.astype(np.int64), ends.astype(np.int64)


def tokens_to_chars(doc: Document, text: str, where: tuple[str, Any, str, Any] = ("predicted", None, "gold", None)
                    ) -> Document:
    """``doc`` (token offsets) on ``text``: its spans, fragments and sentences in characters, its tokens' extents
    kept in ``metadata[TOKEN_OFFSETS]``.

    ``where`` is ``(side, its name, side of the text, its name)``, for the message of the
    :class:`~accord.errors.PairingError` raised when the tokens are not found in order in the text.
    """
    side, name, text_side, text_name = where
    if doc.tokens is None:
        raise PairingError(f"document {doc.id!r}: the {side} side ({name}) holds tags without their tokens and the "
                           f"{text_side} side ({text_name}) a text, so its token offsets cannot be placed on the "
                           "text; give the tokens too (tokens=...), or both sides in one unit")
    tokens = doc.tokens
    found = place_tokens(tokens, text)
    if isinstance(found[0], int):
        k, at = found
        line = text.count("\n", 0, at) + 1
        has = text[at:at + 20]
        what = f"token {k} {str(tokens[k])!r}" if k < len(tokens) else "the end of the tokens"
        raise PairingError(
            f"document {doc.id!r}: the {side} side ({name}) counts tokens and the {text_side} side ({text_name}) "
            f"characters, and the tokens are not found in order in the text: {what} where the text has {has!r} "
            f"(character {at}, line {line}); give both sides in one unit (accord convert one side to the other's "
            "format) or the same text")
    starts, ends = found
    n = len(starts)
    # token offset k -> the character where token k begins (the end of the last token for k == n)
    begin = np.append(starts, ends[-1] if n else 0).astype(np.int64)

    lists: list[list[int]] = []

    def chars(x: Sequence[int], y: Sequence[int]) -> tuple[list[int], list[int]]:
        """Token spans ``[x, y)`` in characters (an empty span: empty, where its token begins)."""
        if len(x) <= 16:    # a few spans (a short document, a fragment): plain Python costs less than arrays
            if not lists:
                lists.extend((begin.tolist(), ends.tolist()))
            b, e = lists
            for u, v in zip(x, y):
                if not 0 <= u <= v <= n:
                    raise PairingError(f"document {doc.id!r}: the {side} side ({name}) has a span [{u}, {v}) "
                                       f"beyond its {n} tokens")
            lo_ = [b[u] for u in x]
            return lo_, [e[v - 1] if v > u else at for u, v, at in zip(x, y, lo_)]
        xa, ya = np.asarray(x, dtype=np.int64), np.asarray(y, dtype=np.int64)
        bad = np.flatnonzero((xa < 0) | (ya < xa) | (ya > n))
        if len(bad):
            raise PairingError(f"document {doc.id!r}: the {side} side ({name}) has a span [{xa[bad[0]]}, "
                               f"{ya[bad[0]]}) beyond its {n} tokens")
        lo = begin[np.minimum(xa, n)]
        hi = np.where(ya > xa, ends[np.maximum(ya - 1, 0)] if n else 0, lo)
        return lo.tolist(), hi.tolist()

    placed = list(doc.annotations)
    where_spanned = [i for i, a in enumerate(placed) if a.start is not None]
    lo, hi = chars(cast("list[int]", [placed[i].start for i in where_spanned]),   # spanned: chosen on the line above
                   cast("list[int]", [placed[i].end for i in where_spanned]))
    new = tuple.__new__     # Annotation's own __new__, without its keyword handling
    for i, x, y in zip(where_spanned, lo, hi):
        a = placed[i]
        frags = a.fragments
        if frags is not None:
            fx, fy = chars([f[0] for f in frags], [f[1] for f in frags])
            frags = tuple(zip(fx, fy))
        placed[i] = new(Annotation, (a.label, x, y, a.attributes, a.id, frags))
    annotations = _repoint(doc.annotations, placed)
    sentences = None
    if doc.sentences is not None:
        sentences = tuple(zip(*chars([a for a, _ in doc.sentences], [b for _, b in doc.sentences])))
    # corpus positions and token ids count tokens: they would be read against characters (the error listings)
    meta = Attributes({**{k: v for k, v in (doc.metadata or {}).items() if k not in _TOKEN_INDEXED},
                       TOKEN_OFFSETS: (starts, ends)})
    return Document(doc.id, annotations, text, None, sentences, meta)


def _repoint(annotations: Sequence[Annotation], placed: list[Annotation]) -> tuple[Annotation, ...]:
    """The annotations re-spanned (``placed``, in the same order), those that point to others pointing to the
    re-spanned ones (and to the rebuilt pointing ones: a chain of relations is followed, once per annotation)."""
    if not any(a.attributes and any(isinstance(v, Annotation) or is_aggregate(v) for v in a.attributes.values())
               for a in annotations):
        return tuple(placed)
    mapping = {id(a): b for a, b in zip(annotations, placed) if a is not b}
    done: dict[int, Annotation] = {}
    busy: set[int] = set()

    def new(a: Annotation) -> Annotation:
        key = id(a)
        if key in done:
            return done[key]
        base = mapping.get(key, a)
        if key in busy or not a.attributes:     # a cycle keeps the old reference
            return base
        busy.add(key)
        attrs = {k: swap(v) for k, v in a.attributes.items()}
        busy.discard(key)
        changed = any(attrs[k] is not v for k, v in a.attributes.items())
        out = base._replace(attributes=Attributes(attrs)) if changed else base
        done[key] = out
        return out

    def swap(v: Any) -> Any:
        if isinstance(v, Annotation):
            return new(v)
        if isinstance(v, frozenset):
            return frozenset(swap(x) for x in v)
        if is_aggregate(v):
            return tuple(swap(x) for x in v)
        return v

    return tuple(new(a) for a in annotations)
