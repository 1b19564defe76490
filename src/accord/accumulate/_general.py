"""The accumulator of every other span mode: blocks of sentences scored with ``accord.score`` and their count tables
added up.

The pairs mode's lenient and MAT profiles, SemEval's schemas and CLUEval's leniency levels pair spans that overlap;
spans decoded from tag lists never cross a sentence's end, so scoring the sentences block by block pairs them as
scoring them all at once does. Each flushed block (some thousands of tags, :data:`~._accumulator.FLUSH_SIZE`) is
scored with :func:`accord.score` under the accumulator's options; only its count tables are kept (the totals by
label, summed, and the counts by sentence, renumbered after the sentences already counted), with its repairs'
summaries and the entity types seen. The state grows with the counted spans (the counts by sentence) or not at all
(``sentences=False``), never with the tags.
"""

from __future__ import annotations

import copy
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

from ..errors import FormatError, LabelCaseWarning, MergeError, OptionError, RepairWarning
from ..model import tagging
from ..result import CountTable, Measure, Result, SentenceCounts
from ..result._table import row_order
from ._accumulator import (
    _NAMES,
    _SIDES,
    Accumulator,
    _merged_repairs,
    _Places,
    _repair_parts,
    _repair_warning,
    _shifted_places,
    register_accumulator,
)
from ._inputs import IGNORED_INDEX, Batch

__all__ = ["SpanAccumulator", "SPAN_MODES"]

SPAN_MODES = ("pairs", "semeval", "clueval")
"""The modes of :func:`accord.score` that take tag lists (the unit scores need a text, which tag lists lack)."""


Part = tuple[CountTable, int]
"""A block's table of one document ``"1"`` and the number of sentences counted before its first one."""


def join_tables(parts: Sequence[Part], n_units: int, sentences: bool) -> CountTable:
    """The table of one document ``"1"`` whose counts are the parts' added up and whose ``n_units`` sentences hold
    each part's cells at their sentence after its shift (the parts' rows united): one concatenation for all of
    them, so that a long run of blocks costs the size of its cells, not blocks x cells."""
    tables = [t for t, _ in parts]
    fields = tables[0].fields
    if any(t.fields != fields for t in tables):    # pragma: no cover - one mode's blocks share their fields
        raise MergeError("cannot add count tables of different fields")
    rows = tuple(sorted({r for t in tables for r in t.rows}, key=row_order))
    index = {r: k for k, r in enumerate(rows)}
    values = np.zeros((1, len(rows), len(fields)), dtype=np.result_type(*(t.values.dtype for t in tables)))
    where = [np.array([index[r] for r in t.rows], dtype=np.int64) for t in tables]
    for t, w in zip(tables, where):
        values[0, w] += t.values[0]
    cells = None
    if sentences and all(t.sentences is not None for t in tables):
        unit_type = np.int32 if n_units < 2 ** 31 else np.int64    # narrow, as SentenceCounts.from_items makes them
        units, row, field, value = [], [], [], []
        for (t, shift), w in zip(parts, where):
            x = t.sentences
            assert x is not None
            units.append((x.unit.astype(np.int64) + shift).astype(unit_type))
            row.append(w[x.row].astype(np.int32))
            field.append(x.field)
            value.append(x.value)
        cells = SentenceCounts(np.array([max(n_units, 1)], dtype=np.int64), np.concatenate(units),
                               np.concatenate(row), np.concatenate(field), np.concatenate(value))
    return CountTable(fields, ("1",), rows, values, cells)


class SpanAccumulator(Accumulator):
    """The accumulator of the pairs mode's other profiles, SemEval and CLUEval (see :class:`Accumulator`):
    ``compute()`` equals ``accord.score(gold, pred, match=..., profile=..., ...)`` on every batch's sentences.

    Made by ``Accumulator(match=..., profile=..., ...)``; the options are those of :class:`Accumulator` and
    ``profile`` (``lenient``, ``mat``), ``leniency`` and ``labelled`` (CLUEval), ``ignore`` and
    ``equivalence_classes`` (the pairs mode), as :func:`accord.score` takes them.
    """

    def __init__(self, match: str = "pairs", *, profile: str | None = None, leniency: int | str = 1,
                 labelled: bool = True, ignore: Sequence[str] = (),
                 equivalence_classes: dict[str, Sequence[str]] | None = None, scheme: str | None = None,
                 repair: str | None = None, suffix: bool = False, labels: Sequence[str] | None = None,
                 label_names: Any = None, ignore_index: Any = IGNORED_INDEX, pad: Any = None, beta: float = 1.0,
                 zero_division: str = "zero", sentences: bool = True):
        import accord

        if match not in SPAN_MODES:    # pragma: no cover - Accumulator dispatches these modes only
            raise OptionError(f"match={match!r} is not a span mode of tag lists")
        super().__init__("pairs", scheme=scheme, repair=repair, suffix=suffix, labels=labels,
                         label_names=label_names, ignore_index=ignore_index, pad=pad, beta=beta,
                         zero_division=zero_division, sentences=sentences)
        self.match = match
        if isinstance(ignore, str) or not all(isinstance(x, str) for x in ignore):
            raise OptionError("ignore must be a list of labels (strings)")
        if labels is not None and match != "pairs":
            raise OptionError(f"labels (the types scored) leaves the others out through ignore, which "
                              f"match={match!r} does not take (accord.score refuses it): score all the types")
        self.profile, self.leniency, self.labelled = profile, leniency, bool(labelled)
        self.ignore = tuple(ignore)
        self.equivalence_classes = None if equivalence_classes is None else \
            {str(k): tuple(v) for k, v in dict(equivalence_classes).items()}
        # the options checked once, as accord.score checks them, on one sentence (the names given, against the
        # labels of every batch, at compute())
        with warnings.catch_warnings(), _in_block():
            warnings.simplefilter("ignore")
            accord.score([["O"]], [["O"]], **self._options(()))

    def _options(self, more_ignore: Sequence[str]) -> dict[str, Any]:
        out: dict[str, Any] = {"match": self.match, "beta": self.beta, "zero_division": self.zero_division}
        out.update({k: v for k, v in (("scheme", self.scheme), ("repair", self.repair)) if v is not None})
        if self.suffix:
            out["suffix"] = True
        if self.match == "pairs":
            if self.profile is not None:
                out["profile"] = self.profile
            ignore = sorted(set(self.ignore) | set(more_ignore))
            if ignore:
                out["ignore"] = ignore
            if self.equivalence_classes is not None:
                out["equivalence_classes"] = {k: list(v) for k, v in self.equivalence_classes.items()}
        else:
            for name, value, default in (("profile", self.profile, None), ("ignore", self.ignore or None, None),
                                         ("equivalence_classes", self.equivalence_classes, None)):
                if value != default:
                    out[name] = value       # accord.score refuses them with its own message
            if self.match == "clueval":
                out.update(leniency=self.leniency, labelled=self.labelled)
            elif (self.leniency, self.labelled) != (1, True):
                out.update(leniency=self.leniency, labelled=self.labelled)
        return out

    # -- state
    def reset(self) -> None:
        """Forget every batch (the options stay)."""
        super().reset()
        self._tables: dict[str, list[Part]] = {}     # each measure's blocks, joined when needed (_compact)
        self._classes: dict[str, list[Part]] = {}
        self._template: Result | None = None
        self._types: set[str] = set()

    def _key(self) -> tuple[Any, ...]:
        eq = None if self.equivalence_classes is None else sorted(self.equivalence_classes.items())
        return super()._key() + (self.profile, self.leniency, self.labelled, self.ignore, eq)

    # -- counting
    def _check_transitions(self, batch: Batch) -> None:
        """With ``repair="error"``: an invalid transition refused naming its sentence over all batches."""
        first = np.zeros(len(batch.gold), dtype=bool)
        first[batch.offsets[:-1][np.diff(batch.offsets) > 0]] = True
        for side in _SIDES:
            tags = batch.gold if side == "gold" else batch.pred
            places = _Places(_NAMES[side], batch.offsets, self._raw_sentences)
            tagging.decode_column(tags, first, scheme=self.scheme or "IOB2", repair="error", suffix=self.suffix,
                                  where=places)

    def _block_types(self, batch: Batch) -> set[str]:
        """The entity types of the batch's tags (the letter and its separator taken off, as the tag tables read
        them; every tag was checked by the update)."""
        out = set()
        for tag in set(batch.gold) | set(batch.pred):
            if tag == "O":
                continue
            if self.suffix:
                rest = tag[:-1]
                out.add(rest[:-1] if rest.endswith(("-", "_")) else rest)
            else:
                rest = tag[1:]
                out.add(rest[1:] if rest.startswith(("-", "_")) else rest)
        return out

    def _count(self, batch: Batch) -> None:
        import accord

        if not batch.n_sentences:     # an empty batch: nothing to count
            return
        if self.repair == "error":
            self._check_transitions(batch)
        offsets = batch.offsets.tolist()
        gold = [batch.gold[a:b] for a, b in zip(offsets[:-1], offsets[1:])]
        pred = [batch.pred[a:b] for a, b in zip(offsets[:-1], offsets[1:])]
        types = self._block_types(batch)
        outside = sorted(types - set(self.labels)) if self.labels is not None else []
        repairs: dict[str, dict[str, Any]] = {}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with _in_block():
                result = accord.score(gold, pred, **self._options(outside))
        for w in caught:
            if isinstance(w.message, RepairWarning):
                side = "gold" if str(w.message.path).startswith("gold") else "pred"
                repairs[side] = _shifted_places(_repair_parts(w.message), self._raw_sentences)
            elif not isinstance(w.message, LabelCaseWarning):    # warned once, at compute()
                warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        # the block's sentences: the first one is the last counted when that one is empty and ends the tokens
        shared = bool(self._units) and self._last_start == self._tokens
        starts = np.unique(batch.offsets[:-1])
        shift = self._units - (1 if shared else 0)
        # nothing changed before this point: the state takes the block at once
        for name, m in result.measures.items():
            t = m.table if self.sentences else CountTable(m.table.fields, ("1",), m.table.rows, m.table.values, None)
            self._tables.setdefault(name, []).append((t, shift))
        for side, t in getattr(result, "classes", {}).items():
            self._classes.setdefault(side, []).append((t, 0))
        if self._template is None:
            self._template = _template(result)
        for side, parts in repairs.items():
            self._repairs[side] = _merged_repairs(self._repairs[side], parts)
        self._types |= types
        self._ignored.update(outside)
        self._units = shift + len(starts)
        self._last_start = self._tokens + int(starts[-1])
        self._tokens += int(batch.offsets[-1])
        self._raw_sentences += batch.n_sentences
        if len(next(iter(self._tables.values()))) > 64:
            self._compact()

    def _compact(self) -> None:
        """Each measure's blocks joined into one table."""
        self._tables = {name: [(join_tables(parts, self._units, self.sentences), 0)] if len(parts) > 1 else parts
                        for name, parts in self._tables.items()}
        self._classes = {side: [(join_tables(parts, 0, False), 0)] if len(parts) > 1 else parts
                         for side, parts in self._classes.items()}

    def merge(self, other: Accumulator) -> Accumulator:
        """Add another accumulator's batches after this one's (in place; returns ``self``).

        Raises
        ------
        MergeError
            The other accumulator counts another mode or with other options.
        """
        if not isinstance(other, SpanAccumulator):
            raise MergeError(f"cannot merge a {type(self).__name__} ({self.match}) with {type(other).__name__}")
        if other is self:
            raise MergeError("cannot merge an accumulator with itself (its batches would count twice)")
        if other._key() != self._key():
            raise MergeError("cannot merge accumulators of different options (match, profile, leniency, labelled, "
                             "scheme, repair, suffix, labels, ignore, equivalence_classes, label_names, beta, "
                             "zero_division, sentences)")
        self._flush()
        other._flush()
        if not other._units:
            self._updates += other._updates
            return self
        shared = bool(self._units) and self._last_start == self._tokens
        other._compact()
        shift = self._units - (1 if shared else 0)
        for name, parts in other._tables.items():
            self._tables.setdefault(name, []).extend((t, shift + s) for t, s in parts)
        for side, parts in other._classes.items():
            self._classes.setdefault(side, []).extend(parts)
        if self._template is None:
            self._template = other._template
        for side in _SIDES:
            theirs = other._repairs[side]
            if theirs is not None:
                self._repairs[side] = _merged_repairs(self._repairs[side],
                                                      _shifted_places(theirs, self._raw_sentences))
        self._types |= other._types
        self._ignored |= other._ignored
        self._units = shift + other._units
        self._last_start = self._tokens + other._last_start
        self._tokens += other._tokens
        self._raw_sentences += other._raw_sentences
        self._updates += other._updates
        return self

    # -- the result
    def compute(self) -> Result:
        """The result of every batch so far, as :func:`accord.score` returns it on all of them (without its
        items: no ``details``, no error browser); the repairs' warnings and a warning about labels differing by
        case come now, once for all batches.

        Raises
        ------
        FormatError
            No sentence was counted.
        """
        from ..pipeline import check_label_case, check_user_names

        self._flush()
        if not self._raw_sentences or self._template is None:
            raise FormatError("the accumulator holds no sentence (no update, or only empty batches): nothing to score")
        repairs = [self._repairs[side] for side in _SIDES]
        for parts in repairs:
            if parts is not None:
                warnings.warn(_repair_warning(parts), stacklevel=2)
        check_label_case(sorted(self._types))
        if self.match == "pairs" and (self.ignore or self.equivalence_classes):
            members = {m: name for name, group in (self.equivalence_classes or {}).items() for m in group}
            check_user_names(None, None, None, (), members, self.ignore, seen=(self._types, set()))
        out = copy.copy(self._template)
        self._compact()
        tables = {name: join_tables(parts, self._units, self.sentences) for name, parts in self._tables.items()}
        out.measures = {name: Measure(m.kind, tables[name]) for name, m in self._template.measures.items()}
        out.options = copy.deepcopy(self._template.options)
        if self.labels is not None:
            out.options["ignore"] = sorted(set(self.ignore) | self._ignored)
        if self._classes:
            out.classes = {side: parts[0][0] for side, parts in self._classes.items()}    # type: ignore[attr-defined]
        out.repairs = [_repair_warning(p).to_dict() for p in repairs if p is not None]
        return out

    def __repr__(self) -> str:
        self._flush()
        return (f"<Accumulator {self.match}{'' if self.profile is None else ' ' + self.profile}: {self._updates} "
                f"updates, {self._raw_sentences} sentences, {self._tokens} tokens, {len(self._types)} types>")


@contextmanager
def _in_block() -> Iterator[None]:
    """accord.score on one block: the checks that need every batch (the names given, labels differing by case) are
    left to :meth:`SpanAccumulator.compute`, as :mod:`accord.parallel` leaves them to the caller of its shards."""
    from ..pipeline import IN_SHARD

    token = IN_SHARD.set(True)
    try:
        yield
    finally:
        IN_SHARD.reset(token)


def _template(result: Result) -> Result:
    """A block's result without its counts and items: what :meth:`SpanAccumulator.compute` copies."""
    out = copy.copy(result)
    out.source, out.corpora, out.ci = None, None, None
    out._tables = []
    if hasattr(out, "tally"):
        out.tally = None
    if hasattr(out, "alignments"):
        out.alignments = []
    if hasattr(out, "classes"):
        out.classes = {}
    out.repairs = []
    return out


register_accumulator("span", SpanAccumulator)
