"""BIO-family tag schemes: decoding tag sequences into spans and encoding spans as tags.

Schemes: ``IOB1``, ``IOB2`` (alias ``BIO``), ``IOE1``, ``IOE2``, ``IOBES`` (alias ``BIOES``),
``BILOU`` and ``IO``. Decoding works on whole arrays of tags at once (numpy), never
token by token in Python.

Chunking follows conlleval's rules, which are scheme-independent: a chunk starts at a
non-``O`` tag that is ``B``/``S``, or follows ``O``/``E``/``S``, or changes type; it ends
before ``O``, before the next start, or at the end of the sentence. On a valid sequence
this is exactly the scheme's own reading. What differs between schemes is which
sequences are *valid*:

========  ==========================================  ==========================================
scheme    needs a same-type ``B``/``I`` before it      needs a same-type ``I``/``E`` after it
========  ==========================================  ==========================================
IOB1      ``B``                                        --
IOB2      ``I``                                        --
IOE1      --                                           ``E``
IOE2      --                                           ``I``
IOBES     ``I``, ``E``                                 ``B``, ``I``
BILOU     ``I``, ``L``                                 ``B``, ``I``
IO        --                                           --
========  ==========================================  ==========================================

Invalid sequences are handled by a *repair* method:

``conlleval`` (default)
    read them as conlleval does (an ``I-X`` after ``O`` begins a chunk). For IOB2 this
    is seqscore's ``conlleval`` repair and seqeval's default mode.
``discard``
    drop every chunk that contains an invalid transition (seqscore's ``discard`` for
    IOB2, and seqeval's strict mode for IOB2, IOE2, IOBES and BILOU).
``error``
    raise :class:`~accord.errors.SchemeError` naming the first invalid tag and its line.

A prefix that the scheme does not have (``S-`` under IOB2, say) is always an error: it
means the wrong scheme was chosen.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from .._support.arrays import Bools, Int64s, Ints
from .._support.surface import spelled
from ..errors import OptionError, RepairWarning, SchemeError

__all__ = [
    "repair_warning",
    "merge_repair_warnings",
    "SCHEMES",
    "REPAIRS",
    "TagTable",
    "Chunks",
    "canonical_scheme",
    "decode",
    "decode_column",
    "decode_tags",
    "encode",
    "flatten",
]

# prefix codes
O, B, I, E, S = 0, 1, 2, 3, 4      # noqa: E741 (the schemes' own letters: O and I are the tags' names)
_PREFIX_NAMES = "OBIES"

SCHEMES = ("IOB1", "IOB2", "IOE1", "IOE2", "IOBES", "BILOU", "IO")
REPAIRS = ("conlleval", "discard", "error")
_ALIASES = {"BIO": "IOB2", "BIOES": "IOBES", "IOBES": "IOBES", "BIOUL": "BILOU", "BILOU": "BILOU"}

# prefix letter -> code, per scheme
_LETTERS: dict[str, dict[str, int]] = {
    "IOB1": {"B": B, "I": I},
    "IOB2": {"B": B, "I": I},
    "IOE1": {"I": I, "E": E},
    "IOE2": {"I": I, "E": E},
    "IOBES": {"B": B, "I": I, "E": E, "S": S},
    "BILOU": {"B": B, "I": I, "L": E, "U": S},
    "IO": {"I": I},
    # conlleval's own reading, used by the seqeval drop-in's default mode
    "conlleval": {"B": B, "I": I, "E": E, "S": S},
}
_NEEDS_PREV = {"IOB1": (B,), "IOB2": (I,), "IOBES": (I, E), "BILOU": (I, E)}
_NEEDS_NEXT = {"IOE1": (E,), "IOE2": (I,), "IOBES": (B, I), "BILOU": (B, I)}


def canonical_scheme(name: str) -> str:
    """The canonical name of a scheme (``"bio"`` -> ``"IOB2"``)."""
    upper = name.upper()
    upper = _ALIASES.get(upper, upper)
    if upper not in SCHEMES:
        raise OptionError(f"unknown tag scheme {name!r}; expected one of {', '.join(SCHEMES)} (or BIO, BIOES)")
    return upper


class TagTable:
    """Interns tag strings into prefix and type codes.

    Parameters
    ----------
    scheme : str
        A scheme name, or ``"conlleval"`` to accept every ``B I E S`` prefix.
    suffix : bool
        Tags put the prefix last (``PER-B``), as seqeval's ``suffix=True``.
    outside : str
        The outside tag.
    shown_as : str, optional
        The scheme's name in error messages (the user's scheme when another reading was chosen for it).
    """

    def __init__(self, scheme: str = "IOB2", *, suffix: bool = False, outside: str = "O",
                 shown_as: str | None = None):
        self.scheme = scheme if scheme == "conlleval" else canonical_scheme(scheme)
        self.shown_as = shown_as or self.scheme
        self.letters = _LETTERS[self.scheme]
        self.suffix = suffix
        self.outside = outside
        self.codes: dict[str, int] = {}
        self.prefix: list[int] = []
        self.type_id: list[int] = []
        self.types: list[str] = []
        self._type_index: dict[str, int] = {}

    def type_code(self, name: str) -> int:
        """The code of entity type ``name``, allocating one if new."""
        code = self._type_index.get(name)
        if code is None:
            code = self._type_index[name] = len(self.types)
            self.types.append(name)
        return code

    def _add(self, tag: str) -> int | None:
        if tag == self.outside:
            pre, typ = O, -1
        else:
            if self.suffix:
                letter, rest = tag[-1:], tag[:-1]
                rest = rest[:-1] if rest.endswith(("-", "_")) else rest
            else:
                letter, rest = tag[:1], tag[1:]
                rest = rest[1:] if rest.startswith(("-", "_")) else rest
            pre = self.letters.get(letter, -1)
            if pre < 0:
                return None
            typ = self.type_code(rest)
        code = len(self.prefix)
        self.codes[tag] = code
        self.prefix.append(pre)
        self.type_id.append(typ)
        return code

    def intern(self, tags: Sequence[str], *, where: Places | None = None,
               positions: Ints | None = None) -> npt.NDArray[np.int32]:
        """Codes of ``tags`` as an int32 array; an unknown prefix raises :class:`SchemeError`.

        ``positions``, when ``tags`` are distinct values, maps every place of the column to its value:
        the error then names the first place of the first faulty value.
        """
        codes = self.codes
        try:
            return np.fromiter(map(codes.__getitem__, tags), dtype=np.int32, count=len(tags))
        except KeyError:
            pass
        for t in dict.fromkeys(tags):
            if t not in codes and self._add(t) is None:
                i = tags.index(t) if positions is None else int(np.argmax(positions == tags.index(t)))
                msg = (f"tag {t!r} is not a {self.shown_as} tag (prefixes {', '.join(sorted(self.letters))} or "
                       f"{self.outside!r}); choose the scheme ({spelled('scheme')})")
                raise SchemeError(msg, **(where.at(i) if where else {}))
        return np.fromiter(map(codes.__getitem__, tags), dtype=np.int32, count=len(tags))

    def arrays(self, codes: npt.NDArray[np.int32]) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int32]]:
        """Prefix codes (int8) and type codes (int32, -1 for outside) of interned tags."""
        prefix = np.asarray(self.prefix, dtype=np.int8)[codes]
        types = np.asarray(self.type_id, dtype=np.int32)[codes]
        return prefix, types


class Places(Protocol):
    """What names the positions of a column in messages: its ``path``, and ``at(i)``, the keywords (``path``,
    ``line``...) of the error about position ``i``; a ``position(i)`` method, when there is one, names the sentence
    and position of a tag given in Python."""

    @property
    def path(self) -> object: ...

    def at(self, i: int) -> dict[str, Any]: ...


@dataclass(frozen=True)
class _Where:
    """Maps a token position to a file and line for error messages."""

    path: object
    lines: Ints | None

    def at(self, i: int) -> dict[str, Any]:
        line = int(self.lines[i]) if self.lines is not None and i < len(self.lines) else None
        return {"path": self.path, "line": line}


@dataclass(frozen=True)
class Chunks:
    """Decoded spans over a flat token array: ``[start, end)`` and the type code of each."""

    start: Int64s
    end: Int64s
    type_id: npt.NDArray[np.int32]
    discarded: int = 0
    invalid: Int64s = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    """Positions of the tags that break the scheme's transitions (repaired or discarded)."""


def decode(
    prefix: npt.NDArray[np.int8],
    types: npt.NDArray[np.int32],
    sentence_start: Bools,
    *,
    scheme: str = "IOB2",
    repair: str = "conlleval",
    tags: Sequence[str] | None = None,
    where: Places | None = None,
) -> Chunks:
    """Decode tag arrays into chunks.

    Parameters
    ----------
    prefix, types : numpy.ndarray
        Per-token prefix codes and type codes, as :meth:`TagTable.arrays` gives them.
    sentence_start : numpy.ndarray of bool
        True at the first token of each sentence (chunks never cross sentences).
    scheme : str
        The scheme whose validity rules apply (``"conlleval"``: none).
    repair : {"conlleval", "discard", "error"}
        What to do with invalid sequences (see the module docstring).
    tags, where
        Only used to word error messages.

    Returns
    -------
    Chunks
    """
    if repair not in REPAIRS:
        raise OptionError(f"unknown repair method {repair!r}; expected one of {', '.join(REPAIRS)}")
    n = len(prefix)
    if n == 0:
        empty = np.zeros(0, dtype=np.int64)
        return Chunks(empty, empty, np.zeros(0, dtype=np.int32))
    inside = prefix != O
    prev_prefix = np.empty(n, dtype=np.int8)
    prev_prefix[0] = O
    prev_prefix[1:] = prefix[:-1]
    prev_types = np.empty(n, dtype=np.int32)
    prev_types[0] = -1
    prev_types[1:] = types[:-1]
    prev_prefix[sentence_start] = O
    prev_types[sentence_start] = -1

    start = inside & (
        (prefix == B) | (prefix == S) | (prev_prefix == O) | (prev_prefix == E) | (prev_prefix == S)
        | (types != prev_types)
    )
    last = np.empty(n, dtype=bool)
    last[:-1] = sentence_start[1:]
    last[-1] = True
    next_breaks = np.empty(n, dtype=bool)
    next_breaks[:-1] = (~inside[1:]) | start[1:]
    next_breaks[-1] = True
    end = inside & (last | next_breaks)
    starts = np.flatnonzero(start)
    ends = np.flatnonzero(end) + 1
    type_id = types[starts]
    discarded = 0

    invalid = np.zeros(0, dtype=np.int64)
    canon = scheme if scheme == "conlleval" else canonical_scheme(scheme)
    if canon != "conlleval":
        bad = np.zeros(n, dtype=bool)
        needs_prev = _NEEDS_PREV.get(canon, ())
        if needs_prev:
            ok_prev = ((prev_prefix == B) | (prev_prefix == I)) & (prev_types == types)
            bad |= _any_of(prefix, needs_prev) & ~ok_prev
        needs_next = _NEEDS_NEXT.get(canon, ())
        if needs_next:
            next_prefix = np.empty(n, dtype=np.int8)
            next_prefix[:-1] = prefix[1:]
            next_prefix[-1] = O
            next_types = np.empty(n, dtype=np.int32)
            next_types[:-1] = types[1:]
            next_types[-1] = -1
            next_prefix[last] = O
            ok_next = ((next_prefix == I) | (next_prefix == E)) & (next_types == types)
            bad |= _any_of(prefix, needs_next) & ~ok_next
        if bad.any():
            invalid = np.flatnonzero(bad).astype(np.int64)
        if bad.any() and repair != "conlleval":
            if repair == "error":
                i = int(np.flatnonzero(bad)[0])
                tag = tags[i] if tags is not None else _PREFIX_NAMES[prefix[i]]
                before = "sentence start" if sentence_start[i] or i == 0 else (
                    repr(tags[i - 1]) if tags is not None else _PREFIX_NAMES[prefix[i - 1]])
                after = "sentence end" if last[i] else (
                    repr(tags[i + 1]) if tags is not None else _PREFIX_NAMES[prefix[i + 1]])
                raise SchemeError(
                    f"invalid {canon} sequence: {tag!r} between {before} and {after}; "
                    f"use {spelled('repair', 'conlleval')} or {spelled('repair', 'discard')} to accept it",
                    **(where.at(i) if where else {}),
                )
            chunk_of = np.cumsum(start) - 1
            drop = np.zeros(len(starts), dtype=bool)
            drop[chunk_of[bad]] = True
            discarded = int(drop.sum())
            keep = ~drop
            starts, ends, type_id = starts[keep], ends[keep], type_id[keep]
    return Chunks(starts.astype(np.int64), ends.astype(np.int64), type_id, discarded, invalid)


def _any_of(codes: npt.NDArray[np.int8], values: tuple[int, ...]) -> Bools:
    """``np.isin(codes, values)`` for one or two prefix codes, by comparisons (``np.isin`` sorts or tabulates: a
    tenth of decoding a column)."""
    out: Bools = codes == values[0]
    for v in values[1:]:
        out |= codes == v
    return out


def decode_column(tags: Sequence[str], sentence_start: Bools, *, scheme: str = "IOB2",
                  repair: str = "conlleval", path: object = None, lines: Ints | None = None,
                  factorized: tuple[list[str], npt.NDArray[np.int32]] | None = None, suffix: bool = False,
                  where: Places | None = None) -> tuple[Chunks, list[str]]:
    """Decode one column of a file: its tags, the sentence starts, and where each tag is (for errors).

    ``factorized`` may give the tags as their distinct strings and the index of each tag among them
    (then ``tags`` serves the messages only). ``suffix``: the prefix letter comes last (``PER-B``).
    ``where`` (an object with ``path`` and ``at(i)``) names positions in messages instead of ``path``
    and ``lines``. Returns the chunks and the type names their ``type_id`` indexes.
    """
    table = TagTable(scheme, suffix=suffix)
    where = where if where is not None else _Where(path, lines)
    if repair == SEQEVAL:
        return _seqeval_strict_column(tags, sentence_start, table, where)
    if table.scheme == "IOB2" and repair == "conlleval" and _has_end_or_single(
            factorized[0] if factorized is not None else dict.fromkeys(tags), table):
        table = TagTable("conlleval", suffix=suffix, shown_as="IOB2")   # E- and S- tags, as conlleval reads them
    if factorized is None:
        prefix, types = table.arrays(table.intern(tags, where=where))
    else:   # the prefix and type of each distinct tag, then of each place (two gathers of the column, not three)
        distinct, index = factorized
        prefix_of, types_of = table.arrays(table.intern(distinct, where=where, positions=index))
        prefix, types = prefix_of[index], types_of[index]
    if table.scheme == "conlleval" and canonical_scheme(scheme) == "IOB2":
        chunks = decode(prefix, types, sentence_start, scheme="conlleval", repair=repair, tags=tags, where=where)
        _warn_conlleval_reading(prefix, tags, sentence_start, where)
        return chunks, table.types
    chunks = decode(prefix, types, sentence_start, scheme=scheme, repair=repair, tags=tags, where=where)
    if len(chunks.invalid):
        warn_repairs(chunks, tags, sentence_start, scheme=scheme, repair=repair, where=where)
    return chunks, table.types


SEQEVAL = "seqeval"
"""The reading of ``--compat seqeval`` (passed as the repair method): seqeval's strict mode for the scheme."""


def _seqeval_strict_column(tags: Sequence[str], sentence_start: Bools, table: TagTable,
                           where: Places) -> tuple[Chunks, list[str]]:
    """The chunks seqeval's strict mode reads: IOB1 and IOE1 by its own tables
    (:mod:`accord.model._seqeval_strict`), the other schemes as ``discard`` reads them (the same chunks)."""
    from ._seqeval_strict import TABLES, strict_chunks

    if table.scheme not in TABLES:
        codes = table.intern(tags, where=where)
        prefix, types = table.arrays(codes)
        # a bare letter (B, I, U...) has no type; seqeval names it "_" in every scheme, as strict_chunks does
        return decode(prefix, types, sentence_start, scheme=table.scheme, repair="discard", tags=tags,
                      where=where), [t or "_" for t in table.types]
    starts = np.flatnonzero(sentence_start).tolist()
    if not starts or starts[0] != 0:
        starts = [0] + starts
    bounds = starts + [len(tags)]
    rows = []
    for lo, hi in zip(bounds, bounds[1:]):
        try:
            found = strict_chunks(tags[lo:hi], table.scheme, table.suffix)
        except SchemeError as exc:
            raise SchemeError(f"{exc} (sentence from position {lo + 1})", **where.at(lo)) from None
        rows += [(lo + a, lo + b, table.type_code(t)) for t, a, b in found]
    arr = np.asarray(rows, dtype=np.int64).reshape(-1, 3)
    return Chunks(arr[:, 0], arr[:, 1], arr[:, 2].astype(np.int32)), table.types


def _has_end_or_single(distinct: Iterable[str], table: TagTable) -> bool:
    """Whether some distinct tag has an ``E`` or ``S`` letter and a separator (``E-PER``, ``PER-S``) or is the
    bare letter (``EVENT`` is not one: it stays an error under IOB2)."""
    for tag in distinct:
        if len(tag) < 2:
            if tag in ("E", "S"):
                return True
        elif table.suffix:
            if tag[-1] in ("E", "S") and tag[-2] in ("-", "_"):
                return True
        elif tag[0] in ("E", "S") and tag[1] in ("-", "_"):
            return True
    return False


def _warn_conlleval_reading(prefix: npt.NDArray[np.int8], tags: Sequence[str], sentence_start: Bools,
                            where: Places) -> None:
    """Say that IOB2 tags with ``E`` or ``S`` letters were read with conlleval's chunk rules (which accept every
    ``B I E S`` tag), as a :class:`~accord.errors.RepairWarning` listing the first of them."""
    import warnings

    places = np.flatnonzero((prefix == E) | (prefix == S))
    first = _first_places(places, tags, sentence_start, where)
    warnings.warn(repair_warning("letters", where.path, "conlleval", len(places), first), stacklevel=3)


REPAIRS_SHOWN = 5
"""How many repaired tags a :class:`~accord.errors.RepairWarning` lists."""


def warn_repairs(chunks: Chunks, tags: Sequence[str], sentence_start: Bools, *, scheme: str, repair: str,
                 where: Places | None = None) -> None:
    """Say that invalid transitions were repaired or discarded: a :class:`~accord.errors.RepairWarning`
    with the count and the first :data:`REPAIRS_SHOWN` places (file, line, tag, the tag before)."""
    import warnings

    first = _first_places(chunks.invalid, tags, sentence_start, where)
    path = where.path if where is not None else None
    warnings.warn(repair_warning("transitions", path, repair, len(chunks.invalid), first,
                                 scheme=canonical_scheme(scheme), discarded=chunks.discarded), stacklevel=2)


def repair_warning(kind: str, path: object, method: str, count: int, first: Sequence[dict[str, Any]], *,
                   scheme: str = "IOB2", discarded: int = 0) -> RepairWarning:
    """The :class:`~accord.errors.RepairWarning` of a column: ``kind`` ``letters`` (IOB2 tags with ``E`` or ``S``
    letters read with conlleval's chunk rules) or ``transitions`` (invalid transitions of ``scheme`` repaired or
    discarded with ``discarded`` chunks), ``count`` places of which ``first`` are listed."""
    first = tuple(first)[:REPAIRS_SHOWN]
    more = f" and {count - len(first)} more" if count > len(first) else ""
    where = f"{path}: " if path is not None else ""
    if kind == "letters":
        shown = ", ".join(f"{_place(x)} {x['tag']!r}" for x in first)
        message = (f"{where}{count} tag(s) with E- or S- letters, which IOB2 does not have: the column was read "
                   f"with conlleval's chunk rules (B I E S): {shown}{more} ({spelled('scheme', 'IOBES')} reads them as "
                   f"IOBES, {spelled('repair', 'error')} refuses them)")
    else:
        done = ("read as conlleval does (a chunk starts there)" if method == "conlleval"
                else f"discarded with their {discarded} chunk(s)")
        places = ", ".join(f"{_place(x)} {x['tag']!r} after "
                           f"{repr(x['previous']) if x['previous'] is not None else 'a sentence start'}"
                           for x in first)
        message = (f"{where}{count} invalid {scheme} transition(s), {done}: {places}{more} "
                   f"({spelled('repair', 'error')} refuses them)")
    return RepairWarning(message, path=path, method=method, count=count, first=first,
                         parts={"kind": kind, "scheme": scheme, "discarded": discarded})


def merge_repair_warnings(parts: Sequence[RepairWarning]) -> RepairWarning:
    """One :class:`~accord.errors.RepairWarning` for the repairs of consecutive shards of one column
    (:mod:`accord.parallel`): the counts added, the first places of the earliest shards, the message as reading
    the whole column in one piece gives it. IOB2 tags with ``E`` or ``S`` letters in any shard make the whole column
    read by conlleval's chunk rules (:func:`_warn_conlleval_reading`: the same chunks as its repair), and only those
    tags are reported, so their warnings win over the other shards' repairs."""
    parts = [w for w in parts if w.parts.get("kind") == "letters"] or list(parts)
    head = parts[0]
    first = [x for w in parts for x in w.first][:REPAIRS_SHOWN]
    return repair_warning(head.parts["kind"], head.path, head.method, sum(w.count for w in parts), first,
                          scheme=head.parts["scheme"], discarded=sum(w.parts["discarded"] for w in parts))


def _first_places(positions: Ints, tags: Sequence[str], sentence_start: Bools,
                  where: Places | None) -> list[dict[str, Any]]:
    """The first :data:`REPAIRS_SHOWN` of ``positions`` as a RepairWarning lists them: line, tag, the tag before
    (``None`` at a sentence start) and, for tags given in Python, ``place`` (sentence and position)."""
    position = getattr(where, "position", None)
    out = []
    for i in positions[:REPAIRS_SHOWN].tolist():
        at = where.at(i) if where is not None else {"line": None}
        entry = {"line": at["line"], "tag": tags[i], "previous": None if i == 0 or sentence_start[i] else tags[i - 1]}
        if position is not None:
            entry["place"] = position(i)
        out.append(entry)
    return out


def _place(x: dict[str, Any]) -> str:
    """How a repair warning names a tag's place: its line, or its sentence and position (tags given in Python)."""
    if x["line"] is not None:
        return f"line {x['line']}"
    return f"{x['place']}: tag" if x.get("place") else "tag"


def flatten(sentences: Sequence[Sequence[str]]) -> tuple[list[str], Int64s, Bools]:
    """Concatenate tag lists: the flat tags, sentence offsets (length ``n + 1``) and a
    sentence-start mask over the flat tags, as :func:`decode` takes it."""
    flat = [t for s in sentences for t in s]
    lengths = np.fromiter(map(len, sentences), dtype=np.int64, count=len(sentences))
    offsets = np.zeros(len(sentences) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    first = np.zeros(len(flat), dtype=bool)
    first[offsets[:-1][lengths > 0]] = True
    return flat, offsets, first


def decode_tags(
    sentences: Sequence[Sequence[str]],
    *,
    scheme: str = "IOB2",
    repair: str = "conlleval",
    suffix: bool = False,
) -> list[list[tuple[str, int, int]]]:
    """Decode lists of tags into ``(type, start, end)`` spans per sentence (a convenience).

    >>> decode_tags([["B-PER", "I-PER", "O", "I-LOC"]])
    [[('PER', 0, 2), ('LOC', 3, 4)]]
    """
    table = TagTable(scheme, suffix=suffix)
    flat, offsets, first = flatten(sentences)
    prefix, types = table.arrays(table.intern(flat))
    chunks = decode(prefix, types, first, scheme=scheme, repair=repair, tags=flat)
    sent = np.searchsorted(offsets, chunks.start, side="right") - 1
    out: list[list[tuple[str, int, int]]] = [[] for _ in sentences]
    for s, a, b, t in zip(sent.tolist(), chunks.start.tolist(), chunks.end.tolist(), chunks.type_id.tolist()):
        base = int(offsets[s])
        out[s].append((table.types[t], a - base, b - base))
    return out


def encode(spans: Sequence[tuple[str, int, int]], length: int, scheme: str = "IOB2",
           outside: str = "O") -> list[str]:
    """Tags for non-overlapping ``(type, start, end)`` spans over ``length`` tokens.

    ``IO`` cannot separate two adjacent spans of one type; they read back as one.
    """
    canon = canonical_scheme(scheme)
    tags = [outside] * length
    ordered = sorted(spans, key=lambda s: (s[1], s[2]))
    for k, (typ, a, b) in enumerate(ordered):
        if not 0 <= a < b <= length:
            raise OptionError(f"span ({typ!r}, {a}, {b}) does not fit in {length} tokens")
        if k and a < ordered[k - 1][2]:
            raise OptionError(f"spans {ordered[k - 1]} and {(typ, a, b)} overlap; tags cannot encode that")
        prev_adj = k > 0 and ordered[k - 1][2] == a and ordered[k - 1][0] == typ
        next_adj = k + 1 < len(ordered) and ordered[k + 1][1] == b and ordered[k + 1][0] == typ
        body = [f"I-{typ}"] * (b - a)
        if canon == "IOB2":
            body[0] = f"B-{typ}"
        elif canon == "IOB1" and prev_adj:
            body[0] = f"B-{typ}"
        elif canon == "IOE2":
            body[-1] = f"E-{typ}"
        elif canon == "IOE1" and next_adj:
            body[-1] = f"E-{typ}"
        elif canon in ("IOBES", "BILOU"):
            single, first, final = ("S", "B", "E") if canon == "IOBES" else ("U", "B", "L")
            if b - a == 1:
                body[0] = f"{single}-{typ}"
            else:
                body[0] = f"{first}-{typ}"
                body[-1] = f"{final}-{typ}"
        tags[a:b] = body
    return tags
