"""The accumulator: batches of a training loop counted as they come, into exactly the result of ``accord.score`` on all
of them at once.

An update decodes the batch's chunks on arrays (:func:`accord.model.tagging.decode_column`, as the tag-list reader),
pairs them by hashing (:func:`accord.match.blocks.exact_pairs`, as the pairs mode's strict profile) and keeps only
what the result is computed from: one ``(sentence, label, outcome)`` cell per chunk, the label names, the number of
sentences and tokens and the repairs' summaries. Never the tags: the state pickles small, and states of several
workers merge (:meth:`Accumulator.merge`) into the state of their batches read one after another.
"""

from __future__ import annotations

import inspect
import re
import warnings
from collections.abc import Iterable, Sequence
from itertools import chain
from typing import Any

import numpy as np

from .._support.surface import spelled
from ..errors import FormatError, MergeError, OptionError, RepairWarning, SchemeError
from ..match.blocks import exact_pairs
from ..model import tagging
from ..result import ALL, CountTable, Measure, PairsKind, Result, SentenceCounts
from ._inputs import IGNORED_INDEX, Batch, batch_tags, label_table

__all__ = ["Accumulator"]

_SIDES = ("gold", "pred")
_NAMES = {"gold": "gold (lists of tags)", "pred": "pred (lists of tags)"}    # as accord.score names tag lists
_MATCH, _MISSING, _SPURIOUS = 0, 3, 4      # PairsKind.fields: match, gold_clash, pred_clash, missing, spurious
_PLACE = re.compile(r"^sentence (\d+), position (\d+)$")

FLUSH_SIZE = 1 << 14
"""The tags (and sentences) of the batches that wait to be counted together: counting costs a few dozen numpy calls
whatever its size, so small batches are counted some thousands of tags at a time."""


class _Places:
    """Names a position of a batch in messages as the tag-list reader does, its sentences numbered over every
    sentence seen so far (``sentence 1041, position 3``)."""

    def __init__(self, path: str, offsets: np.ndarray, base: int):
        self.path, self.offsets, self.base = path, offsets, base

    def position(self, i: int) -> str:
        s = int(np.searchsorted(self.offsets, i, side="right")) - 1
        return f"sentence {self.base + s + 1}, position {i - int(self.offsets[s]) + 1}"

    def at(self, i: int) -> dict[str, Any]:
        return {"path": f"{self.path}, {self.position(i)}", "line": None}


def _repair_parts(w: RepairWarning) -> dict[str, Any]:
    return {"kind": w.parts.get("kind", "transitions"), "scheme": w.parts.get("scheme", "IOB2"), "method": w.method,
            "path": w.path, "count": w.count, "discarded": w.parts.get("discarded", 0),
            "first": [dict(x) for x in w.first]}


def _repair_warning(parts: dict[str, Any]) -> RepairWarning:
    return tagging.repair_warning(parts["kind"], parts["path"], parts["method"], parts["count"], parts["first"],
                                  scheme=parts["scheme"], discarded=parts["discarded"])


def _merged_repairs(a: dict[str, Any] | None, b: dict[str, Any] | None) -> dict[str, Any] | None:
    """The repairs of consecutive stretches of one side as reading them in one piece reports them."""
    if a is None or b is None:
        return a if b is None else b
    return _repair_parts(tagging.merge_repair_warnings([_repair_warning(a), _repair_warning(b)]))


def _shifted_places(parts: dict[str, Any], sentences: int) -> dict[str, Any]:
    """Repairs counted in a state whose sentences now follow ``sentences`` others: their places renumbered."""
    first = []
    for x in parts["first"]:
        m = _PLACE.match(str(x.get("place", "")))
        first.append({**x, "place": f"sentence {int(m.group(1)) + sentences}, position {m.group(2)}"} if m else x)
    return {**parts, "first": first}


_KINDS: dict[str, type[Accumulator]] = {}
"""The accumulators of the other modes by kind (``span``, ``coref``, ``agreement``), registered by their modules
(:mod:`accord.accumulate._general`, :mod:`accord.accumulate._batched`, which the package imports), so that this module
imports none of them."""


def register_accumulator(kind: str, cls: type[Accumulator]) -> type[Accumulator]:
    """Register the accumulator class of ``kind`` (``span``, ``coref`` or ``agreement``) for the dispatch."""
    _KINDS[kind] = cls
    return cls


def check_mode(match: str) -> None:
    """Refuse a mode the accumulator cannot count, saying why."""
    from ..modes import mode_names

    if match in ("smatch", "structured"):
        raise OptionError(f"match={match!r} scores whole graphs or records, not tag lists: score them with "
                          f"accord.{match}() (an accumulator would keep every item, not counts)")
    if match in ("qa", "diff", "benchmark"):
        raise OptionError(f"match={match!r} is GATE's, over annotation sets, not tag lists: score them with "
                          f"accord.{match}()")
    raise OptionError(f"{spelled('match')} must be one of pairs, semeval, clueval, coref, agreement for the "
                      f"accumulator; got {match!r} (accord's modes: {', '.join(mode_names())})")


def _chosen_class(match: str, options: dict[str, Any]) -> type[Accumulator]:
    """The accumulator class of ``match`` and its options (an OptionError for a mode it cannot count)."""
    if options.get("units"):
        raise OptionError("units (by token, pseudo-token or character) count the characters of a text; tag lists "
                          "have none: score a corpus with its text with accord.score(units=...)")
    general = ("leniency", "labelled", "ignore", "equivalence_classes")
    if match == "pairs" and options.get("profile") in (None, "strict") and not any(k in options for k in general):
        return Accumulator
    if match in ("pairs", "semeval", "clueval"):
        return _KINDS["span"]
    if match in ("coref", "agreement"):
        return _KINDS[match]
    check_mode(match)
    raise AssertionError    # pragma: no cover - check_mode refuses every other mode


class Accumulator:
    """Counts of span scoring accumulated over batches: :meth:`update` per batch, :meth:`compute` for the result.

    The result of :meth:`compute` is the one ``accord.score(gold, pred, ...)`` gives on the lists of all the batches'
    sentences, in the order of the updates: one document ``"1"`` whose sentences are every batch's, with the same
    counts by label, by sentence (so that :meth:`~accord.result.Result.bootstrap` resamples them alike), options,
    inputs and repairs. Only its items are not kept (no ``details``, no error browser: score the whole with
    :func:`accord.score` for those).

    Parameters
    ----------
    match : {"pairs", "semeval", "clueval", "coref", "agreement"}
        The mode. ``pairs`` with the strict profile (a chunk matches a predicted chunk of the same span and label,
        seqeval's and conlleval's figure) is counted here; ``profile="lenient"`` or ``"mat"``, ``ignore=``,
        ``equivalence_classes=``, ``semeval`` and ``clueval`` (with ``leniency=`` and ``labelled=``) by
        :class:`~accord.accumulate._general.SpanAccumulator` (each block of sentences scored with
        :func:`accord.score`, the count tables added up); ``coref`` and ``agreement`` take other batches
        (:class:`~accord.accumulate._batched.CorefAccumulator`,
        :class:`~accord.accumulate._batched.AgreementAccumulator`).
        Modes over graphs, records or GATE's annotation sets, and ``units=``, are refused (:class:`OptionError`).
    profile : {None, "strict", "lenient", "mat"}
        The pairs mode's profile, as ``accord.score(profile=...)``.
    scheme : str, optional
        The tag scheme (``IOB2`` when not given), as ``accord.score(scheme=...)``.
    repair : {"conlleval", "discard", "error"}, optional
        What invalid transitions do (default ``conlleval``), as ``accord.score(repair=...)``.
    suffix : bool
        Tags put the letter last (``PER-B``).
    labels : sequence of str, optional
        The entity types scored; chunks of the others are left out (``accord.score(ignore=...)`` of the types seen
        outside ``labels``; the result's ``options`` list them under ``ignore``).
    label_names : list of str or ClassLabel, optional
        The tag of each integer id, for batches of ids.
    ignore_index : int
        Positions whose gold id is this value (Hugging Face's ``-100``: sub-words, special tokens, padding) are left
        out of both sides.
    pad : int or str, optional
        Another gold value whose positions are left out (a padding id).
    beta : float
        The F-beta weight (reported under ``f1``).
    zero_division : {"zero", "one", "nan"}
        The rate for an empty denominator.
    sentences : bool
        Keep the counts by sentence (default), which the result's bootstrap over sentences resamples; about
        16 bytes per chunk. ``False`` keeps only the counts by label (a state of constant size), and the result
        resamples nothing finer than its one document.
    """

    def __new__(cls, match: str = "pairs", **options: Any) -> Accumulator:
        """The accumulator of the mode: this class for the pairs mode's strict profile, the general span path
        (:class:`~accord.accumulate._general.SpanAccumulator`) for the other profiles, SemEval and CLUEval, and
        those of coreference and agreement (:mod:`accord.accumulate._batched`)."""
        if cls is not Accumulator:
            return super().__new__(cls)
        chosen = _chosen_class(match, options)
        takes = [k for k, p in inspect.signature(chosen.__init__).parameters.items() if p.kind is p.KEYWORD_ONLY]
        unknown = sorted(set(options) - set(takes))
        if unknown:
            whole = {"coref": "coref", "agreement": "agree"}.get(match, "score")
            raise OptionError(f"the accumulator of match={match!r} takes {', '.join(takes)}; got "
                              f"{', '.join(unknown)} (score the whole with accord.{whole}(...) for those)")
        return super().__new__(chosen)

    def __init__(self, match: str = "pairs", *, profile: str | None = None, scheme: str | None = None,
                 repair: str | None = None, suffix: bool = False, labels: Sequence[str] | None = None,
                 label_names: Any = None, ignore_index: Any = IGNORED_INDEX, pad: Any = None, beta: float = 1.0,
                 zero_division: str = "zero", sentences: bool = True):
        from ..metrics.prf import ZERO_DIVISION

        if match != "pairs":
            raise OptionError(f"the accumulator counts match='pairs' (the strict profile: seqeval's and conlleval's "
                              f"figure); got match={match!r}: score the whole with accord.score(match={match!r})")
        if scheme is not None:
            tagging.canonical_scheme(scheme)
        if repair is not None and repair not in tagging.REPAIRS:
            raise OptionError(f"{spelled('repair')} must be one of {', '.join(tagging.REPAIRS)}; got {repair!r}")
        if zero_division not in ZERO_DIVISION:
            raise OptionError(f"{spelled('zero_division')} must be one of {', '.join(ZERO_DIVISION)}; "
                              f"got {zero_division!r}")
        if not beta >= 0 or beta == float("inf"):
            raise OptionError(f"{spelled('beta')} must be a number >= 0; got {beta}")
        if labels is not None and (isinstance(labels, str) or not all(isinstance(x, str) for x in labels)):
            raise OptionError("labels must be a list of entity types (strings)")
        self.match, self.scheme, self.repair, self.suffix = match, scheme, repair, bool(suffix)
        self.labels = None if labels is None else tuple(labels)
        self.names = label_table(label_names, "label_names")
        self.ignore_index, self.pad = ignore_index, pad
        self.beta, self.zero_division, self.sentences = float(beta), zero_division, bool(sentences)
        self.reset()

    # -- state
    def reset(self) -> None:
        """Forget every batch (the options stay)."""
        self._labels: list[str] = []
        self._label_index: dict[str, int] = {}
        self._ignored: set[str] = set()
        self._totals = np.zeros((0, len(PairsKind.fields)), dtype=np.int64)
        self._cells: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self._units = 0          # distinct sentence starts (the result's sentences)
        self._last_start = -1    # the token where the last of them starts
        self._tokens = 0
        self._raw_sentences = 0  # every sentence given, empty ones included (how messages number them)
        self._updates = 0
        self._repairs: dict[str, dict[str, Any] | None] = {side: None for side in _SIDES}
        self._pending: list[Batch] = []     # batches checked but not yet counted (at most FLUSH_SIZE tags)
        self._pending_size = self._pending_sentences = 0
        self._valid_tags: set[str] = set()     # the tags the scheme reads (checked once each)

    def _key(self) -> tuple[Any, ...]:
        names = None if self.names is None else tuple(self.names.tolist())
        return (self.match, self.scheme, self.repair, self.suffix, self.labels, names, self.beta, self.zero_division,
                self.sentences)

    def __getstate__(self) -> dict[str, Any]:
        self._flush()
        self._compact()
        return dict(self.__dict__)

    def _compact(self) -> None:
        if len(self._cells) > 1:
            units, labels, fields = (np.concatenate(parts) for parts in zip(*self._cells))
            self._cells = [(units, labels, fields)]

    @property
    def n_sentences(self) -> int:
        """The sentences counted so far (empty ones included)."""
        self._flush()
        return self._raw_sentences

    @property
    def n_tokens(self) -> int:
        """The positions counted so far (ignored positions left out)."""
        self._flush()
        return self._tokens

    # -- counting
    def _label_ids(self, names: Iterable[str]) -> np.ndarray:
        out = []
        for name in names:
            k = self._label_index.get(name)
            if k is None:
                k = self._label_index[name] = len(self._labels)
                self._labels.append(name)
            out.append(k)
        if len(self._labels) > len(self._totals):
            grown = np.zeros((len(self._labels), len(PairsKind.fields)), dtype=np.int64)
            grown[:len(self._totals)] = self._totals
            self._totals = grown
        return np.asarray(out, dtype=np.int64)

    def _decode(self, batch: Batch, side: str) -> tuple[np.ndarray, np.ndarray]:
        """The chunks of one side: keys ``(start, end, label id)`` and the kept ones' rows, repairs recorded."""
        tags = batch.gold if side == "gold" else batch.pred
        lengths = np.diff(batch.offsets)
        first = np.zeros(len(tags), dtype=bool)
        first[batch.offsets[:-1][lengths > 0]] = True
        places = _Places(_NAMES[side], batch.offsets, self._raw_sentences)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            chunks, types = tagging.decode_column(tags, first, scheme=self.scheme or "IOB2",
                                                  repair=self.repair or "conlleval", suffix=self.suffix, where=places)
        for w in caught:
            if isinstance(w.message, RepairWarning):
                self._repairs[side] = _merged_repairs(self._repairs[side], _repair_parts(w.message))
            else:    # pragma: no cover - the decoder warns of repairs only
                warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        names = [types[t] for t in chunks.type_id.tolist()]
        keep = np.ones(len(names), dtype=bool)
        if self.labels is not None:
            allowed = set(self.labels)
            keep = np.fromiter((n in allowed for n in names), dtype=bool, count=len(names))
            self._ignored.update(n for n, k in zip(names, keep.tolist()) if not k)
            names = [n for n, k in zip(names, keep.tolist()) if k]
        ids = self._label_ids(names)
        keys = np.stack([chunks.start[keep], chunks.end[keep], ids], axis=1) if len(ids) else \
            np.zeros((0, 3), dtype=np.int64)
        return keys, ids

    def update(self, gold: Any, pred: Any) -> None:
        """Count one batch.

        Parameters
        ----------
        gold, pred : list of tag lists, array or tensor
            The batch's sentences on each side: lists of tag strings, lists of integer ids (with ``label_names``),
            2-d numpy arrays or tensors of ids ``(sentences, positions)``; ``pred`` may also be logits
            ``(sentences, positions, labels)`` (their argmax is the prediction). Positions whose gold id is
            ``ignore_index`` (``-100``) or ``pad`` are left out of both sides.

        Raises
        ------
        FormatError, SchemeError, PairingError
            As :func:`accord.score` refuses such tag lists, naming the sentence (numbered over all batches).
        """
        batch = batch_tags(gold, pred, names=self.names, ignore_index=self.ignore_index, pad=self.pad,
                           where=f"update {self._updates + 1}")
        self._check_tags(batch)
        self._pending.append(batch)
        self._pending_size += len(batch.gold) + batch.n_sentences
        self._pending_sentences += batch.n_sentences
        self._updates += 1
        if self._pending_size >= FLUSH_SIZE or self.repair == "error":    # an invalid transition refused at once
            self._flush()

    def _check_tags(self, batch: Batch) -> None:
        """Refuse a tag the scheme does not have in the update that brings it (the counting may wait): each tag
        not seen before is read alone, and the batch's side read again to name the first place of a bad one."""
        check = "conlleval" if self.repair in (None, "conlleval") else "discard"   # the letters read, never refused
        for side, tags in (("gold", batch.gold), ("pred", batch.pred)):
            new = set(tags) - self._valid_tags
            for tag in sorted(new):
                try:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        tagging.decode_column([tag], np.ones(1, dtype=bool), scheme=self.scheme or "IOB2",
                                              repair=check, suffix=self.suffix)
                except SchemeError:
                    first = np.zeros(len(tags), dtype=bool)
                    first[batch.offsets[:-1][np.diff(batch.offsets) > 0]] = True
                    places = _Places(_NAMES[side], batch.offsets, self._raw_sentences + self._pending_sentences)
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        tagging.decode_column(tags, first, scheme=self.scheme or "IOB2", repair=check,
                                              suffix=self.suffix, where=places)
                    raise    # pragma: no cover - the side's reading names the tag's first place first
                self._valid_tags.add(tag)

    def _flush(self) -> None:
        """Count the batches waiting (one decoding and one pairing for all of them); on an error (a tag of another
        scheme, an invalid transition with ``repair="error"``) the state is as before them, and they are dropped."""
        if not self._pending:
            return
        batches, self._pending, self._pending_size, self._pending_sentences = self._pending, [], 0, 0
        if len(batches) == 1:
            batch = batches[0]
        else:
            lengths = np.concatenate([np.diff(b.offsets) for b in batches])
            offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
            np.cumsum(lengths, out=offsets[1:])
            batch = Batch(list(chain.from_iterable(b.gold for b in batches)),
                          list(chain.from_iterable(b.pred for b in batches)), offsets)
        n_labels, repairs, ignored = len(self._labels), dict(self._repairs), set(self._ignored)
        try:
            self._count(batch)
        except Exception:
            for name in self._labels[n_labels:]:
                del self._label_index[name]
            del self._labels[n_labels:]
            self._totals = self._totals[:n_labels]
            self._repairs, self._ignored = repairs, ignored
            self._updates -= len(batches)
            raise

    def _count(self, batch: Batch) -> None:
        g_keys, g_ids = self._decode(batch, "gold")
        p_keys, p_ids = self._decode(batch, "pred")
        gi, pi = exact_pairs(g_keys, p_keys)
        g_field = np.full(len(g_ids), _MISSING, dtype=np.int64)
        g_field[gi] = _MATCH
        p_unmatched = np.ones(len(p_ids), dtype=bool)
        p_unmatched[pi] = False
        labels = np.concatenate([g_ids, p_ids[p_unmatched]])
        fields = np.concatenate([g_field, np.full(int(p_unmatched.sum()), _SPURIOUS, dtype=np.int64)])
        n_fields = len(PairsKind.fields)
        if len(labels):
            self._totals += np.bincount(labels * n_fields + fields, minlength=self._totals.size
                                        ).reshape(self._totals.shape)
        # the sentences: one per distinct start, as the result's sentence counts number them (empty sentences share
        # the start of the next one, across batches too)
        starts = np.unique(batch.offsets[:-1])
        shift = self._units
        if len(starts) and self._units and self._last_start == self._tokens and starts[0] == 0:
            shift -= 1
        if self.sentences and len(labels):
            where = np.concatenate([g_keys[:, 0], p_keys[p_unmatched, 0]])
            units = np.searchsorted(starts, where, side="right") - 1 + shift
            self._cells.append((units.astype(np.int32), labels.astype(np.int32), fields.astype(np.int8)))
            if len(self._cells) > 64:
                self._compact()
        if len(starts):
            self._units = shift + len(starts)
            self._last_start = self._tokens + int(starts[-1])
        self._tokens += int(batch.offsets[-1])
        self._raw_sentences += batch.n_sentences

    def merge(self, other: Accumulator) -> Accumulator:
        """Add another accumulator's batches after this one's (in place; returns ``self``): the state of a worker
        gathered from another process (``torch.distributed.all_gather_object``), counted with the same options.

        Raises
        ------
        MergeError
            The other accumulator counts with other options.
        """
        if not isinstance(other, Accumulator):
            raise MergeError(f"cannot merge an Accumulator with {type(other).__name__}")
        if other is self:
            raise MergeError("cannot merge an accumulator with itself (its batches would count twice)")
        if other._key() != self._key():
            raise MergeError("cannot merge accumulators of different options (match, scheme, repair, suffix, labels, "
                             "label_names, beta, zero_division, sentences)")
        self._flush()
        other._flush()
        other._compact()
        where = self._label_ids(other._labels)
        if len(other._labels):
            np.add.at(self._totals, where, other._totals[:len(other._labels)])
        shift = self._units
        if other._units and self._units and self._last_start == self._tokens:    # other's first sentence starts at 0
            shift -= 1
        if self.sentences:
            for units, labels, fields in other._cells:
                moved = (units.astype(np.int64) + shift).astype(np.int32)
                self._cells.append((moved, where[labels].astype(np.int32), fields))
        if other._units:
            self._units = shift + other._units
            self._last_start = self._tokens + other._last_start
        for side in _SIDES:
            theirs = other._repairs[side]
            if theirs is not None:
                self._repairs[side] = _merged_repairs(self._repairs[side],
                                                      _shifted_places(theirs, self._raw_sentences))
        self._ignored |= other._ignored
        self._tokens += other._tokens
        self._raw_sentences += other._raw_sentences
        self._updates += other._updates
        return self

    # -- the result
    def compute(self) -> Result:
        """The result of every batch so far (a :class:`~accord.pairs.Report`, as :func:`accord.score` returns);
        the repairs' warnings and a warning about labels differing by case come now, once for all batches.

        Raises
        ------
        FormatError
            No sentence was counted.
        """
        from ..pairs import Report
        from ..pipeline import check_label_case

        self._flush()
        if not self._raw_sentences:
            raise FormatError("the accumulator holds no sentence (no update, or only empty batches): nothing to score")
        repairs = [self._repairs[side] for side in _SIDES]
        for parts in repairs:
            if parts is not None:
                warnings.warn(_repair_warning(parts), stacklevel=2)
        check_label_case(list(self._labels) + sorted(self._ignored))
        kind = PairsKind(self.beta, self.zero_division)
        order = sorted(range(len(self._labels)), key=self._labels.__getitem__)
        row_of = np.empty(len(order), dtype=np.int64)
        row_of[order] = np.arange(1, len(order) + 1)
        rows = (ALL,) + tuple(("label", self._labels[k]) for k in order)
        values = np.zeros((1, len(rows), len(kind.fields)), dtype=np.int64)
        values[0, 1:] = self._totals[order]
        values[0, 0] = values[0, 1:].sum(axis=0)
        table_sentences = None
        if self.sentences:
            self._compact()
            units, labels, fields = self._cells[0] if self._cells else (np.zeros(0, dtype=np.int64),) * 3
            unit = np.concatenate([units, units])
            row = np.concatenate([row_of[labels.astype(np.int64)], np.zeros(len(units), dtype=np.int64)])
            unit = unit.astype(np.int64)
            table_sentences = SentenceCounts.from_items(np.array([max(self._units, 1)]), unit, row,
                                                        np.concatenate([fields, fields]), None, len(rows),
                                                        len(kind.fields))
        table = CountTable(kind.fields, ("1",), rows, values, table_sentences)
        options: dict[str, Any] = {
            "profile": "strict", "beta": self.beta, "zero_division": self.zero_division, "attributes": [],
            "ignore": sorted(self._ignored), "equivalence_classes": {}, "allow_missing": None, "task": None,
            "score_profile": None}
        options.update({k: v for k, v in (("scheme", self.scheme), ("repair", self.repair), ("suffix", self.suffix))
                        if v})
        inputs = {side: {"sources": ["<list>"], "documents": 1} for side in _SIDES}
        report = Report.__new__(Report)
        Result.__init__(report, "score", "pairs", {"pairs": Measure(kind, table)}, nested=False, options=options,
                        inputs=inputs)
        report.tally, report.alignments, report.units = None, [], {}
        report.beta, report.zero_division = self.beta, self.zero_division
        report.repairs = [_repair_warning(p).to_dict() for p in repairs if p is not None]
        return report

    def __repr__(self) -> str:
        self._flush()
        return (f"<Accumulator {self.match}: {self._updates} updates, {self._raw_sentences} sentences, "
                f"{self._tokens} tokens, {len(self._labels)} labels>")
