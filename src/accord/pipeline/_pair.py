"""The pairing stage: documents of both sides paired by id (a side counting tokens placed on the other's text
first), their tokens, texts and sentences checked to be the same, MATScore's pairing by file names."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .._support.arrays import Bools, Ints
from .._support.surface import spelled
from ..errors import OptionError, PairingError
from ..model import Corpus, Document
from ..model._text_fields import TextFields, code_points
from ._offset_units import unify_units

__all__ = ["ALLOW_MISSING", "pair_documents", "missing_documents", "match_file_names"]

ALLOW_MISSING = ("empty", "skip")


def pair_documents(gold: Corpus, pred: Corpus, allow_missing: str | None = None
                   ) -> list[tuple[str, Document | None, Document | None]]:
    """Pair documents by id, checking that paired token sequences agree (a side counting tokens is placed on the
    text of a side counting characters first: :func:`accord.pipeline._offset_units.unify_units`).

    Parameters
    ----------
    allow_missing : {None, "empty", "skip"}
        ``None``: a document on one side only is an error. ``"empty"``: it is scored
        against an empty document (its items all missing or all spurious). ``"skip"``:
        it is left out.
    """
    if allow_missing not in (None,) + ALLOW_MISSING:
        raise OptionError(f"{spelled('allow_missing')} must be one of {', '.join(ALLOW_MISSING)}; "
                          f"got {allow_missing!r}")
    gold, pred = unify_units((gold, pred), sides=("gold", "predicted"))    # corpora given in Python
    only_gold = [d for d in gold if d not in pred]
    only_pred = [d for d in pred if d not in gold]
    if (only_gold or only_pred) and allow_missing is None:
        raise missing_documents(only_gold, only_pred, gold.name, pred.name)
    out: list[tuple[str, Document | None, Document | None]] = []
    same = _same_tokens([(gdoc, pred.get(doc_id)) for doc_id, gdoc in gold.items()])
    for (doc_id, gdoc), tokens_equal in zip(gold.items(), same):
        pdoc = pred.get(doc_id)
        if pdoc is None:
            if allow_missing == "empty":
                out.append((doc_id, gdoc, None))
            continue
        _check_tokens(gdoc, pdoc, gold.name, pred.name, tokens_equal)
        out.append((doc_id, gdoc, pdoc))
    if allow_missing == "empty":
        out.extend((d, None, pred[d]) for d in only_pred)
    return out


def missing_documents(only_gold: Sequence[str], only_pred: Sequence[str], gold_name: str | None,
                      pred_name: str | None) -> PairingError:
    """The error of documents found on one side only (the first five of each side named)."""
    def show(ids: Sequence[str]) -> str:
        return ", ".join(map(repr, ids[:5])) + (f" and {len(ids) - 5} more" if len(ids) > 5 else "")
    parts = []
    if only_gold:
        parts.append(f"{len(only_gold)} document(s) only in the gold side ({gold_name}): {show(only_gold)}")
    if only_pred:
        parts.append(f"{len(only_pred)} document(s) only in the predicted side ({pred_name}): {show(only_pred)}")
    return PairingError("; ".join(parts) + f". Use {spelled('allow_missing', 'empty')} or "
                        f"{spelled('allow_missing', 'skip')} to score anyway")


def match_file_names(gold: Corpus, pred: Corpus, file_re: str | None = None, ref_fsuff_off: str | None = None,
                     ref_fsuff_on: str | None = None) -> tuple[Corpus, Corpus]:
    """MATScore's file selection: the predicted documents whose file name matches ``file_re`` in full, each paired
    with the gold document of the file named like it with the suffix ``ref_fsuff_off`` taken off and
    ``ref_fsuff_on`` put on (``--file-re``, ``--ref-fsuff-off``, ``--ref-fsuff-on``).

    With ``file_re`` the gold documents of no selected predicted file are left out, as MAT looks up only the
    reference files of the hypothesis files it scores. A predicted document is renamed to the id of its gold
    document, so that the pairing (and ``allow_missing``) works on ids as everywhere else; its file name stays in
    ``pred.files``.
    """
    import re

    if file_re is None and ref_fsuff_off is None and ref_fsuff_on is None:
        return gold, pred
    pattern = None
    if file_re is not None:
        try:
            pattern = re.compile(file_re)
        except re.error as exc:
            raise OptionError(f"--file-re {file_re!r} is not a regular expression: {exc}") from None
    pred_files = {d: pred.files.get(d, d) for d in pred}
    selected = [d for d in pred if pattern is None or pattern.fullmatch(pred_files[d])]
    if pattern is not None and not selected:
        raise OptionError(f"--file-re {file_re!r} matches none of the {len(pred)} predicted file name(s) "
                          f"({', '.join(sorted(pred_files.values())[:5])}...); it must match a whole name")
    gold_by_file = {gold.files.get(d, d): d for d in gold}
    renamed, files = [], {}
    for d in selected:
        name = pred_files[d]
        if ref_fsuff_off and name.endswith(ref_fsuff_off):
            name = name[: -len(ref_fsuff_off)]
        name += ref_fsuff_on or ""
        target = gold_by_file.get(name, d if ref_fsuff_off is None and ref_fsuff_on is None else name)
        renamed.append(pred[d]._replace(id=target))
        files[target] = pred_files[d]
    pred_out = Corpus(renamed, name=pred.name, files=files)
    if pattern is not None:
        gold = Corpus([doc for d, doc in gold.items() if d in pred_out], name=gold.name,
                      files={d: f for d, f in gold.files.items() if d in pred_out})
    return gold, pred_out


def _check_tokens(g: Document, p: Document, gname: str | None, pname: str | None,
                  tokens_equal: bool = False) -> None:
    """Refuse a pair of documents whose token ids, texts, sentences (bare tag lists) or tokens differ, naming the
    first difference; ``tokens_equal``: the tokens are known to be the same (:func:`_same_tokens`)."""
    gmeta, pmeta = g.metadata or {}, p.metadata or {}
    gids, pids = gmeta.get("token_ids"), pmeta.get("token_ids")
    if gids is not None and pids is not None and gids != pids:
        n = min(len(gids), len(pids))
        i = next((k for k in range(n) if gids[k] != pids[k]), n)
        if i == n:
            raise PairingError(f"document {g.id!r}: the gold side has {len(gids)} token ids and the predicted side "
                               f"{len(pids)} ({_where(g, gname, i)} / {_where(p, pname, i)})")
        raise PairingError(f"document {g.id!r}: token id {gids[i]!r} at {_where(g, gname, i)} but {pids[i]!r} at "
                           f"{_where(p, pname, i)}; gold and prediction must hold the same tokens in the same order")
    if g.text is not None and p.text is not None and g.text != p.text:
        _text_differs(g, p, gname, pname)
    bare = (g.tokens is None and g.text is None) or (p.tokens is None and p.text is None)
    if bare and g.sentences is not None and p.sentences is not None:   # tag lists given in Python
        _check_sentences(g, p)
    if tokens_equal or g.tokens is None or p.tokens is None or g.tokens == p.tokens:
        return
    n = min(len(g.tokens), len(p.tokens))
    if isinstance(g.tokens, TextFields):
        first = g.tokens.first_difference(p.tokens)
        i = n if first is None else first
    else:
        i = next((k for k in range(n) if g.tokens[k] != p.tokens[k]), n)
    if i == n:
        raise PairingError(f"document {g.id!r}: the gold side has {len(g.tokens)} tokens and the predicted side "
                           f"{len(p.tokens)}; the files must hold the same tokens ({_where(g, gname, i)} / "
                           f"{_where(p, pname, i)})")
    raise PairingError(f"document {g.id!r}: token {i} differs: {g.tokens[i]!r} at {_where(g, gname, i)} but "
                       f"{p.tokens[i]!r} at {_where(p, pname, i)}; gold and prediction must hold the same tokens")


_WORD_CHUNK = 1 << 20
"""Tokens compared at a time by :func:`_same_tokens` (its temporaries are a few arrays of this many integers)."""


def _same_tokens(pairs: Sequence[tuple[Document, Document | None]]) -> list[bool]:
    """For each pair of documents, whether both hold their tokens as :class:`TextFields` and these are known to be
    the same strings; ``False`` means "not known" (the document-by-document check then decides and names the first
    difference).

    The documents whose sides share one text each are checked together, as whole arrays: the token lengths, then the
    tokens' bytes eight at a time (a 64-bit word read at each token's offset, the bytes past its end masked), so a
    corpus costs a few numpy operations per eight bytes of its longest token, not a comparison per document.
    """
    same = [False] * len(pairs)
    groups: dict[tuple[int, int], list[int]] = {}
    for k, (g, p) in enumerate(pairs):
        if p is not None and isinstance(g.tokens, TextFields) and isinstance(p.tokens, TextFields) \
                and len(g.tokens) == len(p.tokens) and len(g.tokens):
            groups.setdefault((id(g.tokens.text), id(p.tokens.text)), []).append(k)
    for members in groups.values():
        g_fields = [pairs[k][0].tokens for k in members]
        p_fields = [pairs[k][1].tokens for k in members]    # type: ignore[union-attr]
        equal = _equal_fields(g_fields, p_fields)           # type: ignore[arg-type]
        for k, ok in zip(members, equal.tolist()):
            same[k] = ok
    return same


def _equal_fields(a: Sequence[TextFields], b: Sequence[TextFields]) -> Bools:
    """Whether ``a[i]`` and ``b[i]`` hold the same strings, for sequences of equal lengths over one text a side."""
    counts = np.fromiter(map(len, a), dtype=np.int64, count=len(a))
    owner = np.repeat(np.arange(len(a)), counts)
    a_starts, a_ends = _joined(a)
    b_starts, b_ends = _joined(b)
    differ = np.zeros(len(a), dtype=bool)
    a_words = _Words(a[0].text, a_starts, a_ends)
    b_words = _Words(b[0].text, b_starts, b_ends)
    if a_words.size != b_words.size:      # ASCII on one side only: not decided here
        return differ
    size = a_words.size
    for lo in range(0, len(owner), _WORD_CHUNK):
        hi = min(lo + _WORD_CHUNK, len(owner))
        a_at = a_words.offsets(a_starts[lo:hi])
        b_at = b_words.offsets(b_starts[lo:hi])
        length = a_ends[lo:hi] - a_starts[lo:hi]      # (characters; bytes below)
        wrong = length != b_ends[lo:hi] - b_starts[lo:hi]
        if size != 1:
            length = length.astype(np.int64) * size
        # the first eight bytes of every token at once, then those of the tokens still equal and longer
        diff = a_words.at(a_at) ^ b_words.at(b_at)
        diff &= _MASKS[np.minimum(length, 8)]
        wrong |= diff != 0
        k = 8
        left = np.flatnonzero(~wrong & (length > k))
        while len(left):
            diff = a_words.at(a_at[left] + k) ^ b_words.at(b_at[left] + k)
            diff &= _MASKS[np.minimum(length[left] - k, 8)]
            wrong[left[diff != 0]] = True
            k += 8
            left = left[(diff == 0) & (length[left] > k)]
        differ[owner[lo:hi][wrong]] = True
    return ~differ


def _joined(fields: Sequence[TextFields]) -> tuple[Ints, Ints]:
    """The starts and the ends of the fields of all of ``fields``, one after the other: a view of their parent's
    arrays when they are consecutive slices of one parse (the documents of a column file, in file order), else a
    concatenation."""
    parent = fields[0]._starts
    if all(f._starts is parent for f in fields):
        bounds = [(f._lo, f._hi) for f in fields]
        if all(hi == lo for (_, hi), (lo, _) in zip(bounds, bounds[1:])):
            lo, hi = bounds[0][0], bounds[-1][1]
            return parent[lo:hi], fields[0]._ends[lo:hi]
    return np.concatenate([f.starts for f in fields]), np.concatenate([f.ends for f in fields])


_MASKS = np.array([(1 << (8 * k)) - 1 for k in range(8)] + [(1 << 64) - 1], dtype=np.uint64)
"""The bytes of a little-endian word that belong to a field of ``k`` more bytes (``k`` at most 8)."""


class _Words:
    """The bytes of the part of a text that holds some fields, readable as a little-endian 64-bit word at any byte
    offset (the bytes past the end read as zeros); ``size`` the bytes a character, ``lo`` the part's first
    character. No copy of the text beyond its code points (the last eight bytes are read shifted)."""

    __slots__ = ("size", "lo", "top", "view")

    def __init__(self, text: str, starts: Ints, ends: Ints):
        self.lo, hi = int(starts.min()), int(ends.max())
        if 2 * (hi - self.lo) > len(text):    # most of the text: its code points, without a copy of the part first
            self.lo = 0
        codes = code_points(text if self.lo == 0 else text[self.lo:hi])
        self.size = codes.itemsize
        raw = codes.view(np.uint8)
        if len(raw) < 8:
            raw = np.concatenate([raw, np.zeros(8 - len(raw), dtype=np.uint8)])
        self.top = len(raw) - 8
        self.view = np.ndarray(shape=(self.top + 1,), dtype="<u8", buffer=raw, strides=(1,))

    def offsets(self, starts: Ints) -> Ints:
        """The byte offsets of fields beginning at the characters ``starts`` of the text (the array itself when the
        text is ASCII and whole: no arithmetic for the common column file)."""
        if self.size == 1 and self.lo == 0:
            return starts
        return (starts.astype(np.int64) - self.lo) * self.size

    def at(self, offsets: np.ndarray) -> np.ndarray:
        """The words at these byte offsets (each at most the part's length)."""
        if not len(offsets) or int(offsets.max()) <= self.top:
            words: np.ndarray = self.view[offsets]
            return words
        beyond = np.maximum(offsets - self.top, 0).astype(np.uint64)
        words = self.view[np.minimum(offsets, self.top)] >> (beyond * np.uint64(8))
        return words


def _text_differs(g: Document, p: Document, gname: str | None, pname: str | None) -> None:
    """A paired document whose two sides hold different texts: the first character that differs, in context."""
    g_text, p_text = g.text or "", p.text or ""
    n = min(len(g_text), len(p_text))
    i = next((k for k in range(n) if g_text[k] != p_text[k]), n)
    line = (g.text or "").count("\n", 0, i) + 1
    raise PairingError(f"document {g.id!r}: the texts differ from character {i} (line {line}): gold "
                       f"{(g.text or '')[max(0, i - 10):i + 20]!r} ({gname}), predicted "
                       f"{(p.text or '')[max(0, i - 10):i + 20]!r} ({pname}); offsets of the two sides would not "
                       "mean the same characters")


def _check_sentences(g: Document, p: Document) -> None:
    """Documents without tokens or text (tag lists given in Python): the same sentences, of the same lengths."""
    gs, ps = g.sentences or (), p.sentences or ()
    if len(gs) != len(ps):
        raise PairingError(f"document {g.id!r}: the gold side has {len(gs)} sentences and the predicted side "
                           f"{len(ps)}")
    for k, (a, b) in enumerate(zip(gs, ps)):
        if a != b:
            raise PairingError(f"document {g.id!r}: sentence {k + 1} has {a[1] - a[0]} gold tags and "
                               f"{b[1] - b[0]} predicted tags; both sides must tag the same tokens")


def _where(doc: Document, name: str | None, i: int) -> str:
    """Where token ``i`` of a document is: file and line (column files), or the corpus position (VRT)."""
    meta = doc.metadata or {}
    lines = meta.get("lines")
    if "cpos" in meta:
        at = f"{name}, corpus position {meta['cpos'] + i}"
        if lines and doc.sentences:
            for (a, b), line in zip(doc.sentences, lines):
                if a <= i < b:
                    return f"{at} (sentence from line {line})"
        return at
    if lines and doc.sentences:
        for (a, b), line in zip(doc.sentences, lines):
            if a <= i < b or (i >= b and (a, b) == doc.sentences[-1]):
                return f"{name}:{line + (i - a)}"
    return f"{name}, token {i}"
